#!/usr/bin/env python3
"""A policy-heavy benchmark corpus: a corpus of ../shared/bench/gen_corpus.py, rewritten so that
about --policy-share of the resources are policies and --selector-share of the policies attach
through targetSelectors instead of targetRefs.

    bench/policies.py --resources 100000 --out /tmp/gwctl-bench-policies [--gen PATH]

What it does to the generated corpus:
- every object a policy can select (Gateway, HTTPRoute, Service) gets two labels: its own name
  (`bench.gwctl.dev/name`), which a selector uses to pick exactly the object a targetRef named,
  and a shard (`bench.gwctl.dev/shard`, one of 40), which selectors use to pick a handful;
- policies are added (TrafficPolicies on HTTPRoutes, BackendConfigPolicies on Services) until they
  are the wanted share of the resources;
- every other policy, generated or added, names its targets by selector.
The corpus stays valid: selectors select what the targetRefs named, or existing shards.

The resource count is reached within about 1%: the generator is asked for fewer resources than
--resources, and the additions fill the rest. The script prints the exact counts.
"""

import argparse
import hashlib
import os
import re
import subprocess
import sys

POLICY_KINDS = {"TrafficPolicy", "BackendConfigPolicy", "HTTPListenerPolicy", "ListenerPolicy"}
SELECTABLE = {"Gateway", "HTTPRoute", "Service"}
SHARDS = 40
NAME_LABEL = "bench.gwctl.dev/name"
SHARD_LABEL = "bench.gwctl.dev/shard"


def shard(name):
    # Stable across runs and Python versions (hash() is salted).
    return int(hashlib.sha1(name.encode()).hexdigest()[:8], 16) % SHARDS


def field(doc, pattern):
    m = re.search(pattern, doc, re.M)
    return m.group(1).strip('"') if m else None


def add_labels(doc, name):
    """Adds the bench labels under metadata.labels (creating the mapping if needed)."""
    labels = f'    {NAME_LABEL}: "{name}"\n    {SHARD_LABEL}: "{shard(name)}"\n'
    if re.search(r"^  labels:\n", doc, re.M):
        return re.sub(r"^  labels:\n", "  labels:\n" + labels, doc, count=1, flags=re.M)
    return re.sub(r"^metadata:\n", "metadata:\n  labels:\n" + labels, doc, count=1, flags=re.M)


REF_BLOCK = re.compile(r"^  targetRefs:\n((?:  - .*\n|    .*\n)+)", re.M)


def to_selectors(doc):
    """Rewrites spec.targetRefs as targetSelectors that select the same objects by name label."""
    m = REF_BLOCK.search(doc)
    if not m:
        return doc, False
    entries = re.split(r"^  - ", m.group(1), flags=re.M)[1:]
    out = ["  targetSelectors:\n"]
    for e in entries:
        keys = dict(
            (k.strip(), v.strip())
            for k, v in (line.split(":", 1) for line in e.splitlines() if ":" in line)
        )
        name = keys.pop("name", "").strip('"')
        group = keys.get("group", '""')
        out.append(f"  - group: {group}\n    kind: {keys.get('kind', '')}\n")
        out.append(f'    matchLabels:\n      {NAME_LABEL}: "{name}"\n')
        if "sectionName" in keys:
            out.append(f"    sectionName: {keys['sectionName']}\n")
    return doc[: m.start()] + "".join(out) + doc[m.end() :], True


def traffic_policy(ns, name, target, by_selector, created):
    if by_selector:
        targets = (
            "  targetSelectors:\n  - group: gateway.networking.k8s.io\n    kind: HTTPRoute\n"
            f'    matchLabels:\n      {SHARD_LABEL}: "{shard(target)}"\n'
        )
    else:
        targets = (
            "  targetRefs:\n  - group: gateway.networking.k8s.io\n    kind: HTTPRoute\n"
            f"    name: {target}\n"
        )
    return (
        "apiVersion: gateway.kgateway.dev/v1alpha1\nkind: TrafficPolicy\nmetadata:\n"
        f"  name: {name}\n  namespace: {ns}\n  creationTimestamp: \"{created}\"\nspec:\n{targets}"
        "  timeouts:\n    request: 30s\n"
    )


def backend_policy(ns, name, target, by_selector, created):
    if by_selector:
        targets = (
            '  targetSelectors:\n  - group: ""\n    kind: Service\n'
            f'    matchLabels:\n      {NAME_LABEL}: "{target}"\n'
        )
    else:
        targets = f'  targetRefs:\n  - group: ""\n    kind: Service\n    name: {target}\n'
    return (
        "apiVersion: gateway.kgateway.dev/v1alpha1\nkind: BackendConfigPolicy\nmetadata:\n"
        f"  name: {name}\n  namespace: {ns}\n  creationTimestamp: \"{created}\"\nspec:\n{targets}"
        "  perConnectionBufferLimitBytes: 32768\n"
    )


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--resources", "-n", type=int, required=True)
    ap.add_argument("--out", "-o", required=True)
    ap.add_argument("--policy-share", type=float, default=0.2)
    ap.add_argument("--selector-share", type=float, default=0.5)
    ap.add_argument("--gen", default=os.path.join(here, "..", "..", "shared", "bench", "gen_corpus.py"))
    ap.add_argument("--seed", default="7")
    args = ap.parse_args()

    # The generator makes about 13% policies; ask for fewer resources so the additions fill up.
    base = int(args.resources * 0.92)
    subprocess.run(
        [sys.executable, args.gen, "--resources", str(base), "--out", args.out, "--seed", args.seed],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    files = sorted(f for f in os.listdir(args.out) if f.endswith(".yaml"))
    docs_by_file = {}
    routes, services = [], []  # (namespace, name)
    policies = 0
    total = 0
    for f in files:
        with open(os.path.join(args.out, f)) as fh:
            # Each document keeps its final newline, so that a block at its end still matches.
            docs = [d.rstrip("\n") + "\n" for d in fh.read().split("\n---\n") if d.strip()]
        for i, d in enumerate(docs):
            kind = field(d, r"^kind: (\S+)")
            if kind is None:
                continue
            total += 1
            name = field(d, r"^  name: (\S+)")
            ns = field(d, r"^  namespace: (\S+)") or "default"
            if kind in SELECTABLE and name:
                docs[i] = add_labels(d, name)
                if kind == "HTTPRoute":
                    routes.append((ns, name))
                elif kind == "Service":
                    services.append((ns, name))
            if kind in POLICY_KINDS:
                policies += 1
        docs_by_file[f] = docs

    non_policies = total - policies
    wanted_total = round(non_policies / (1 - args.policy_share))
    add = max(0, round(wanted_total * args.policy_share) - policies)

    # Policies (generated ones first, in file order) attach by selector at the wanted rate,
    # spread evenly: an accumulator, not a random draw.
    acc = [0.0]

    def by_selector():
        acc[0] += args.selector_share
        if acc[0] >= 1.0 - 1e-9:
            acc[0] -= 1.0
            return True
        return False

    selectors = 0
    for f, docs in docs_by_file.items():
        for i, d in enumerate(docs):
            if field(d, r"^kind: (\S+)") in POLICY_KINDS and by_selector():
                docs[i], changed = to_selectors(d)
                selectors += changed
    added = []
    for n in range(add):
        sel = by_selector()
        created = f"2025-{1 + n % 12:02d}-{1 + n % 28:02d}T00:00:00Z"
        if n % 2 == 0 and routes:
            ns, target = routes[n % len(routes)]
            added.append(traffic_policy(ns, f"bench-tp-{n}", target, sel, created))
        elif services:
            ns, target = services[n % len(services)]
            added.append(backend_policy(ns, f"bench-bcp-{n}", target, sel, created))
        else:
            continue
        selectors += sel
    for f, docs in docs_by_file.items():
        with open(os.path.join(args.out, f), "w") as fh:
            fh.write("---\n".join(docs))
    per_file = 50
    for k in range(0, len(added), per_file):
        with open(os.path.join(args.out, f"9{k // per_file:04d}-bench-policies.yaml"), "w") as fh:
            fh.write("---\n".join(added[k : k + per_file]))
    all_policies = policies + len(added)
    print(
        f"{args.out}: {total + len(added)} resources, {all_policies} policies "
        f"({100 * all_policies / (total + len(added)):.1f}%), {selectors} of them by targetSelectors "
        f"({100 * selectors / max(1, all_policies):.1f}%)"
    )


if __name__ == "__main__":
    main()
