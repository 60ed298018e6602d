//! `GWCTL_BENCH_PHASES=1`: what each stage of a run costs.

use std::time::Instant;

/// Wall time of each stage on stderr when the undocumented environment variable
/// `GWCTL_BENCH_PHASES=1` is set: after the parallel per-file pass, the rest of a run is mostly
/// serial, and this shows where that time goes (`bench/run.sh`).
pub struct Phases {
    on: bool,
    last: Instant,
}

impl Phases {
    pub fn start() -> Self {
        Phases {
            on: std::env::var_os("GWCTL_BENCH_PHASES").is_some_and(|v| v == "1"),
            last: Instant::now(),
        }
    }

    /// Prints the time since the previous mark (or the start) under `name`.
    pub fn mark(&mut self, name: &str) {
        if self.on {
            let now = Instant::now();
            eprintln!(
                "phase {name:<12} {:8.3} s{}",
                now.duration_since(self.last).as_secs_f64(),
                memory_mb()
            );
            self.last = now;
        }
    }
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
