#!/usr/bin/env python3
"""The default `cargo bench` flow across real rebuilds, with and without
`cargo yardstick init` (code layouts sampled by every run): how often does
a neutral edit make it cry wolf, and how often does it catch a change
compiled into one benchmark?

A scratch crate holds a copy of a suite (the trust suite by default:
compare/benches/trust_suite.rs, 24 benchmarks, `target` scaled by
`DEFAULT_FACTOR` in trust_body.rs) depending on the harness by path. Each
run edits the source, runs `cargo bench` (which rebuilds) and reads the
verdicts of the comparison with the run before:

  identical the bench file touched, nothing else: cargo rebuilds it into
            the same bytes, and every printed regressed/improved is a false
            alarm.
  neutral   a never-called function of 7 to 61 lines, different each run,
            added to the bench file: every printed regressed/improved is a
            false alarm.
  neutral-lib  the same, added to trust_body.rs instead (the code every
            benchmark calls, a module of the bench file): a false alarm
            likewise, and a rebuild that can move the shared code's layout.
  +K%       the factor alternates 1 and 1+K/100 from run to run (the
            constant is compiled in; a neutral function is added too): for
            `target` a regressed (or, coming back, improved) verdict is a
            detection, every other verdict a false alarm.

With --corpus NAME (an entry of compare/corpus/crates.toml, Criterion.rs
API) the suite is that published crate's first listed bench target,
unpacked and switched to yardstick by the corpus script's one-line switch.
`identical` and `neutral` apply to every such suite; `neutral-lib` puts the function in
the crate's own src/lib.rs (which its benchmarks call: the whole library is
rebuilt). +K% applies to the suites of CORPUS_TARGETS (hex, crc32fast,
base64), each with one benchmark named there: its timed closure does the
benchmarked operation a second time, through black_box, in K of every 100
calls (spread evenly, counted by a static in the bench file; K may have
one decimal, so +1.3% doubles 13 calls in 1,000; the rate
is a compiled-in constant behind black_box, 0 on the runs in between, so
both builds run the same code). The verdict of that benchmark is the
detection, every other verdict a false alarm. A bench file that encodes
its own src/lib.rs (hex) reads a kept copy of it instead, so neutral-lib
does not change its input. Each cell records the load average (1 minute)
before and after it, and for each run whose target was missed the lines
printed for it (`missed` in --json, written as each cell ends), the lines
of every false alarm (`flagged_lines`), and how many detections were
judged alone because the benchmark's instructions changed (`judged_alone`),
and the change each run measured for `target`, signed toward the one
compiled in (`effects`, in percent): their mean is what the change costs
the benchmark, whether each run found it or not.

Usage: python3 compare/trust/layouts_flow.py --cargo-yardstick PATH
           [--setup yes,no] [--conditions neutral,neutral-lib,+1%,+3%,+10%] [--runs 6]
           [--corpus NAME] [--load compile|none] [--harness-dir DIR] [--json FILE]
           [--bench-args ARGS] [--keep DIR]
The harness is compiled from --harness-dir (default: this checkout's
crates/yardstick); cargo-yardstick must be a build of the same checkout.
Python 3 standard library only; progress to stderr, the table to stdout.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import default_flow  # noqa: E402  (verdicts, the load)

BENCHES = os.path.join(REPO, "compare", "benches")


def scratch_crate(root, harness_dir):
    """The suite as its own crate under `root`."""
    os.makedirs(os.path.join(root, "benches"))
    os.makedirs(os.path.join(root, "src"))
    with open(os.path.join(root, "src", "lib.rs"), "w") as f:
        f.write("")
    for name in ("trust_suite.rs", "trust_body.rs"):
        shutil.copy(os.path.join(BENCHES, name), os.path.join(root, "benches", name))
    with open(os.path.join(root, "Cargo.toml"), "w") as f:
        f.write(
            '[package]\nname = "layouts-flow"\nversion = "0.0.0"\nedition = "2021"\n'
            "publish = false\n\n[dev-dependencies]\n"
            f'criterion = {{ package = "yardstick", path = {json.dumps(harness_dir)} }}\n\n'
            '[[bench]]\nname = "trust_suite"\nharness = false\n\n[workspace]\n'
        )


def corpus_crate(root, name, harness_dir):
    """The published crate `name` (compare/corpus/crates.toml) switched to
    the harness at `harness_dir`, under `root`; its bench target and file."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "corpus_run", os.path.join(REPO, "compare", "corpus", "run.py"))
    corpus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(corpus)
    entry = next(c for c in corpus.load_list(os.path.join(REPO, "compare", "corpus", "crates.toml"))
                 if c["name"] == name and c["harness"] == "criterion")
    unpacked = corpus.unpack(entry["name"], entry["version"], os.path.dirname(root))
    shutil.copytree(unpacked, root)
    manifest = os.path.join(root, "Cargo.toml")
    with open(manifest) as f:
        text, switched = corpus.switch_manifest(f.read(), "criterion",
                                                repo=os.path.dirname(os.path.dirname(harness_dir)))
    assert switched, f"{name}: no criterion dependency to switch"
    with open(manifest, "w") as f:
        f.write(text + "\n[workspace]\n" if "[workspace]" not in text else text)
    bench = entry["benches"][0]
    bench_file = os.path.join(root, "benches", f"{bench}.rs")
    with open(bench_file) as f:
        text = f.read()
    if 'include_bytes!("../src/lib.rs")' in text:
        # hex encodes its own src/lib.rs: neutral-lib must not change the input.
        shutil.copy(os.path.join(root, "src", "lib.rs"), os.path.join(root, "src", "lib.rs.published"))
        with open(bench_file, "w") as f:
            f.write(text.replace('include_bytes!("../src/lib.rs")', 'include_bytes!("../src/lib.rs.published")'))
    return bench, bench_file, entry.get("features", [])


# The +K% of --corpus: the benchmark id its verdict line prints, the text of
# its timed closure in the bench file and that text with the change (the
# `campaign_twice()` of CAMPAIGN, true in K of every 100 calls).
CORPUS_TARGETS = {
    "hex": {
        "id": "hex_encode",
        "closure": 'c.bench_function("hex_encode", |b| b.iter(|| hex::encode(DATA)));',
        "changed": 'c.bench_function("hex_encode", |b| b.iter(|| {\n'
                   '        if campaign_twice() { std::hint::black_box(hex::encode(std::hint::black_box(DATA))); }\n'
                   '        hex::encode(DATA)\n    }));',
    },
    "crc32fast": {
        # bench_update's closure serves every size of three groups: only
        # baseline/16384 counts and doubles.
        "id": "baseline/16384",
        "closure": "            b.iter(|| {\n                let mut hasher = hasher_init.clone();\n",
        "changed": "            b.iter(|| {\n"
                   '                if group_name == "baseline" && size == 16 * 1024 && campaign_twice() {\n'
                   "                    let mut twice = hasher_init.clone();\n"
                   "                    twice.update(black_box(bytes));\n"
                   "                    black_box(twice.finalize());\n                }\n"
                   "                let mut hasher = hasher_init.clone();\n",
    },
    "base64": {
        # do_encode_bench serves every size of two groups; 3072 is a small one.
        "id": "encode_small_input/encode/3072",
        "closure": "    b.iter(|| {\n        let e = STANDARD.encode(&v);\n",
        "changed": "    b.iter(|| {\n"
                   "        if size == 3072 && campaign_twice() {\n"
                   "            black_box(STANDARD.encode(black_box(&v)));\n        }\n"
                   "        let e = STANDARD.encode(&v);\n",
    },
}

CAMPAIGN = """
/// layouts_flow.py's +K%: the calls of `campaign_twice` in every 1,000 that
/// are true, spread evenly (0: the change is off).
const CAMPAIGN_PERMILLE: u64 = 0;
static CAMPAIGN_CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

#[inline(always)]
fn campaign_twice() -> bool {
    use std::sync::atomic::Ordering::Relaxed;
    let n = CAMPAIGN_CALLS.load(Relaxed);
    CAMPAIGN_CALLS.store(n + 1, Relaxed);
    let k = std::hint::black_box(CAMPAIGN_PERMILLE);
    (n + 1) * k / 1000 != n * k / 1000
}
"""


def inject_campaign(bench_file, corpus):
    """The change's code in the bench file of `corpus`, off."""
    t = CORPUS_TARGETS[corpus]
    with open(bench_file) as f:
        text = f.read()
    assert text.count(t["closure"]) == 1, f"{corpus}'s benchmark {t['id']} moved: update CORPUS_TARGETS"
    with open(bench_file, "w") as f:
        f.write(text.replace(t["closure"], t["changed"]) + CAMPAIGN)


def set_constant(path, declaration, value):
    """Rewrites the value of the constant `declaration` (up to its `= `)
    in the Rust file at `path`."""
    with open(path) as f:
        text = f.read()
    start = text.index(declaration)
    end = text.index(";", start)
    with open(path, "w") as f:
        f.write(text[:start] + f"{declaration}{value}" + text[end:])


def set_permille(bench_file, permille):
    set_constant(bench_file, "const CAMPAIGN_PERMILLE: u64 = ", permille)


def neutral_function(run):
    """A never-called function of 7 to 61 lines, different for each run."""
    lines = 7 + (run * 13) % 55
    body = "\n".join(f"    x = x.wrapping_mul({2 * run + k + 3}).rotate_left({k % 63});" for k in range(lines - 4))
    return f"\n#[allow(dead_code)]\nfn neutral_{run}(mut x: u64) -> u64 {{\n{body}\n    x\n}}\n"


def set_factor(root, factor):
    set_constant(os.path.join(root, "benches", "trust_body.rs"),
                 "pub const DEFAULT_FACTOR: f64 = ", repr(factor))


def add_neutral(bench_file, run):
    with open(bench_file, "a") as f:
        f.write(neutral_function(run))


def scratch_env(scratch, cargo_yardstick):
    """The environment a scratch crate builds in: its own target directory,
    `cargo_yardstick` on PATH (the linker `init` names), no RUSTFLAGS."""
    env = dict(os.environ)
    env["CARGO_TARGET_DIR"] = os.path.join(scratch, "target")
    env["PATH"] = os.path.dirname(os.path.abspath(cargo_yardstick)) + os.pathsep + env["PATH"]
    env.pop("RUSTFLAGS", None)
    return env


def init(root, env, cargo_yardstick):
    """`cargo yardstick init` in the crate at `root`: every build samples layouts."""
    subprocess.run([cargo_yardstick, "yardstick", "init"], cwd=root, env=env, check=True,
                   capture_output=True)


def bench(root, home, env, target="trust_suite", features=(), extra=(), keep=None):
    """One `cargo bench`: its output (stdout, then stderr) and seconds.
    With `keep` (a file path), every line it printed is also written there
    as it came, after the seconds since the start (how long the count
    before measuring took is the gap before its note)."""
    cmd = ["cargo", "bench", "-q", "--bench", target]
    if features:
        cmd += ["--features", ",".join(features)]
    cmd += ["--", "--color", "never", "--home", home, *extra]
    start = time.time()
    p = subprocess.Popen(cmd, cwd=root, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    streams = {"out": [], "err": []}

    def read(name, stream, log):
        for line in stream:
            streams[name].append(line)
            if log:
                log.write(f"{time.time() - start:8.2f} {line}")
                log.flush()

    log = open(keep, "w") if keep else None
    import threading
    err = threading.Thread(target=read, args=("err", p.stderr, log))
    err.start()
    read("out", p.stdout, log)
    err.join()
    try:
        p.wait(timeout=1800)
    finally:
        if log:
            log.close()
    if p.returncode != 0:
        raise RuntimeError(f"cargo bench failed:\n{''.join(streams['err'])[-3000:]}")
    return "".join(streams["out"]) + "".join(streams["err"]), time.time() - start


def block(text, bid):
    """The lines a run printed for benchmark `bid` (its verdict's evidence)."""
    lines = default_flow.trust.ANSI.sub("", text).splitlines()
    for i, line in enumerate(lines):
        if line.split("time:")[0].strip() == bid:
            end = next((j for j in range(i + 1, len(lines)) if lines[j] and not lines[j][0].isspace()), len(lines))
            return lines[i:end]
    return []


def change_percent(lines):
    """The middle of the `change:` interval among a benchmark's lines, in
    percent (None when it was not compared)."""
    for line in lines:
        if "change: [" in line:
            parts = line.split("change: [", 1)[1].split("]", 1)[0].split()
            if len(parts) == 3:
                return float(parts[1].rstrip("%"))
    return None


def one_cell(setup, condition, runs, args, scratch):
    """Runs `runs` comparisons of `condition`; their counts."""
    root = os.path.join(scratch, f"crate-{setup}-{condition.strip('+%')}")
    if args.corpus:
        target, bench_file, features = corpus_crate(root, args.corpus, args.harness_dir)
    else:
        scratch_crate(root, args.harness_dir)
        target, bench_file, features = "trust_suite", os.path.join(root, "benches", "trust_suite.rs"), []
    env = scratch_env(scratch, args.cargo_yardstick)
    if setup == "yes":
        init(root, env, args.cargo_yardstick)
    home = os.path.join(scratch, f"home-{setup}-{condition.strip('+%')}")
    step = float(condition.strip("+%")) / 100 if condition.startswith("+") else 0.0
    target_id = CORPUS_TARGETS[args.corpus]["id"] if args.corpus and step > 0 else "target"
    if args.corpus and step > 0:
        inject_campaign(bench_file, args.corpus)
    # neutral-lib: the edit lands in the code every benchmark calls.
    edited = bench_file if condition != "neutral-lib" else (
        os.path.join(root, "src", "lib.rs") if args.corpus else os.path.join(root, "benches", "trust_body.rs"))
    cell = {"setup": setup, "condition": condition, "compared": 0, "false": 0,
            "target_runs": 0, "detected": 0, "seconds": [], "notes": set(),
            "suite": args.corpus or "trust suite", "loadavg": [os.getloadavg()[0]]}
    for run in range(runs + 1):
        if step > 0 and args.corpus:
            set_permille(bench_file, round(step * 1000) * (run % 2))
        elif step > 0:
            set_factor(root, 1.0 + step * (run % 2))
        if condition == "identical":
            os.utime(bench_file)
        else:
            add_neutral(edited, run + (0 if setup == "yes" else 1000))
        keep = args.keep and os.path.join(args.keep, f"{setup}-{condition.strip('+%')}-run{run}.txt")
        text, secs = bench(root, home, env, target, features, args.bench_args.split(), keep)
        if run == 0:
            continue
        got = default_flow.verdicts(text)
        for line in text.splitlines():
            if line.startswith("note: ") or "layouts" in line and "note" in line:
                cell["notes"].add(line.strip()[:160])
        cell["seconds"].append(secs)
        for bid, v in got.items():
            if bid == target_id and step > 0:
                continue
            cell["compared"] += 1
            if v in ("regressed", "improved"):
                cell["false"] += 1
                cell.setdefault("flagged", []).append(f"run {run}: {bid} {v}")
                cell.setdefault("flagged_lines", []).append(block(text, bid))
        if step > 0:
            cell["target_runs"] += 1
            want = "regressed" if run % 2 == 1 else "improved"
            cell["detected"] += got.get(target_id) == want
            # Found because its instructions changed (runner::code_changed).
            alone = "is judged alone" in "\n".join(block(text, target_id))
            cell["judged_alone"] = cell.get("judged_alone", 0) + (got.get(target_id) == want and alone)
            if got.get(target_id) != want:
                cell.setdefault("missed", []).append({"run": run, "want": want, "lines": block(text, target_id)})
            # The change each run measured, toward the one compiled in (a
            # regression on odd runs, the way back on even ones): their mean
            # over the cell is what the change costs the benchmark, found
            # or not.
            measured = change_percent(block(text, target_id))
            if measured is not None:
                cell.setdefault("effects", []).append(measured if run % 2 == 1 else -measured)
        print(f"  {setup} {condition} run {run}: {sum(v in ('regressed', 'improved') for v in got.values())}"
              f" flagged of {len(got)}, {target_id} {got.get(target_id, 'none')}, {secs:.0f} s",
              file=sys.stderr)
    cell["notes"] = sorted(cell["notes"])
    cell["loadavg"].append(os.getloadavg()[0])
    return cell


def check_conditions(conditions, corpus):
    """One clear line for a condition this script cannot run."""
    for c in conditions:
        known = c in ("identical", "neutral", "neutral-lib") or (
            c.startswith("+") and c.endswith("%") and c[1:-1].replace(".", "", 1).isdigit())
        if not known:
            sys.exit(f"unknown condition {c!r}: identical, neutral, neutral-lib or +K% (like +3%)")
        if corpus and c.startswith("+") and corpus not in CORPUS_TARGETS:
            sys.exit(f"--corpus {corpus} runs identical, neutral and neutral-lib, not {c!r}: +K% needs a benchmark "
                     f"named in CORPUS_TARGETS ({', '.join(CORPUS_TARGETS)})")
        if corpus and c.startswith("+") and float(c[1:-1]) * 10 != round(float(c[1:-1]) * 10):
            sys.exit(f"--corpus takes percents to one decimal (calls doubled in 1,000), not {c!r}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cargo-yardstick", required=True)
    p.add_argument("--setup", default="yes,no")
    p.add_argument("--conditions", default="neutral,+3%,+10%")
    p.add_argument("--runs", type=int, default=6)
    p.add_argument("--load", choices=["compile", "none"], default="none")
    p.add_argument("--harness-dir", default=os.path.join(REPO, "crates", "yardstick"))
    p.add_argument("--corpus", metavar="NAME")
    p.add_argument("--json")
    p.add_argument("--keep", metavar="DIR",
                   help="keep each run's output in DIR, every line after its seconds since the start")
    p.add_argument("--bench-args", default="", metavar="ARGS",
                   help="more arguments for every cargo bench (after --), e.g. \"--measurement-time 20\"")
    args = p.parse_args()
    check_conditions(args.conditions.split(","), args.corpus)
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    trust = default_flow._trust()
    cells = []
    with tempfile.TemporaryDirectory(prefix="yardstick-layouts-flow-") as scratch:
        load = trust.CompileLoad(scratch) if args.load == "compile" else None
        if load:
            load.start()
        try:
            for setup in args.setup.split(","):
                for condition in args.conditions.split(","):
                    cells.append(one_cell(setup, condition, args.runs, args, scratch))
                    if args.json:  # each cell as it ends: a long flow stopped keeps the cells it ran
                        with open(args.json, "w") as f:
                            json.dump(cells, f, indent=1)
        finally:
            if load:
                load.stop()
    print("| suite | setup | condition | false alarms | target found | its change measured | s/run | load average |")
    print("|---|---|---|---|---|---|---|---|")
    for c in cells:
        found = f"{c['detected']}/{c['target_runs']}" if c["target_runs"] else "-"
        effects = c.get("effects", [])
        if len(effects) >= 2:
            mean = sum(effects) / len(effects)
            sd = (sum((e - mean) ** 2 for e in effects) / (len(effects) - 1)) ** 0.5
            measured = f"{mean:+.2f} % ± {sd / len(effects) ** 0.5:.2f}"
        else:
            measured = "-"
        secs = sorted(c["seconds"])[len(c["seconds"]) // 2] if c["seconds"] else 0
        load = "–".join(f"{x:.1f}" for x in c["loadavg"])
        print(f"| {c['suite']} | {c['setup']} | {c['condition']} | {c['false']}/{c['compared']} | {found} "
              f"| {measured} | {secs:.0f} | {load} |")


if __name__ == "__main__":
    main()
