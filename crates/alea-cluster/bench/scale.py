"""How a cluster scales on one machine: memory per process and time for 1, 2 and 4
processes against the single-process run, for `alea check` on a model and for
`alea patience stats` on a batch of deals.

Every process of a run is started at once on loopback ports of its own; its peak
resident memory comes from the kernel (wait4), the time is the wall time until the last
process has ended. Each configuration runs `--runs` times and the medians are printed,
as a table and, with --json, as one JSON object.

    python3 crates/alea-cluster/bench/scale.py --alea target/release/alea

The answers are checked too: every cluster run must give the single-process values
within their error bounds (check) or the same bytes (patience stats).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def run_processes(commands):
    """Starts every command at once; (wall seconds, [peak RSS in bytes], [stdout])."""
    started = time.monotonic()
    procs = [
        subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for c in commands
    ]
    outs = [None] * len(procs)
    rss = [0] * len(procs)
    pending = {p.pid: i for i, p in enumerate(procs)}
    # Read the pipes first (small outputs), then reap each process with its usage.
    for i, p in enumerate(procs):
        outs[i] = p.stdout.read()
    while pending:
        pid, status, usage = os.wait4(-1, 0)
        if pid in pending:
            i = pending.pop(pid)
            procs[i].returncode = os.waitstatus_to_exitcode(status)
            rss[i] = usage.ru_maxrss * 1024
    wall = time.monotonic() - started
    for i, p in enumerate(procs):
        if p.returncode != 0:
            sys.exit(f"process {i} failed: {p.stderr.read().decode()}")
    return wall, rss, [o.decode() for o in outs]


class Ports:
    """Loopback ports, fresh for every run (a port just closed may linger)."""

    def __init__(self, first):
        self.next = first

    def hostfile(self, directory, processes):
        path = os.path.join(directory, f"hosts-{self.next}")
        with open(path, "w") as f:
            for i in range(processes):
                f.write(f"127.0.0.1:{self.next + i}\n")
        self.next += processes
        return path


def cluster_commands(base, processes, hosts):
    return [
        base
        + ["--cluster", "--processes", str(processes), "--process", str(i)]
        + ["--workers", "1", "--hostfile", hosts]
        for i in range(processes)
    ]


def measure(args, label, base, processes_list, ports, directory, same):
    """Rows for the single process and each cluster size."""
    rows = []
    runs = []
    for _ in range(args.runs):
        runs.append(run_processes([base]))
    reference = runs[0][2][0]
    rows.append(row(label, "single process", 0, runs))
    for processes in processes_list:
        runs = []
        for _ in range(args.runs):
            hosts = ports.hostfile(directory, processes)
            r = run_processes(cluster_commands(base, processes, hosts))
            same(reference, r[2][0])
            runs.append(r)
        rows.append(row(label, f"{processes} processes", processes, runs))
    return rows


def row(label, what, processes, runs):
    walls = [r[0] for r in runs]
    peaks = [max(r[1]) for r in runs]
    out = runs[0][2][0]
    counted = None
    if processes and out.startswith("{"):
        first = json.loads(out.splitlines()[0])
        counted = max(first["cluster"]["peak_bytes"])
    return {
        "job": label,
        "run": what,
        "processes": processes,
        "seconds": statistics.median(walls),
        "peak_rss_per_process": statistics.median(peaks),
        "counted_bytes_per_process": counted,
        "sweeps": [
            json.loads(line)["cluster"]["sweeps"]
            for line in out.splitlines()
            if processes and line.startswith("{")
        ],
    }


def same_values(a, b):
    for x, y in zip(a.splitlines(), b.splitlines()):
        x, y = json.loads(x), json.loads(y)
        bound = x["error_bound"] + y["error_bound"]
        if abs(x["value"] - y["value"]) > bound:
            sys.exit(f"{x['property']}: {x['value']} against {y['value']}")


def same_bytes(a, b):
    if a != b:
        sys.exit("a cluster's patience stats differ from the single process's")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--alea", default=os.path.join(ROOT, "target/release/alea"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--goal", type=int, default=100, help="Pig's goal in the model")
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--processes", default="1,2,4")
    parser.add_argument("--port", type=int, default=23000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    processes = [int(p) for p in args.processes.split(",")]
    ports = Ports(args.port)
    check = [
        args.alea, "check", os.path.join(ROOT, "examples/pig.prism"),
        "--props", os.path.join(ROOT, "examples/pig.props"),
        "--const", f"goal={args.goal},h=20,first=0", "--json",
    ]
    stats = [
        args.alea, "patience", "stats", "--deals", str(args.deals), "--seed", "1",
    ]
    with tempfile.TemporaryDirectory() as directory:
        rows = measure(args, "check pig", check, processes, ports, directory, same_values)
        rows += measure(
            args, "patience stats", stats, processes, ports, directory, same_bytes
        )
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    single = {}
    print(f"{'job':16} {'run':16} {'seconds':>8} {'peak RSS':>10} {'vs single':>9} "
          f"{'counted':>10}  sweeps")
    for r in rows:
        if r["processes"] == 0:
            single[r["job"]] = r["peak_rss_per_process"]
        ratio = r["peak_rss_per_process"] / single[r["job"]]
        counted = r["counted_bytes_per_process"]
        print(
            f"{r['job']:16} {r['run']:16} {r['seconds']:8.2f} "
            f"{r['peak_rss_per_process'] / 2**20:8.1f}MB {ratio:9.2f} "
            f"{'' if counted is None else f'{counted / 2**20:8.1f}MB':>10}  "
            f"{r['sweeps'] or ''}"
        )


if __name__ == "__main__":
    main()
