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
  hex     hex 0.4.3 from the corpus, the same way, benchmark `hex_encode`
          (`hex::encode` of the crate's own src/lib.rs, kept as published
          for the input): the loop in `encode_to_iter` (generic,
          `#[inline]`, the body of `hex::encode`) or in a new
          `#[inline(never)]` function it calls.
  base64  base64 0.22.1 from the corpus, the same way, benchmark
          `encode_small_input/encode/3072`: the loop in a new
          `#[inline(never)]` function `GeneralPurpose::internal_encode`
          (not generic: compiled in the crate, stays a function) calls, or
          in a new `#[inline(always)]` one inlined into it.
  crc32fast  crc32fast 1.5.5 from the corpus, the same way, benchmark
          `baseline/16384`: the same two changes in
          `baseline::update_fast_16` (not generic, stays a function).

A published suite's change is a loop count, not a percentage: a step's
instructions are measured on a build of 1000 steps first.

Usage: python3 compare/explain/attribution.py [--suite trust,itoa,hex,base64,crc32fast]
           [--json FILE]
Needs cargo, valgrind, and cargo-yardstick built (`cargo build -p
cargo-yardstick`). Python 3 standard library only. Progress on stderr,
the table on stdout.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
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


LIB = os.path.join("src", "lib.rs")


def published_crate(dir, name, version, file=LIB):
    """The published crate `name-version` from the compatibility corpus,
    unpacked into `dir` the corpus's way and switched to yardstick with its
    one-line switch, its bench profile given line tables if it has none;
    returns `file` (the one the campaign changes) as published, kept as
    `file`.published."""
    if not os.path.isdir(dir):
        import importlib.util
        spec = importlib.util.spec_from_file_location("corpus_run", os.path.join(COMPARE, "corpus", "run.py"))
        corpus = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(corpus)
        shutil.move(corpus.unpack(name, version, os.path.join(os.path.dirname(dir), "corpus")), dir)
        manifest = open(os.path.join(dir, "Cargo.toml")).read()
        text, n = corpus.switch_manifest(manifest, "criterion")
        assert n == 1, f"{name}'s manifest has no criterion dependency to switch"
        if not re.search(r"^\[profile\.bench\]", text, re.M):
            # Line tables, as the guide advises; a crate's own bench profile
            # (base64's has full debug info) is kept as published.
            text += '\n[profile.bench]\ndebug = "line-tables-only"\n'
        text += "\n[workspace]\n"
        with open(os.path.join(dir, "Cargo.toml"), "w") as f:
            f.write(text)
        shutil.copy(os.path.join(dir, file), os.path.join(dir, file + ".published"))
    return open(os.path.join(dir, file + ".published")).read()


def injected(lib, anchor, change, what, helper=False):
    """`lib` with the campaign's change before `anchor`: `change` is (kind,
    steps), a loop of `steps` steps written there ("inlined"; with `helper`,
    in a new `#[inline(always)]` function called there) or in a new
    `#[inline(never)]` function called there ("named"); None: unchanged."""
    assert anchor in lib, f"{what} changed: update the campaign"
    if change is None:
        return lib
    kind, steps = change
    # `let _ =`: base64 denies unused_results.
    if kind == "inlined" and helper:
        inject = f"let _ = core::hint::black_box(campaign_inlined(core::hint::black_box({steps})));\n"
    elif kind == "inlined":
        inject = f"let _ = core::hint::black_box({{ let mut x = 1u64; for _ in 0..{steps} {{ x = core::hint::black_box(x.wrapping_mul(31) ^ (x >> 7)); }} x }});\n"
    else:
        inject = f"let _ = core::hint::black_box(campaign_extra(core::hint::black_box({steps})));\n"
    inject = anchor[:len(anchor) - len(anchor.lstrip())] + inject
    extra = CAMPAIGN_EXTRA if kind == "named" else CAMPAIGN_INLINED if helper else ""
    return lib.replace(anchor, inject + anchor, 1) + extra


def write_injected(dir, name, version, file, anchor, change, what, helper=False):
    """Writes `file` of the published crate `name` in `dir` with the
    campaign's change before `anchor` (see `published_crate`, `injected`)."""
    text = injected(published_crate(dir, name, version, file), anchor, change, what, helper)
    with open(os.path.join(dir, file), "w") as f:
        f.write(text)


CAMPAIGN_EXTRA = """
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


CAMPAIGN_INLINED = CAMPAIGN_EXTRA.replace("function of its own", "function inlined into its caller").replace(
    "#[inline(never)]\nfn campaign_extra", "#[inline(always)]\nfn campaign_inlined")


def itoa_crate(dir, change):
    """itoa 1.0.19 with its Criterion.rs benches on yardstick; `change`
    adds a loop of `n` steps to `Buffer::format` (inlined into the
    benchmark) or to a function of its own it calls."""
    write_injected(dir, "itoa", "1.0.19", LIB, "        let string = i.write(unsafe {", change,
                   "itoa's Buffer::format")


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


def hex_crate(dir, change):
    """hex 0.4.3 with its Criterion.rs benches on yardstick; `change` adds
    a loop of `n` steps to `encode_to_iter` (`#[inline]`, generic: the
    body of `hex::encode`) or to a function of its own it calls."""
    published_crate(dir, "hex", "0.4.3")  # unpacked before its bench file is edited
    bench = os.path.join(dir, "benches", "hex.rs")
    text = open(bench).read()
    if "../src/lib.rs" in text:
        # The benchmarks encode the crate's own src/lib.rs: keep that input
        # the published file, not the file with the change in it.
        text = text.replace('include_bytes!("../src/lib.rs")', 'include_bytes!("../src/lib.rs.published")', 1)
        assert "../src/lib.rs\"" not in text, "hex's benches read src/lib.rs another way: update the campaign"
        with open(bench, "w") as f:
            f.write(text)
    write_injected(dir, "hex", "0.4.3", LIB, "    BytesToHexChars::new(source, table).collect()", change,
                   "hex's encode_to_iter")


def hex_suite():
    return {
        "write": hex_crate,
        "bench": "hex",
        "filter": "^hex_encode$",
        "steps": True,
        "expect": {
            "named": ["hex::campaign_extra"],
            # encode_to_iter is generic and #[inline]: compiled into the
            # bench (also named `hex`), inlined into `encode`, `encode_hex`
            # or the closure that calls it.
            "inlined": ["hex::encode_to_iter", "hex::encode", "as hex::ToHex>::encode_hex", "hex::bench_encode"],
        },
    }


BASE64_FILE = os.path.join("src", "engine", "general_purpose", "mod.rs")


def base64_crate(dir, change):
    """base64 0.22.1 with its Criterion.rs benches on yardstick; `change`
    adds a loop of `n` steps to `GeneralPurpose::internal_encode` (not
    generic: compiled in the crate, stays a function), in a new function
    it calls or in a new `#[inline(always)]` one inlined into it."""
    write_injected(dir, "base64", "0.22.1", BASE64_FILE, "        let mut input_index: usize = 0;\n", change,
                   "base64's GeneralPurpose::internal_encode", helper=True)


def base64_suite():
    return {
        "write": base64_crate,
        "bench": "benchmarks",
        "filter": "^encode_small_input/encode/3072$",
        "steps": True,
        "expect": {
            "named": ["base64::engine::general_purpose::campaign_extra"],
            "inlined": ["base64::engine::general_purpose::campaign_inlined", "::internal_encode"],
        },
    }


CRC32FAST_FILE = os.path.join("src", "baseline.rs")


def crc32fast_crate(dir, change):
    """crc32fast 1.5.5 with its Criterion.rs benches on yardstick; `change`
    adds a loop of `n` steps to `baseline::update_fast_16` (not generic,
    stays a function), the same two ways as base64's."""
    write_injected(dir, "crc32fast", "1.5.5", CRC32FAST_FILE,
                   "    let mut crc = !prev;\n\n    while buf.len() >= BYTES_AT_ONCE {", change,
                   "crc32fast's baseline::update_fast_16", helper=True)


def crc32fast_suite():
    return {
        "write": crc32fast_crate,
        "bench": "bench",
        "filter": "^baseline/16384$",
        "steps": True,
        "expect": {
            "named": ["crc32fast::baseline::campaign_extra"],
            "inlined": ["crc32fast::baseline::campaign_inlined", "crc32fast::baseline::update_fast_16"],
        },
    }


SUITES = {"trust": trust_suite, "itoa": itoa_suite, "hex": hex_suite, "base64": base64_suite,
          "crc32fast": crc32fast_suite}


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
            # Where its file:line points (into the inlined code, when the
            # change was inlined into a function of another name).
            at = f"{e['functions'][0].get('file')}:{e['functions'][0].get('line')}" if top else None
            at = at and at.removeprefix(crate + os.sep)
            listed = sum(f["self_current"] - f["self_baseline"] for f in e["functions"])
            # Names are matched by the part that does not depend on how the
            # crate is named (`trust_suite::trust_body::work`).
            ok = top is not None and any(x in top for x in s["expect"][kind])
            tries.append({
                "suite": name, "kind": kind, "percent": pct,
                "measured_percent": 100 * change / e["baseline_instructions"],
                "top": top, "top_at": at, "correct": ok,
                "listed_sum_over_change": listed / change if change else None,
            })
            log(f"{name} {kind} +{pct}%: measured {tries[-1]['measured_percent']:+.2f}%, top {top} at {at} "
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
    ap.add_argument("--suite", default=",".join(SUITES))
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
