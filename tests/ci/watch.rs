//! `gwctl lint --watch`: a change under the paths gives a new report within a second, and Ctrl-C
//! (SIGINT) ends it cleanly. Waits are bounded by deadlines; nothing sleeps for a fixed time.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use crate::support::*;

/// The child is killed if the test fails before it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Lines of stdout up to and including the next summary line, or what came before the deadline.
fn next_report(lines: &Receiver<String>, deadline: Duration) -> Result<Vec<String>, Vec<String>> {
    let end = Instant::now() + deadline;
    let mut report = Vec::new();
    while let Some(left) = end.checked_duration_since(Instant::now()) {
        match lines.recv_timeout(left) {
            Ok(line) => {
                let done = line.contains(" resource") && line.contains(" error");
                report.push(line);
                if done {
                    return Ok(report);
                }
            }
            Err(_) => break,
        }
    }
    Err(report)
}

#[cfg(target_os = "linux")]
#[test]
fn watch_relints_on_a_change_and_stops_on_sigint() {
    let dir = dir_with(&[("route.yaml", VALID_ROUTE.as_bytes())]);
    let child = Command::new(assert_cmd::cargo::cargo_bin!("gwctl"))
        .args(["lint", "--watch", "--color", "never"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start gwctl lint --watch");
    let mut child = Running(child);
    let stdout = child.0.stdout.take().expect("stdout");
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });

    // The first lint includes process start-up in a debug build: a generous bound.
    let first = next_report(&lines, Duration::from_secs(60))
        .unwrap_or_else(|got| panic!("no first report: {got:?}"));
    assert_eq!(
        first
            .last()
            .map(String::as_str)
            .unwrap_or_default()
            .split(" (")
            .next(),
        Some("1 file, 1 resource: 0 errors, 0 warnings, 0 infos"),
        "{first:?}"
    );

    // Another route than the first file's, so that the one finding is the unknown field.
    let broken = UNKNOWN_FIELD.replace("name: web", "name: broken");
    std::fs::write(dir.path().join("broken.yaml"), broken).expect("write a manifest");
    let changed = Instant::now();
    let second = next_report(&lines, Duration::from_secs(1))
        .unwrap_or_else(|got| panic!("no second report within a second of the change: {got:?}"));
    assert!(changed.elapsed() <= Duration::from_secs(1));
    let text = second.join("\n");
    assert!(text.contains("error[GW101]"), "{text}");
    assert!(text.contains("broken.yaml"), "{text}");
    assert!(
        second
            .last()
            .is_some_and(|l| l.starts_with("2 files, 2 resources: 1 error,")),
        "{text}"
    );

    let pid = child.0.id().to_string();
    let status = Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .expect("run kill");
    assert!(status.success());
    let end = Instant::now() + Duration::from_secs(10);
    let exit = loop {
        if let Some(exit) = child.0.try_wait().expect("wait for gwctl") {
            break exit;
        }
        assert!(
            Instant::now() < end,
            "gwctl --watch still running after SIGINT"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(exit.code(), Some(0), "{exit:?}");
    let mut stderr = String::new();
    if let Some(mut err) = child.0.stderr.take() {
        std::io::Read::read_to_string(&mut err, &mut stderr).expect("stderr");
    }
    assert_eq!(stderr, "");
}

#[test]
fn watch_refuses_stdin() {
    gwctl()
        .args(["lint", "--watch", "-"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--watch cannot read stdin"));
}
