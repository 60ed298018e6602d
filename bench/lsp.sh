#!/usr/bin/env bash
# Latency of `gwctl lsp` (issue 21): didChange -> publishDiagnostics of the changed document in
# workspaces of 1,000 and 10,000 generated resources (../shared/bench/gen_corpus.py), release
# build. The driver is bench/lsp_latency.py.
#
#   bench/lsp.sh [RESOURCES...]      # default: 1000 10000
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${GWCTL_SHARED:-../shared}
cargo build --release --quiet
for n in "${@:-1000 10000}"; do
  for size in $n; do
    corpus=/tmp/gwctl-bench-lsp-$size
    if [ ! -d "$corpus" ]; then
      python3 "$shared/bench/gen_corpus.py" --resources "$size" --out "$corpus" >&2
    fi
    python3 bench/lsp_latency.py target/release/gwctl "$corpus" 20
  done
done
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
