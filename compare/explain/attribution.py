#!/usr/bin/env python3
"""Does `--explain` name the function a change was compiled into?

For a suite, a scratch crate on yardstick (path dependency) is built once
unchanged and saved as the baseline `orig` (its binary kept); then, for
each injected change of +1 % to +20 % of a benchmark's instructions, the
suite is rebuilt with the change compiled into one named function and the
benchmark is explained against `orig` (`cargo yardstick explain --all
--baseline orig`). A try is attributed correctly when the top function by
change in self instructions is the changed function, or, for a function
that is inlined into its caller, that function or its caller (which is
where the instructions land without inline debug info). Also reported:
how much of the total change the listed functions' self changes add up
to.

Suites:

  trust   compare/benches/trust_suite.rs (the trust experiment's suite),
          benchmark `target`: the change is extra steps of its loop in
          `trust_body::work` (`#[inline(never)]`, stays a function), or
          the same steps in a new `#[inline(always)]` helper that `work`
          calls (inlined into it).
  itoa    the published crate itoa 1.0.19 from the compatibility corpus
          (compare/corpus/crates.toml), its Criterion.rs benches after the
          one-line switch, benchmark `u128[max]/itoa`: the change
          is a loop of extra work in `Buffer::format` (generic, inlined
          into the benchmark's closure) or in a new `#[inline(never)]`
          function it calls.

Usage: python3 compare/explain/attribution.py [--suite trust,itoa]
           [--json FILE]
Needs cargo, valgrind, and cargo-yardstick built (`cargo build -p
cargo-yardstick`). Python 3 standard library only. Progress on stderr,
the table on stdout.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.dirname(HERE)
REPO = os.path.dirname(COMPARE)

# The injected changes, in percent of the benchmark's instructions.
PERCENTS = [1, 2, 3, 5, 7, 10, 12, 15, 18, 20]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def cargo_yardstick():
    exe = os.path.join(REPO, "target", "debug", "cargo-yardstick")
    if not os.path.exists(exe):
        subprocess.run(["cargo", "build", "-p", "cargo-yardstick"], cwd=REPO, check=True)
    return exe


def run(cmd, cwd, env):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{p.stdout[-1500:]}\n{p.stderr[-3000:]}")
    return p.stdout


# --------------------------------------------------------------------------
# Suites: each writes its crate for a change (None: unchanged) and names the
# benchmark, its filter, and the functions a correct attribution may name.


TRUST_EXTRA = """
/// Extra steps, inlined into `work` (the campaign's inlined change).
#[inline(always)]
fn extra(mut x: u64, steps: u64) -> u64 {
    for _ in 0..steps {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        x ^= x >> 29;
    }
    x
}
"""


def trust_crate(dir, change):
    """The trust suite; `change` is (kind, percent) or None."""
    os.makedirs(os.path.join(dir, "benches"), exist_ok=True)
    os.makedirs(os.path.join(dir, "src"), exist_ok=True)
    with open(os.path.join(dir, "Cargo.toml"), "w") as f:
        f.write(
            '[package]\nname = "trust-explain"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n'
            f'[dev-dependencies]\ncriterion = {{ package = "yardstick", path = {json.dumps(os.path.join(REPO, "crates/yardstick"))}, default-features = false }}\n\n'
            '[[bench]]\nname = "trust_suite"\nharness = false\n\n'
            '[profile.bench]\ndebug = "line-tables-only"\n\n[workspace]\n'
        )
    open(os.path.join(dir, "src", "lib.rs"), "w").close()
    shutil.copy(os.path.join(COMPARE, "benches", "trust_suite.rs"), os.path.join(dir, "benches"))
    body = open(os.path.join(COMPARE, "benches", "trust_body.rs")).read()
    loop = "    for _ in 0..steps {\n"
    assert loop in body, "trust_body.rs's loop moved: update the campaign"
    if change is not None:
        kind, pct = change
        if kind == "named":
            body = body.replace(loop, f"    for _ in 0..steps + steps * {pct} / 100 {{\n", 1)
        else:
            body = body.replace("    x\n}\n", f"    extra(x, steps * {pct} / 100)\n}}\n", 1) + TRUST_EXTRA
    with open(os.path.join(dir, "benches", "trust_body.rs"), "w") as f:
        f.write(body)
    shutil.copy(os.path.join(REPO, "Cargo.lock"), dir)


def trust_suite():
    return {
        "write": trust_crate,
        "bench": "trust_suite",
        "filter": "^target$",
        "expect": {
            "named": ["trust_body::work"],
            "inlined": ["trust_body::extra", "trust_body::work"],
        },
    }


def itoa_source():
    found = glob.glob(os.path.join(os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo")),
                                   "registry", "cache", "*", "itoa-1.0.19.crate"))
    if not found:
        raise RuntimeError("itoa-1.0.19.crate is not in cargo's cache: run compare/corpus/run.py once")
    return found[0]


ITOA_EXTRA = """
/// The campaign's change in a function of its own.
#[inline(never)]
fn campaign_extra(n: u64) -> u64 {
    let mut x = n;
    for _ in 0..n {
        x = core::hint::black_box(x.wrapping_mul(31) ^ (x >> 7));
    }
    x
}
"""


def itoa_crate(dir, change, _cache={}):
    """itoa 1.0.19 with its Criterion.rs benches on yardstick; `change`
    adds a loop of `n` steps to `Buffer::format` (inlined into the
    benchmark) or to a function of its own it calls."""
    if not os.path.isdir(dir):
        with tarfile.open(itoa_source()) as t:
            t.extractall(os.path.dirname(dir), filter="data")
        os.rename(os.path.join(os.path.dirname(dir), "itoa-1.0.19"), dir)
        sys.path.insert(0, os.path.join(COMPARE, "corpus"))
        import importlib.util
        spec = importlib.util.spec_from_file_location("corpus_run", os.path.join(COMPARE, "corpus", "run.py"))
        corpus = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(corpus)
        manifest = open(os.path.join(dir, "Cargo.toml")).read()
        text, n = corpus.switch_manifest(manifest, "criterion")
        assert n == 1, "itoa's manifest has no criterion dependency to switch"
        text += '\n[profile.bench]\ndebug = "line-tables-only"\n\n[workspace]\n'
        with open(os.path.join(dir, "Cargo.toml"), "w") as f:
            f.write(text)
        _cache["lib"] = open(os.path.join(dir, "src", "lib.rs")).read()
    lib = _cache["lib"]
    anchor = "        let string = i.write(unsafe {"
    assert anchor in lib, "itoa's Buffer::format changed: update the campaign"
    if change is not None:
        kind, steps = change
        if kind == "inlined":
            inject = f"        core::hint::black_box({{ let mut x = 1u64; for _ in 0..{steps} {{ x = core::hint::black_box(x.wrapping_mul(31) ^ (x >> 7)); }} x }});\n"
        else:
            inject = f"        core::hint::black_box(campaign_extra(core::hint::black_box({steps})));\n"
        lib = lib.replace(anchor, inject + anchor, 1) + (ITOA_EXTRA if kind == "named" else "")
    with open(os.path.join(dir, "src", "lib.rs"), "w") as f:
        f.write(lib)


def itoa_suite():
    return {
        "write": itoa_crate,
        "bench": "bench",
        "filter": "^u128\\[max\\]/itoa$",
        # The change is a loop count, not a percentage: the count per
        # percent is measured on the unchanged build (below).
        "steps": True,
        "expect": {
            "named": ["itoa::campaign_extra"],
            # Buffer::format is generic: compiled into the bench, inlined
            # into the closure that calls it.
            "inlined": ["itoa::Buffer::format", "bench::do_bench"],
        },
    }


SUITES = {"trust": trust_suite, "itoa": itoa_suite}


# --------------------------------------------------------------------------
# One suite


def explain(cy, home, filt):
    out = subprocess.run([cy, "explain", "--all", filt, "--baseline", "orig", "--format", "json",
                          "--home", home], capture_output=True, text=True)
    doc = json.loads(out.stdout)
    if not doc["explained"]:
        raise RuntimeError(f"not explained: {doc['not_explained']} {out.stderr[-500:]}")
    return doc["explained"][0]


def one_suite(name, cy, work):
    s = SUITES[name]()
    crate = os.path.join(work, name)
    home = os.path.join(work, f"{name}-home")
    env = dict(os.environ, YARDSTICK_HOME=home, CARGO_TARGET_DIR=os.path.join(work, "target"))
    env.pop("CRITERION_HOME", None)
    quick = ["--warm-up-time", "0.1", "--measurement-time", "0.2", "--color", "never"]

    def bench(args):
        return run(["cargo", "bench", "--bench", s["bench"], "--", *quick, *args, s["filter"]], crate, env)

    log(f"{name}: the unchanged build, saved as `orig`")
    s["write"](crate, None)
    bench(["--save-baseline", "orig"])
    bench(["--baseline", "orig"])
    aa = explain(cy, home, s["filter"])
    total = aa["baseline_instructions"]
    log(f"{name}: A/A {aa['baseline_instructions']:.1f} -> {aa['current_instructions']:.1f} per iteration, same: {aa['same']}")
    per_step = None
    if s.get("steps"):
        # Instructions a step of the injected loop adds: one build of 1000.
        s["write"](crate, ("inlined", 1000))
        bench(["--baseline", "orig"])
        e = explain(cy, home, s["filter"])
        per_step = (e["current_instructions"] - total) / 1000
        log(f"{name}: a step of the injected loop is {per_step:.2f} instructions")
    tries = []
    for kind in ("named", "inlined"):
        for pct in PERCENTS:
            amount = pct if per_step is None else max(1, round(total * pct / 100 / per_step))
            s["write"](crate, (kind, amount))
            bench(["--baseline", "orig"])
            e = explain(cy, home, s["filter"])
            change = e["current_instructions"] - e["baseline_instructions"]
            top = e["functions"][0]["name"] if e["functions"] else None
            listed = sum(f["self_current"] - f["self_baseline"] for f in e["functions"])
            # Names are matched by the part that does not depend on how the
            # crate is named (`trust_suite::trust_body::work`).
            ok = top is not None and any(x in top for x in s["expect"][kind])
            tries.append({
                "suite": name, "kind": kind, "percent": pct,
                "measured_percent": 100 * change / e["baseline_instructions"],
                "top": top, "correct": ok,
                "listed_sum_over_change": listed / change if change else None,
            })
            log(f"{name} {kind} +{pct}%: measured {tries[-1]['measured_percent']:+.2f}%, top {top} "
                f"({'correct' if ok else 'WRONG'}), self changes sum to "
                f"{100 * tries[-1]['listed_sum_over_change']:.2f}% of the change")
    s["write"](crate, None)
    return {"suite": name, "aa_same": aa["same"], "instructions": total, "tries": tries}


def table(results):
    lines = ["| suite | change compiled into | correct | injected (measured) | self changes / total change |",
             "| --- | --- | ---: | --- | --- |"]
    for r in results:
        for kind in ("named", "inlined"):
            t = [x for x in r["tries"] if x["kind"] == kind]
            correct = sum(x["correct"] for x in t)
            measured = f"{min(x['measured_percent'] for x in t):+.1f}% … {max(x['measured_percent'] for x in t):+.1f}%"
            sums = [x["listed_sum_over_change"] for x in t if x["listed_sum_over_change"] is not None]
            spread = f"{100 * min(sums):.2f}% … {100 * max(sums):.2f}%"
            what = "a function (stays one)" if kind == "named" else "an inlined function"
            lines.append(f"| {r['suite']} | {what} | {correct} of {len(t)} | {measured} | {spread} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", default="trust,itoa")
    ap.add_argument("--json")
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    cy = cargo_yardstick()
    work = tempfile.mkdtemp(prefix="yardstick-attribution-")
    results = []
    try:
        for name in a.suite.split(","):
            results.append(one_suite(name, cy, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(table(results))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
