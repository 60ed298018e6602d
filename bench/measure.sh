# Sourced by the bench scripts.
# measure LABEL COMMAND...: runs the command three times, prints "LABEL best_wall_s max_rss_mb" (the
# peak memory of the fastest run).
measure() {
  local label=$1; shift
  local best=""
  local rss=""
  for _ in 1 2 3; do
    /usr/bin/time -f "%e %M" -o /tmp/gwctl-bench-time "$@" >/dev/null 2>/dev/null || true
    read -r wall kb < <(tail -n 1 /tmp/gwctl-bench-time)
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; rss=$kb; fi
  done
  echo "$label $best $((rss / 1024))"
}
