#!/usr/bin/env python3
"""Changes 1 resource in 100 of a corpus, in place, deterministically (for bench/diff.sh).

Each chosen document gets the first port, weight or duration number of its spec raised by one
(a change in effect); a document without one gets a label (a change of text only). Prints how
many documents were changed of how many.
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


def main(root, every=100):
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
                if seen % every == 0:
                    docs[i] = mutate(doc)
                    changed += 1
            with open(path, "w") as f:
                f.write("\n---\n".join(docs))
    print(f"changed {changed} of {seen} resources")


if __name__ == "__main__":
    main(sys.argv[1])
