"""replay: the server's games in Python, over libreplay (include/replay.h) with ctypes.

It stands in for any FFI (P/Invoke, JNI, Swift's C import): the library owns no
memory, so every level and state is a ctypes buffer this module allocates and
keeps alive as long as the Python object.

    import replay
    lib = replay.Library()                 # $REPLAY_LIB, beside this file, the build dir, or the system's
    g = lib.game("schulte")
    level = g.generate(g.version, 1, 42)   # params: g.generate(v, l, s, {"name": value})
    level.describe()                       # the dict `replayd gen` prints
    st = level.start()
    st.apply({"t": 400, "cell": 8})        # "found"
    st.result(), st.describe()
"""
import ctypes
import ctypes.util
import glob
import json
import os

ABI = 1
ALIGN = 16
KINDS = ("applied", "ignored", "rejected")
_REASONS = {-1: "bad_level", -2: "bad_version", -3: "bad_params"}
EBADMOVE, ESTOPPED, ETOOMANY = -6, -7, -8


class GenerateError(ValueError):
    """A refused generation; reason is bad_level, bad_version or bad_params."""

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


class MoveError(ValueError):
    """A malformed move (reason bad_moves) or one too many (too_many_moves)."""

    def __init__(self, reason, message):
        super().__init__(message)
        self.reason = reason


def _find_library():
    """The path (or soname) of libreplay, searched in this order: $REPLAY_LIB;
    next to this module (an app that copied both); the replayd tree this
    module is in, if it is (make lib); the system's (make install-lib, or a
    package). Raises OSError naming every place it looked."""
    tried = []
    path = os.environ.get("REPLAY_LIB")
    if path:
        return path
    tried.append("$REPLAY_LIB (not set)")
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("libreplay.so.%d" % ABI, "libreplay.so"):
        if os.path.exists(os.path.join(here, name)):
            return os.path.join(here, name)
    tried.append("%s/libreplay.so.%d (next to replay.py)" % (here, ABI))
    root = os.path.dirname(os.path.dirname(here))
    if os.path.exists(os.path.join(root, "include", "replay.h")):
        built = sorted(glob.glob(os.path.join(root, "build", "*-release", "libreplay.so")))
        if built:
            return built[0]
        tried.append("%s/build/*-release/libreplay.so (make lib has not run there)" % root)
    found = ctypes.util.find_library("replay")
    if found:
        return found
    try:  # the loader's own path (ld.so.conf, LD_LIBRARY_PATH), even before ldconfig ran
        ctypes.CDLL("libreplay.so.%d" % ABI)
        return "libreplay.so.%d" % ABI
    except OSError:
        tried.append("the system's libreplay.so.%d (make install-lib)" % ABI)
    raise OSError("libreplay not found; looked in: %s. Set REPLAY_LIB to a libreplay.so "
                  "(make lib builds build/<cc>-release/libreplay.so), copy libreplay.so.%d "
                  "next to replay.py, or install it (make install-lib)" % ("; ".join(tried), ABI))


def _aligned(size):
    """A zeroed ctypes buffer and the address inside it aligned to ALIGN."""
    raw = ctypes.create_string_buffer(size + ALIGN)
    addr = ctypes.addressof(raw)
    return raw, addr + (-addr % ALIGN)


class Library:
    def __init__(self, path=None):
        c = ctypes.CDLL(path or _find_library())
        self.c = c
        P, I, S, U32, I32 = ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_int32
        CP = ctypes.c_char_p
        sig = {
            "rp_abi_version": (I, []),
            "rp_game_count": (I, []),
            "rp_game_at": (P, [I]),
            "rp_game_name": (CP, [P]),
            "rp_game_version": (I, [P]),
            "rp_game_min_version": (I, [P]),
            "rp_game_levels": (I, [P]),
            "rp_game_max_moves": (I, [P]),
            "rp_field_count": (I, [P]),
            "rp_field_name": (CP, [P, I]),
            "rp_field_min": (I32, [P, I]),
            "rp_field_max": (I32, [P, I]),
            "rp_field_since": (I, [P, I]),
            "rp_param_count": (I, [P]),
            "rp_param_name": (CP, [P, I]),
            "rp_outcome_count": (I, [P]),
            "rp_outcome_code": (CP, [P, I]),
            "rp_outcome_kind": (I, [P, I]),
            "rp_level_size": (S, [P]),
            "rp_state_size": (S, [P]),
            "rp_generate_with": (I, [P, P, S, I, I, U32, ctypes.POINTER(I), ctypes.POINTER(I32), I,
                                     ctypes.POINTER(P)]),
            "rp_level_json": (ctypes.c_long, [P, P, S]),
            "rp_start": (I, [P, P, S, ctypes.POINTER(P)]),
            "rp_apply": (I, [P, ctypes.POINTER(I32), I]),
            "rp_state_stopped": (I, [P]),
            "rp_state_json": (ctypes.c_long, [P, P, S]),
            "rp_result_json": (ctypes.c_long, [P, P, S]),
        }
        for name, (res, args) in sig.items():
            f = getattr(c, name)
            f.restype, f.argtypes = res, args
        if c.rp_abi_version() != ABI:
            raise OSError("libreplay ABI %d, this module speaks %d" % (c.rp_abi_version(), ABI))
        self.games = {}
        for i in range(c.rp_game_count()):
            g = Game(self, c.rp_game_at(i))
            self.games[g.name] = g

    def game(self, name):
        if name not in self.games:
            raise KeyError("no game %s" % name)
        return self.games[name]

    def text(self, fn, handle):
        """fn(handle, buf, cap) -> needed length: the text, growing the buffer until it fits."""
        cap = 1 << 14
        while True:
            buf = ctypes.create_string_buffer(cap)
            n = fn(handle, buf, cap)
            if n < 0:
                return None
            if n < cap:
                return buf.raw[:n].decode()
            cap = n + 1


class Game:
    def __init__(self, lib, ptr):
        c = lib.c
        self.lib, self.ptr = lib, ptr
        self.name = c.rp_game_name(ptr).decode()
        self.version = c.rp_game_version(ptr)
        self.min_version = c.rp_game_min_version(ptr)
        self.levels = c.rp_game_levels(ptr)
        self.max_moves = c.rp_game_max_moves(ptr)
        self.fields = [dict(name=c.rp_field_name(ptr, i).decode(), min=c.rp_field_min(ptr, i),
                            max=c.rp_field_max(ptr, i), since=c.rp_field_since(ptr, i))
                       for i in range(c.rp_field_count(ptr))]
        self.params = [c.rp_param_name(ptr, i).decode() for i in range(c.rp_param_count(ptr))]
        self.outcomes = [(c.rp_outcome_code(ptr, i).decode(), KINDS[c.rp_outcome_kind(ptr, i)])
                         for i in range(c.rp_outcome_count(ptr))]
        self.level_size = c.rp_level_size(ptr)
        self.state_size = c.rp_state_size(ptr)

    def fields_of(self, version):
        return [f for f in self.fields if f["since"] <= version]

    def kind_of(self, code):
        return dict(self.outcomes)[code]

    def generate(self, version, level, seed, params=None):
        params = params or {}
        n = len(params)
        idx = (ctypes.c_int * max(n, 1))()
        val = (ctypes.c_int32 * max(n, 1))()
        for k, (name, value) in enumerate(params.items()):
            if name not in self.params or not isinstance(value, int) or not -2**31 <= value < 2**31:
                raise GenerateError("bad_params", "%s takes no parameter %s = %r" % (self.name, name, value))
            idx[k], val[k] = self.params.index(name), value
        if not (isinstance(seed, int) and 0 <= seed <= 0xFFFFFFFF):
            raise GenerateError("bad_seed", "seed %r is not a uint32" % (seed,))
        raw, addr = _aligned(self.level_size)
        out = ctypes.c_void_p()
        rc = self.lib.c.rp_generate_with(self.ptr, addr, self.level_size, version, level, seed, idx, val, n,
                                         ctypes.byref(out))
        if rc != 0:
            reason = _REASONS.get(rc, "error %d" % rc)
            raise GenerateError(reason, "%s version %s level %s: %s" % (self.name, version, level, reason))
        return Level(self, raw, out.value, version)


class Level:
    def __init__(self, game, raw, ptr, version):
        self.game, self._raw, self.ptr, self.version = game, raw, ptr, version

    def json(self):
        return self.game.lib.text(self.game.lib.c.rp_level_json, self.ptr)

    def describe(self):
        return json.loads(self.json())

    def start(self):
        raw, addr = _aligned(self.game.state_size)
        out = ctypes.c_void_p()
        if self.game.lib.c.rp_start(self.ptr, addr, self.game.state_size, ctypes.byref(out)) != 0:
            raise RuntimeError("rp_start failed")
        return State(self, raw, out.value)


class State:
    def __init__(self, level, raw, ptr):
        self.level, self._raw, self.ptr = level, raw, ptr  # the level stays alive with its state
        self.fields = level.game.fields_of(level.version)
        self.values = (ctypes.c_int32 * max(len(self.fields), 1))()

    def check(self, move):
        """Raises MoveError unless the move holds exactly the version's fields, each an integer in range."""
        if not isinstance(move, dict) or set(move) != {f["name"] for f in self.fields}:
            raise MoveError("bad_moves", "a move has exactly the fields %s" % [f["name"] for f in self.fields])
        for f in self.fields:
            v = move[f["name"]]
            if not isinstance(v, int) or isinstance(v, bool) or not f["min"] <= v <= f["max"]:
                raise MoveError("bad_moves", "move field %s must be an integer in %d..%d" % (f["name"], f["min"], f["max"]))

    def apply(self, move):
        """The outcome code of one move (MoveError for a malformed one)."""
        self.check(move)
        for i, f in enumerate(self.fields):
            self.values[i] = move[f["name"]]
        o = self.level.game.lib.c.rp_apply(self.ptr, self.values, len(self.fields))
        if o == ETOOMANY:
            raise MoveError("too_many_moves", "more than %d moves" % self.level.game.max_moves)
        if o < 0:
            raise RuntimeError("rp_apply: %d" % o)
        return self.level.game.outcomes[o][0]

    @property
    def stopped(self):
        return self.level.game.lib.c.rp_state_stopped(self.ptr) == 1

    def describe(self):
        return json.loads(self.level.game.lib.text(self.level.game.lib.c.rp_state_json, self.ptr))

    def result(self):
        t = self.level.game.lib.text(self.level.game.lib.c.rp_result_json, self.ptr)
        return None if t is None else json.loads(t)
