#!/usr/bin/env python3
"""Agreement of `gwctl lint` with the defects gen_corpus.py injects (--invalid-rate), per category.

    bench/oracle.py [RESOURCES] [RATE]

Generates a corpus with injected defects (listed by the generator in .expected-findings.tsv), lints it
with the release binary and counts, per detectability category, the defects that have a finding on
the same resource (or, for YAML defects, near the same line). Only kinds gwctl checks are counted;
categories a later stage covers (dangling references) are reported as such.
"""
import collections, csv, json, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
shared = os.environ.get("GWCTL_SHARED", os.path.join(root, "..", "shared"))
n = sys.argv[1] if len(sys.argv) > 1 else "20000"
rate = sys.argv[2] if len(sys.argv) > 2 else "0.05"
out_dir = f"/tmp/gwctl-oracle-{n}-{rate}"
if not os.path.isdir(out_dir):
    subprocess.run([sys.executable, os.path.join(shared, "bench", "gen_corpus.py"), "--resources", n,
                    "--out", out_dir, "--invalid-rate", rate, "--seed", "7"], check=True, capture_output=True)
subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=root, check=True)
run = subprocess.run([os.path.join(root, "target", "release", "gwctl"), "lint", "--format", "json", out_dir],
                     capture_output=True, text=True)
report = json.loads(run.stdout)
findings = collections.defaultdict(list)
for f in report["findings"]:
    if f["file"]:
        findings[os.path.basename(f["file"])].append(f)
# Kinds gwctl does not validate are listed in the summary as not checked (by apiVersion/kind).
not_checked = {key.rsplit("/", 1)[-1] for key in report["summary"]["notChecked"]}
counts = collections.Counter()
for row in csv.DictReader(open(os.path.join(out_dir, ".expected-findings.tsv")), delimiter="\t"):
    category = row["detectable"]
    if row["kind"] in not_checked and category != "yaml":
        continue
    line = int(row["line"])
    hit = any(
        (f["resource"] and f["resource"]["kind"] == row["kind"] and f["resource"]["name"] == row["name"])
        or (category == "yaml" and f["line"] is not None and abs(f["line"] - line) <= 60)
        for f in findings[row["file"]]
    )
    counts[(category, hit)] += 1
for category in sorted({c for c, _ in counts}):
    found, total = counts[(category, True)], counts[(category, True)] + counts[(category, False)]
    note = "  (references: a later stage)" if category == "semantic" else ""
    print(f"{category:14} {found:5} / {total:5} detected{note}")
