#!/usr/bin/env python3
"""The default `cargo bench` comparison, end to end: how often does it cry
wolf, how often does it catch a change compiled into one benchmark, and how
long does it take per benchmark, side by side with Criterion.rs 0.8.

Two kinds of trial:

  suite   compare/benches/trust_suite.rs (24 benchmarks; `target` is scaled
          by the build's factor). One try of a condition: a fresh home, the
          build with factor 1.00 run once (it saves the baseline and, for
          yardstick, keeps its binary), then a build with the condition's
          factor run once and its verdicts read. The factor is in the
          binary's bytes (a copy with `\\nTRUST_FACTOR=<f>` appended), so the
          two builds differ only there; both copies are named alike and lie
          at paths of the same length. For `target` a "regressed" verdict
          is a detection; for the other 23 any "regressed"/"improved" is a
          false alarm (at A/A, all 24 are).
  guide   the README's main job, `cargo bench -p yardstick-guide-examples`,
          run RUNS times unchanged into a fresh home; every comparison of
          runs 2..RUNS is A/A (yardstick only: the guide's examples build
          against yardstick).
  divan   divan's example files (yardstick-divan-examples), each run RUNS
          times unchanged into a fresh home with `--target-precision 1`
          (yardstick's sampling, hence verdicts, in lock-step with the
          kept binary); runs 2..RUNS are A/A.

guide and divan with `--setup yes` (`cargo yardstick init` first, so every
build also links code layouts that the comparison samples) or `--edit
neutral|neutral-lib` run on a scratch copy of the suite instead, each run
a `cargo bench` that rebuilds what the edit touched (edited_suites.py):
`neutral` adds a never-called function, different each run, to every
selected bench file; `neutral-lib` to the guide's library (divan's files
share none); `none` leaves the copy byte-identical. Every
regressed/improved line counts as a false alarm; each run's counts (too
noisy, in lock-step, seconds, load average before and after) go to stderr
and, with --json, to FILE after every run.

By default a compile runs on one core throughout (`--load compile`, the
trust experiment's CompileLoad); `--load none` measures at rest.

Usage: python3 compare/trust/default_flow.py suite [--tries 20]
           [--harness yardstick,criterion] [--conditions A/A,+1%,+3%,+10%]
           [--load compile|none] [--json FILE]
       python3 compare/trust/default_flow.py guide [--runs 4] [--load compile|none]
           [--keep DIR] [EDITED]
       python3 compare/trust/default_flow.py divan [--files math,collections,string,memcpy]
           [--runs 4] [--load compile|none] [--keep DIR] [EDITED]
   EDITED: [--setup yes|no] [--edit none|neutral|neutral-lib]
           [--cargo-yardstick PATH (default: this checkout's target/release build)]
           [--target-dir DIR (default: in the scratch folder)] [--json FILE]
Python 3 standard library only; progress to stderr, the table to stdout.
"""

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.dirname(HERE)
REPO = os.path.dirname(COMPARE)
sys.path.insert(0, HERE)


def _trust():
    """compare/trust/run.py (the load, the builds, the verdict patterns)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("trust_run", os.path.join(HERE, "run.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


trust = _trust()
log = trust.log
FACTORS = {"A/A": 1.00, "+1%": 1.01, "+3%": 1.03, "+10%": 1.10}
CHANGED = {"regressed", "improved"}


def verdicts(text):
    """{benchmark id: verdict} from a run's output, Criterion.rs's format."""
    out, current = {}, None
    lines = trust.ANSI.sub("", text).splitlines()
    for i, line in enumerate(lines):
        if not line or line[0].isspace():
            if current is not None:
                v = trust.cross_verdict(line)
                if v != "none" and current not in out:
                    out[current] = v
            continue
        if "time:" in line:
            current = line.split("time:")[0].strip()
        elif i + 1 < len(lines) and lines[i + 1].lstrip().startswith("time:"):
            current = line.strip()
    return out


def copy_with_factor(exe, directory, factor):
    """A copy of bench binary `exe` in `directory` (same file name) with the
    factor appended to its bytes."""
    os.makedirs(directory, exist_ok=True)
    dest = os.path.join(directory, os.path.basename(exe))
    with open(exe, "rb") as f:
        data = f.read()
    with open(dest, "wb") as f:
        f.write(data + f"\nTRUST_FACTOR={factor:.2f}".encode())
    os.chmod(dest, 0o755)
    return dest


def run_bench(exe, home, harness, extra=(), package=None):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith(("YARDSTICK_", "CRITERION_", "TRUST_")):
            del env[k]
    if package:
        # As `cargo bench` sets it: without it the harness cannot tell
        # this package's target from another's of the same name, and
        # compares with the saved numbers (a divan main has no
        # criterion_main! to carry the name).
        env["CARGO_PKG_NAME"] = package
    args = [exe, "--bench", *extra]
    if harness == "yardstick":
        args += ["--home", home, "--color", "never"]
    else:
        env["CRITERION_HOME"] = home
    start = time.monotonic()
    p = subprocess.run(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, check=False)
    seconds = time.monotonic() - start
    text = p.stdout.decode(errors="replace")
    if p.returncode != 0:
        sys.exit(f"{exe} failed ({p.returncode}):\n{text[-3000:]}")
    return text, seconds


def suite_try(exe, harness, condition, scratch):
    home = tempfile.mkdtemp(prefix="home-", dir=scratch)
    try:
        a = copy_with_factor(exe, os.path.join(home, "a"), 1.00)
        b = copy_with_factor(exe, os.path.join(home, "b"), FACTORS[condition])
        run_bench(a, home, harness)
        text, seconds = run_bench(b, home, harness)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    v = verdicts(text)
    return {"verdicts": v, "seconds": seconds, "benchmarks": len(v),
            "lockstep": text.count("Measured in lock-step")}


def build_suite(harnesses, target):
    env = dict(os.environ, CARGO_TARGET_DIR=target)
    packages = []
    for h in harnesses:
        packages += ["-p", f"{h}-side"]
    log("building the trust suite (cargo bench --no-run in compare/)")
    msgs = trust.cargo_json(["bench", "--no-run", *packages, "--bench", "trust_suite"],
                            COMPARE, env)
    return {h: trust.executable(msgs, f"{h}-side", "bench", "trust_suite") for h in harnesses}


def summarise_suite(results):
    rows = []
    for (harness, condition), tries in sorted(results.items()):
        detected = sum(t["verdicts"].get("target") == "regressed" for t in tries)
        others = [v for t in tries for k, v in t["verdicts"].items() if k != "target"]
        if condition == "A/A":
            others += [t["verdicts"].get("target", "none") for t in tries]
        false = sum(v in CHANGED for v in others)
        noisy = sum(v == "too noisy" for v in others)
        secs = sum(t["seconds"] for t in tries) / max(1, sum(t["benchmarks"] for t in tries))
        rows.append((harness, condition, len(tries), detected, false, len(others), noisy, secs))
    print("| harness | condition | tries | target called regressed | others called changed "
          "| too noisy | s/benchmark |")
    print("|---|---|---|---|---|---|---|")
    for harness, cond, n, det, false, total, noisy, secs in rows:
        target = "—" if cond == "A/A" else f"{det}/{n} ({det / n:.0%})"
        print(f"| {harness} | {cond} | {n} | {target} | {false}/{total} ({false / max(total, 1):.1%}) "
              f"| {noisy}/{total} | {secs:.2f} |")


def suite(args):
    harnesses = args.harness.split(",")
    conditions = args.conditions.split(",")
    results = {}
    exes = build_suite(harnesses, os.path.join(COMPARE, "target"))
    with scratch_under(args.load) as scratch:
        for t in range(args.tries):
            for condition in conditions:
                for h in harnesses:
                    r = suite_try(exes[h], h, condition, scratch)
                    results.setdefault((h, condition), []).append(r)
                    log(f"try {t + 1}/{args.tries} {h} {condition}: target "
                        f"{r['verdicts'].get('target')}, {r['seconds']:.1f} s, "
                        f"{r['lockstep']} in lock-step")
                    # After every try: a Criterion.rs try takes minutes,
                    # and a campaign cut short keeps what it measured.
                    if args.json:
                        with open(args.json, "w") as f:
                            json.dump({f"{h} {c}": v for (h, c), v in results.items()}, f)
    summarise_suite(results)


@contextlib.contextmanager
def scratch_under(load_kind):
    """A scratch directory, with the compile load running while it is in
    use when `load_kind` is "compile"; both gone afterwards."""
    scratch = tempfile.mkdtemp(prefix="yardstick-default-flow-")
    load = trust.CompileLoad(scratch) if load_kind == "compile" else None
    try:
        if load:
            load.start()
        yield scratch
    finally:
        if load:
            load.stop()
        shutil.rmtree(scratch, ignore_errors=True)


def print_counts(counts):
    """Each verdict's count and share, the most frequent first."""
    total = sum(counts.values())
    for verdict, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"  {verdict}: {n} ({n / max(total, 1):.1%})")


def edited(args):
    """guide or divan on a scratch copy: set up with `init`, or edited."""
    return args.setup == "yes" or args.edit != "none"


def guide(args):
    if edited(args):
        import edited_suites  # layouts_flow imports this module: import on use
        with scratch_under(args.load) as scratch:
            edited_suites.edited_flow(args, "guide", verdicts, scratch)
        return
    counts, seconds, ids = {}, [], 0
    with scratch_under(args.load) as scratch:
        env = dict(os.environ, YARDSTICK_HOME=os.path.join(scratch, "home"))
        for r in range(1, args.runs + 1):
            start = time.monotonic()
            p = subprocess.run(["cargo", "bench", "-p", "yardstick-guide-examples"], cwd=REPO,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               check=False)
            seconds.append(time.monotonic() - start)
            text = p.stdout.decode(errors="replace")
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                with open(os.path.join(args.keep, f"run{r}.txt"), "w") as f:
                    f.write(text)
            v = verdicts(text)
            ids = max(ids, len(v))
            if r > 1:
                for verdict in v.values():
                    counts[verdict] = counts.get(verdict, 0) + 1
            log(f"run {r}/{args.runs}: {seconds[-1]:.1f} s, {len(v)} verdicts")
    total = sum(counts.values())
    print(f"{args.runs} runs of the guide's examples ({ids} benchmarks), load: {args.load}; "
          f"{total} comparisons in runs 2..{args.runs}; {seconds[-1]:.1f} s for the last run")
    print_counts(counts)


def divan_binaries(files):
    """divan's example files built against yardstick-divan: {file: executable}."""
    log("building divan's example files (cargo bench -p yardstick-divan-examples --no-run)")
    msgs = trust.cargo_json(["bench", "--no-run", "-p", "yardstick-divan-examples"], REPO)
    exes = {}
    for m in msgs:
        t = m.get("target", {})
        if m.get("reason") == "compiler-artifact" and m.get("executable") and "bench" in t.get("kind", []):
            exes[t.get("name")] = m["executable"]
    missing = [f for f in files if f not in exes]
    if missing:
        sys.exit(f"no bench {', '.join(missing)} in yardstick-divan-examples")
    return {f: exes[f] for f in files}


def divan(args):
    """divan's example files, each run RUNS times unchanged into one home
    with yardstick's sampling (`--target-precision 1`, which compares in
    lock-step with the baseline's kept binary), in yardstick's Criterion.rs
    format so that `verdicts` reads them; runs 2..RUNS are A/A."""
    if edited(args):
        import edited_suites  # layouts_flow imports this module: import on use
        with scratch_under(args.load) as scratch:
            edited_suites.edited_flow(args, "divan", verdicts, scratch)
        return
    files = args.files.split(",")
    exes = divan_binaries(files)
    counts, seconds, ids, lockstep, flagged = {}, [], 0, 0, []
    with scratch_under(args.load) as scratch:
        home = os.path.join(scratch, "home")
        for r in range(1, args.runs + 1):
            for f in files:
                text, secs = run_bench(exes[f], home, "yardstick",
                                       ["--target-precision", "1", "--output-format", "criterion"],
                                       package="yardstick-divan-examples")
                seconds.append(secs)
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    with open(os.path.join(args.keep, f"{f}.run{r}.txt"), "w") as out:
                        out.write(text)
                v = verdicts(text)
                ids += len(v) if r == 2 else 0
                if r > 1:
                    lockstep += text.count("Measured in lock-step")
                    for bench, verdict in v.items():
                        counts[verdict] = counts.get(verdict, 0) + 1
                        if verdict in CHANGED:
                            flagged.append(f"run {r} {f} {bench}: {verdict}")
                log(f"run {r}/{args.runs} {f}: {secs:.1f} s, {len(v)} verdicts")
    total = sum(counts.values())
    per_run = sum(seconds[-len(files):])
    print(f"{args.runs} runs of divan's example files {args.files} ({ids} benchmarks), load: "
          f"{args.load}; {total} comparisons in runs 2..{args.runs}, {lockstep} in lock-step; "
          f"{per_run:.1f} s for the last run ({per_run / max(ids, 1):.2f} s a benchmark)")
    print_counts(counts)
    for line in flagged:
        print(f"  {line}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="kind", required=True)
    s = sub.add_parser("suite")
    s.add_argument("--tries", type=int, default=20)
    s.add_argument("--harness", default="yardstick,criterion")
    s.add_argument("--conditions", default="A/A,+1%,+3%,+10%")
    s.add_argument("--load", choices=["compile", "none"], default="compile")
    s.add_argument("--json")
    g = sub.add_parser("guide")
    g.add_argument("--runs", type=int, default=4)
    g.add_argument("--load", choices=["compile", "none"], default="compile")
    g.add_argument("--keep", metavar="DIR", help="keep each run's output in DIR")
    d = sub.add_parser("divan")
    d.add_argument("--files", default="math,collections,string,memcpy")
    d.add_argument("--runs", type=int, default=4)
    d.add_argument("--load", choices=["compile", "none"], default="compile")
    d.add_argument("--keep", metavar="DIR", help="keep each run's output in DIR")
    for p in (g, d):
        p.add_argument("--setup", choices=["yes", "no"], default="no",
                       help="yes: `cargo yardstick init` on a scratch copy first")
        p.add_argument("--edit", choices=["none", "neutral", "neutral-lib"], default="none",
                       help="before each run, on a scratch copy: nothing, a never-called "
                       "function in every bench file, or in the guide's library")
        p.add_argument("--cargo-yardstick", metavar="PATH",
                       default=os.path.join(REPO, "target", "release", "cargo-yardstick"),
                       help="the cargo-yardstick that runs `init` (a build of this checkout)")
        p.add_argument("--target-dir", metavar="DIR",
                       help="the copy's cargo target directory, to keep builds between calls")
        p.add_argument("--json", metavar="FILE", help="each compared run's counts, after every run")
    args = ap.parse_args()
    {"suite": suite, "guide": guide, "divan": divan}[args.kind](args)


if __name__ == "__main__":
    main()
