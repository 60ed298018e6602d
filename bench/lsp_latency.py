#!/usr/bin/env python3
"""Latency of `gwctl lsp`: the time from a didChange to the publishDiagnostics of that document.

    bench/lsp_latency.py GWCTL WORKSPACE [CHANGES]

Starts the server on WORKSPACE, waits until the initial lint is published (a request answered
after it), opens one file, then sends CHANGES (default 20) edits of it one at a time, each
waiting for the document's diagnostics; prints the startup time, the median, 90th percentile and
worst latency, the server's CPU time per edit (the figure that does not depend on the machine's
load) and its peak memory (VmHWM). Every other edit breaks a reference and the
next repairs it, so the cross-resource stages have work to do.
"""
import json
import os
import statistics
import subprocess
import sys
import time


def send(proc, message):
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def read(proc):
    length = None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("the server closed its output")
        line = line.strip()
        if not line:
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(proc.stdout.read(length))


def cpu_seconds(pid):
    # utime + stime of the server (fields 14 and 15 of /proc/PID/stat, in clock ticks): the
    # work an edit costs, whatever the machine's load.
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def until(proc, accept):
    while True:
        m = read(proc)
        if accept(m):
            return m


def main():
    gwctl, root = sys.argv[1], os.path.abspath(sys.argv[2])
    changes = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    files = sorted(
        os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".yaml")
    )
    resources = sum(open(f).read().count("\nkind: ") + open(f).read().startswith("kind: ") for f in files)
    target = next(f for f in files if "parentRefs:" in open(f).read())
    uri = "file://" + target
    text = open(target).read()
    proc = subprocess.Popen([gwctl, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    start = time.perf_counter()
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": None, "rootUri": "file://" + root, "capabilities": {}}})
    until(proc, lambda m: m.get("id") == 1)
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    # Answered after the initial lint and its publications.
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol",
                "params": {"textDocument": {"uri": uri}}})
    until(proc, lambda m: m.get("id") == 2)
    startup = time.perf_counter() - start

    def published(m):
        return m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri

    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
    until(proc, published)
    # The first parentRef's name, broken and repaired in turn.
    at = text.index("parentRefs:")
    name_at = text.index("name: ", at) + len("name: ")
    broken = text[:name_at] + "zz-" + text[name_at:]
    times = []
    cpu = []
    for i in range(changes):
        edited = broken if i % 2 == 0 else text
        c0 = cpu_seconds(proc.pid)
        t0 = time.perf_counter()
        send(proc, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": i + 2},
            "contentChanges": [{"text": edited}]}})
        until(proc, published)
        times.append(time.perf_counter() - t0)
        cpu.append(cpu_seconds(proc.pid) - c0)
    with open(f"/proc/{proc.pid}/status") as s:
        hwm = next((l.split()[1] for l in s if l.startswith("VmHWM")), "0")
    send(proc, {"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": None})
    until(proc, lambda m: m.get("id") == 3)
    send(proc, {"jsonrpc": "2.0", "method": "exit", "params": None})
    proc.wait(timeout=30)
    times.sort()
    p90 = times[min(len(times) - 1, int(len(times) * 0.9))]
    print(f"{root}: {len(files)} files, {resources} resources; startup {startup:.3f} s; "
          f"didChange -> publishDiagnostics over {changes} edits: median {statistics.median(times) * 1000:.1f} ms, "
          f"p90 {p90 * 1000:.1f} ms, worst {times[-1] * 1000:.1f} ms; server CPU time per edit: median "
          f"{statistics.median(cpu) * 1000:.0f} ms, worst {max(cpu) * 1000:.0f} ms; peak memory {int(hwm) // 1024} MB; "
          f"load average {open('/proc/loadavg').read().split()[0]}")


if __name__ == "__main__":
    main()
