#!/usr/bin/env python3
"""After a neutral edit, does `explain` say "the same instructions"?

Issue 41's second target: code added that no benchmark runs must leave
every benchmark's instructions as they were, so that `explain` tells a
timing change that came from layout, memory or the machine apart from one
in the code. The trust suite (compare/benches/trust_suite.rs, 24
benchmarks, line tables on) is built unchanged and saved as the baseline
`orig`, its binary kept; then each edit below is applied on top of the
ones before, the suite is rebuilt and run against `orig`, and every
benchmark is explained (`cargo yardstick explain --all --baseline orig`):

  bench file   a never-called function of 7 to 61 lines added to
               trust_suite.rs (compare/trust/layouts_flow.py's), twice;
  library      a never-called public function added to trust_body.rs (the
               code the benchmarks call), twice.

A benchmark counts as "same" when explain's totals agree within 0.1 %.

Usage: python3 compare/explain/neutral.py [--edits 4] [--json FILE]
Needs cargo, valgrind and cargo-yardstick built (`cargo build -p
cargo-yardstick`). Python 3 standard library only. Progress on stderr, the
table on stdout.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "compare", "trust"))
import attribution  # noqa: E402  (the trust crate, cargo-yardstick, run)
import layouts_flow  # noqa: E402  (the neutral function)


def library_function(k):
    """A never-called public function for trust_body.rs."""
    body = "\n".join(f"    y = y.rotate_left({(k + i) % 61 + 1}) ^ {k * 7919 + i};" for i in range(8 + 5 * k))
    return f"\n#[allow(dead_code)]\npub fn unused_{k}(mut y: u64) -> u64 {{\n{body}\n    y\n}}\n"


def edit(crate, k):
    """The k-th neutral edit: bench file on even k, library on odd."""
    if k % 2 == 0:
        layouts_flow.add_neutral(os.path.join(crate, "benches", "trust_suite.rs"), 100 + k)
        return "bench file"
    with open(os.path.join(crate, "benches", "trust_body.rs"), "a") as f:
        f.write(library_function(k))
    return "library"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edits", type=int, default=4)
    ap.add_argument("--json")
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    cy = attribution.cargo_yardstick()
    work = tempfile.mkdtemp(prefix="yardstick-neutral-explain-")
    crate, home = os.path.join(work, "trust"), os.path.join(work, "home")
    env = dict(os.environ, YARDSTICK_HOME=home, CARGO_TARGET_DIR=os.path.join(work, "target"))
    env.pop("CRITERION_HOME", None)

    def bench(args):
        attribution.run(["cargo", "bench", "--bench", "trust_suite", "--", "--color", "never", *args], crate, env)

    rows = []
    try:
        attribution.trust_crate(crate, None)
        attribution.log("the unchanged build, saved as `orig`")
        bench(["--save-baseline", "orig"])
        for k in range(a.edits):
            where = edit(crate, k)
            bench(["--baseline", "orig"])
            out = subprocess.run([cy, "explain", "--all", "--baseline", "orig", "--format", "json",
                                  "--home", home], cwd=crate, env=env, capture_output=True, text=True)
            doc = json.loads(out.stdout)
            same = sum(bool(e["same"]) for e in doc["explained"])
            rows.append({"edit": k + 1, "where": where, "explained": len(doc["explained"]),
                         "same": same, "not_explained": len(doc["not_explained"])})
            attribution.log(f"edit {k + 1} ({where}): {same} of {len(doc['explained'])} the same instructions")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("| edit | where | benchmarks explained | the same instructions |")
    print("| --- | --- | --- | --- |")
    for r in rows:
        print(f"| {r['edit']} | {r['where']} | {r['explained']} | {r['same']} |")
    total = sum(r["explained"] for r in rows)
    same = sum(r["same"] for r in rows)
    print(f"\nThe same instructions: {same} of {total} ({100 * same / max(total, 1):.1f} %)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
