//! `GWCTL_BENCH_PHASES=1`: what each stage of a run costs.

use std::time::Instant;

/// Wall and CPU time of each stage on stderr when the undocumented environment variable
/// `GWCTL_BENCH_PHASES=1` is set: after the parallel per-file pass, the rest of a run is mostly
/// serial, and this shows where that time goes (`bench/run.sh`).
pub struct Phases {
    on: bool,
    last: Instant,
    /// The process's CPU time at the last mark, in clock ticks.
    last_cpu: u64,
}

impl Phases {
    pub fn start() -> Self {
        let on = std::env::var_os("GWCTL_BENCH_PHASES").is_some_and(|v| v == "1");
        Phases {
            on,
            last: Instant::now(),
            // Read from /proc only when printed: every command starts several of these.
            last_cpu: if on { cpu_ticks() } else { 0 },
        }
    }

    /// Prints the time since the previous mark (or the start) under `name`.
    pub fn mark(&mut self, name: &str) {
        if self.on {
            let now = Instant::now();
            let cpu = cpu_ticks();
            // A stage's CPU time beside its wall time shows how parallel it is.
            eprintln!(
                "phase {name:<12} {:8.3} s  cpu {:6.2} s{}",
                now.duration_since(self.last).as_secs_f64(),
                cpu.saturating_sub(self.last_cpu) as f64 / TICKS_PER_SECOND,
                memory_mb()
            );
            self.last = now;
            self.last_cpu = cpu;
        }
    }
}

/// The kernel's clock ticks per second (`USER_HZ`, 100 on Linux).
const TICKS_PER_SECOND: f64 = 100.0;

/// The process's user and system CPU time so far, in clock ticks (Linux; 0 elsewhere).
fn cpu_ticks() -> u64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0;
    };
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return 0;
    };
    // utime and stime are fields 14 and 15, the 12th and 13th after the name.
    rest.split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|v| v.parse::<u64>().ok())
        .sum()
}

/// The process's resident and peak memory so far (Linux), to see which stage sets the peak.
fn memory_mb() -> String {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return String::new();
    };
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    format!(
        "  rss {:5} MB  peak {:5} MB",
        field("VmRSS:"),
        field("VmHWM:")
    )
}
