# replayd build. `make` builds bin/replayd; `make test` installs what it
# needs, builds and runs every test; `make check` adds -Werror, ASan+UBSan
# over the whole suite and cppcheck; `make bench` prints figures.

CC ?= cc
MODE ?= release
BUILD := build/$(CC)-$(MODE)
BIN := bin

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wformat=2 -Wundef -Wcast-align -Wwrite-strings -Wvla -Wpointer-arith \
        -Wimplicit-fallthrough -Wold-style-definition -Wnull-dereference
PKGS := libmicrohttpd jansson libsodium sqlite3 libutf8proc
APT_PKGS := libmicrohttpd-dev libjansson-dev libsodium-dev libsqlite3-dev libutf8proc-dev pkg-config \
            cppcheck clang libclang-rt-14-dev nodejs curl wrk sqlite3 openssl \
            gcc-aarch64-linux-gnu qemu-user
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

OPT_release := -O2 -g
OPT_debug := -O0 -g
OPT_O0 := -O0
OPT_asan := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
OPT := $(OPT_$(MODE))

CFLAGS_ALL = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(OPT) $(EXTRA_CFLAGS) $(PKG_CFLAGS) -MMD -MP
LDFLAGS_ALL = $(OPT) $(PKG_LIBS) -lpthread -lm

CORE_SRC := $(wildcard core/*.c)
GAME_SRC := $(wildcard games/*/*.c)
SERVER_SRC := $(filter-out server/main.c,$(wildcard server/*.c))
LIB_SRC := $(CORE_SRC) $(GAME_SRC) $(SERVER_SRC)
SCHEMA_SQL := $(sort $(wildcard schema/*.sql))
SCHEMA_OBJ := $(BUILD)/gen/schema_sql.o
# The web pages and what they load (web/embed.sh says which file is served as
# what); the folders too, so that removing a file rebuilds the table.
WEB_FILES := $(shell find web -type d -o -type f ! -name '*.sh' ! -name '*.md' 2>/dev/null) \
             vectors/port/core.mjs $(wildcard vectors/port/games/*.mjs)
WEB_OBJ := $(BUILD)/gen/web_assets.o
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o) $(SCHEMA_OBJ) $(WEB_OBJ)
TEST_SRC := $(wildcard tests/unit/*.c)
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_SRC := $(wildcard tests/bench/*.c)
BENCH_BIN := $(BENCH_SRC:tests/bench/%.c=$(BUILD)/bench/%)

.PHONY: all deps test check bench run clean unit-bins cppcheck vectors fuzz mutate

all: deps $(BIN)/replayd

# Install the Debian packages the build and the tests use, only when missing.
deps:
	@missing=""; for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# V=1 shows the full commands.
Q = $(if $(V),,@)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS_ALL) -c $< -o $@

# The migrations are compiled in, so bin/replayd runs from any directory.
$(BUILD)/gen/schema_sql.c: $(SCHEMA_SQL) schema/embed_sql.sh
	@mkdir -p $(dir $@)
	sh schema/embed_sql.sh $(SCHEMA_SQL) > $@.tmp && mv $@.tmp $@

$(SCHEMA_OBJ): $(BUILD)/gen/schema_sql.c
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS_ALL) -Wno-overlength-strings -I. -c $< -o $@

# The web assets too: no Node, no npm, no files beside the binary at run time.
$(BUILD)/gen/web_assets.c: $(WEB_FILES) web/embed.sh
	@mkdir -p $(dir $@)
	sh web/embed.sh > $@.tmp && mv $@.tmp $@

$(WEB_OBJ): $(BUILD)/gen/web_assets.c
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS_ALL) -I. -c $< -o $@

$(BUILD)/replayd: $(LIB_OBJ) $(BUILD)/server/main.o
	@$(if $(V),,echo "  LD      $@")
	$(Q)$(CC) $^ -o $@ $(LDFLAGS_ALL)

$(BIN)/replayd: $(BUILD)/replayd
	@mkdir -p $(BIN)
	@cp $< $@

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(CFLAGS_ALL) $< $(LIB_OBJ) -o $@ $(LDFLAGS_ALL)

$(BUILD)/bench/%: tests/bench/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(CFLAGS_ALL) $< $(LIB_OBJ) -o $@ $(LDFLAGS_ALL)

unit-bins: $(TEST_BIN) $(BUILD)/replayd

test: deps
	@$(MAKE) --no-print-directory unit-bins $(BIN)/replayd
	@tests/run.sh $(BUILD)

# -Werror, then the whole suite under ASan+UBSan, then cppcheck.
check: deps
	@$(MAKE) --no-print-directory MODE=asan EXTRA_CFLAGS=-Werror unit-bins
	@HOSTILE_LONG=1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  tests/run.sh build/$(CC)-asan
	@$(MAKE) --no-print-directory cppcheck
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=20

# libFuzzer over the submission path (tests/fuzz/); FUZZ_SECONDS per run.
FUZZ_SECONDS ?= 60
FUZZ_SRC := tests/fuzz/fuzz_replay.c $(CORE_SRC) $(GAME_SRC) server/json_game.c server/token.c \
            server/keys.c server/parse.c
fuzz: deps
	@mkdir -p build/fuzz build/fuzz/corpus
	@echo "  FUZZ    tests/fuzz/fuzz_replay.c ($(FUZZ_SECONDS) s)"
	$(Q)clang -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=all $(PKG_CFLAGS) $(FUZZ_SRC) -o build/fuzz/fuzz_replay -ljansson -lsodium
	$(Q)build/fuzz/fuzz_replay -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=10 \
	  -print_final_stats=1 build/fuzz/corpus tests/fuzz/corpus 2>build/fuzz/log.txt || \
	  { tail -40 build/fuzz/log.txt; exit 1; }
	@grep -E "stat::number_of_executed_units|stat::peak_rss_mb" build/fuzz/log.txt | sed 's/^/  /'

cppcheck:
	cppcheck --quiet --error-exitcode=1 --std=c11 --enable=warning,portability,performance \
	  --inline-suppr --suppress=missingIncludeSystem -I core core games server

bench: deps
	@$(MAKE) --no-print-directory $(BENCH_BIN) $(BIN)/replayd
	@for b in $(filter-out %/bench_peer,$(BENCH_BIN)); do $$b || exit 1; done
	@tests/bench/peer.sh $(BUILD)

# Regenerates the generated: vector cases from the independent JavaScript
# port (never from the C code).
vectors:
	node vectors/port/generate.mjs

# The vector suite's mutation score (tools/mutate.py, docs/MUTATION.md): a
# sample of 200 mutants per game by default (MUTATE_ARGS="--max-per-game 0"
# for all of them). Not part of test or check: it takes a while.
MUTATE_ARGS ?=
mutate: deps
	python3 tools/mutate.py $(MUTATE_ARGS)

run: all
	$(BIN)/replayd serve

clean:
	rm -rf build bin

-include $(shell find build -name '*.d' 2>/dev/null)
