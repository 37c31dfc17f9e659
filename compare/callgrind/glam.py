#!/usr/bin/env python3
"""glam 0.29.2's `iai` bench under iai-callgrind 0.12.3 and after the
one-line switch to yardstick-callgrind: the instruction count of each of its
26 benchmarks, side by side, at the bench profile's codegen units and with
`codegen-units = 1` (the evidence behind the calling-convention note in
guide/src/migration/iai-callgrind.md).

    python3 compare/callgrind/glam.py [--target-dir DIR] [--markdown]

Each side is a scratch crate depending on glam 0.29.2 whose bench is glam's
own `benches/iai.rs`, unchanged. Needs valgrind, cargo, the crates.io
registry and iai-callgrind-runner 0.12.3 on PATH or in IAI_CALLGRIND_RUNNER
(cargo install iai-callgrind-runner --version 0.12.3 --root DIR). Python 3
standard library only. Progress goes to stderr, the table to stdout.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
GLAM = "0.29.2"
SIDES = {
    "iai-callgrind 0.12.3": 'iai-callgrind = "=0.12.3"',
    "yardstick-callgrind": 'iai-callgrind = {{ package = "yardstick-callgrind", path = "{}" }}'.format(
        os.path.join(REPO, "crates/yardstick-callgrind")
    ),
}
HEADER = re.compile(r"^(iai::\S+)")
INSTR = re.compile(r"^\s*Instructions:\s+(\d+)\|")


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def manifest(dependency):
    return (
        '[package]\nname = "glam-counts"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n'
        '[workspace]\n\n[dependencies]\nglam = "={}"\n\n[dev-dependencies]\n{}\n\n'
        '[[bench]]\nname = "iai"\nharness = false\n'.format(GLAM, dependency)
    )


def glam_bench(root):
    """glam's `benches/iai.rs`, from the registry's copy of the package."""
    probe = os.path.join(root, "probe")
    os.makedirs(os.path.join(probe, "src"), exist_ok=True)
    with open(os.path.join(probe, "Cargo.toml"), "w") as f:
        f.write(manifest("")[: manifest("").index("[dev-dependencies]")])
    open(os.path.join(probe, "src/lib.rs"), "w").close()
    subprocess.run(["cargo", "fetch"], cwd=probe, check=True)
    home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    found = glob.glob(os.path.join(home, "registry/src/*/glam-{}/benches/iai.rs".format(GLAM)))
    if not found:
        sys.exit("glam {} was fetched but its benches/iai.rs is not in {}".format(GLAM, home))
    return open(found[0]).read()


def counts(root, side, dependency, bench, target, codegen_units):
    crate = os.path.join(root, side.split()[0])
    os.makedirs(os.path.join(crate, "benches"), exist_ok=True)
    os.makedirs(os.path.join(crate, "src"), exist_ok=True)
    with open(os.path.join(crate, "Cargo.toml"), "w") as f:
        f.write(manifest(dependency))
    open(os.path.join(crate, "src/lib.rs"), "w").close()
    with open(os.path.join(crate, "benches/iai.rs"), "w") as f:
        f.write(bench)
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(target, "{}-{}".format(
        side.split()[0], codegen_units or "default")))
    if codegen_units:
        env["CARGO_PROFILE_BENCH_CODEGEN_UNITS"] = str(codegen_units)
    log("running {} (codegen-units {})".format(side, codegen_units or "default"))
    out = subprocess.run(
        ["cargo", "bench", "--bench", "iai"], cwd=crate, env=env, check=True,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    ).stdout
    found, header = {}, None
    for line in out.splitlines():
        m = HEADER.match(line)
        if m:
            header = m.group(1).split("::")[-1]
        m = INSTR.match(line)
        if m and header:
            found[header] = int(m.group(1))
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--target-dir", help="where the scratch crates and builds go")
    p.add_argument("--markdown", action="store_true", help="the table as markdown")
    a = p.parse_args()
    root = a.target_dir or os.path.join(tempfile.gettempdir(), "glam-counts")
    bench = glam_bench(root)
    columns = []
    for cgu in (None, 1):
        for side, dep in SIDES.items():
            name = side + ("" if cgu is None else ", codegen-units=1")
            columns.append((name, counts(root, side, dep, bench, root, cgu)))
    names = list(columns[0][1])
    sep = " | " if a.markdown else "  "
    print(sep.join(["benchmark"] + [c for c, _ in columns]))
    if a.markdown:
        print(" | ".join(["---"] + ["---:"] * len(columns)))
    for n in names:
        print(sep.join([n] + [str(col.get(n, "-")) for _, col in columns]))
    base, ours = columns[0][1], columns[1][1]
    eq = sum(base[n] == ours.get(n) for n in names)
    lower = sum(ours.get(n, 0) < base[n] for n in names)
    print("\nyardstick-callgrind against iai-callgrind: {} equal, {} lower, {} higher".format(
        eq, lower, len(names) - eq - lower))


if __name__ == "__main__":
    main()
