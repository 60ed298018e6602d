#!/usr/bin/env bash
# Benchmark of `gwctl explain` against `gwctl lint` on a generated corpus with the AI group:
# explain of one route, and the effective policy of every route and rule computed at once
# (`explain 'route/*' -A -o json`, what render will need), each as a ratio to lint's wall time.
#
#   bench/explain.sh [RESOURCES]
#
# Lint itself runs the merge stage (for GW310-GW313 and the policy statuses); on a shared machine
# absolute times drift, the ratios are the figures that matter.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
shared=${GWCTL_SHARED:-../shared}
corpus=${BENCH_CORPUS:-/tmp/gwctl-bench-explain}

if [ ! -d "$corpus" ]; then
  python3 "$shared/bench/gen_corpus.py" --resources "$n" --ai --out "$corpus" >&2
fi
cargo build --release --quiet
gwctl=target/release/gwctl

# shellcheck source=bench/measure.sh
source bench/measure.sh

# One route of the corpus: the first HTTPRoute found, with its namespace.
file=$(grep -l -m1 '^kind: HTTPRoute' -r "$corpus" | sort | head -n 1)
read -r ns name < <(awk '/^kind: HTTPRoute/{r=1} r&&/^  name:/{n=$2} r&&/^  namespace:/{s=$2} r&&n&&s{print s, n; exit}' "$file")

lint=$(measure lint "$gwctl" lint --format short "$corpus")
one=$(measure explain-one "$gwctl" explain "httproute/$name" -n "$ns" -o json "$corpus")
all=$(measure explain-all "$gwctl" explain 'httproute/*' -A -o json "$corpus")
routes=$("$gwctl" explain 'httproute/*' -A -o json "$corpus" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
echo "corpus: $corpus ($(du -sm "$corpus" | cut -f1) MB), best of 3, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo "route explained: httproute/$name -n $ns; explain-all output: $routes routes and rules"
printf '%-12s %8s %10s\n' run wall_s peak_MB
for r in "$lint" "$one" "$all"; do printf '%-12s %8s %10s\n' $r; done
l=$(echo "$lint" | cut -d' ' -f2)
awk -v l="$l" -v o="$(echo "$one" | cut -d' ' -f2)" -v a="$(echo "$all" | cut -d' ' -f2)" \
  'BEGIN { printf "ratio explain-one/lint: %.2f\nratio explain-all/lint: %.2f (target < 1.5)\n", o / l, a / l }'
