"""How a cluster scales on one machine: memory per process and time for 1, 2 and 4
processes against the single-process run, for `alea check` on Pig (components that each
lie on one worker), on a random Markov decision process written with a fixed seed (one
large component across the workers), and for `alea patience stats` on a batch of deals.
Beside time and memory it prints what `check --json` reports of the cluster: the share
of transitions that cross between workers, and each property's rounds of messages and
bytes sent.

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
import math
import os
import random
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
        "sweeps": cluster_field(processes, out, "sweeps"),
        "rounds": cluster_field(processes, out, "rounds"),
        "bytes_sent": cluster_field(processes, out, "bytes_sent"),
        "crossing_share": (cluster_field(processes, out, "crossing_share") or [None])[0],
    }


def cluster_field(processes, out, field):
    """A field of every property's `cluster` object (a cluster run of check only)."""
    return [
        json.loads(line)["cluster"][field]
        for line in out.splitlines()
        if processes and line.startswith("{")
    ]


def random_mdp(path, states, seed):
    """A Markov decision process of `states` states whose transitions look random,
    written with `seed`: from each state two choices, each to two or three states picked
    by multiplying and adding modulo the size, so that nearly every state reaches every
    other (one large component). The first hundredth of the states is the goal and the
    last hundredth a trap that never reaches it."""
    rng = random.Random(seed)
    n = states

    def step():
        # A multiplier prime to the size: each step is a permutation of the states.
        while math.gcd(a := rng.randrange(2, n), n) != 1:
            pass
        return f"mod(x*{a}+{rng.randrange(n)}, {n})"

    lines = ["mdp", "module m", f"  x : [0..{n - 1}] init {n // 2};"]
    free = f"x>={n // 100} & x<{n - n // 100}"
    for action in range(2):
        count = 2 + action
        weights = [rng.randint(1, 4) for _ in range(count)]
        total = sum(weights)
        update = " + ".join(f"{w}/{total} : (x'={step()})" for w in weights)
        lines.append(f"  [a{action}] {free} -> {update};")
    lines += [f"  [stop] !({free}) -> true;", "endmodule",
              f'label "goal" = x<{n // 100};', f'label "trap" = x>={n - n // 100};',
              'rewards "steps"', "  [a0] true : 1;", "  [a1] true : 1;", "endrewards"]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


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
    parser.add_argument("--random-states", type=int, default=200000,
                        help="states of the random model (0: leave it out)")
    parser.add_argument("--seed", type=int, default=1, help="the random model's seed")
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
        if args.random_states:
            model = random_mdp(os.path.join(directory, "random.prism"), args.random_states,
                               args.seed)
            rand = [
                args.alea, "check", model, "--json",
                "--prop", 'R{"steps"}min=? [ F "goal" ]',
                "--prop", 'R{"steps"}min=? [ F "goal" | "trap" ]',
            ]
            rows += measure(args, "check random", rand, processes, ports, directory,
                            same_values)
        rows += measure(
            args, "patience stats", stats, processes, ports, directory, same_bytes
        )
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    single = {}
    print(f"{'job':16} {'run':16} {'seconds':>8} {'peak RSS':>10} {'vs single':>9} "
          f"{'counted':>10} {'crossing':>8}  rounds / MB sent per property")
    for r in rows:
        if r["processes"] == 0:
            single[r["job"]] = r["peak_rss_per_process"]
        ratio = r["peak_rss_per_process"] / single[r["job"]]
        counted = r["counted_bytes_per_process"]
        share = r["crossing_share"]
        crossing = "" if share is None else f"{share:8.3f}"
        print(
            f"{r['job']:16} {r['run']:16} {r['seconds']:8.2f} "
            f"{r['peak_rss_per_process'] / 2**20:8.1f}MB {ratio:9.2f} "
            f"{'' if counted is None else f'{counted / 2**20:8.1f}MB':>10} "
            f"{crossing:>8}  "
            + ", ".join(f"{k} / {b / 1e6:.2f}" for k, b in zip(r["rounds"], r["bytes_sent"]))
        )


if __name__ == "__main__":
    main()
