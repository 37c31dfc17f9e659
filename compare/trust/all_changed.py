#!/usr/bin/env python3
"""What `cargo bench` costs when every benchmark's code changed.

An edit to a function every benchmark calls, or other compiler flags,
changes the code of every benchmark, and each one whose code changed gets
longer rounds (`runner::lockstep`'s CHANGED_CODE_BUDGET, shared within its
binary), unless most of the build's functions differ (REWRITTEN_SHARE: then
nothing is counted and no benchmark gets longer rounds, as here). This times it: a published suite of the compatibility corpus
(compare/corpus/crates.toml) in a scratch crate, switched to yardstick and
set up with `cargo yardstick init`, alternating two builds whose every
function differs (CARGO_PROFILE_BENCH_CODEGEN_UNITS=1 and cargo's default).
Both are built before timing, so each timed `cargo bench` only measures;
run 0 saves the baseline, the others each compare with the run before.
Then, with --criterion, the same suite on Criterion.rs 0.8 (its requirement
raised to 0.8, `cargo bench -- --noplot`), each run after the last.

With --setup no the crate is not set up with `init` (no layouts, no
relocations: the count before measuring runs whatever changed).

With --edit neutral, the other case: each run adds a never-called function
to the bench file instead (no function of the build changes), built just
before the run is timed; with --harness-dir, an older engine's figure for
the same edits.

Each line: the run's seconds, the load average, how many lines said the
rounds ran longer, and how many were verdicts (the two builds differ in
speed too, so verdicts are expected; after neutral edits, none is).

Usage: python3 compare/trust/all_changed.py --cargo-yardstick PATH
           [--corpus hex] [--runs 5] [--criterion 3] [--harness-dir DIR]
           [--edit codegen|neutral] [--setup yes|no] [--keep DIR]

With --keep DIR, each yardstick run's output is written to DIR/run<N>.txt.
Python 3 standard library only.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import layouts_flow  # noqa: E402  (the corpus crate)


def timed(cmd, cwd, env):
    start = time.time()
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=3600)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{p.stderr[-3000:]}")
    return p.stdout + p.stderr, time.time() - start


def flags(run):
    """Every other run built with one codegen unit: every function differs."""
    return {"CARGO_PROFILE_BENCH_CODEGEN_UNITS": "1"} if run % 2 else {}


def yardstick_runs(root, target, env, runs, edit, keep=None):
    bench_file = os.path.join(root, "benches", f"{target}.rs")
    if edit == "codegen":
        for build in (0, 1):
            timed(["cargo", "bench", "-q", "--no-run", "--bench", target], root,
                  {**env, **flags(build)})
    for run in range(runs + 1):
        run_env = {**env, **flags(run)} if edit == "codegen" else env
        if edit == "neutral":
            layouts_flow.add_neutral(bench_file, run)
            timed(["cargo", "bench", "-q", "--no-run", "--bench", target], root, run_env)
        text, secs = timed(["cargo", "bench", "-q", "--bench", target, "--", "--color", "never"],
                           root, run_env)
        if keep:
            os.makedirs(keep, exist_ok=True)
            with open(os.path.join(keep, f"run{run}.txt"), "w") as f:
                f.write(text)
        longer = text.count("times as long")
        verdicts = len(re.findall(r"Performance has (regressed|improved)", text))
        print(f"yardstick run {run}: {secs:.1f} s, load {os.getloadavg()[0]:.2f}, "
              f"{longer} lines with longer rounds, {verdicts} verdicts", flush=True)


def criterion_runs(root, target, env, runs):
    manifest = os.path.join(root, "Cargo.toml")
    with open(manifest) as f:
        text = f.read()
    switched = re.sub(r'\[dev-dependencies\.criterion\]\npackage = "yardstick"\npath = "[^"]*"',
                      '[dev-dependencies.criterion]\nversion = "0.8"', text)
    assert switched != text, "the switched criterion dependency moved: update criterion_runs"
    with open(manifest, "w") as f:
        f.write(switched)
    # Criterion.rs's binaries linked by cargo's own linker, as its users'.
    shutil.rmtree(os.path.join(root, ".cargo"), ignore_errors=True)
    env = {k: v for k, v in env.items() if k != "CARGO_TARGET_DIR"}
    env["CARGO_TARGET_DIR"] = os.path.join(os.path.dirname(root), "target-criterion")
    timed(["cargo", "bench", "-q", "--no-run", "--bench", target], root, env)
    for run in range(runs):
        text, secs = timed(["cargo", "bench", "-q", "--bench", target, "--", "--noplot"], root, env)
        print(f"Criterion.rs run {run}: {secs:.1f} s, load {os.getloadavg()[0]:.2f}, "
              f"{text.count('time:')} benchmarks", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cargo-yardstick", required=True)
    p.add_argument("--corpus", default="hex")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--criterion", type=int, default=3, metavar="RUNS")
    p.add_argument("--harness-dir", default=os.path.join(layouts_flow.REPO, "crates", "yardstick"))
    p.add_argument("--edit", choices=("codegen", "neutral"), default="codegen")
    p.add_argument("--setup", choices=("yes", "no"), default="yes")
    p.add_argument("--keep", metavar="DIR", help="write each yardstick run's output here")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="yardstick-all-changed-") as scratch:
        root = os.path.join(scratch, "crate")
        target, _, features = layouts_flow.corpus_crate(root, args.corpus, args.harness_dir)
        if features:
            sys.exit(f"{args.corpus} needs features {features}: not supported here")
        env = layouts_flow.scratch_env(scratch, args.cargo_yardstick)
        env["YARDSTICK_HOME"] = os.path.join(scratch, "home")
        env.pop("CARGO_PROFILE_BENCH_CODEGEN_UNITS", None)
        if args.setup == "yes":
            layouts_flow.init(root, env, args.cargo_yardstick)
        yardstick_runs(root, target, env, args.runs, args.edit, args.keep)
        if args.criterion:
            criterion_runs(root, target, env, args.criterion)


if __name__ == "__main__":
    main()
