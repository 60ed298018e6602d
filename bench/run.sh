#!/usr/bin/env bash
# Benchmark of `gwctl lint` against the parse-only floor (../shared/bench/yamlfloor) on a generated
# corpus, in the same run: wall time and peak memory of each, and the ratio.
#
#   bench/run.sh [RESOURCES] [extra gen_corpus.py flags, e.g. --ai]
#
# Absolute times drift on a shared machine; the ratio to the floor is the figure that matters.
# The load average is printed with it: with another process busy, gwctl's two threads share what
# is left while the floor's one thread does not notice, and the wall ratio says little; the CPU
# time ratio is steadier. `GWCTL_BENCH_PHASES=1 gwctl lint ...` prints each stage's wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
shift || true
shared=${GWCTL_SHARED:-../shared}
tag=$(echo "$n $*" | tr -c 'a-z0-9' '-')
corpus=${BENCH_CORPUS:-/tmp/gwctl-bench-$tag}

if [ ! -d "$corpus" ]; then
  python3 "$shared/bench/gen_corpus.py" --resources "$n" --out "$corpus" "$@" >&2
fi
cargo build --release --quiet
cargo build --release --quiet --manifest-path "$shared/bench/yamlfloor/Cargo.toml" --target-dir target/yamlfloor

# shellcheck source=bench/measure.sh
source bench/measure.sh

size=$(du -sm "$corpus" | cut -f1)
floor=$(measure_cpu yamlfloor target/yamlfloor/release/yamlfloor events "$corpus")
lint=$(measure_cpu gwctl target/release/gwctl lint --format short "$corpus")
echo "corpus: $corpus ($n resources, ${size} MB), best of 3, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %8s %8s %10s\n' tool wall_s cpu_s peak_MB
printf '%-10s %8s %8s %10s\n' $floor
printf '%-10s %8s %8s %10s\n' $lint
awk -v f="$(echo "$floor" | cut -d' ' -f2)" -v g="$(echo "$lint" | cut -d' ' -f2)" \
  'BEGIN { printf "ratio gwctl/floor: %.2f\n", g / f }'
awk -v f="$(echo "$floor" | cut -d' ' -f3)" -v g="$(echo "$lint" | cut -d' ' -f3)" \
  'BEGIN { printf "CPU time ratio gwctl/floor: %.2f\n", g / f }'
