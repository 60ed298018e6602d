#!/usr/bin/env bash
# Benchmark of `gwctl diff` on two generated corpora that differ in 1% of their resources
# (bench/diff_mutate.py), as a ratio to `gwctl lint` of one corpus: diff of two directories
# (human and markdown output), and `--git REV` with BASE read from a commit.
#
#   bench/diff.sh [RESOURCES]
#
# diff lints, merges and renders both sides: about twice lint's work plus the comparison. On a
# shared machine absolute times drift; the ratios are the figures that matter.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
shared=${GWCTL_SHARED:-../shared}
base=${BENCH_CORPUS:-/tmp/gwctl-bench-diff-$n}
head=$base-head

if [ ! -d "$base" ]; then
  python3 "$shared/bench/gen_corpus.py" --resources "$n" --ai --out "$base" >&2
fi
if [ ! -d "$head" ]; then
  cp -r "$base" "$head"
  python3 bench/diff_mutate.py "$head" >&2
  # A repository whose commit is BASE and whose working tree is HEAD, for --git.
  rm -rf "$head.git"
  cp -r "$base" "$head.git"
  git -C "$head.git" init -q
  git -C "$head.git" add -A
  git -C "$head.git" -c user.name=bench -c user.email=bench@example.com commit -q -m base
  cp -r "$head/." "$head.git/"
fi
# GWCTL_BIN: a binary to measure instead of a fresh release build (a quick check of the script).
if [ -n "${GWCTL_BIN:-}" ]; then
  gwctl=$GWCTL_BIN
else
  cargo build --release --quiet
  gwctl=$PWD/target/release/gwctl
fi

# shellcheck source=bench/measure.sh
source bench/measure.sh

lint=$(measure lint "$gwctl" lint --format short "$base")
human=$(measure diff "$gwctl" diff "$base" "$head" --color never)
md=$(measure diff-markdown "$gwctl" diff "$base" "$head" -o markdown)
git=$(cd "$head.git" && measure diff-git "$gwctl" diff --git HEAD .)
changes=$("$gwctl" diff "$base" "$head" -o json | python3 -c '
import json, sys
d = json.load(sys.stdin)
f = d["findings"]
print("findings introduced %d fixed %d unchanged %d; effective fields %d on %d targets; rendered resources %d" % (
    len(f["introduced"]), len(f["fixed"]), f["unchanged"],
    sum(len(p["changes"]) for p in d["effective"]), len(d["effective"]),
    sum(len(g["changes"]) for g in d["rendered"])))')
echo "corpora: $base and $head ($(du -sm "$base" | cut -f1) MB each), best of 3, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo "diff: $changes"
printf '%-14s %8s %10s\n' run wall_s peak_MB
for r in "$lint" "$human" "$md" "$git"; do printf '%-14s %8s %10s\n' $r; done
l=$(echo "$lint" | cut -d' ' -f2)
for r in "$human" "$md" "$git"; do
  awk -v l="$l" -v name="$(echo "$r" | cut -d' ' -f1)" -v t="$(echo "$r" | cut -d' ' -f2)" \
    'BEGIN { printf "ratio %s/lint: %.2f\n", name, t / l }'
done
