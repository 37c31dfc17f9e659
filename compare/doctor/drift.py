#!/usr/bin/env python3
"""doctor's drift figure against a direct measurement of the same work.

`cargo yardstick doctor` times one fixed piece of work (200 000 dependent
multiply-adds) for a few seconds in one process and reports how far the
per-second medians move: max/min - 1. This script measures the same thing
without doctor: `work.rs` (the same chain, compiled separately with
`rustc -O`) runs as one process per second, one after another, each
printing its median; the direct figure is max/min - 1 of those medians.
A third figure runs work.rs once for all the seconds (doctor's design in
separate code), to tell a difference of processes from one of code.
Doctor and the direct measurement alternate, so both see the same
machine; each round prints both figures and their ratio, and the end the
median of each over the rounds. The target is agreement within a factor
of 2. Below FLOOR (0.1 %, a tenth of the 1 % noise threshold) both
figures are a few nanoseconds of a 0.2 ms median, and their ratio is the
ratio of two residues: there, "both below the floor" is the agreement.

    python3 compare/doctor/drift.py [--rounds 3] [--seconds 5] [--bin PATH]

`--bin` is a built `cargo-yardstick` (default: target/release, else
target/debug, under the repository root). Python 3 standard library only.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

FLOOR = 0.001

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def find_bin(given):
    if given:
        return given
    for profile in ("release", "debug"):
        path = os.path.join(ROOT, "target", profile, "cargo-yardstick")
        if os.path.exists(path):
            return path
    sys.exit("no cargo-yardstick under target/; build it or pass --bin")


def build_work(scratch):
    exe = os.path.join(scratch, "work")
    subprocess.run(
        ["rustc", "-O", "-C", "codegen-units=1", "-o", exe, os.path.join(HERE, "work.rs")],
        check=True,
    )
    return exe


def direct(exe, seconds):
    """One process per second, one after another: their medians' range."""
    medians = []
    for _ in range(seconds):
        out = subprocess.run([exe, "1"], check=True, capture_output=True, text=True)
        medians.append(float(out.stdout))
    return max(medians) / min(medians) - 1.0, medians


def one_process(exe, seconds):
    """The same work in one process for `seconds`: doctor's design, not its code."""
    out = subprocess.run([exe, str(seconds)], check=True, capture_output=True, text=True)
    medians = [float(v) for v in out.stdout.split()]
    return max(medians) / min(medians) - 1.0


def doctor(binary, seconds):
    began = time.monotonic()
    out = subprocess.run(
        [binary, "yardstick", "doctor", "--format", "json", "--seconds", str(seconds)],
        check=True,
        capture_output=True,
        text=True,
    )
    wall = time.monotonic() - began
    doc = json.loads(out.stdout)
    return doc["drift"]["relative_range"], doc["drift"]["medians_ns"], doc["seconds"], wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--bin")
    args = ap.parse_args()
    binary = find_bin(args.bin)
    with tempfile.TemporaryDirectory(prefix="doctor-drift-") as scratch:
        exe = build_work(scratch)
        print("round  doctor   direct   ratio  doctor medians (ns)  direct medians (ns)  doctor took")
        doc_all, dir_all, one_all = [], [], []
        for r in range(1, args.rounds + 1):
            d, dm, took, wall = doctor(binary, args.seconds)
            x, xm = direct(exe, args.seconds)
            one_all.append(one_process(exe, args.seconds))
            ratio = d / x if x > 0 else float("inf")
            doc_all.append(d)
            dir_all.append(x)
            print(
                f"{r:>5}  {d:6.3%}  {x:6.3%}  {ratio:5.2f}  "
                f"{' '.join(f'{m:.0f}' for m in dm)}  {' '.join(f'{m:.0f}' for m in xm)}  "
                f"{took:.1f} s (wall {wall:.1f} s)"
            )
        print(verdict("median over rounds", statistics.median(doc_all), statistics.median(dir_all)))
        print(verdict("mean over rounds", statistics.mean(doc_all), statistics.mean(dir_all)))
        print(
            "the same work in one process (work.rs, per-second medians): "
            f"median {statistics.median(one_all):.3%}, mean {statistics.mean(one_all):.3%}"
        )
        agree = sum(1 for d, x in zip(doc_all, dir_all) if agrees(d, x))
        print(f"rounds that agree (factor 2, or both below {FLOOR:.1%}): {agree}/{len(doc_all)}")


def agrees(d, x):
    if d < FLOOR and x < FLOOR:
        return True
    return x > 0 and 0.5 <= d / x <= 2.0


def verdict(what, d, x):
    ok = "agree" if agrees(d, x) else "DISAGREE"
    return f"{what}: doctor {d:.3%}, direct {x:.3%}: {ok}"


if __name__ == "__main__":
    main()
