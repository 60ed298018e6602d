#!/usr/bin/env bash
# What the resolve stage adds to `gwctl lint`: a policy-heavy corpus (bench/policies.py: 20% of
# the resources are policies, half of them attached by targetSelectors), linted with and without
# resolution (GWCTL_BENCH_SKIP_RESOLVE=1), alternately, best of 5 each, release build.
#
#   bench/resolve.sh [RESOURCES]        (default 100000)
#
# Issue 4 asks for resolution to add less than 30% to the lint time; the script exits 1 above it.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
shared=${GWCTL_SHARED:-../shared}
corpus=${BENCH_CORPUS:-/tmp/gwctl-bench-policies-$n}

if [ ! -d "$corpus" ]; then
  python3 bench/policies.py --resources "$n" --out "$corpus" --gen "$shared/bench/gen_corpus.py" >&2
fi
cargo build --release --quiet
gwctl=target/release/gwctl

wall() { # env assignment, then the command: prints the wall time in seconds
  /usr/bin/time -f "%e" -o /tmp/gwctl-bench-resolve-time env "$@" >/dev/null 2>&1 || true
  tail -n 1 /tmp/gwctl-bench-resolve-time
}

best_with="" best_without=""
for _ in 1 2 3 4 5; do
  # Alternating the two runs spreads the load of a shared machine over both.
  t=$(wall GWCTL_BENCH_SKIP_RESOLVE=0 "$gwctl" lint --format short "$corpus")
  if [ -z "$best_with" ] || awk "BEGIN{exit !($t < $best_with)}"; then best_with=$t; fi
  t=$(wall GWCTL_BENCH_SKIP_RESOLVE=1 "$gwctl" lint --format short "$corpus")
  if [ -z "$best_without" ] || awk "BEGIN{exit !($t < $best_without)}"; then best_without=$t; fi
done

findings=$("$gwctl" lint --format short "$corpus" 2>/dev/null | grep -c 'GW[23][0-9][0-9]' || true)
echo "corpus: $corpus ($(du -sm "$corpus" | cut -f1) MB), $(nproc) cores, best of 5"
echo "lint without resolve: ${best_without} s"
echo "lint with resolve:    ${best_with} s  (GW2xx/GW3xx findings: $findings)"
awk -v a="$best_without" -v b="$best_with" 'BEGIN {
  pct = (b - a) * 100 / a
  printf "resolution adds %.1f%% (limit 30%%)\n", pct
  exit (pct < 30 ? 0 : 1)
}'
