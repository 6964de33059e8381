# replayd build. Each tier installs (only when missing) what it needs on
# Debian and adds to the one before:
#   make, make run   the build dependencies; bin/replayd (and serve it)
#   make test        + the test dependencies; every suite, one progress line
#                    each, ending with "N passed, N failed"
#   make check       + the heavy ones: no link-level cycle in server/,
#                    -Werror, the suite under ASan+UBSan,
#                    the cross-build determinism check, cppcheck, libFuzzer,
#                    the Debian package and lintian
# and on the side: make install (PREFIX, DESTDIR), make deb (the package
# alone), make deb-check (installs it in a fresh Debian 12 chroot), make
# fresh-check (the README on a fresh Debian 12: make run, make test), make
# bench, make fuzz, make cross, make vectors, make clean.

VERSION := $(shell cat VERSION)

# ---------------------------------------------------------------- toolchain
CC ?= cc
MODE ?= release
# The test tiers build with one job per core.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD := build/$(CC)-$(MODE)
BIN := bin

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wformat=2 -Wundef -Wcast-align -Wwrite-strings -Wvla -Wpointer-arith \
        -Wimplicit-fallthrough -Wold-style-definition -Wnull-dereference
STD := -std=c11 -D_POSIX_C_SOURCE=200809L

OPT_release := -O2 -g
OPT_debug := -O0 -g
OPT_O0 := -O0
OPT_asan := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# make MODE=trace (tools/submission_trace/): server/ alone instrumented.
OPT_trace := -O0 -g
OPT := $(OPT_$(MODE))

# ------------------------------------------------------------- dependencies
# Debian packages by tier. A build library is "pkg-config-name=debian-package":
# adding one is one line here (and one in debian/control's Build-Depends).
LIBS := libmicrohttpd=libmicrohttpd-dev \
        jansson=libjansson-dev \
        libsodium=libsodium-dev \
        sqlite3=libsqlite3-dev \
        libutf8proc=libutf8proc-dev \
        libpq=libpq-dev \
        jose=libjose-dev \
        libcurl=libcurl4-openssl-dev
PKGS := $(foreach l,$(LIBS),$(word 1,$(subst =, ,$(l))))
# tools/apt-need reads "package:command" as: install package only when
# command is missing (Node.js and npm may not come from Debian).
APT_BUILD := $(foreach l,$(LIBS),$(word 2,$(subst =, ,$(l)))) pkg-config gcc libc6-dev
APT_TEST := nodejs:node npm:npm curl sqlite3 openssl man-db:man systemd:systemd-analyze python3:python3 \
            postgresql procps chromium jq haproxy nginx-light iproute2:ip util-linux:unshare
APT_CHECK := clang libclang-rt-14-dev cppcheck gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
             qemu-user
# better-sqlite3 (the bench's Node.js reference) builds from source with node-gyp.
APT_BENCH := wrk g++:g++ make:make python3:python3
# make wasm (and the WebAssembly vector test of make test): Debian's clang and lld.
APT_WASM := clang lld
APT_DEB := dpkg-dev debhelper lintian
APT_DEB_CHECK := debootstrap

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

# CPPFLAGS, CFLAGS and LDFLAGS from the environment are honoured (Debian's
# hardening flags come that way); EXTRA_CFLAGS is ours (-Werror in check).
CFLAGS_ALL = $(STD) $(WARN) $(OPT) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) $(PKG_CFLAGS) -MMD -MP
LDFLAGS_ALL = $(OPT) $(LDFLAGS) $(PKG_LIBS) -lpthread -lm

# ------------------------------------------------------------------ sources
# Pure code: core/ and the games. No I/O, no libraries; what the vector
# runner, the cross-build check and the fuzzer build on.
PURE_SRC := $(wildcard core/*.c) $(wildcard games/*/*.c)
# server/'s rooms (docs/ARCHITECTURE.md); main.c alone is not in the library.
SERVER_SRC := $(filter-out server/main.c,$(wildcard server/*.c server/*/*.c server/*/*/*.c))
LIB_SRC := $(PURE_SRC) $(SERVER_SRC)
SCHEMA_SQL := $(sort $(wildcard schema/*.sql))
SCHEMA_OBJ := $(BUILD)/gen/schema_sql.o
# The PostgreSQL backend's own numbered migrations.
SCHEMA_PG_SQL := $(sort $(wildcard schema/pg/*.sql))
SCHEMA_PG_OBJ := $(BUILD)/gen/schema_pg_sql.o
# The web pages and what they load (web/embed.sh says which file is served as
# what); the folders too, so that removing a file rebuilds the table.
WEB_FILES := $(shell find web -type d -o -type f ! -name '*.sh' ! -name '*.md' 2>/dev/null) \
             vectors/port/core.mjs $(wildcard vectors/port/games/*.mjs) clients/js/src/log.mjs
WEB_OBJ := $(BUILD)/gen/web_assets.o
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o) $(SCHEMA_OBJ) $(SCHEMA_PG_OBJ) $(WEB_OBJ)
TEST_SRC := $(wildcard tests/unit/*.c)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_SRC := $(wildcard tests/bench/*.c)
BENCH_BIN := $(BENCH_SRC:tests/bench/%.c=$(BUILD)/bench/%)
# libreplay (include/replay.h): the pure code and its ABI, position
# independent with only the rp_ functions exported from the shared library.
REPLAY_ABI := 1
REPLAY_SRC := $(PURE_SRC) $(wildcard libreplay/*.c)
REPLAY_OBJ := $(REPLAY_SRC:%.c=$(BUILD)/pic/%.o)
REPLAY_A := $(BUILD)/libreplay.a
REPLAY_SO := $(BUILD)/libreplay.so.$(VERSION)
REPLAY_PC := $(BUILD)/replay.pc
# pkg-config's convention for a library not installed yet: with
# PKG_CONFIG_PATH=$(BUILD), `pkg-config replay` reads this one, which points
# at the build tree (and sets the run path, so a program runs from there).
REPLAY_UPC := $(BUILD)/replay-uninstalled.pc
# The submission path without HTTP or storage, for the fuzzer: verify.c
# and what it calls (the store's leaves only: no backend, no store.c).
FUZZ_SRC := tests/fuzz/fuzz_replay.c $(PURE_SRC) \
            $(addprefix server/,base/json_game.c trust/token.c trust/keys.c base/parse.c \
              trust/verify.c trust/fairplay.c trust/fairplay_book.c trust/twins.c trust/receipt.c \
              base/level_cache.c base/config.c base/private_file.c base/play.c store/store_clear.c \
              store/store_board.c)

.PHONY: all deps deps-test deps-check deps-bench deps-deb contract-deps test check cross \
        cppcheck fuzz bench vectors run install uninstall deb deb-check clean unit-bins mutate \
        lib install-lib wasm deps-wasm new-game bench-kit client-deps programs wasm-files fresh-check \
        browser-deps link-cycles trace-submission bench-instructions

# The build after the dependency install, never beside it (make -jN on a
# fresh machine would start compiling before apt-get has installed cc).
all: deps
	@$(MAKE) --no-print-directory programs
# (the empty recipe: no "is up to date" line when there is nothing to do)
programs: $(BIN)/replayd lib
	@:

# ------------------------------------------------------ dependency installs
deps:
	@tools/apt-need $(APT_BUILD)
deps-test: deps
	@tools/apt-need $(APT_TEST) $(APT_WASM)
deps-wasm:
	@tools/apt-need $(APT_WASM)
deps-check: deps-test
	@tools/apt-need $(APT_CHECK) $(APT_DEB)
deps-bench: deps-test
	@tools/apt-need $(APT_BENCH)
deps-deb:
	@tools/apt-need $(APT_DEB)

# The OpenAPI lint and the contract test's validator, pinned by the lock file.
CONTRACT_MODULES := tests/contract/node_modules/.package-lock.json
contract-deps: deps-test $(CONTRACT_MODULES)
$(CONTRACT_MODULES): tests/contract/package.json tests/contract/package-lock.json | deps-test
	@echo "  NPM     tests/contract (npm ci)"
	$(Q)cd tests/contract && ../../tools/progress "npm ci" npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# clients/js's pinned typescript (its declarations are type-checked in make test).
CLIENT_MODULES := clients/js/node_modules/.package-lock.json
client-deps: deps-test $(CLIENT_MODULES)
$(CLIENT_MODULES): clients/js/package.json clients/js/package-lock.json | deps-test
	@echo "  NPM     clients/js (npm ci)"
	$(Q)cd clients/js && ../../tools/progress "npm ci" npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# The browser suite's playwright-core (pinned by the lock file; Debian's
# chromium is in APT_TEST), installed here with progress lines rather than
# in the middle of the suite (tests/browser/setup.sh then finds both).
BROWSER_MODULES := tests/browser/node_modules/.package-lock.json
browser-deps: deps-test $(BROWSER_MODULES)
$(BROWSER_MODULES): tests/browser/package.json tests/browser/package-lock.json | deps-test
	@echo "  NPM     tests/browser (npm ci)"
	$(Q)cd tests/browser && ../../tools/progress "npm ci" npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# ------------------------------------------------------------------- build
# V=1 shows the full commands.
Q = $(if $(V),,@)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS_ALL) -c $< -o $@

# The version comes from the VERSION file, into main.c only.
$(BUILD)/server/main.o: CFLAGS_ALL += -DREPLAYD_VERSION='"$(VERSION)"'
$(BUILD)/server/main.o: VERSION

# The migrations are compiled in, so bin/replayd runs from any directory.
$(BUILD)/gen/schema_sql.c: $(SCHEMA_SQL) schema/embed_sql.sh
	@mkdir -p $(dir $@)
	sh schema/embed_sql.sh $(SCHEMA_SQL) > $@.tmp && mv $@.tmp $@

$(SCHEMA_OBJ): $(BUILD)/gen/schema_sql.c
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS_ALL) -Wno-overlength-strings -I. -c $< -o $@

$(BUILD)/gen/schema_pg_sql.c: $(SCHEMA_PG_SQL) schema/embed_sql.sh
	@mkdir -p $(dir $@)
	sh schema/embed_sql.sh -n schema_pg_migrations $(SCHEMA_PG_SQL) > $@.tmp && mv $@.tmp $@

$(SCHEMA_PG_OBJ): $(BUILD)/gen/schema_pg_sql.c
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS_ALL) -Wno-overlength-strings -I. -c $< -o $@

# The web assets too: no Node, no npm, no files beside the binary at run time.
$(BUILD)/gen/web_assets.c: $(WEB_FILES) web/embed.sh
	@mkdir -p $(dir $@)
	sh web/embed.sh > $@.tmp && mv $@.tmp $@

$(WEB_OBJ): $(BUILD)/gen/web_assets.c
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS_ALL) -I. -c $< -o $@

# The trace build (MODE=trace, tools/submission_trace/README.md): every
# function of server/ calls the tracer's hooks (core/ and games/ are not
# instrumented, nor inline functions of their headers or the system's),
# linked at fixed addresses so that addr2line reads the trace.
ifeq ($(MODE),trace)
TRACE_OBJ := $(BUILD)/tools/submission_trace/tracer.o
$(BUILD)/server/%.o: CFLAGS_ALL += -finstrument-functions \
  -finstrument-functions-exclude-file-list=core/,games/,/usr/
LDFLAGS_ALL += -no-pie
endif

$(BUILD)/replayd: $(LIB_OBJ) $(BUILD)/server/main.o $(TRACE_OBJ)
	@$(if $(V),,echo "  LD      $@")
	$(Q)$(CC) $^ -o $@ $(LDFLAGS_ALL)

$(BIN)/replayd: $(BUILD)/replayd
	@mkdir -p $(BIN)
	@cp $< $@

# libreplay: make lib leaves libreplay.a, libreplay.so (soname
# libreplay.so.$(REPLAY_ABI)), replay.pc (for an installed tree) and
# replay-uninstalled.pc (for this build tree) in $(BUILD).
lib: $(REPLAY_A) $(REPLAY_SO) $(REPLAY_PC) $(REPLAY_UPC) $(BUILD)/conform-ref

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC PIC  $<")
	$(Q)$(CC) $(CFLAGS_ALL) -fPIC -fvisibility=hidden -DREPLAY_BUILD -c $< -o $@

$(REPLAY_A): $(REPLAY_OBJ)
	@$(if $(V),,echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(REPLAY_SO): $(REPLAY_OBJ) libreplay/replay.map
	@$(if $(V),,echo "  LD      $@")
	$(Q)$(CC) -shared -Wl,-soname,libreplay.so.$(REPLAY_ABI) -Wl,--no-undefined \
	  -Wl,--version-script=libreplay/replay.map $(OPT) $(LDFLAGS) $(REPLAY_OBJ) -o $@
	$(Q)ln -sf libreplay.so.$(VERSION) $(BUILD)/libreplay.so.$(REPLAY_ABI)
	$(Q)ln -sf libreplay.so.$(REPLAY_ABI) $(BUILD)/libreplay.so

$(REPLAY_PC): libreplay/replay.pc.in VERSION Makefile
	@mkdir -p $(dir $@)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	  -e 's|@VERSION@|$(VERSION)|' $< > $@

$(REPLAY_UPC): libreplay/replay.pc.in VERSION Makefile
	@mkdir -p $(dir $@)
	$(Q)sed -e 's|@PREFIX@|$(CURDIR)|' -e 's|@LIBDIR@|$(CURDIR)/$(BUILD)|' -e 's|@INCLUDEDIR@|$(CURDIR)/include|' \
	  -e 's|@VERSION@|$(VERSION)|' -e 's|^Libs: -L$${libdir}|Libs: -L$${libdir} -Wl,-rpath,$${libdir}|' $< > $@

# The reference port of the conformance protocol (tools/conform): the C code
# through libreplay, linked as an app would link it.
$(BUILD)/conform-ref: tools/conform_ref.c include/replay.h $(REPLAY_A)
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(CFLAGS_ALL) -Iinclude $< $(REPLAY_A) -o $@ $(LDFLAGS_ALL)

# The same library for wasm32 with Debian's clang and lld: no emscripten, no
# libc (wasm/libc.c has the string functions and an allocator). replay.wasm
# exports the ABI of include/replay.h; replay-test.wasm adds the vector
# sections two games have of their own (wasm/sections.c), for the test.
# A wasm32 instance is one thread, so thread-local storage (the Driftlings
# solver's workspace) is plain static storage there (-D_Thread_local=):
# clang 14 supports TLS only with the atomics feature.
WASM_DIR := build/wasm
WASM_CC ?= clang
WASM_SRC := $(PURE_SRC) $(wildcard libreplay/*.c) wasm/libc.c
WASM_FLAGS := --target=wasm32 -D_Thread_local= $(STD) $(WARN) -O2 -nostdlib -ffreestanding -fvisibility=hidden \
              -DREPLAY_BUILD -Iwasm/include -Wl,--no-entry -Wl,--export-dynamic \
              -Wl,-z,stack-size=1048576 $(EXTRA_CFLAGS)
wasm: deps-wasm
	@$(MAKE) --no-print-directory wasm-files
wasm-files: $(WASM_DIR)/replay.wasm $(WASM_DIR)/replay-test.wasm $(WASM_DIR)/replay.mjs
	@:

$(WASM_DIR)/replay.wasm: $(WASM_SRC) $(wildcard core/*.h games/*/*.h libreplay/*.h include/*.h wasm/include/*.h)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  WASM    $@")
	$(Q)$(WASM_CC) $(WASM_FLAGS) $(WASM_SRC) -o $@

$(WASM_DIR)/replay-test.wasm: $(WASM_SRC) wasm/sections.c $(wildcard core/*.h games/*/*.h libreplay/*.h include/*.h wasm/include/*.h)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  WASM    $@")
	$(Q)$(WASM_CC) $(WASM_FLAGS) $(WASM_SRC) wasm/sections.c -o $@

$(WASM_DIR)/replay.mjs: wasm/replay.mjs
	@mkdir -p $(dir $@)
	$(Q)cp $< $@

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(CFLAGS_ALL) $< $(LIB_OBJ) -o $@ $(LDFLAGS_ALL)

$(BUILD)/bench/%: tests/bench/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(CFLAGS_ALL) $< $(LIB_OBJ) -o $@ $(LDFLAGS_ALL)

unit-bins: $(TEST_BIN) $(BUILD)/replayd

# ------------------------------------------------------------------- tests
# T= runs only the named files or rooms, as the progress lines name them:
# make test T=http/flow, T="unit/test_store http/boards", T=hostile.
# TEST_TIMEOUT_S bounds each file (300 by default; tests/run.sh says more).
test: deps-test contract-deps client-deps browser-deps
	@$(MAKE) --no-print-directory -j$(JOBS) unit-bins $(BIN)/replayd lib wasm
	@node clients/js/scripts/vendor.mjs --quiet
	@T="$(T)" tests/run.sh $(BUILD)

# No link-level cycle in server/ (link-cycles), -Werror, the suite under
# ASan+UBSan (TEST_SANITIZED: every job that runs this build's C; the
# pure-JavaScript ones are make test's; four at a time, not six: a
# sanitized server takes about three times the CPU), the cross-build determinism
# check, cppcheck, the fuzzer, then the Debian package and lintian (under a
# minute; the chroot install is make deb-check, not here).
check: deps-check contract-deps client-deps browser-deps
	@$(MAKE) --no-print-directory -j$(JOBS) link-cycles
	@$(MAKE) --no-print-directory -j$(JOBS) MODE=asan EXTRA_CFLAGS=-Werror unit-bins lib wasm
	@node clients/js/scripts/vendor.mjs --quiet
	@T="$(T)" TEST_JOBS="$${TEST_JOBS:-4}" TEST_TIMEOUT_FACTOR=3 TEST_SANITIZED=1 HOSTILE_LONG=1 PG_FULL=1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  tests/run.sh build/$(CC)-asan
	@$(MAKE) --no-print-directory cross
	@$(MAKE) --no-print-directory cppcheck
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=20
	@$(MAKE) --no-print-directory deb

# No cycle between server/'s files at link level: the graph of which object
# file uses a symbol another defines, from nm (tools/link_cycles.py); fails
# naming each cycle's files and the symbols of its edges.
SERVER_OBJ := $(filter $(BUILD)/server/%,$(LIB_OBJ))
link-cycles: $(SERVER_OBJ)
	@echo "  CYCLES  $(BUILD)/server"
	$(Q)python3 tools/link_cycles.py --strip $(BUILD)/ $(SERVER_OBJ)

# The vector runner and the corpus digest under gcc and clang at -O0 and
# -O2, and for aarch64 under qemu: every build must agree.
cross: deps-check
	@PURE_SRC="$(PURE_SRC)" STD="$(STD)" WARN="$(WARN)" tests/cross/cross_build.sh

cppcheck:
	@echo "  CPPCHECK core games server libreplay wasm"
	$(Q)cppcheck --quiet --error-exitcode=1 --std=c11 --enable=warning,portability,performance \
	  --inline-suppr --suppress=missingIncludeSystem -I core core games server libreplay wasm

# libFuzzer over the submission path (tests/fuzz/); FUZZ_SECONDS per run.
FUZZ_SECONDS ?= 60
fuzz: deps-check
	@mkdir -p build/fuzz build/fuzz/corpus
	@echo "  FUZZ    tests/fuzz/fuzz_replay.c ($(FUZZ_SECONDS) s)"
	$(Q)clang $(STD) $(WARN) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  $(PKG_CFLAGS) $(FUZZ_SRC) -o build/fuzz/fuzz_replay -ljansson -lsodium -lpthread -lm
	$(Q)build/fuzz/fuzz_replay -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=10 \
	  -print_final_stats=1 build/fuzz/corpus tests/fuzz/corpus 2>build/fuzz/log.txt || \
	  { tail -40 build/fuzz/log.txt; exit 1; }
	@grep -E "stat::number_of_executed_units|stat::peak_rss_mb" build/fuzz/log.txt | sed 's/^/  /'

# ------------------------------------------------------------ bench, vectors
# The Node.js reference server's modules (bench_http times it beside
# replayd; BENCH_NODE=0 leaves it out). better-sqlite3 builds from source
# against the installed Node's headers, so nothing is downloaded but the
# npm packages.
NODE_REF_MODULES := tests/bench/node_ref/node_modules/.package-lock.json
NODE_HEADERS := $(if $(wildcard /usr/include/node/node.h),npm_config_nodedir=/usr)
$(NODE_REF_MODULES): tests/bench/node_ref/package.json tests/bench/node_ref/package-lock.json | deps-bench
	@echo "  NPM     tests/bench/node_ref (npm ci)"
	$(Q)cd tests/bench/node_ref && $(NODE_HEADERS) npm ci --no-audit --no-fund --loglevel=error >/dev/null
	@touch $@

bench: deps-bench $(if $(filter 0,$(BENCH_NODE)),,$(NODE_REF_MODULES))
	@$(MAKE) --no-print-directory $(BENCH_BIN) $(BIN)/replayd wasm
	@for b in $(filter-out %/bench_peer,$(BENCH_BIN)); do $$b || exit 1; done
	@tests/bench/peer.sh $(BUILD)
	@tests/bench/kit.sh $(BUILD)

# The game kit's table alone: native C, WebAssembly and the JavaScript port.
bench-kit: deps-test
	@$(MAKE) --no-print-directory $(BUILD)/bench/bench_peer wasm
	@tests/bench/kit.sh $(BUILD)

# Regenerates the generated: vector cases from the independent JavaScript
# port (never from the C code).
vectors:
	node vectors/port/generate.mjs

# ------------------------------------------------------- install, packages
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/replayd
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
TMPFILESDIR ?= $(PREFIX)/lib/tmpfiles.d
STATEDIR ?= /var/lib/replayd
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

# Builds nothing: run `make` first (as yourself), then `make install` (as
# root). An existing replayd.conf is kept; the unit runs $(BINDIR)/replayd.
install:
	@test -x $(BIN)/replayd || { echo "make install: run make first"; exit 1; }
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(DOCDIR) \
	  $(DESTDIR)$(SYSCONFDIR)/replayd $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSUSERSDIR) \
	  $(DESTDIR)$(TMPFILESDIR)
	install -m 0755 $(BIN)/replayd $(DESTDIR)$(BINDIR)/replayd
	install -m 0644 docs/replayd.8 $(DESTDIR)$(MANDIR)/man8/replayd.8
	install -m 0644 docs/API.md docs/openapi.yaml docs/OPERATIONS.md $(DESTDIR)$(DOCDIR)/
	@if [ -e $(DESTDIR)$(SYSCONFDIR)/replayd/replayd.conf ]; then \
	  echo "keeping $(DESTDIR)$(SYSCONFDIR)/replayd/replayd.conf"; \
	else \
	  echo "installing $(DESTDIR)$(SYSCONFDIR)/replayd/replayd.conf"; \
	  sed 's|^data_dir = [^ ]*|data_dir = $(STATEDIR)|' config/replayd.conf.example \
	    > $(DESTDIR)$(SYSCONFDIR)/replayd/replayd.conf; \
	  chmod 0640 $(DESTDIR)$(SYSCONFDIR)/replayd/replayd.conf; \
	fi
	sed -e 's|/usr/local/bin/replayd|$(BINDIR)/replayd|' -e 's|/etc/replayd/|$(SYSCONFDIR)/replayd/|' \
	  deploy/replayd.service > $(DESTDIR)$(UNITDIR)/replayd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/replayd.service
	install -m 0644 deploy/replayd.sysusers $(DESTDIR)$(SYSUSERSDIR)/replayd.conf
	install -m 0644 deploy/replayd.tmpfiles $(DESTDIR)$(TMPFILESDIR)/replayd.conf
	@if [ -e $(REPLAY_SO) ]; then $(MAKE) --no-print-directory install-lib; \
	else echo "libreplay not built (make lib): not installed"; fi

# libreplay, its header and replay.pc (part of make install when make lib,
# which plain make runs, built it; the Debian package builds the server only).
install-lib:
	@test -e $(REPLAY_SO) -a -e $(REPLAY_A) || { echo "make install-lib: run make lib first"; exit 1; }
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 0644 $(REPLAY_A) $(DESTDIR)$(LIBDIR)/libreplay.a
	install -m 0755 $(REPLAY_SO) $(DESTDIR)$(LIBDIR)/libreplay.so.$(VERSION)
	ln -sf libreplay.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libreplay.so.$(REPLAY_ABI)
	ln -sf libreplay.so.$(REPLAY_ABI) $(DESTDIR)$(LIBDIR)/libreplay.so
	install -m 0644 include/replay.h $(DESTDIR)$(INCLUDEDIR)/replay.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	  -e 's|@VERSION@|$(VERSION)|' libreplay/replay.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/replay.pc
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/replay.pc
	@# The loader's cache, so programs find libreplay.so.$(REPLAY_ABI) at once; not
	@# into a DESTDIR (a package's own triggers run ldconfig there).
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then \
	  echo "ldconfig"; ldconfig; \
	  ldconfig -p | grep -qF "$(LIBDIR)/libreplay.so.$(REPLAY_ABI)" || \
	    echo "note: $(LIBDIR) is not in the loader's path (/etc/ld.so.conf.d): programs need LD_LIBRARY_PATH=$(LIBDIR)"; \
	elif [ -z "$(DESTDIR)" ]; then echo "run ldconfig as root so programs find libreplay.so.$(REPLAY_ABI)"; fi

uninstall:
	rm -rf $(DESTDIR)$(DOCDIR)
	rm -f $(DESTDIR)$(BINDIR)/replayd $(DESTDIR)$(MANDIR)/man8/replayd.8 \
	  $(DESTDIR)$(UNITDIR)/replayd.service $(DESTDIR)$(SYSUSERSDIR)/replayd.conf \
	  $(DESTDIR)$(TMPFILESDIR)/replayd.conf
	rm -f $(DESTDIR)$(LIBDIR)/libreplay.a $(DESTDIR)$(LIBDIR)/libreplay.so* \
	  $(DESTDIR)$(INCLUDEDIR)/replay.h $(DESTDIR)$(PKGCONFIGDIR)/replay.pc
	@echo "kept $(SYSCONFDIR)/replayd/ and $(STATEDIR) (configuration and data)"

# A Debian package built by Debian's tooling (debian/) from a copy of the
# tree in build/deb/, so no build output lands beside the worktree; then
# lintian. The .deb is build/deb/replayd_$(VERSION)_<arch>.deb.
DEB_DIR := build/deb
deb: deps deps-deb
	@tools/deb-build $(DEB_DIR) $(VERSION)

# Installs that package with apt into a fresh Debian 12 chroot (debootstrap,
# kept in build/deb-root between runs) and runs replayd --version there.
deb-check: deb
	@tools/apt-need $(APT_DEB_CHECK)
	@tools/deb-check build/deb-root $(DEB_DIR)

# The README's two commands on a fresh Debian 12 (tools/fresh-check): a
# minbase root (debootstrap, kept in build/fresh-root), a clone of HEAD,
# make -jN run until /healthz answers, then make test, which must end
# "N passed, 0 failed"; and the package from its Build-Depends alone.
fresh-check:
	@tools/apt-need $(APT_DEB_CHECK) git
	@tools/fresh-check build/fresh-root

# ----------------------------------------------------------------- the rest
# The vector suite's mutation score (tools/mutate.py, docs/MUTATION.md): a
# sample of 200 mutants per game by default (MUTATE_ARGS="--max-per-game 0"
# for all of them). Not part of test or check: it takes a while.
MUTATE_ARGS ?=
mutate: deps
	python3 tools/mutate.py $(MUTATE_ARGS)

# A new game from games/template, registered with one row in core/games.def
# (docs/NEW-GAME.md).
new-game:
	@test -n "$(NAME)" || { echo "usage: make new-game NAME=yourgame"; exit 2; }
	@tools/new-game $(NAME)

# Which server/ files one verified POST /v1/scores runs, and how often its
# path calls back into a file it had left, measured on a traced build
# (tools/submission_trace/README.md; gcc). TRACE_ARGS: e.g. --pg.
trace-submission: deps
	@$(MAKE) --no-print-directory MODE=trace build/$(CC)-trace/replayd
	@tools/submission_trace/run.py --binary build/$(CC)-trace/replayd $(TRACE_ARGS)

# User-space instructions per verified submission, counted by callgrind at
# 1, 8 and 64 connections (tools/instr/submissions.mjs), and the Ed25519
# signatures they made: load-independent figures to set side by side with
# another build's (INSTR_ARGS="--set receipt_version=2", ...).
bench-instructions: deps-test $(BIN)/replayd
	@tools/apt-need valgrind
	@for c in 1 8 64; do node tools/instr/submissions.mjs $(BIN)/replayd --conns $$c $(INSTR_ARGS) || exit 1; done

# RUN_ARGS: more options for replayd serve (e.g. --listen 127.0.0.1:8081).
run: all
	$(BIN)/replayd serve $(RUN_ARGS)

clean:
	rm -rf build bin clients/js/vendor

-include $(shell find $(BUILD) -name '*.d' -type f 2>/dev/null)
