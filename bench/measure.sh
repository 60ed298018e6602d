# Sourced by the bench scripts.
# measure_cpu LABEL COMMAND...: runs the command three times, prints "LABEL best_wall_s cpu_s
# max_rss_mb": the CPU time (user + system) and peak memory are the fastest run's.
measure_cpu() {
  local label=$1; shift
  local best="" cpu="" rss=""
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %U %S %M" -o /tmp/gwctl-bench-time "$@" >/dev/null 2>/dev/null || true
    read -r wall user sys kb < <(tail -n 1 /tmp/gwctl-bench-time)
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then
      best=$wall; rss=$kb; cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    fi
  done
  echo "$label $best $cpu $((rss / 1024))"
}

# measure LABEL COMMAND...: like measure_cpu without the CPU time: "LABEL best_wall_s max_rss_mb".
measure() {
  measure_cpu "$@" | awk '{ print $1, $2, $4 }'
}
