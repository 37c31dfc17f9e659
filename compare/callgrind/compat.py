#!/usr/bin/env python3
"""The iai-compat bench files (crates/yardstick-callgrind/iai-compat/iai/)
against the real iai-callgrind 0.12.0 and after the one-line switch to
yardstick-callgrind: the instruction count of every benchmark, side by side.

    python3 compare/callgrind/compat.py [--markdown]

Needs valgrind, cargo, and iai-callgrind-runner 0.12.0 on PATH or in
IAI_CALLGRIND_RUNNER (cargo install iai-callgrind-runner --version 0.12.0
--root DIR). Python 3 standard library only. Progress goes to stderr, the
table to stdout.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SIDES = [("iai-callgrind 0.12.0", "cg-iai012-side"), ("yardstick-callgrind", "cg-compat-side")]
INSTR = re.compile(r"^\s*Instructions:\s+(\d+)\|")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def bench_binaries(package):
    out = subprocess.run(
        ["cargo", "bench", "--no-run", "-p", package, "--message-format=json"],
        cwd=HERE, check=True, stdout=subprocess.PIPE, text=True,
    ).stdout
    found = {}
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and "bench" in msg["target"]["kind"]:
            if msg.get("executable"):
                found[msg["target"]["name"]] = msg["executable"]
    return found


def counts(exe, home):
    """Runs the bench binary as cargo bench does; returns {header: Ir}."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("YARDSTICK_CALLGRIND_")}
    env.update({"IAI_CALLGRIND_HOME": home, "IAI_CALLGRIND_COLOR": "never", "NO_COLOR": "1"})
    env.pop("IAI_CALLGRIND_FILTER", None)
    out = subprocess.run([exe, "--bench"], env=env, cwd=HERE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        sys.exit(f"{exe} failed:\n{out.stdout}\n{out.stderr}")
    result, header = {}, None
    for line in ANSI.sub("", out.stdout).splitlines():
        if not line.startswith(" ") and "::" in line:
            header = line
        elif header and (m := INSTR.match(line)) and header not in result:
            result[header] = int(m.group(1))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args()
    results = []
    for label, package in SIDES:
        log(f"building {label} ...")
        binaries = bench_binaries(package)
        side = {}
        with tempfile.TemporaryDirectory() as home:
            for name in sorted(binaries):
                log(f"  {label}: {name}")
                side.update(counts(binaries[name], home))
        results.append(side)
    iai, ours = results
    rows = [(h, iai.get(h), ours.get(h)) for h in list(iai) + [h for h in ours if h not in iai]]
    if args.markdown:
        print("| benchmark | iai-callgrind 0.12.0 | yardstick-callgrind | difference |")
        print("| --- | ---: | ---: | ---: |")
    for header, a, b in rows:
        diff = "" if a is None or b is None else f"{b - a:+d}"
        cells = [header, str(a if a is not None else "missing"), str(b if b is not None else "missing"), diff]
        print(("| " + " | ".join(cells) + " |") if args.markdown else "  ".join(cells))


if __name__ == "__main__":
    main()
