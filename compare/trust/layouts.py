#!/usr/bin/env python3
"""A/A' in the trust experiment: does a neutral edit elsewhere in the crate
read as a change, and are real changes still found, when code layout moves?

A scratch git repository holds the trust suite (compare/benches/
trust_suite.rs, 24 benchmarks) at these revisions:

  base        the suite as it is (factor 1.00 compiled in);
  n01..nNN    neutral edits: another benchmark added before the others,
              with a body whose size differs from one edit to the next, so
              that every function after it moves (A/A', one edit a try);
  f1.01       `target` 1 % slower (DEFAULT_FACTOR = 1.01 compiled in);
  f1.03       `target` 3 % slower (DEFAULT_FACTOR = 1.03 compiled in);
  f1.10       `target` 10 % slower.

Two ways of comparing, each against `base`:

  ab        `cargo yardstick ab base REV` (lock-step, code layouts as
            `--layouts` says: 0 for the builds as linked);
  default   the default `cargo bench` flow: base's bench binary run once
            into a home (it saves the baseline and keeps itself), then for
            each try REV's binary in a copy of that home, whose verdicts come
            from lock-step with base's binary (one layout a side: the
            default flow has no objects to relink); with `--calibrated`,
            after `cargo yardstick calibrate --layouts` on base, whose
            layout spreads floor the verdicts.

A try of A/A' counts every benchmark called faster or slower (a false
alarm); a try of +1 % / +3 % / +10 % counts `target` called slower (a
detection) and the other benchmarks' changes (false alarms). `--single`
compares one benchmark alone (`target` unless named). The conditions run
by default are A/A', +3 % and +10 %; `--conditions A/A',+1%,+3%,+10%`
adds +1 %.

Usage: python3 compare/trust/layouts.py [--mode ab|default] [--tries 20]
           [--layouts 4] [--single] [--calibrated] [--conditions A/A',+3%,+10%]
           [--load compile|none] [--timeout 1.0] [--json FILE]
Python 3 standard library only; progress to stderr, the table to stdout.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.dirname(HERE)
sys.path.insert(0, HERE)

import default_flow  # noqa: E402  (the run and verdict helpers)

trust = default_flow.trust
log = trust.log
git = trust.git
CONDITIONS = {"A/A'": None, "+1%": "f1.01", "+3%": "f1.03", "+10%": "f1.10"}
DEFAULT_CONDITIONS = "A/A',+3%,+10%"


def neutral_edit(source, k):
    """The suite with another benchmark added first: a function of 4 + 3k
    statements, so each edit moves the code after it by its own amount."""
    body = "\n".join(f"    x = x.rotate_left({(i * 7) % 63 + 1}) ^ {(i * 2654435761) % 1000003};"
                     for i in range(4 + 3 * k))
    extra = (f"#[inline(never)]\nfn neutral(mut x: u64) -> u64 {{\n{body}\n    x\n}}\n\n"
             f"fn other(c: &mut Criterion) {{\n"
             f"    c.bench_function(\"neutral/{k}\", |b| b.iter(|| neutral(black_box(7))));\n}}\n\n")
    marked = source.replace("fn suite(c: &mut Criterion) {", extra + "fn suite(c: &mut Criterion) {")
    out = re.sub(r"criterion_group!\((\w+), suite\);", r"criterion_group!(\1, other, suite);", marked)
    assert out != marked and marked != source, "the suite's shape changed: update neutral_edit"
    return out


def make_repo(repo, edits):
    trust.scratch_crate(repo, "layout-ab", "trust_suite")
    with open(os.path.join(COMPARE, "benches", "trust_suite.rs")) as f:
        suite = f.read()
    with open(os.path.join(COMPARE, "benches", "trust_body.rs")) as f:
        body = f.read()
    default = "pub const DEFAULT_FACTOR: f64 = 1.0;"
    assert default in body

    def commit(tag, suite_text, factor):
        with open(os.path.join(repo, "benches", "trust_suite.rs"), "w") as f:
            f.write(suite_text)
        with open(os.path.join(repo, "benches", "trust_body.rs"), "w") as f:
            f.write(body.replace(default, f"pub const DEFAULT_FACTOR: f64 = {factor};"))
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", tag)
        git(repo, "tag", tag)

    git(repo, "init", "-q")
    commit("base", suite, "1.0")
    for k in range(1, edits + 1):
        commit(f"n{k:02}", neutral_edit(suite, k), "1.0")
    commit("f1.01", suite, "1.01")
    commit("f1.03", suite, "1.03")
    commit("f1.10", suite, "1.10")


def rev_of(condition, t):
    return CONDITIONS[condition] or f"n{t + 1:02}"


# --------------------------------------------------------------------------
# ab

def ab_rows(text):
    """{benchmark: verdict} from ab's table: slower, faster or none."""
    rows, table = {}, False
    for line in text.splitlines():
        if line.startswith("benchmark "):
            table = True
            continue
        if not table:
            continue
        if not line.strip():
            break  # the table ends; the false-discovery line follows
        name = line.split()[0]
        if ": slower" in line:
            rows[name] = "slower"
        elif ": faster" in line:
            rows[name] = "faster"
        elif "only in" not in line:
            rows[name] = "none"
    return rows


def run_ab(exe, repo, rev, args, env):
    cmd = [exe, "yardstick", "ab", "base", rev, "--timeout", str(args.timeout),
           "--layouts", str(args.layouts), "--target-dir", args.target_dir]
    if args.single:
        cmd.append(f"^{re.escape(args.single)}$")
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=repo, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if p.returncode != 0:
        sys.exit(f"ab {rev} failed ({p.returncode}):\n{p.stderr.decode()[-3000:]}")
    err = p.stderr.decode(errors="replace")
    m = re.search(r"(\d+\.\d) s measuring", p.stdout.decode())
    return (ab_rows(p.stdout.decode(errors="replace")), time.monotonic() - start,
            float(m.group(1)) if m else None, "layout not sampled" in err)


# --------------------------------------------------------------------------
# the default flow

def build_rev(repo, rev, target, out_dir):
    kept = os.path.join(out_dir, rev, "trust_suite")
    if os.path.isfile(kept):  # an earlier run's, with --repo
        return kept
    git(repo, "checkout", "-q", "-f", rev)
    env = dict(os.environ, CARGO_TARGET_DIR=target)
    msgs = trust.cargo_json(["bench", "--no-run", "--bench", "trust_suite"], repo, env)
    exe = trust.executable(msgs, "layout-ab", "bench", "trust_suite")
    dest = os.path.join(out_dir, rev)
    os.makedirs(dest, exist_ok=True)
    shutil.copy(exe, os.path.join(dest, "trust_suite"))
    return os.path.join(dest, "trust_suite")


def template_home(base_exe, scratch, calibrate):
    """A home holding base's baseline and kept binary (base run once), and
    with `calibrate` (cargo-yardstick and the repository) the layout spread
    `calibrate --layouts` measured; each try starts from a copy."""
    home = os.path.join(scratch, "template-home")
    a = os.path.join(home, "a", "trust_suite")
    os.makedirs(os.path.dirname(a))
    shutil.copy(base_exe, a)
    default_flow.run_bench(a, home, "yardstick")
    if calibrate:
        exe, repo = calibrate
        git(repo, "checkout", "-q", "-f", "base")
        log("calibrate --layouts on base")
        subprocess.run([exe, "yardstick", "calibrate", "--layouts", "--home", home],
                       cwd=repo, check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    return home


def default_try(template, rev_exe, scratch, single):
    home = os.path.join(scratch, "home")
    shutil.rmtree(home, ignore_errors=True)
    shutil.copytree(template, home, symlinks=True)
    try:
        # The same file name as base's copy, at a path of the same length.
        b = os.path.join(home, "b", "trust_suite")
        os.makedirs(os.path.dirname(b))
        shutil.copy(rev_exe, b)
        extra = [f"^{re.escape(single)}$"] if single else []
        start = time.monotonic()
        text, _ = default_flow.run_bench(b, home, "yardstick", extra)
        seconds = time.monotonic() - start
    finally:
        shutil.rmtree(home, ignore_errors=True)
    v = default_flow.verdicts(text)
    rows = {k: {"regressed": "slower", "improved": "faster"}.get(x, "none") for k, x in v.items()}
    return rows, seconds, text.count("relinking the same code")


# --------------------------------------------------------------------------

def score(condition, rows):
    others = {k: v for k, v in rows.items() if k != "target" and not k.startswith("neutral/")}
    false = sum(v != "none" for v in others.values())
    if condition == "A/A'":
        false += rows.get("target", "none") != "none"
        return {"false": false, "tested": len(others) + ("target" in rows), "found": None}
    return {"false": false, "tested": len(others), "found": rows.get("target") == "slower"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mode", choices=["ab", "default"], default="ab")
    ap.add_argument("--tries", type=int, default=20)
    ap.add_argument("--layouts", type=int, default=4, help="ab's --layouts (0: as linked)")
    ap.add_argument("--single", nargs="?", const="target", metavar="ID",
                    help="compare one benchmark alone (default: target)")
    ap.add_argument("--calibrated", action="store_true",
                    help="default mode: run `cargo yardstick calibrate --layouts` on base first")
    ap.add_argument("--conditions", default=DEFAULT_CONDITIONS)
    ap.add_argument("--load", choices=["compile", "none"], default="compile")
    ap.add_argument("--timeout", type=float, default=1.0, help="ab's seconds of rounds per benchmark")
    ap.add_argument("--target-dir", default=os.path.join(tempfile.gettempdir(), "layout-target"))
    ap.add_argument("--json", metavar="FILE", help="also write every try as JSON")
    ap.add_argument("--repo", metavar="DIR",
                    help="keep the scratch repository (and ab's builds of it) in DIR and reuse it")
    args = ap.parse_args()
    conditions = args.conditions.split(",")
    scratch = tempfile.mkdtemp(prefix="layouts-")
    load = trust.CompileLoad(scratch) if args.load == "compile" else None
    records = []
    try:
        exes = trust.build(args.target_dir, ["ab"]) if args.mode == "ab" or args.calibrated else None
        # The folder is the package's name: trust.executable finds it by path.
        repo = os.path.join(args.repo or scratch, "layout-ab")
        if not os.path.isdir(os.path.join(repo, ".git")):
            make_repo(repo, max(args.tries, 20))
        env = dict(os.environ)
        for k in ("YARDSTICK_HOME", "CRITERION_HOME", "CARGO_TARGET_DIR", "TRUST_FACTOR"):
            env.pop(k, None)
        built = {}
        if args.mode == "default":
            bins = os.path.join(args.repo or scratch, "bins")
            revs = ["base"] + sorted({rev_of(c, t) for c in conditions for t in range(args.tries)})
            log(f"building {len(revs)} revisions")
            for rev in revs:
                built[rev] = build_rev(repo, rev, os.path.join(args.target_dir, "default"), bins)
            calibrate = (exes["cargo-yardstick"], repo) if args.calibrated else None
            template = template_home(built["base"], scratch, calibrate)
        if load:
            load.start()
        for t in range(args.tries):
            for c in conditions:
                rev = rev_of(c, t)
                if args.mode == "ab":
                    rows, wall, measuring, unsampled = run_ab(exes["cargo-yardstick"], repo, rev, args, env)
                else:
                    rows, measuring, floored = default_try(template, built[rev], scratch, args.single)
                    wall, unsampled = measuring, floored
                r = dict(score(c, rows), condition=c, rev=rev, try_=t, seconds=measuring,
                         wall=wall, unsampled=unsampled,
                         changed={k: v for k, v in rows.items() if v != "none"})
                records.append(r)
                log(f"try {t + 1} {c} ({rev}): false {r['false']}/{r['tested']}"
                    + ("" if r["found"] is None else f", target {'found' if r['found'] else 'missed'}")
                    + f", {measuring or 0:.1f} s {sorted(r['changed'])[:6]}")
    finally:
        if load:
            load.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)
    what = f"layouts {args.layouts}" if args.mode == "ab" else (
        "calibrated" if args.calibrated else "one layout a side")
    print(f"| {args.mode} ({what}) | tries | "
          "benchmarks called changed (false) | target found | s/try |")
    print("| --- | --- | --- | --- | --- |")
    for c in conditions:
        rs = [r for r in records if r["condition"] == c]
        if not rs:
            continue
        false = sum(r["false"] for r in rs)
        tested = sum(r["tested"] for r in rs)
        found = [r["found"] for r in rs if r["found"] is not None]
        secs = sorted(r["seconds"] or 0 for r in rs)[len(rs) // 2]
        print(f"| {c} | {len(rs)} | {false}/{tested} ({100 * false / max(tested, 1):.1f}%) | "
              + (f"{sum(found)}/{len(found)}" if found else "—") + f" | {secs:.1f} |")


if __name__ == "__main__":
    main()
