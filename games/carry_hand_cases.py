#!/usr/bin/env python3
"""Carries hand: cases from another copy of the vector files into these,
for merging branches whose vector files both changed (a JSON file merges
badly by lines), run from the repository root:

    mkdir /tmp/theirs && for f in vectors/*.json; do git show OTHER:$f > /tmp/theirs/${f#vectors/}; done
    python3 games/carry_hand_cases.py /tmp/theirs && node vectors/port/generate.mjs

Every hand: case of a section in the other copy that this file lacks (by
name) is added after this file's own hand: cases, in the other copy's order.
generated: cases are never carried: the port writes them.
"""
import json
import os
import sys


def carry(ours_path, theirs_path):
    with open(ours_path) as fh:
        ours = json.load(fh)
    with open(theirs_path) as fh:
        theirs = json.load(fh)
    added = 0
    for key, cases in theirs.items():
        if not isinstance(cases, list):
            continue
        mine = ours.setdefault(key, [])
        have = {c.get("name") for c in mine}
        new = [c for c in cases if c.get("name", "").startswith("hand:") and c["name"] not in have]
        hand = [c for c in mine if c.get("name", "").startswith("hand:")]
        rest = [c for c in mine if not c.get("name", "").startswith("hand:")]
        ours[key] = hand + new + rest
        added += len(new)
    with open(ours_path, "w") as fh:
        json.dump(ours, fh, indent=1)
    return added


def main():
    theirs = sys.argv[1]
    for name in sorted(os.listdir(theirs)):
        ours = os.path.join("vectors", name)
        if name.endswith(".json") and os.path.exists(ours):
            print(f"{name}: {carry(ours, os.path.join(theirs, name))} hand: cases carried")


if __name__ == "__main__":
    main()
