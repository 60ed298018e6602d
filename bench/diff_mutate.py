#!/usr/bin/env python3
"""Changes 1 resource in 100 of a corpus, in place, deterministically (for bench/diff.sh).

Each chosen document gets the first port, weight or duration number of its spec raised by one
(a change in effect); a document without one gets a label (a change of text only). Prints how
many documents were changed of how many.

With --clustered, the changed documents are consecutive (the same count, 1 in 100 of the
total, from the middle of the walk): one team's change to its own files, where the default
spreads the changes evenly, touching most Gateways.
"""
import os
import re
import sys

NUMBER = re.compile(r"^(\s*-?\s*(?:port|weight|maxTokens|tokensPerFill|request|connectTimeout)\s*:\s*\"?)(\d+)", re.M)


def mutate(doc):
    spec = doc.find("\nspec:")
    if spec >= 0:
        m = NUMBER.search(doc, spec)
        if m:
            return doc[: m.start(2)] + str(int(m.group(2)) + 1) + doc[m.end(2) :]
    return add_label(doc)


def add_label(doc):
    label = '    bench.gwctl.dev/changed: "true"\n'
    start = doc.find("\nmetadata:\n")
    if start < 0:
        return doc
    start += len("\nmetadata:\n")
    # The metadata block ends at the next top-level key.
    end = re.search(r"^\S", doc[start:], re.M)
    block = doc[start : start + end.start()] if end else doc[start:]
    labels = block.find("  labels:\n")
    if labels >= 0:
        at = start + labels + len("  labels:\n")
    else:
        at = start
        label = "  labels:\n" + label
    return doc[:at] + label + doc[at:]


def count(root):
    total = 0
    for dirpath, _, names in sorted(os.walk(root)):
        if "/." in dirpath:
            continue
        for name in sorted(names):
            if name.endswith((".yaml", ".yml")):
                with open(os.path.join(dirpath, name)) as f:
                    total += sum(1 for d in f.read().split("\n---\n") if "kind:" in d)
    return total


def main(root, every=100, clustered=False):
    # Clustered: the documents numbered [first, first + total / every) change.
    first = count(root) // 2 if clustered else 0
    span = count(root) // every if clustered else 0
    seen = changed = 0
    for dirpath, _, names in sorted(os.walk(root)):
        if "/." in dirpath:
            continue
        for name in sorted(names):
            if not name.endswith((".yaml", ".yml")):
                continue
            path = os.path.join(dirpath, name)
            with open(path) as f:
                docs = f.read().split("\n---\n")
            for i, doc in enumerate(docs):
                if "kind:" not in doc:
                    continue
                seen += 1
                chosen = first <= seen < first + span if clustered else seen % every == 0
                if chosen:
                    docs[i] = mutate(doc)
                    changed += 1
            with open(path, "w") as f:
                f.write("\n---\n".join(docs))
    print(f"changed {changed} of {seen} resources")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[-1], clustered="--clustered" in args)
