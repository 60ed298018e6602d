#!/usr/bin/env bash
# Benchmark of `gwctl graph` beside `gwctl lint` on a generated corpus with the AI group: the whole
# graph as Mermaid, DOT and SVG, and one Gateway's component (`--gateway`), wall and CPU time (user
# + system) and peak memory, best of 3 each, release build. The target is graph under 2x lint.
#
#   bench/graph.sh [RESOURCES]    (default 10000)
#
# Absolute times drift on a shared machine; the ratios to lint are the figures that matter.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000}
shared=${GWCTL_SHARED:-../shared}
corpus=${BENCH_CORPUS:-/tmp/gwctl-bench-graph-$n}

if [ ! -d "$corpus" ]; then
  python3 "$shared/bench/gen_corpus.py" --resources "$n" --ai --out "$corpus" >&2
fi
cargo build --release --quiet
gwctl=target/release/gwctl

# shellcheck source=bench/measure.sh
source bench/measure.sh

# One Gateway of the corpus, with its namespace.
file=$(grep -l -m1 '^kind: Gateway$' -r "$corpus" | sort | head -n 1)
read -r ns name < <(awk '/^kind: Gateway$/{r=1} r&&/^  name:/{n=$2} r&&/^  namespace:/{s=$2} r&&n&&s{print s, n; exit}' "$file")

lint=$(measure_cpu lint "$gwctl" lint --format short "$corpus")
mermaid=$(measure_cpu graph-mermaid "$gwctl" graph "$corpus")
dot=$(measure_cpu graph-dot "$gwctl" graph -o dot "$corpus")
svg=$(measure_cpu graph-svg "$gwctl" graph -o svg "$corpus")
one=$(measure_cpu graph-gateway "$gwctl" graph --gateway "$ns/$name" "$corpus")

nodes=$("$gwctl" graph -o dot "$corpus" | grep -c '^    n[0-9]* \[' || true)
edges=$("$gwctl" graph -o dot "$corpus" | grep -c ' -> ' || true)
one_nodes=$("$gwctl" graph -o dot --gateway "$ns/$name" "$corpus" | grep -c '^    n[0-9]* \[' || true)
echo "corpus: $corpus ($(du -sm "$corpus" | cut -f1) MB), best of 3, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo "graph: $nodes nodes, $edges edges; --gateway $ns/$name: $one_nodes nodes"
printf '%-14s %8s %8s %10s\n' run wall_s cpu_s peak_MB
for r in "$lint" "$mermaid" "$dot" "$svg" "$one"; do printf '%-14s %8s %8s %10s\n' $r; done
l=$(echo "$lint" | cut -d' ' -f2)
lc=$(echo "$lint" | cut -d' ' -f3)
for r in "$mermaid" "$dot" "$svg" "$one"; do
  echo "$r" | awk -v l="$l" -v lc="$lc" '{ printf "ratio %s/lint: wall %.2f, CPU %.2f (target < 2)\n", $1, $2 / l, $3 / lc }'
done
