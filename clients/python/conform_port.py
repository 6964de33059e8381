#!/usr/bin/env python3
"""The Python port's side of the conformance protocol (docs/PORTING.md):
one JSON request a line on stdin, one answer a line on stdout.

    tools/conform -- python3 clients/python/conform_port.py
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import replay  # noqa: E402

lib = replay.Library()


def answer(req):
    op = req.get("op")
    if op == "hello":
        return {"games": list(lib.games), "port": "clients/python (ctypes)"}
    g = lib.games.get(req.get("game"))
    if g is None:
        return {"error": "no game %s" % req.get("game")}
    try:
        level = g.generate(req["version"], req["level"], req["seed"], req.get("params"))
    except replay.GenerateError as e:
        return {"refused": e.reason, "message": str(e)}
    if op == "gen":
        return {"level": level.describe()}
    st = level.start()
    before = st.describe()
    moves = req.get("moves")
    if not isinstance(moves, list):
        return {"refused": "bad_moves"}
    # The whole list is checked before any move runs, as the server does.
    if len(moves) > g.max_moves:
        return {"refused": "too_many_moves"}
    try:
        for m in moves:
            st.check(m)
    except replay.MoveError as e:
        return {"refused": e.reason, "message": str(e)}
    outcomes, rejected = [], None
    for i, m in enumerate(moves):
        code = st.apply(m)
        outcomes.append(code)
        if g.kind_of(code) == "rejected":
            rejected = {"move": i, "reason": code}
            break
    return {"board_before": before, "outcomes": outcomes, "rejected": rejected,
            "board_after": None if rejected else st.describe(),
            "result": None if rejected else st.result()}


for line in sys.stdin:
    try:
        req = json.loads(line)
        ans = answer(req)
    except Exception as e:  # an answer for every line, so the runner can go on
        req, ans = {}, {"error": "%s: %s" % (type(e).__name__, e)}
    if isinstance(req, dict) and "id" in req:
        ans["id"] = req["id"]
    sys.stdout.write(json.dumps(ans, separators=(",", ":")) + "\n")
    sys.stdout.flush()
