#!/usr/bin/env bash
# Benchmark of `gwctl render` of every Gateway of a generated corpus, without and with the proto
# check of the rendered Envoy resources (`--check`), beside `gwctl lint` of the same corpus: wall
# and CPU time (user + system) and peak memory, best of 3 each, release build.
#
#   bench/render.sh [RESOURCES] [extra gen_corpus.py flags, e.g. --ai]    (default 100000)
#
# Absolute times drift on a shared machine; the ratios to lint are the figures that matter.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
shift || true
shared=${GWCTL_SHARED:-../shared}
# The same corpus as bench/run.sh with the same arguments.
tag=$(echo "$n $*" | tr -c 'a-z0-9' '-')
corpus=${BENCH_CORPUS:-/tmp/gwctl-bench-$tag}

if [ ! -d "$corpus" ]; then
  python3 "$shared/bench/gen_corpus.py" --resources "$n" --out "$corpus" "$@" >&2
fi
cargo build --release --quiet
gwctl=target/release/gwctl

# shellcheck source=bench/measure.sh
source bench/measure.sh

lint=$(measure_cpu lint "$gwctl" lint --format short "$corpus")
render=$(measure_cpu render "$gwctl" render -o json "$corpus")
check=$(measure_cpu render-check "$gwctl" render --check -o json "$corpus")

# What was rendered, and what the check said (a run of its own, not timed).
read -r gateways resources < <("$gwctl" render -o json "$corpus" 2>/dev/null | python3 -c '
import json, sys
docs = json.load(sys.stdin)
print(sum(1 for d in docs if "Gateway" in d), sum(len(d.get(s, [])) for d in docs for s in ("Listeners", "Routes", "Clusters")))')
failed=$("$gwctl" render --check -o json "$corpus" 2>&1 >/dev/null | grep -c '^error: .*: \(Listeners\|Routes\|Clusters\) ' || true)

echo "corpus: $corpus ($(du -sm "$corpus" | cut -f1) MB), best of 3, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo "rendered: $gateways Gateways, $resources Envoy resources; --check: $failed failed"
printf '%-14s %8s %8s %10s\n' run wall_s cpu_s peak_MB
for r in "$lint" "$render" "$check"; do printf '%-14s %8s %8s %10s\n' $r; done
awk -v lw="$(echo "$lint" | cut -d' ' -f2)" -v lc="$(echo "$lint" | cut -d' ' -f3)" \
  -v rw="$(echo "$render" | cut -d' ' -f2)" -v rc="$(echo "$render" | cut -d' ' -f3)" \
  -v cw="$(echo "$check" | cut -d' ' -f2)" -v cc="$(echo "$check" | cut -d' ' -f3)" 'BEGIN {
  printf "ratio render/lint: %.2f wall, %.2f CPU\n", rw / lw, rc / lc
  printf "ratio render --check/lint: %.2f wall, %.2f CPU\n", cw / lw, cc / lc
}'
