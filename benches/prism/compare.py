#!/usr/bin/env python3
"""Compare `alea check` with Storm on PRISM models of the Quantitative Verification
Benchmark Set (QVBS): values against the QVBS reference results, wall time and peak
memory, in floating point (certified error bound / Storm's sound mode) and in exact
rational arithmetic.

Nothing of QVBS is bundled here: the user points the script at a checkout.

Setup
-----
Storm, through its Python bindings (stormpy 2.0 ships a self-contained wheel; no
`storm` command-line binary comes with it, so this script runs Storm in a fresh
Python process per check)::

    python3.11 -m venv STORMENV
    STORMENV/bin/pip install stormpy

QVBS (the model files, `index.json` with parameters, state counts and reference
results, and the `.props` files)::

    git clone https://github.com/ahartmanns/qcomp QCOMP
    # then pass --qvbs QCOMP (or QCOMP/benchmarks)

Usage
-----
    python3 benches/prism/compare.py --qvbs QCOMP --alea target/release/alea \\
        --storm-python STORMENV/bin/python [--models brp,consensus] [--timeout 120] \\
        [--exact-timeout 60] [--runs 3] [--out results.json] [--markdown]

    --alea-baseline B   also run the alea binary B, in turn with --alea (B A A B B A ...,
                        --runs pairs), and report each instance's paired median ratio
                        of the wall times (A/B): an old build against a new one in one
                        run. Implies --alea-only.
    --storm-only        run Storm only (no alea binary needed)
    --alea-only         run alea only
    --no-exact          skip the exact-arithmetic comparison
    --every-property    per curated parameter set, every property of it that both
                        tools read, checked in one process per tool (the model built
                        once), one row per parameter set: the whole job a user runs,
                        not one property picked out; a property without a QVBS
                        reference is compared between the two tools
    --all               every supported (model, parameters, property) of the QVBS
                        dtmc/mdp PRISM models with at most --max-states states
                        (by the QVBS count), instead of the curated list below
    --paths             instead, the paths of LTL and multi-objective queries of the
                        README's tables (QVBS carries none for dtmcs and mdps, so QVBS
                        models and this repository's Pig take formulas of our own, and
                        --prism-tests DIR adds PRISM's consensus_multi regression
                        models); Storm's multi-objective precision is --precision too,
                        but 1e-4 (its default) for the Pareto curve
    --list              print the instances that would run, and stop
    --catalogue FILE    write the catalogue of all QVBS dtmc/mdp PRISM instances
                        (with features and reasons for exclusion) as JSON, and stop

What is run, per instance (each run in its own process, with the time limit):

* alea:  ALEA check MODEL.prism --prop 'PROP' --const K=V,... --json
         [--precision P]              (floating point, certified error bound)
         ALEA check ... --exact --json (rational arithmetic)
* Storm: the same script, started with STORM_PYTHON in a hidden worker mode,
         parses the PRISM program and the property, instantiates the constants,
         builds the sparse model and checks it with
         - sound mode: ``stormpy.environments.sound()`` (Storm's `--sound`: optimistic
           value iteration / sound topological solvers) with precision P, relative
           termination criterion (Storm's default, as ``storm --sound --precision P``);
           ``--absolute`` switches to the absolute criterion;
         - exact mode: ``stormpy.build_model[stormpy.Rational]`` and
           ``stormpy.environments.exact()`` (as ``storm --exact``).

alea's precision P is absolute for values up to 1 and relative above, so Storm's
relative criterion with the same P is at least as strict.

Checks: alea's value must lie within its reported error_bound of the reference
(with a relative slack of --ref-tolerance when QVBS only gives an approximate
reference), Storm's sound value within P (relative) of it or inside Storm's reported
bounds; the exact values must equal the reference fraction when QVBS gives one.
Wall time is the median of --runs runs (the whole process: parsing, building,
checking); peak memory is the process's maximal resident set size (wait4 rusage).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from fractions import Fraction

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)  # QVBS reference fractions have thousands of digits

# ---------------------------------------------------------------------------
# The curated instances: (model, parameters, property, why it is here).
# Parameters are those of the QVBS index: file parameters (they select the .prism
# file) and open parameters (passed with --const), comma-separated.
# Storm checks each of them in sound mode within 2 minutes on a 2-core machine
# (all but haddad-monmege N=300, kept on purpose: Storm's sound iteration times out,
# its exact mode takes half a second). Sizes go from 7 to 2.3 million states.
# ---------------------------------------------------------------------------
INSTANCES = [
    # dtmc
    ("brp", "N=16,MAX=2", "p1", "smallest brp; its exact value is a 180-digit fraction"),
    ("brp", "N=64,MAX=5", "p2", "value 7e-10, below an absolute 1e-9: tiny probabilities"),
    ("crowds", "TotalRuns=3,CrowdSize=5", "positive", "one module with many bool variables, double constants"),
    ("crowds", "TotalRuns=6,CrowdSize=15", "positive", "2.3M states: exploration throughput of a dtmc"),
    ("egl", "N=5,L=2", "messagesA", "transition rewards, renamed module, formulas, min/max"),
    ("egl", "N=5,L=8", "unfairA", "labels in the property; 157k states"),
    ("haddad-monmege", "N=20,p=0.7", "target", "built to make value iteration converge slowly"),
    ("haddad-monmege", "N=20,p=0.7", "exp_steps", "T operator: expected steps, 1.6e6"),
    ("haddad-monmege", "N=300,p=0.7", "target", "Storm sound times out (slow convergence), exact is instant"),
    ("haddad-monmege", "N=300,p=0.7", "exp_steps", "expected steps 3e90: relative precision at huge values"),
    ("herman", "N=7", "steps", "init...endinit (all 128 states initial), filter(max, ..., \"init\")"),
    ("herman", "N=15", "steps", "32768 initial states; Storm exact times out"),
    ("leader_sync", "N=3,K=2", "eventually_elected#value", "P>=1 [F elected] as a value: probability one"),
    ("leader_sync", "N=5,K=4", "time", "synchronised renamed modules, transition rewards"),
    ("nand", "N=20,K=1", "reliable", "division in the property (z/N<0.1)"),
    ("nand", "N=40,K=2", "reliable", "2M-state acyclic dtmc"),
    ("oscillators", "N=3,T=6,epsilon=0.1,R=1,mu=0.1,lambda=1.0", "time_to_synch", "infinite expected reward"),
    ("oscillators", "N=8,T=8,epsilon=0.1,R=1,mu=0.1,lambda=1.0", "power_consumption",
     "pow and long double formulas (Storm spends 7 s parsing), double constants via --const"),
    # mdp
    ("consensus", "N=2,K=2", "c2", "global variable, Pmin, small"),
    ("consensus", "N=4,K=4", "steps_max", "Rmax of state rewards, 43k states"),
    ("consensus", "N=6,K=2", "disagree", "1.26M states, Pmax; Storm exact times out"),
    ("csma", "N=2,K=6", "all_before_min", "Pmin of an until; pow/floor/min/max and ?: in formulas"),
    ("csma", "N=3,K=4", "time_max", "1.46M states, Rmax of transition rewards; Storm exact times out"),
    ("eajs", "N=3,energy_capacity=150,B=7", "ExpUtil", "Rmax of transition rewards, 143k states"),
    ("eajs", "N=4,energy_capacity=200,B=9", "ExpUtil", "872k states"),
    ("firewire", "explicit_timer=false,delay=36,deadline=800", "time_min", "Rmin, 212k states, 13 synchronised actions"),
    ("firewire", "explicit_timer=true,delay=3,deadline=800", "deadline", "1.9M states, Pmin with a time bound in the target"),
    ("firewire_abst", "delay=3", "rounds", "Rmin, one module"),
    ("firewire_dl", "delay=3,deadline=800", "deadline", "Pmin, 290k states"),
    ("ij", "num_tokens_var=10", "stable", "global variables only, renamed modules"),
    ("ij", "num_tokens_var=20", "stable", "1M states; Storm exact times out"),
    ("pacman", "MAXSTEPS=5", "crash", "555 commands, 9 synchronised actions"),
    ("philosophers-mdp", "N=3", "eat", "Pmax = 1, renamed modules"),
    ("pnueli-zuck", "N=5", "live", "307k states, Pmax = 1"),
    ("rabin", "N=5", "live", "global variables and max(), 157k states"),
    ("resource-gathering", "B=400,GOLD_TO_COLLECT=30,GEM_TO_COLLECT=30", "expgold",
     "cumulative reward C<=400; Storm exact times out"),
    ("resource-gathering", "B=400,GOLD_TO_COLLECT=30,GEM_TO_COLLECT=30", "prgoldgem", "step-bounded F<=400"),
    ("resource-gathering", "B=400,GOLD_TO_COLLECT=30,GEM_TO_COLLECT=30", "expsteps", "Tmin (expected steps)"),
    ("wlan", "MAX_BACKOFF=3,COL=0", "cost_min", "Rmin, three reward structures, 96k states"),
    ("wlan", "MAX_BACKOFF=5,COL=0", "time_max", "1.3M states, Rmax"),
    ("wlan_dl", "MAX_BACKOFF=2,deadline=80", "deadline", "1.1M states, Pmin"),
    ("zeroconf", "N=1000,K=2,reset=false", "correct_max", "bool constant via --const, 89k states"),
    ("zeroconf", "N=1000,K=8,reset=false", "correct_min", "1.9M states, value 5e-9; Storm exact times out"),
    ("zeroconf_dl", "N=1000,K=1,reset=false,deadline=40", "deadline_min", "until; value 9e-37"),
]

PRISM_EXTENSIONS = (".prism", ".pm", ".nm", ".sm")
PROPS_EXTENSIONS = (".props", ".prctl", ".pctl")


# ---------------------------------------------------------------------------
# QVBS index
# ---------------------------------------------------------------------------


def benchmarks_dir(qvbs: str) -> str:
    for cand in (os.path.join(qvbs, "benchmarks"), qvbs):
        if os.path.isfile(os.path.join(cand, "index.json")) or glob.glob(
            os.path.join(cand, "*", "*", "index.json")
        ):
            return cand
    raise SystemExit(f"--qvbs {qvbs}: no QVBS benchmarks (*/*/index.json) found there")


def parse_props_file(text: str) -> tuple[dict[str, str], list[str], list[str]]:
    """Named properties of a PRISM props file: ({name: formula}, [const declarations],
    [unnamed formulas])."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    lines = [re.sub(r"//.*", "", line) for line in text.splitlines()]
    text = "\n".join(lines)
    # Statements end with ';' or at the end of a line that is followed by a new named
    # property; split on ';' first, then on newlines that start a new statement.
    stmts = []
    for chunk in text.split(";"):
        parts = re.split(r"\n(?=\s*(?:\"[^\"]*\"\s*:|const\b|label\b))", chunk)
        stmts.extend(p.strip() for p in parts if p.strip())
    named, consts, unnamed = {}, [], []
    for s in stmts:
        s = " ".join(s.split())
        if re.match(r"const\b", s):
            consts.append(s)
            continue
        m = re.match(r'"([^"]*)"\s*:\s*(.*)$', s, flags=re.S)
        if m:
            named[m.group(1)] = m.group(2).strip()
        else:
            unnamed.append(s)
    return named, consts, unnamed


def classify(formula: str, model_type: str) -> tuple[list[str], str | None]:
    """Features of a property (text) and, if alea should not be asked, why."""
    f = formula
    feats = []
    reason = None
    ops = re.findall(r"\b(P|R|T|S|LRA)(?:\{[^}]*\})?(min|max)?\s*(=\?|[<>]=?\s*[0-9.]+)", f)
    if re.match(r"\s*filter\s*\(", f):
        feats.append("filter")
    if re.search(r"\bmulti\s*\(", f):
        reason = "multi-objective"
    elif re.search(r"\bLRA\b", f):
        reason = "long-run average (LRA)"
    elif re.search(r"\bS(min|max)?\s*(=\?|[<>])", f):
        reason = "steady-state (S)"
    elif re.search(r"[FUC]\s*\^?\s*\{\s*rew", f) or re.search(r"[FU]\s*\{", f):
        reason = "reward-bounded until/eventually"
    elif re.search(r"\bX\b", f):
        reason = "next (X)"
    elif re.search(r"\bG\b", f) or re.search(r"\bW\b", f) or re.search(r"\bR\s*\[", f) and False:
        reason = "globally/weak until (G/W): LTL-like path formula"
    elif len(ops) > 1:
        reason = "nested operator inside a path formula"
    elif re.search(r"\[[^\]]*\b[FU]\b[^\]]*\b[FUG]\b", f):
        reason = "LTL (several temporal operators)"
    if ops:
        op, mm, cmp = ops[0]
        feats.append(f"{op}{mm}")
        if cmp != "=?":
            feats.append("threshold (Boolean query)")
        if op == "T":
            feats.append("T operator (expected steps; Storm extension)")
        if op == "R" and "{" in f.split("[")[0]:
            feats.append("named reward structure")
        if model_type == "mdp" and op in ("P", "R", "T") and not mm:
            feats.append("no min/max on mdp")
    if re.search(r"\b[FU]\s*<=", f):
        feats.append("step-bounded")
    elif re.search(r"\bC\s*<=", f):
        feats.append("cumulative reward C<=k")
    elif re.search(r"\bU\b", f):
        feats.append("until")
    elif re.search(r"\bF\b", f):
        feats.append("eventually")
    if re.search(r"\[\s*C\s*\]", f):
        feats.append("total reward C")
    return feats, reason


def ref_value(v, note=None):
    """A QVBS reference value as {'exact': 'p/q'|None, 'approx': float|None,
    'infinite': bool, 'bool': bool|None}. A plain decimal noted as exact (e.g. 0.7 from
    "Storm/exact") is taken as the exact decimal fraction (7/10)."""
    out = {"exact": None, "approx": None, "infinite": False, "bool": None}
    if isinstance(v, float) and note and "exact" in note and len(repr(v)) <= 12:
        q = Fraction(repr(v))
        out["exact"] = f"{q.numerator}/{q.denominator}" if q.denominator != 1 else str(q.numerator)
    if isinstance(v, bool):
        out["bool"] = v
    elif isinstance(v, int):
        out["exact"] = str(v)
        out["approx"] = float(v)
    elif isinstance(v, float):
        out["approx"] = v
    elif isinstance(v, str):
        if v.strip() in ("∞", "inf", "infinity", "Infinity"):
            out["infinite"] = True
        else:
            try:
                out["approx"] = float(v)
            except ValueError:
                pass
    elif isinstance(v, dict):
        if "num" in v and "den" in v:
            q = Fraction(int(v["num"]), int(v["den"]))
            out["exact"] = f"{q.numerator}/{q.denominator}" if q.denominator != 1 else str(q.numerator)
        if "approx" in v:
            out["approx"] = float(v["approx"])
    return out


def fmt_params(pairs) -> str:
    return ",".join(f"{k}={fmt_val(v)}" for k, v in pairs)


def fmt_val(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return repr(v) if isinstance(v, float) else str(v)


def undefined_constants(model_text: str) -> set[str]:
    text = re.sub(r"//.*", "", model_text)
    return set(re.findall(r"\bconst\s+(?:int|double|bool)?\s*([A-Za-z_]\w*)\s*;", text))


def catalogue(qvbs: str) -> list[dict]:
    """Every (model, parameters, property) of the QVBS dtmc/mdp models that come in
    the PRISM language."""
    bdir = benchmarks_dir(qvbs)
    out = []
    for index_path in sorted(glob.glob(os.path.join(bdir, "*", "*", "index.json"))):
        with open(index_path, encoding="utf-8") as fh:
            index = json.load(fh)
        mtype = index.get("type")
        if mtype not in ("dtmc", "mdp"):
            continue
        mdir = os.path.dirname(index_path)
        prop_meta = {p["name"]: p for p in index.get("properties", [])}
        for entry in index.get("files", []):
            orig = entry.get("original-file")
            orig = [orig] if isinstance(orig, str) else (orig or [])
            prism = [o for o in orig if o.endswith(PRISM_EXTENSIONS)]
            if not prism:
                continue
            prism_path = os.path.join(mdir, prism[0])
            props = [o for o in orig if o.endswith(PROPS_EXTENSIONS)]
            props_path = os.path.join(mdir, props[0]) if props else None
            available = os.path.isfile(prism_path)
            named, consts, _ = ({}, [], [])
            if props_path and os.path.isfile(props_path):
                with open(props_path, encoding="utf-8") as fh:
                    named, consts, _ = parse_props_file(fh.read())
            model_consts = set()
            if available:
                with open(prism_path, encoding="utf-8", errors="replace") as fh:
                    model_consts = undefined_constants(fh.read())
            file_params = [(p["name"], p["value"]) for p in entry.get("file-parameter-values", [])]
            for opv in entry.get("open-parameter-values", []):
                open_params = [(p["name"], p["value"]) for p in opv.get("values", [])]
                states = None
                for s in opv.get("states", []):
                    states = s.get("number")
                    break
                results = {r["property"]: r for r in opv.get("results", [])}
                for pname in list(prop_meta) or list(named):
                    formula = named.get(pname)
                    item = {
                        "model": index["short"],
                        "type": mtype,
                        "dir": os.path.relpath(mdir, bdir),
                        "prism": os.path.relpath(prism_path, bdir),
                        "props": os.path.relpath(props_path, bdir) if props_path else None,
                        "file_params": fmt_params(file_params),
                        "open_params": fmt_params(open_params),
                        "params": fmt_params(file_params + open_params),
                        "states_qvbs": states,
                        "property": pname,
                        "property_type": prop_meta.get(pname, {}).get("type"),
                        "formula": formula,
                        "reference": None,
                        "reference_note": None,
                        "features": [],
                        "excluded": None,
                    }
                    if pname in results:
                        item["reference"] = ref_value(results[pname]["value"], results[pname].get("note"))
                        item["reference_note"] = results[pname].get("note")
                    if formula is None:
                        item["excluded"] = "property text not found in the props file"
                    elif not available:
                        item["excluded"] = "model file not in the checkout"
                    else:
                        feats, reason = classify(formula, mtype)
                        item["features"] = feats
                        item["excluded"] = reason
                        used_prop_consts = []
                        for c in consts:
                            m = re.match(r"const\s+(?:int|double|bool)?\s*(\w+)", c)
                            if m and re.search(rf"\b{m.group(1)}\b", formula):
                                used_prop_consts.append(m.group(1))
                        # Constants passed with --const: those the model leaves open, and
                        # those of the props file that the property uses.
                        item["const"] = fmt_params(
                            [(k, v) for k, v in open_params if k in model_consts or k in used_prop_consts]
                        )
                        item["prop_consts"] = [c for c in consts if re.match(
                            rf"const\s+(?:int|double|bool)?\s*({'|'.join(used_prop_consts) or '$^'})\b", c)]
                        missing = sorted(model_consts - {k for k, _ in open_params})
                        if missing:
                            item["excluded"] = item["excluded"] or f"open constants without value: {missing}"
                        if item["reference"] is None and not item["excluded"]:
                            item["excluded"] = "no reference result in index.json"
                    out.append(item)
                    # A Boolean threshold query P>=1 [...] also as its numeric value
                    # (Pmin=? on an mdp), whose reference is 1 when the query holds.
                    if (
                        formula
                        and item.get("excluded") is None
                        and re.match(r"\s*P\s*>=\s*1\s*\[", formula)
                        and item["reference"]
                        and item["reference"]["bool"] is not None
                    ):
                        num = dict(item)
                        num["property"] = pname + "#value"
                        num["formula"] = re.sub(
                            r"^\s*P\s*>=\s*1", "Pmin=?" if mtype == "mdp" else "P=?", formula
                        )
                        num["features"] = classify(num["formula"], mtype)[0] + [
                            "derived from P>=1 (probability-one check)"]
                        num["reference"] = ref_value(1) if item["reference"]["bool"] else None
                        out.append(num)
                        item["excluded"] = "threshold (Boolean) query; its numeric variant is " + num["property"]
    return out


def find_instance(cat: list[dict], model: str, params: str, prop: str) -> dict | None:
    want = dict(p.split("=", 1) for p in params.split(",") if p)
    for it in cat:
        if it["model"] != model or it["property"] != prop:
            continue
        have = dict(p.split("=", 1) for p in it["params"].split(",") if p)
        if have == want:
            return it
    return None


# ---------------------------------------------------------------------------
# Running a process: wall time, peak RSS, time limit
# ---------------------------------------------------------------------------


def run_measured(cmd: list[str], timeout: float, mem_limit_gb: float | None = None) -> dict:
    """Run cmd in its own process group; wall seconds, peak RSS (MB), exit status,
    stdout, stderr; killed (and timed_out set) after `timeout` seconds."""
    def limit():
        if mem_limit_gb:
            import resource

            b = int(mem_limit_gb * 2**30)
            resource.setrlimit(resource.RLIMIT_AS, (b, b))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen(
            cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
            start_new_session=True, preexec_fn=limit if mem_limit_gb else None,
        )
        # A blocking wait, so that the wall time is the process's to the microsecond (a
        # polling loop would round it up to its next look, tens of milliseconds); a
        # timer kills the process group at the time limit.
        timed_out = threading.Event()

        def kill():
            timed_out.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, ru = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.monotonic() - start
        timed_out = timed_out.is_set()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {
            "wall": wall,
            "rss_mb": ru.ru_maxrss / 1024.0,  # Linux: kilobytes
            "returncode": proc.returncode,
            "timed_out": timed_out,
            "stdout": out.read().decode("utf-8", "replace"),
            "stderr": err.read().decode("utf-8", "replace"),
        }


def last_json_objects(text: str) -> list[dict]:
    objs = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{") and line.endswith("}"):
            try:
                objs.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return objs


# ---------------------------------------------------------------------------
# Storm worker (runs inside the stormpy venv)
# ---------------------------------------------------------------------------

FILTER_RE = re.compile(r"^\s*filter\s*\(\s*(\w+)\s*,(.*),\s*(\"init\"|init|true)\s*\)\s*;?\s*$", re.S)


def storm_worker(args) -> None:
    """Build the model once and check each property on it: one JSON line per property
    (with its name when the properties came as --props-json)."""
    t0 = time.monotonic()
    import stormpy
    from stormpy import environments

    t_import = time.monotonic() - t0
    named = json.loads(args.props_json) if args.props_json else [{"name": None, "formula": args.prop}]
    texts, fops = [], []
    for p in named:
        m = FILTER_RE.match(p["formula"])
        fops.append(m.group(1) if m else None)
        texts.append(m.group(2).strip() if m else p["formula"])
    t1 = time.monotonic()
    program = stormpy.parse_prism_program(args.model)
    props = stormpy.parse_properties("\n".join(args.prop_const + [t + ";" for t in texts]), program)
    if args.const:
        program, props = stormpy.instantiate_constants(program, args.const, props)
    if len(props) != len(named):
        raise SystemExit(f"Storm read {len(props)} properties where {len(named)} were given")
    t_parse = time.monotonic() - t1
    t2 = time.monotonic()
    if args.mode == "exact":
        model = stormpy.build_model[stormpy.Rational](program, props)
        env = environments.exact()
    else:
        model = stormpy.build_model(program, props)
        env = environments.sound()
        prec = stormpy.Rational(args.precision)
        for solver in (env.solver().min_max(), env.solver().native()):
            solver.precision = prec
            solver.relative_termination_criterion = not args.absolute
        env.modelchecker().multi().precision = stormpy.Rational(args.multi_precision or args.precision)
    t_build = time.monotonic() - t2
    for p, prop, fop in zip(named, props, fops):
        t3 = time.monotonic()
        res = stormpy.model_checking(model, prop, only_initial_states=True, environment=env)
        t_check = time.monotonic() - t3
        pareto = res.is_pareto_curve_check_result
        if pareto() if callable(pareto) else pareto:
            out = {"tool": "storm", "mode": args.mode, "value": None, "pareto": True,
                   "states": model.nr_states}
        else:
            out = storm_result(model, res, fop, args)
        out["name"] = p["name"]
        out["seconds"] = {"import": t_import, "parse": t_parse, "build": t_build, "check": t_check}
        print(json.dumps(out), flush=True)


def storm_result(model, res, fop, args) -> dict:
    """One property's result at the initial states, aggregated by its filter."""
    inits = list(model.initial_states)
    vals, lows, ups = [], [], []
    qualitative = res.is_qualitative() if callable(res.is_qualitative) else bool(res.is_qualitative)
    for s in inits:
        if qualitative:
            vals.append(bool(res.at(s)) if hasattr(res, "at") else bool(res[s]))
            continue
        bv = res[s]
        v = getattr(bv, "value", bv)
        vals.append(v)
        lows.append(getattr(bv, "lower", None) if getattr(bv, "has_lower", False) else None)
        ups.append(getattr(bv, "upper", None) if getattr(bv, "has_upper", False) else None)

    def agg(xs):
        if not xs or any(x is None for x in xs):
            return None
        if len(xs) == 1:
            return xs[0]
        op = fop or "first"
        if op == "max":
            return max(xs)
        if op == "min":
            return min(xs)
        if op == "sum":
            return sum(xs[1:], xs[0])
        if op == "avg":
            return sum(xs[1:], xs[0]) / len(xs)
        if op == "forall":
            return all(xs)
        if op == "exists":
            return any(xs)
        return xs[0]

    def num(x):
        if x is None:
            return None, None
        if isinstance(x, bool):
            return x, None
        s = str(x)
        try:
            f = float(x)
        except (TypeError, ValueError):
            f = float("inf") if "inf" in s.lower() else None
        if f is not None and f in (float("inf"), float("-inf")):
            return None, "inf"
        return f, (s if args.mode == "exact" else None)

    value, exact = num(agg(vals))
    return {
        "tool": "storm",
        "mode": args.mode,
        "value": value,
        "infinite": exact == "inf" or (value is None and str(agg(vals)).lower().find("inf") >= 0),
        "exact": None if exact == "inf" else exact,
        "lower": num(agg(lows))[0] if lows else None,
        "upper": num(agg(ups))[0] if ups else None,
        "initial_states": len(inits),
        "all_initial_values": [num(v)[0] for v in vals] if len(vals) > 1 else None,
        "filter": fop,
        "states": model.nr_states,
        "transitions": model.nr_transitions,
        "choices": model.nr_choices if hasattr(model, "nr_choices") else None,
        "precision": args.precision,
        "relative": not args.absolute,
    }


# ---------------------------------------------------------------------------
# The comparison
# ---------------------------------------------------------------------------


def run_storm(inst, bdir, opts, mode):
    cmd = [opts.storm_python, os.path.abspath(__file__), "--storm-worker",
           "--model", os.path.join(bdir, inst["prism"]), "--prop", inst["formula"],
           "--mode", mode, "--precision", str(opts.precision)]
    if inst.get("const"):
        cmd += ["--const", inst["const"]]
    for c in inst.get("prop_consts", []):
        cmd += ["--prop-const", c]
    if inst.get("multi_precision"):
        cmd += ["--multi-precision", inst["multi_precision"]]
    if opts.absolute:
        cmd.append("--absolute")
    return repeat(cmd, opts, opts.timeout if mode == "sound" else opts.exact_timeout, "storm")


def alea_command(alea, inst, bdir, opts, exact):
    prop = "\n".join(inst.get("prop_consts", []) + [f'"{inst["property"]}": {inst["formula"]}'])
    cmd = [alea, "check", os.path.join(bdir, inst["prism"]), "--prop", prop, "--json"]
    if inst.get("const"):
        cmd += ["--const", inst["const"]]
    if exact:
        cmd.append("--exact")
    else:
        cmd += ["--precision", str(opts.precision)]
    return cmd


def run_pair(inst, bdir, opts, exact):
    """The baseline and the new alea in turn, B A A B B A ...: each one's runs and the
    ratios A/B pair by pair (the machine's drift cancels in each pair, and each side
    runs first as often as the other, because the second of two runs is often slower)."""
    timeout = opts.exact_timeout if exact else opts.timeout
    commands = {side: alea_command(path, inst, bdir, opts, exact)
                for side, path in (("baseline", opts.alea_baseline), ("alea", opts.alea))}
    runs = {"baseline": [], "alea": []}
    for i in range(max(1, opts.runs)):
        for side in (("baseline", "alea") if i % 2 == 0 else ("alea", "baseline")):
            runs[side].append(run_measured(commands[side], timeout, opts.mem_limit_gb))
    out = {}
    for side, rs in runs.items():
        last = rs[-1]
        objs = [o for o in last_json_objects(last["stdout"]) if o.get("name") == inst["property"]] \
            or last_json_objects(last["stdout"])
        ok = all(not r["timed_out"] and r["returncode"] == 0 for r in rs) and bool(objs)
        out[side] = {
            "status": "ok" if ok else ("timeout" if last["timed_out"] else "error"),
            "wall": statistics.median(r["wall"] for r in rs),
            "walls": [r["wall"] for r in rs],
            "rss_mb": max(r["rss_mb"] for r in rs),
            "result": objs[-1] if objs else None,
            "error": None if ok else (last["stderr"].strip()[-600:] or last["stdout"].strip()[-600:]),
        }
    pairs = [a["wall"] / b["wall"] for a, b in zip(runs["alea"], runs["baseline"]) if b["wall"] > 0]
    out["ratio"] = statistics.median(pairs) if pairs else None
    out["ratios"] = pairs
    return out


def run_alea(inst, bdir, opts, exact):
    prop = "\n".join(inst.get("prop_consts", []) + [f'"{inst["property"]}": {inst["formula"]}'])
    cmd = [opts.alea, "check", os.path.join(bdir, inst["prism"]), "--prop", prop, "--json"]
    if inst.get("const"):
        cmd += ["--const", inst["const"]]
    if exact:
        cmd.append("--exact")
    else:
        cmd += ["--precision", str(opts.precision)]
    return repeat(cmd, opts, opts.exact_timeout if exact else opts.timeout, "alea", inst["property"])


def repeat(cmd, opts, timeout, tool, name=None):
    runs = []
    result = None
    for i in range(max(1, opts.runs)):
        r = run_measured(cmd, timeout, opts.mem_limit_gb)
        runs.append(r)
        if r["timed_out"] or r["returncode"] != 0:
            break
    last = runs[-1]
    objs = last_json_objects(last["stdout"])
    if name is not None:
        named = [o for o in objs if o.get("name") == name]
        objs = named or objs
    result = objs[-1] if objs else None
    ok = not last["timed_out"] and last["returncode"] == 0 and result is not None
    status = "ok" if ok else ("timeout" if last["timed_out"] else
                              ("memout?" if last["returncode"] in (-9, 137, -6) else "error"))
    return {
        "tool": tool,
        "status": status,
        "command": cmd,
        "wall": statistics.median(r["wall"] for r in runs) if ok else last["wall"],
        "walls": [r["wall"] for r in runs],
        "rss_mb": max(r["rss_mb"] for r in runs),
        "result": result,
        "objects": last_json_objects(last["stdout"]),
        "error": None if ok else (last["stderr"].strip()[-600:] or last["stdout"].strip()[-600:]),
    }


def to_fraction(x):
    if x is None:
        return None
    try:
        return Fraction(x) if not isinstance(x, float) else Fraction(x)
    except (ValueError, ZeroDivisionError, TypeError):
        return None


def agrees(value, infinite, bound, ref, ref_tol):
    """Is a floating-point `value` with absolute error `bound` consistent with the
    reference? Returns True/False/None (no reference)."""
    if ref is None:
        return None
    if ref["infinite"] or infinite:
        return bool(ref["infinite"]) == bool(infinite)
    if value is None:
        return False
    if ref["exact"] is not None:
        q = Fraction(ref["exact"])
        return abs(Fraction(value) - q) <= Fraction(bound) + Fraction(abs(value)) * Fraction(2, 10**15)
    if ref["approx"] is not None:
        r = ref["approx"]
        return abs(value - r) <= bound + ref_tol * max(abs(r), 1e-300) + 1e-15 * abs(r)
    return None


def exact_agrees(exact, infinite, ref, ref_tol):
    if ref is None:
        return None
    if ref["infinite"] or infinite:
        return bool(ref["infinite"]) == bool(infinite)
    if exact is None:
        return False
    q = Fraction(exact)
    if ref["exact"] is not None:
        return q == Fraction(ref["exact"])
    if ref["approx"] is not None:
        r = ref["approx"]
        return abs(float(q) - r) <= ref_tol * max(abs(r), 1e-300)
    return None


def compare_one(inst, bdir, opts):
    ref = inst["reference"]
    row = {k: inst[k] for k in ("model", "type", "params", "const", "property", "formula",
                                "states_qvbs", "features", "reference", "reference_note")}
    if opts.alea_baseline:
        for key, exact in (("pair", False), ("pair_exact", True)):
            if (exact and opts.no_exact) or (not exact and opts.no_sound):
                continue
            p = run_pair(inst, bdir, opts, exact)
            for side in ("baseline", "alea"):
                r = p[side]
                if r["status"] == "ok":
                    res = r["result"]
                    r["agrees"] = (exact_agrees(res.get("exact"), res.get("infinite"), ref, opts.ref_tolerance)
                                   if exact else
                                   agrees(res.get("value"), res.get("infinite"), res.get("error_bound") or 0.0,
                                          ref, opts.ref_tolerance))
            row[key] = p
        return row
    if not opts.alea_only and not opts.no_sound:
        s = run_storm(inst, bdir, opts, "sound")
        if s["status"] == "ok":
            r = s["result"]
            v, inf = r.get("value"), r.get("infinite")
            if r.get("lower") is not None and r.get("upper") is not None and v is not None:
                bound = max(v - r["lower"], r["upper"] - v, 0.0)
            else:
                bound = 0.0
            # Storm's guarantee: relative (or absolute) precision P.
            tol = opts.precision * (abs(v) if (v is not None and not opts.absolute) else 1.0)
            s["agrees"] = agrees(v, inf, max(bound, tol), ref, opts.ref_tolerance)
        row["storm_sound"] = s
    if not opts.alea_only and not opts.no_exact:
        e = run_storm(inst, bdir, opts, "exact")
        if e["status"] == "ok":
            r = e["result"]
            e["agrees"] = exact_agrees(r.get("exact"), r.get("infinite"), ref, opts.ref_tolerance)
        row["storm_exact"] = e
    if not opts.storm_only and not opts.no_sound:
        a = run_alea(inst, bdir, opts, False)
        if a["status"] == "ok":
            r = a["result"]
            a["agrees"] = agrees(r.get("value"), r.get("infinite"), r.get("error_bound") or 0.0,
                                 ref, opts.ref_tolerance)
        row["alea"] = a
    if not opts.storm_only and not opts.no_exact:
        e = run_alea(inst, bdir, opts, True)
        if e["status"] == "ok":
            r = e["result"]
            e["agrees"] = exact_agrees(r.get("exact"), r.get("infinite"), ref, opts.ref_tolerance)
        row["alea_exact"] = e
    return row


# ---------------------------------------------------------------------------
# Every property of an instance, in one process per tool
# ---------------------------------------------------------------------------

NO_REFERENCE = "no reference result in index.json"


def every_property(cat: list[dict], inst: dict) -> dict:
    """The parameter set of `inst` with every property of it that both tools read: a
    `P>=1` query as its numeric variant where QVBS gives its truth, the properties
    without a reference compared between the two tools instead."""
    same = [c for c in cat if c["model"] == inst["model"] and c["params"] == inst["params"]
            and c["prism"] == inst["prism"] and c["excluded"] in (None, NO_REFERENCE)]
    consts, prop_consts = {}, []
    for c in same:
        for kv in filter(None, c.get("const", "").split(",")):
            k, v = kv.split("=", 1)
            consts[k] = v
        prop_consts += [pc for pc in c.get("prop_consts", []) if pc not in prop_consts]
    return {
        "model": inst["model"], "type": inst["type"], "params": inst["params"],
        "prism": inst["prism"], "states_qvbs": inst["states_qvbs"],
        "const": ",".join(f"{k}={v}" for k, v in consts.items()),
        "prop_consts": prop_consts,
        "properties": [{"name": c["property"], "formula": c["formula"], "reference": c["reference"]}
                       for c in same],
    }


def group_commands(group, bdir, opts, exact):
    model = os.path.join(bdir, group["prism"])
    text = "\n".join(group["prop_consts"] + [f'"{p["name"]}": {p["formula"]};' for p in group["properties"]])
    alea = [opts.alea, "check", model, "--prop", text, "--json"]
    alea += ["--exact"] if exact else ["--precision", str(opts.precision)]
    storm = [opts.storm_python, os.path.abspath(__file__), "--storm-worker", "--model", model,
             "--props-json", json.dumps([{"name": p["name"], "formula": p["formula"]} for p in group["properties"]]),
             "--mode", "exact" if exact else "sound", "--precision", str(opts.precision)]
    storm += [a for c in group["prop_consts"] for a in ("--prop-const", c)]
    if opts.absolute:
        storm.append("--absolute")
    if group["const"]:
        alea += ["--const", group["const"]]
        storm += ["--const", group["const"]]
    return alea, storm


def storm_tolerance(r, opts):
    """Storm's guarantee for a sound-mode value: its own bounds where it gives them,
    else the relative (or absolute) precision."""
    v = r.get("value")
    if not isinstance(v, float):
        return 0.0
    bound = 0.0
    if r.get("lower") is not None and r.get("upper") is not None:
        bound = max(v - r["lower"], r["upper"] - v, 0.0)
    return max(bound, opts.precision * (abs(v) if not opts.absolute else 1.0))


def truth(r):
    """A true/false result: alea's `holds`, or Storm's Boolean value."""
    if r is None:
        return None
    if isinstance(r.get("holds"), bool):
        return r["holds"]
    return r["value"] if isinstance(r.get("value"), bool) else None


def consistent(a, s, opts, exact):
    """Do two results of one property without a reference agree: the same truth value,
    the same fraction, or intervals that meet."""
    if a is None or s is None:
        return None
    if truth(a) is not None or truth(s) is not None:
        return truth(a) == truth(s)
    if a.get("infinite") or s.get("infinite"):
        return bool(a.get("infinite")) == bool(s.get("infinite"))
    av, sv = a.get("value"), s.get("value")
    if exact:
        return a.get("exact") is not None and s.get("exact") is not None and \
            Fraction(a["exact"]) == Fraction(s["exact"])
    if av is None or sv is None:
        return False
    return abs(av - sv) <= (a.get("error_bound") or 0.0) + storm_tolerance(s, opts) + 1e-15 * abs(sv)


def compare_group(group, bdir, opts):
    """Each tool once per mode on every property of the group; each property's value
    checked against the reference, or against the other tool where there is none."""
    row = {k: group[k] for k in ("model", "type", "params", "const", "states_qvbs")}
    row["properties"] = [p["name"] for p in group["properties"]]
    for exact in (False, True):
        if (exact and opts.no_exact) or (not exact and opts.no_sound):
            continue
        alea_cmd, storm_cmd = group_commands(group, bdir, opts, exact)
        timeout = opts.exact_timeout if exact else opts.timeout
        a = repeat(alea_cmd, opts, timeout, "alea")
        s = repeat(storm_cmd, opts, timeout, "storm") if not opts.alea_only else None
        agree = {}
        for p in group["properties"]:
            ar = next((o for o in a["objects"] if o.get("name") == p["name"]), None) if a["status"] == "ok" else None
            sr = next((o for o in s["objects"] if o.get("name") == p["name"]), None) \
                if s and s["status"] == "ok" else None
            ref = p["reference"]
            if ar is None:
                # No answer: a time limit is not a disagreement, anything else is.
                ok = None if a["status"] == "timeout" else False
            elif ref is not None and ref["bool"] is not None:
                ok = truth(ar) == ref["bool"]
            elif ref is not None:
                ok = (exact_agrees(ar.get("exact"), ar.get("infinite"), ref, opts.ref_tolerance) if exact else
                      agrees(ar.get("value"), ar.get("infinite"), ar.get("error_bound") or 0.0, ref,
                             opts.ref_tolerance))
            else:
                ok = consistent(ar, sr, opts, exact)
            agree[p["name"]] = ok
        key = "exact" if exact else "sound"
        row["alea_" + key], row["storm_" + key], row["agree_" + key] = a, s, agree
    return row


def markdown_groups(rows, opts) -> str:
    head = ["model", "parameters", "states", "properties"]
    for key in ("sound", "exact"):
        if (key == "exact" and opts.no_exact) or (key == "sound" and opts.no_sound):
            continue
        pre = "exact " if key == "exact" else ""
        head += [f"alea {pre}s", f"Storm {'exact' if key == 'exact' else 'sound'} s", f"{pre}ratio",
                 f"alea {pre}MB", f"Storm {pre}MB", f"{pre}agree"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        a = row.get("alea_sound") or row.get("alea_exact")
        states = a["objects"][0].get("states") if a and a["objects"] else row["states_qvbs"]
        cells = [row["model"], row["params"], str(states or "–"), ", ".join(row["properties"])]
        for key in ("sound", "exact"):
            if ("alea_" + key) not in row:
                continue
            a, s, agree = row["alea_" + key], row["storm_" + key], row["agree_" + key]
            known = [v for v in agree.values() if v is not None]
            cells += [cell_time(a), cell_time(s), ratio(a, s), cell_mb(a), cell_mb(s),
                      f"{sum(1 for v in known if v)}/{len(agree)}" + (" ✗" if False in known else "")]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"Times: wall seconds of the whole process (parsing, building once, checking every "
                 f"property), median of {opts.runs} runs; ratio = alea / Storm; MB = peak resident set "
                 f"size; agree = properties whose alea value is consistent with the reference (or, "
                 f"without one, with Storm's). Precision {opts.precision} "
                 f"({'absolute' if opts.absolute else 'relative'} for Storm).")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------


def fmt_num(x, digits=10):
    if x is None:
        return "–"
    if isinstance(x, float):
        return f"{x:.{digits}g}"
    return str(x)


def ref_text(ref):
    if ref is None:
        return "–"
    if ref["infinite"]:
        return "∞"
    if ref["bool"] is not None:
        return str(ref["bool"]).lower()
    return fmt_num(ref["approx"]) + ("" if ref["exact"] is not None else " (≈)")


def cell_time(r):
    if r is None:
        return "–"
    if r["status"] != "ok":
        return r["status"]
    mark = "" if r.get("agrees") in (True, None) else " ✗"
    return f"{r['wall']:.2f}{mark}"


def cell_mb(r):
    return "–" if r is None else f"{r['rss_mb']:.0f}"


def ratio(a, b):
    if not a or not b or a["status"] != "ok" or b["status"] != "ok":
        return "–"
    return f"{a['wall'] / b['wall']:.2f}"


def states_of(row):
    for k in ("alea", "storm_sound", "alea_exact", "storm_exact"):
        r = row.get(k)
        if r and r.get("result") and r["result"].get("states") is not None:
            return r["result"]["states"]
    return row.get("states_qvbs")


def markdown_storm_only(rows, opts) -> str:
    head = ["model", "parameters", "states", "property", "reference", "Storm value",
            "Storm sound s", "Storm MB"]
    if not opts.no_exact:
        head += ["Storm exact s", "Storm exact MB"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        s, se = row.get("storm_sound"), row.get("storm_exact")
        val = "–"
        for r in (s, se):
            if r and r["status"] == "ok":
                val = "∞" if r["result"].get("infinite") else fmt_num(r["result"].get("value"))
                break
        cells = [row["model"], row["params"], str(states_of(row) or "–"), row["property"],
                 ref_text(row["reference"]), val, cell_time(s), cell_mb(s)]
        if not opts.no_exact:
            cells += [cell_time(se), cell_mb(se)]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"Times: wall seconds of the whole process (Python start and stormpy import included), "
                 f"median of {opts.runs} runs; MB = peak resident set size. ✗ = not consistent with the reference. "
                 f"Precision {opts.precision} ({'absolute' if opts.absolute else 'relative'}).")
    return "\n".join(lines)


def markdown_pairs(rows, opts) -> str:
    out = [f"alea ({opts.alea}) against the baseline ({opts.alea_baseline}), in turn, "
           f"{opts.runs} pairs each; precision {opts.precision:g}; ratio = median of A/B pair by pair.",
           "",
           "| model | parameters | states | property | baseline s | alea s | ratio | exact baseline s | exact alea s | exact ratio | agree |",
           "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|"]
    for row in rows:
        cells = [row["model"], row["params"], str(row.get("states_qvbs") or ""), row["property"]]
        agree = []
        for key in ("pair", "pair_exact"):
            p = row.get(key)
            if not p:
                cells += ["", "", ""]
                continue
            b, a = p["baseline"], p["alea"]
            cells.append(f"{b['wall']:.3f}" if b["status"] == "ok" else b["status"])
            cells.append(f"{a['wall']:.3f}" if a["status"] == "ok" else a["status"])
            cells.append(f"{p['ratio']:.3f}" if p["ratio"] is not None and a["status"] == b["status"] == "ok" else "")
            agree += [str(b.get("agrees")), str(a.get("agrees"))]
        cells.append("/".join(agree))
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def markdown(rows, opts) -> str:
    if opts.storm_only:
        return markdown_storm_only(rows, opts)
    head = ["model", "parameters", "states", "property", "reference"]
    if not opts.no_sound:
        head += ["alea value ± bound", "alea s", "Storm sound s", "ratio", "alea MB", "Storm MB"]
    if not opts.no_exact:
        head += ["alea exact s", "Storm exact s", "exact ratio", "alea exact MB", "Storm exact MB"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        a, s = row.get("alea"), row.get("storm_sound")
        ae, se = row.get("alea_exact"), row.get("storm_exact")
        if a and a["status"] == "ok":
            r = a["result"]
            val = "∞" if r.get("infinite") else f"{fmt_num(r.get('value'))} ± {r.get('error_bound', 0):.1e}"
        elif s and s["status"] == "ok":
            val = "(Storm) " + ("∞" if s["result"].get("infinite") else fmt_num(s["result"].get("value")))
        else:
            val = "–"
        cells = [row["model"], row["params"], str(states_of(row) or "–"), row["property"],
                 ref_text(row["reference"])]
        if not opts.no_sound:
            cells += [val, cell_time(a), cell_time(s), ratio(a, s), cell_mb(a), cell_mb(s)]
        if not opts.no_exact:
            cells += [cell_time(ae), cell_time(se), ratio(ae, se), cell_mb(ae), cell_mb(se)]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"Times: wall seconds of the whole process, median of {opts.runs} runs; ratio = alea / Storm; "
                 f"MB = peak resident set size. ✗ = value not consistent with the reference. "
                 f"Precision {opts.precision} ({'absolute' if opts.absolute else 'relative'} for Storm).")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


# Paths of LTL and multi-objective queries: (label, where the model is: "qvbs", "repo"
# or "prism-tests", the model, its constants, the formula, Storm's multi-objective
# precision where not --precision).
PATH_ROWS = [
    ("consensus.4, K=2", "qvbs", "mdp/consensus/consensus.4.prism", "K=2",
     'Pmin=? [ (F "finished") & (G F "agree") ]', None),
    ("consensus.6, K=2", "qvbs", "mdp/consensus/consensus.6.prism", "K=2",
     'Pmin=? [ (F "finished") & (G F "agree") ]', None),
    ("crowds, 6 runs, 10 members", "qvbs", "dtmc/crowds/crowds.prism", "TotalRuns=6,CrowdSize=10",
     'P=? [ (F observe0>1) & (G observe1<2) ]', None),
    ("crowds, 6 runs, 10 members", "qvbs", "dtmc/crowds/crowds.prism", "TotalRuns=6,CrowdSize=10",
     'P=? [ G F (observe0>1 | observe1>1) ]', None),
    ("Pig to 100, hold at 20", "repo", "examples/pig.prism", "goal=100,h=20,first=0",
     'Pmax=? [ (opp<25 U me>=50) & (F "won") ]', None),
    ("Pig to 100, hold at 20", "repo", "examples/pig.prism", "goal=100,h=20,first=0",
     'Pmax=? [ G !"lost" ]', None),
    ("Pig to 8, hold at 4", "repo", "examples/pig.prism", "goal=8,h=4,first=0",
     'multi(Pmax=? [F "won"], R{"throws"}<=3.5 [C])', None),
    ("Pig to 50, hold at 4", "repo", "examples/pig.prism", "goal=50,h=4,first=0",
     'multi(Pmax=? [F "won"], R{"throws"}<=27 [C])', None),
    ("Pig to 100, hold at 4", "repo", "examples/pig.prism", "goal=100,h=4,first=0",
     'multi(Pmax=? [F "won"], R{"throws"}<=55 [C])', None),
    ("Pig to 20, hold at 4", "repo", "examples/pig.prism", "goal=20,h=4,first=0",
     'multi(Pmax=? [F "won"], R{"throws"}min=? [C])', "1e-4"),
] + [
    (f"consensus_multi{n}", "prism-tests", f"functionality/verify/mdps/multi-general/consensus_multi{n}.nm",
     "", None, None)
    for n in (3, 4, 5)
]


def compare_paths(opts) -> int:
    """The rows of PATH_ROWS: alea and Storm, wall-time medians, values side by side."""
    if not opts.alea:
        raise SystemExit("--alea PATH is required")
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    places = {"repo": repo, "qvbs": benchmarks_dir(opts.qvbs) if opts.qvbs else None,
              "prism-tests": opts.prism_tests}
    lines = ["| model | property | alea | Storm | ratio | alea's value | Storm's |",
             "|---|---|---:|---:|---:|---|---|"]
    for label, where, model, const, formula, multi_precision in PATH_ROWS:
        if places[where] is None:
            print(f"skipped (no --{where} given): {label} {formula or model}", file=sys.stderr)
            continue
        path = os.path.join(places[where], model)
        if formula is None:
            # A regression model's own multi-objective property.
            with open(path + ".props", encoding="utf-8") as fh:
                formula = next(l for l in fh if l.strip().startswith("multi"))
            formula = formula.strip().rstrip(";")
        inst = {"prism": path, "formula": formula, "const": const, "property": "p",
                "multi_precision": multi_precision}
        print(f"{label}: {formula}", file=sys.stderr, flush=True)
        a = run_alea(inst, "", opts, False)
        st = run_storm(inst, "", opts, "sound")
        def shown(r):
            if r["status"] != "ok":
                return r["status"]
            res = r["result"]
            if res.get("pareto"):
                return f"{len(res['pareto'])} corners" if isinstance(res["pareto"], list) else "a curve"
            v = res.get("value")
            e = res.get("error_bound")
            return f"{v:.12g}" + (f" ± {e:.1e}" if e else "") if isinstance(v, float) else str(v)
        def wall(r):
            return r["wall"] if r["status"] == "ok" else None
        wa, ws = wall(a), wall(st)
        formula = formula.replace("|", "\\|")
        lines.append(f"| {label} | `{formula}` | {fmt_wall(wa)} | {fmt_wall(ws)} | "
                     f"{wa / ws:.2f} | {shown(a)} | {shown(st)} |" if wa and ws else
                     f"| {label} | `{formula}` | {fmt_wall(wa)} | {fmt_wall(ws)} | | {shown(a)} | {shown(st)} |")
        print("    " + lines[-1], file=sys.stderr, flush=True)
    print("\n".join(lines))
    return 0


def fmt_wall(w) -> str:
    return "-" if w is None else (f"{w:.3f} s" if w < 0.1 else f"{w:.2f} s")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qvbs", help="QVBS checkout (the qcomp repository or its benchmarks/ directory)")
    ap.add_argument("--alea", help="the alea binary")
    ap.add_argument("--storm-python", default=sys.executable,
                    help="Python of the venv with stormpy (default: this Python)")
    ap.add_argument("--models", help="comma-separated QVBS model names (short names, e.g. brp,consensus)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per floating-point run (default 120)")
    ap.add_argument("--exact-timeout", type=float, default=60.0, help="seconds per exact run (default 60)")
    ap.add_argument("--runs", type=int, default=3, help="runs per measurement; the median time is reported")
    ap.add_argument("--precision", type=float, default=1e-9)
    ap.add_argument("--absolute", action="store_true",
                    help="Storm: absolute instead of relative termination criterion")
    ap.add_argument("--ref-tolerance", type=float, default=1e-6,
                    help="relative slack allowed against approximate (non-exact) QVBS references")
    ap.add_argument("--mem-limit-gb", type=float, default=16.0, help="address-space limit per run")
    ap.add_argument("--out", help="write all results as JSON here")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--storm-only", action="store_true")
    ap.add_argument("--alea-only", action="store_true")
    ap.add_argument("--alea-baseline", metavar="B", help="an older alea binary to pair --alea against")
    ap.add_argument("--no-exact", action="store_true")
    ap.add_argument("--no-sound", action="store_true", help="exact mode only")
    ap.add_argument("--all", action="store_true", help="the whole supported catalogue, not the curated list")
    ap.add_argument("--max-states", type=int, default=5_000_000, help="with --all: the QVBS state count limit")
    ap.add_argument("--every-property", action="store_true",
                    help="per curated parameter set, every property of it in one process per tool")
    ap.add_argument("--paths", action="store_true",
                    help="the LTL and multi-objective rows of the README, not QVBS's properties")
    ap.add_argument("--prism-tests", metavar="DIR",
                    help="with --paths: PRISM's prism-tests checkout, for its consensus_multi models")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--catalogue", metavar="FILE")
    # hidden: the Storm worker
    ap.add_argument("--storm-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--model", help=argparse.SUPPRESS)
    ap.add_argument("--prop", help=argparse.SUPPRESS)
    ap.add_argument("--props-json", help=argparse.SUPPRESS)
    ap.add_argument("--prop-const", action="append", default=[], help=argparse.SUPPRESS)
    ap.add_argument("--const", default="", help=argparse.SUPPRESS)
    ap.add_argument("--mode", choices=("sound", "exact"), default="sound", help=argparse.SUPPRESS)
    ap.add_argument("--multi-precision", help=argparse.SUPPRESS)
    opts = ap.parse_args(argv)

    if opts.storm_worker:
        storm_worker(opts)
        return 0
    if opts.paths:
        return compare_paths(opts)
    if not opts.qvbs:
        ap.error("--qvbs DIR is required")
    bdir = benchmarks_dir(opts.qvbs)
    cat = catalogue(opts.qvbs)
    if opts.catalogue:
        with open(opts.catalogue, "w", encoding="utf-8") as fh:
            json.dump(cat, fh, indent=1)
        print(f"{len(cat)} entries, {sum(1 for c in cat if not c['excluded'])} supported -> {opts.catalogue}")
        return 0
    if opts.all:
        chosen = [c for c in cat if not c["excluded"] and (c["states_qvbs"] or 0) <= opts.max_states]
    else:
        chosen = []
        for model, params, prop, _why in INSTANCES:
            inst = find_instance(cat, model, params, prop)
            if inst is None:
                print(f"warning: {model} {params} {prop} not found in the QVBS checkout", file=sys.stderr)
            else:
                chosen.append(inst)
    if opts.models:
        wanted = set(opts.models.split(","))
        chosen = [c for c in chosen if c["model"] in wanted]
    if opts.every_property:
        if opts.alea_baseline or opts.storm_only:
            ap.error("--every-property runs both tools; it takes neither --alea-baseline nor --storm-only")
        groups, seen = [], set()
        for c in chosen:
            if (c["model"], c["params"]) not in seen:
                seen.add((c["model"], c["params"]))
                groups.append(every_property(cat, c))
        if opts.list:
            for g in groups:
                print(f"{g['model']:22} {g['params']:40} {', '.join(p['name'] for p in g['properties'])}")
            return 0
        if not opts.alea:
            ap.error("--alea PATH is required")
        rows = []
        for i, g in enumerate(groups):
            print(f"[{i + 1}/{len(groups)}] {g['model']} {g['params']} "
                  f"({len(g['properties'])} properties)", file=sys.stderr, flush=True)
            row = compare_group(g, bdir, opts)
            rows.append(row)
            for key in ("sound", "exact"):
                for tool in ("alea", "storm"):
                    r = row.get(f"{tool}_{key}")
                    if r:
                        print(f"    {tool} {key:6} {r['status']:8} {r['wall']:8.2f}s {r['rss_mb']:8.0f}MB",
                              file=sys.stderr, flush=True)
                if f"agree_{key}" in row:
                    print(f"    agree {key}: {row['agree_' + key]}", file=sys.stderr, flush=True)
            if opts.out:
                with open(opts.out, "w", encoding="utf-8") as fh:
                    json.dump(rows, fh, indent=1)
        if opts.markdown:
            print(markdown_groups(rows, opts))
        return 1 if any(v is False for r in rows for k in ("agree_sound", "agree_exact")
                        for v in r.get(k, {}).values()) else 0
    if opts.list:
        for c in chosen:
            print(f"{c['model']:22} {c['params']:40} {c['property']:22} states={c['states_qvbs']}  {c['formula']}")
        return 0
    if not opts.storm_only and not opts.alea:
        ap.error("--alea PATH is required (or --storm-only)")
    if opts.alea_baseline:
        opts.alea_only = True
    rows = []
    for i, inst in enumerate(chosen):
        print(f"[{i + 1}/{len(chosen)}] {inst['model']} {inst['params']} {inst['property']}", file=sys.stderr, flush=True)
        row = compare_one(inst, bdir, opts)
        rows.append(row)
        for k in ("pair", "pair_exact"):
            p = row.get(k)
            if p:
                print(f"    {k:12} baseline {p['baseline']['status']} {p['baseline']['wall']:8.3f}s  "
                      f"alea {p['alea']['status']} {p['alea']['wall']:8.3f}s  ratio {p['ratio']}  "
                      f"agrees={p['baseline'].get('agrees')}/{p['alea'].get('agrees')}",
                      file=sys.stderr, flush=True)
        for k in ("alea", "storm_sound", "alea_exact", "storm_exact"):
            r = row.get(k)
            if r:
                val = r["result"].get("exact") or r["result"].get("value") if r["result"] else None
                if isinstance(val, str) and len(val) > 40:
                    val = val[:18] + "…" + val[-18:]
                print(f"    {k:12} {r['status']:8} {r['wall']:8.2f}s {r['rss_mb']:8.0f}MB  agrees={r.get('agrees')}  {val}",
                      file=sys.stderr, flush=True)
        if opts.out:
            with open(opts.out, "w", encoding="utf-8") as fh:
                json.dump(rows, fh, indent=1)
    if opts.markdown:
        print(markdown_pairs(rows, opts) if opts.alea_baseline else markdown(rows, opts))
    bad = [r for r in rows for k in ("alea", "alea_exact") if r.get(k) and r[k].get("agrees") is False]
    bad += [r for r in rows for k in ("pair", "pair_exact")
            if r.get(k) and r[k]["alea"].get("agrees") is False]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
