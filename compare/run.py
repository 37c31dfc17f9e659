#!/usr/bin/env python3
"""Side-by-side comparison of yardstick with Criterion.rs 0.8.

Runs the workloads of compare/benches/workloads.rs under both harnesses, one
process at a time (never both at once), interleaved with a plain reference
loop, and prints the ratios yardstick/criterion of:

  * wall time per benchmark at default settings;
  * analysis time for the same 100-sample data;
  * the reported estimate per workload, and its accuracy against the
    reference loop measured just before and just after it;
  * the empty-body floor;
  * a clean `cargo bench --no-run` of a one-bench crate (seconds, crates).

Usage: python3 compare/run.py [--quick] [--markdown] [--reps N] ...
Python 3 standard library only. Progress goes to stderr, the table to stdout.
"""

import argparse
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
WORKLOADS = ["empty", "ns_op", "us_loop", "sort_setup"]
HARNESSES = ["criterion", "yardstick"]
PACKAGES = {"criterion": "criterion-side", "yardstick": "yardstick-side"}
LABEL = {"criterion": "Criterion.rs 0.8", "yardstick": "yardstick"}
# The flags of the analysis run: sampling takes a few milliseconds, so the
# wall time of the process is the analysis (plus start-up and file writes).
ANALYSIS_FLAGS = ["--noplot", "--sample-size", "100", "--warm-up-time", "0.001",
                  "--measurement-time", "0.001"]

UNITS = {"ps": 1e-3, "ns": 1.0, "\u00b5s": 1e3, "\u03bcs": 1e3, "us": 1e3,
         "ms": 1e6, "s": 1e9}
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
TIME_LINE = re.compile(
    r"time:\s*\[\s*([0-9.eE+-]+)\s*(\S+)\s+([0-9.eE+-]+)\s*(\S+)\s+([0-9.eE+-]+)\s*(\S+)\s*\]")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Machine load: the machine may be shared, so every timed run records how
# much CPU other processes used while it ran.

def cpu_busy_seconds():
    """Busy CPU seconds of the whole machine so far (all cores), or None."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
    except OSError:
        return None
    # cpu user nice system idle iowait irq softirq steal ...
    vals = [int(x) for x in fields[1:]]
    busy = vals[0] + vals[1] + vals[2] + vals[5] + vals[6] + (vals[7] if len(vals) > 7 else 0)
    return busy / os.sysconf("SC_CLK_TCK")


def children_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def foreign_load(seconds=0.5):
    """Cores used by other processes over `seconds`."""
    a = cpu_busy_seconds()
    c = children_cpu()
    time.sleep(seconds)
    b = cpu_busy_seconds()
    if a is None or b is None:
        return 0.0
    return max(0.0, (b - a) - (children_cpu() - c)) / seconds


def wait_idle(max_wait, threshold):
    """Waits (at most max_wait s) until other processes use < threshold cores."""
    if max_wait <= 0:
        return
    deadline = time.monotonic() + max_wait
    load = foreign_load()
    announced = False
    while load >= threshold and time.monotonic() < deadline:
        if not announced:
            log(f"  (machine busy: {load:.2f} cores used by other processes; waiting up to {max_wait:.0f} s)")
            announced = True
        load = foreign_load(1.0)


class Run:
    """One timed process: wall time, CPU time, foreign load, output."""

    def __init__(self, cmd, cwd=None, env=None):
        self.cmd = cmd
        busy0 = cpu_busy_seconds()
        cpu0 = children_cpu()
        t0 = time.perf_counter()
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        self.wall = time.perf_counter() - t0
        self.cpu = children_cpu() - cpu0
        busy1 = cpu_busy_seconds()
        self.foreign = 0.0
        if busy0 is not None and busy1 is not None and self.wall > 0:
            self.foreign = max(0.0, (busy1 - busy0) - self.cpu) / self.wall
        self.code = p.returncode
        self.stdout = p.stdout.decode("utf-8", "replace")
        self.stderr = p.stderr.decode("utf-8", "replace")

    def output(self):
        return ANSI.sub("", self.stdout + "\n" + self.stderr)


def parse_interval(text):
    """(lo, est, hi) of the first `time: [lo est hi]` line, in ns."""
    m = TIME_LINE.search(text)
    if not m:
        return None
    out = []
    for g in (1, 3, 5):
        value, unit = float(m.group(g)), m.group(g + 1)
        if unit not in UNITS:
            return None
        out.append(value * UNITS[unit])
    return tuple(out)


def parse_estimate(text):
    """The middle number of the first `time: [lo est hi]` line, in ns."""
    iv = parse_interval(text)
    return None if iv is None else iv[1]


def fmt_ns(ns):
    if ns is None:
        return "-"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("\u00b5s", 1e3), ("ns", 1.0)):
        if abs(ns) >= scale:
            return f"{ns / scale:.4g} {unit}"
    return f"{ns * 1e3:.4g} ps"


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


# --------------------------------------------------------------------------
# Building.

def cargo_json(args, cwd, env=None):
    """Runs cargo with --message-format=json; returns (ok, messages, errors)."""
    p = subprocess.run(["cargo"] + args + ["--message-format=json"], cwd=cwd, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL)
    msgs, errors = [], []
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        msgs.append(msg)
        if msg.get("reason") == "compiler-message":
            m = msg.get("message", {})
            if m.get("level") == "error":
                errors.append((m.get("rendered") or m.get("message") or "").rstrip())
    if p.returncode != 0 and not errors:
        errors.append(p.stderr.decode("utf-8", "replace").strip())
    return p.returncode == 0, msgs, errors


def executable(msgs, kind, name):
    for m in msgs:
        if m.get("reason") == "compiler-artifact" and m.get("executable"):
            t = m.get("target", {})
            if kind in t.get("kind", []) and t.get("name") == name:
                return m["executable"]
    return None


def build_all(problems):
    log("building the reference loop (cargo build --release -p reference)")
    ok, msgs, errs = cargo_json(["build", "--release", "-p", "reference"], HERE)
    if not ok:
        sys.exit("reference failed to build:\n" + "\n".join(errs))
    exes = {"reference": executable(msgs, "bin", "reference")}
    log("building the nanobench builder example (cargo build --release -p yardstick-side "
        "--example builder)")
    ok, msgs, errs = cargo_json(["build", "--release", "-p", "yardstick-side", "--example",
                                 "builder"], HERE)
    exes["builder"] = executable(msgs, "example", "builder") if ok else None
    if not exes["builder"]:
        problems.append("the builder example failed to build:\n" + "\n".join(errs[:5]))
    for h in HARNESSES:
        log(f"building {PACKAGES[h]} (cargo bench --no-run -p {PACKAGES[h]})")
        ok, msgs, errs = cargo_json(["bench", "--no-run", "-p", PACKAGES[h]], HERE)
        exe = executable(msgs, "bench", "workloads") if ok else None
        if not exe:
            problems.append(f"{LABEL[h]}: `cargo bench --no-run -p {PACKAGES[h]}` failed:\n"
                            + "\n".join(errs[:5]))
            log(problems[-1])
        exes[h] = exe
    return exes


# --------------------------------------------------------------------------
# Running.

class Bench:
    """Runs one harness's bench binary with its own home directory."""

    def __init__(self, harness, exe, scratch):
        self.harness = harness
        self.exe = exe
        self.cwd = os.path.join(scratch, harness)
        os.makedirs(self.cwd, exist_ok=True)

    def env(self, home):
        env = dict(os.environ)
        home = os.path.join(self.cwd, home)
        # Criterion.rs reads CRITERION_HOME, yardstick YARDSTICK_HOME; both
        # fall back to $CARGO_TARGET_DIR/criterion.
        env["CRITERION_HOME"] = home
        env["YARDSTICK_HOME"] = home
        env["CARGO_TARGET_DIR"] = os.path.join(self.cwd, "target")
        return env

    def run(self, args, home="home"):
        return Run([self.exe] + args, cwd=self.cwd, env=self.env(home))

    def wipe(self, home):
        shutil.rmtree(os.path.join(self.cwd, home), ignore_errors=True)


def reference(exe, workload, seconds):
    r = Run([exe, workload, str(seconds)])
    parts = r.stdout.split()
    if r.code != 0 or len(parts) < 2:
        sys.exit(f"reference {workload} failed: {r.stderr.strip()}")
    return float(parts[1])


def describe_failure(harness, what, r, problems):
    out = r.output().strip().splitlines()
    tail = "\n".join("    " + line for line in out[-6:])
    msg = (f"{LABEL[harness]}: `{' '.join([os.path.basename(r.cmd[0])] + r.cmd[1:])}` "
           f"{what} (exit {r.code}); last lines:\n{tail}")
    if msg not in problems:
        problems.append(msg)
        log(msg)


def measure(args, exes, problems):
    scratch = tempfile.mkdtemp(prefix="yardstick-compare-")
    log(f"run outputs go under {scratch}")
    benches = {h: Bench(h, exes[h], scratch) for h in HARNESSES if exes.get(h)}
    res = {
        "wall": {h: {w: [] for w in WORKLOADS} for h in HARNESSES},
        "est": {h: {w: [] for w in WORKLOADS} for h in HARNESSES},
        "acc": {h: {w: [] for w in WORKLOADS} for h in HARNESSES},
        # Relative half-width of the 95 % interval, (hi - lo) / 2 / est.
        "half": {h: {w: [] for w in WORKLOADS} for h in HARNESSES},
        "ref": {w: [] for w in WORKLOADS},
        # The nanobench builder on ns_op: (seconds to answer, err fraction).
        "builder": [],
        "an_first": {h: [] for h in HARNESSES},
        "an_cmp": {h: [] for h in HARNESSES},
        "an_first_cpu": {h: [] for h in HARNESSES},
        "an_cmp_cpu": {h: [] for h in HARNESSES},
        "foreign": [],
    }

    def timed(bench, cmd_args, home="home"):
        wait_idle(args.idle_wait, args.idle_threshold)
        r = bench.run(cmd_args, home)
        res["foreign"].append(r.foreign)
        with open(os.path.join(bench.cwd, "log.txt"), "a") as f:
            f.write(f"$ {' '.join(r.cmd)}\n# exit {r.code}, wall {r.wall:.3f} s, cpu {r.cpu:.3f} s\n")
            f.write(r.output() + "\n")
        return r

    # Analysis time: the `empty` benchmark with 100 samples and almost no
    # sampling time, first with no saved baseline (outliers + bootstrap
    # estimates), then again with the baseline the first run saved (the same
    # plus the comparison). Harnesses alternate; each repetition starts clean.
    for rep in range(args.reps):
        order = HARNESSES if rep % 2 == 0 else HARNESSES[::-1]
        for h in order:
            if h not in benches:
                continue
            b = benches[h]
            b.wipe("analysis")
            log(f"[analysis {rep + 1}/{args.reps}] {h}")
            # The comparison with the saved numbers: the analysis alone
            # (by default yardstick measures the baseline's kept binary in
            # lock-step instead, which is measuring, and is timed with the
            # default-settings runs below).
            extra = ["--baseline-binary", "ignore"] if h == "yardstick" else []
            for key in ("an_first", "an_cmp"):
                r = timed(b, ["--bench", "empty"] + ANALYSIS_FLAGS + extra, home="analysis")
                if r.code != 0 or parse_estimate(r.output()) is None:
                    describe_failure(h, "failed or printed no `time: [lo est hi]` line", r, problems)
                    break
                res[key][h].append(r.wall)
                res[key + "_cpu"][h].append(r.cpu)

    # A saved baseline for every workload, as on any re-run, so that the
    # default-settings runs below include the comparison like a user's do.
    for h, b in benches.items():
        log(f"[baseline] {h}: saving a baseline for every workload")
        timed(b, ["--bench"] + ANALYSIS_FLAGS)

    # Default settings, interleaved with the reference loop:
    # ref, A, ref, B, ref for each workload; A and B alternate by repetition.
    for rep in range(args.reps):
        order = HARNESSES if rep % 2 == 0 else HARNESSES[::-1]
        order = [h for h in order if h in benches]
        for w in WORKLOADS:
            refs = []
            wait_idle(args.idle_wait, args.idle_threshold)
            refs.append(reference(exes["reference"], w, args.ref_seconds))
            results = {}
            for h in order:
                log(f"[default {rep + 1}/{args.reps}] {w}: {h}")
                results[h] = timed(benches[h], ["--bench", w, "--noplot"])
                wait_idle(args.idle_wait, args.idle_threshold)
                refs.append(reference(exes["reference"], w, args.ref_seconds))
            res["ref"][w].extend(refs)
            for i, h in enumerate(order):
                r = results[h]
                est = parse_estimate(r.output())
                if r.code != 0 or est is None:
                    describe_failure(h, "failed or printed no `time: [lo est hi]` line", r, problems)
                    continue
                around = (refs[i] + refs[i + 1]) / 2
                res["wall"][h][w].append(r.wall)
                res["est"][h][w].append(est)
                res["acc"][h][w].append(est / around)
                lo, _, hi = parse_interval(r.output())
                res["half"][h][w].append((hi - lo) / 2 / est)
                log(f"    {h} {w}: estimate {fmt_ns(est)}, reference {fmt_ns(around)}, "
                    f"wall {r.wall:.2f} s")
    # The builder, as a user calls it from `main`: 20 fresh builders in one
    # process, each timed from Bench::new() to its answer (issue 9: err% of
    # at most 1 % at least 100x sooner than Criterion.rs's default run).
    if exes.get("builder"):
        wait_idle(args.idle_wait, args.idle_threshold)
        r = Run([exes["builder"], "20"])
        for line in r.stdout.splitlines():
            parts = line.split()
            if len(parts) == 3:
                res["builder"].append((float(parts[0]), float(parts[1])))
        log(f"[builder] {len(res['builder'])} builders")
    return res


# --------------------------------------------------------------------------
# Clean build of a one-bench crate.

def clean_build(harness, problems):
    tmp = tempfile.mkdtemp(prefix=f"one-bench-{harness}-")
    os.makedirs(os.path.join(tmp, "benches"))
    for f in ("workloads.rs", "bodies.rs"):
        shutil.copy(os.path.join(HERE, "benches", f), os.path.join(tmp, "benches", f))
    if harness == "criterion":
        dep = 'criterion = "0.8"'
    else:
        path = os.path.join(REPO, "crates", "yardstick")
        dep = f'criterion = {{ package = "yardstick", path = {json.dumps(path)} }}'
    with open(os.path.join(tmp, "Cargo.toml"), "w") as f:
        f.write(f"""[package]
name = "one-bench"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dev-dependencies]
{dep}

[[bench]]
name = "workloads"
harness = false
""")
    # The same dependency versions as the comparison workspace.
    lock = os.path.join(HERE, "Cargo.lock")
    if os.path.exists(lock):
        shutil.copy(lock, os.path.join(tmp, "Cargo.lock"))
    env = dict(os.environ)
    env["CARGO_TARGET_DIR"] = os.path.join(tmp, "target")
    env.pop("RUSTC_WRAPPER", None)
    env.pop("CARGO_BUILD_RUSTC_WRAPPER", None)
    # Resolve (and download, if needed) before the clock starts.
    subprocess.run(["cargo", "fetch"], cwd=tmp, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    log(f"[clean build] {harness}: cargo bench --no-run in a scratch crate")
    r = Run(["cargo", "bench", "--no-run"], cwd=tmp, env=env)
    out = {"seconds": r.wall, "cpu": r.cpu, "foreign": r.foreign}
    if r.code != 0:
        describe_failure(harness, "clean build failed", r, problems)
        shutil.rmtree(tmp, ignore_errors=True)
        return None
    compiling = [l for l in r.stderr.splitlines() if l.strip().startswith("Compiling ")]
    out["compiling"] = len(compiling)
    out["compiling_deps"] = len([l for l in compiling if "one-bench" not in l])
    t = subprocess.run(["cargo", "tree", "-e", "normal,build,dev", "--prefix", "none"],
                       cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    names = set()
    for line in t.stdout.decode("utf-8", "replace").splitlines():
        line = line.replace("(*)", "").replace("(proc-macro)", "").strip()
        line = re.sub(r"\s*\(/.*\)$", "", line)  # path of a local package
        if line and not line.startswith("one-bench ") and not line.startswith("["):
            names.add(line)
    out["tree"] = len(names)
    shutil.rmtree(tmp, ignore_errors=True)
    return out


# --------------------------------------------------------------------------
# Report.

def fmt_secs(x):
    if x is None:
        return "-"
    return f"{x * 1e3:.1f} ms" if x < 1 else f"{x:.2f} s"


def ratio(y, c):
    if y is None or c is None or c == 0:
        return None
    return y / c


def fmt_ratio(x, digits=2):
    return "-" if x is None else f"{x:.{digits}f}"


def verdict(ok):
    return "-" if ok is None else ("met" if ok else "NOT met")


def table(args, res, builds, problems):
    rows = []  # (measure, criterion, yardstick, ratio, target, verdict)
    C, Y = "criterion", "yardstick"

    for w in WORKLOADS:
        c, y = med(res["wall"][C][w]), med(res["wall"][Y][w])
        rows.append((f"wall time, default settings: {w}",
                     "-" if c is None else f"{c:.2f} s", "-" if y is None else f"{y:.2f} s",
                     fmt_ratio(ratio(y, c)), "", ""))

    for key, what in (("an_cmp", "analysis, 100 samples, with comparison"),
                      ("an_first", "analysis, 100 samples, no baseline")):
        c, y = med(res[key][C]), med(res[key][Y])
        cc, yc = med(res[key + "_cpu"][C]), med(res[key + "_cpu"][Y])
        r = ratio(y, c)
        target = "<= 0.20" if key == "an_cmp" else ""
        rows.append((f"{what} (wall)",
                     "-" if c is None else f"{c:.3f} s", "-" if y is None else f"{y:.3f} s",
                     fmt_ratio(r), target,
                     verdict(None if r is None else r <= 0.2) if target else ""))
        rows.append((f"{what} (CPU)",
                     "-" if cc is None else f"{cc:.3f} s", "-" if yc is None else f"{yc:.3f} s",
                     fmt_ratio(ratio(yc, cc)), "", ""))

    # Issue 9: median wall time per benchmark at most 1/8 of Criterion.rs's,
    # with a 95 % interval no wider than Criterion.rs's on every workload.
    wc = [med(res["wall"][C][w]) for w in WORKLOADS]
    wy = [med(res["wall"][Y][w]) for w in WORKLOADS]
    if None not in wc and None not in wy:
        c, y = med(wc), med(wy)
        r = ratio(y, c)
        rows.append(("wall time per benchmark, median over the workloads", f"{c:.2f} s",
                     f"{y:.2f} s", fmt_ratio(r), "<= 1/8",
                     verdict(None if r is None else r <= 0.125)))
    for w in WORKLOADS:
        c, y = med(res["half"][C][w]), med(res["half"][Y][w])
        ok = None if c is None or y is None else y <= c
        rows.append((f"95% interval half-width: {w}",
                     "-" if c is None else f"{c * 100:.2f}%",
                     "-" if y is None else f"{y * 100:.2f}%",
                     fmt_ratio(ratio(y, c)), "Y <= C", verdict(ok)))
    for w in WORKLOADS:
        c, y = med(res["est"][C][w]), med(res["est"][Y][w])
        rows.append((f"estimate: {w}", fmt_ns(c), fmt_ns(y), fmt_ratio(ratio(y, c), 3),
                     f"reference {fmt_ns(med(res['ref'][w]))}", ""))
    for w in WORKLOADS:
        c, y = med(res["acc"][C][w]), med(res["acc"][Y][w])
        ok = None if c is None or y is None else abs(y - 1) <= abs(c - 1)
        rows.append((f"accuracy estimate/reference: {w}", fmt_ratio(c, 3), fmt_ratio(y, 3),
                     "", "|Y-1| <= |C-1|", verdict(ok)))

    if res.get("builder"):
        took = med([t for t, _ in res["builder"]])
        err = med([e for _, e in res["builder"]])
        c = med(res["wall"][C]["ns_op"])
        r = ratio(took, c)
        rows.append(("nanobench builder on ns_op: time to answer (median of 20) vs "
                     "Criterion.rs's default run", fmt_secs(c), fmt_secs(took), fmt_ratio(r, 4),
                     "<= 0.01", verdict(None if r is None else r <= 0.01)))
        rows.append(("nanobench builder on ns_op: err% (median of 20)", "", f"{err * 100:.2f}%",
                     "", "<= 1%", verdict(err <= 0.01)))
    c, y = med(res["est"][C]["empty"]), med(res["est"][Y]["empty"])
    rows.append(("empty-body floor", fmt_ns(c), fmt_ns(y), fmt_ratio(ratio(y, c)),
                 "Y <= C", verdict(None if c is None or y is None else y <= c)))

    if builds is not None:
        bc, by = builds.get(C), builds.get(Y)
        s = lambda b, k: None if b is None else b.get(k)
        r = ratio(s(by, "seconds"), s(bc, "seconds"))
        rows.append(("clean `cargo bench --no-run`: time",
                     "-" if bc is None else f"{bc['seconds']:.1f} s",
                     "-" if by is None else f"{by['seconds']:.1f} s",
                     fmt_ratio(r), "<= 0.50", verdict(None if r is None else r <= 0.5)))
        r = ratio(s(by, "compiling_deps"), s(bc, "compiling_deps"))
        rows.append(("clean build: crates compiled besides the bench crate (`Compiling` lines)",
                     str(s(bc, "compiling_deps") or "-"), str(s(by, "compiling_deps") or "-"),
                     fmt_ratio(r), "<= 18 (divan 0.1.21)",
                     verdict(None if by is None else by["compiling_deps"] <= 18)))
        r = ratio(s(by, "tree"), s(bc, "tree"))
        rows.append(("clean build: packages in `cargo tree` besides the bench crate",
                     str(s(bc, "tree") or "-"), str(s(by, "tree") or "-"),
                     fmt_ratio(r), "<= 18 (divan 0.1.21)",
                     verdict(None if by is None else by["tree"] <= 18)))

    head = ("measure", LABEL[C], LABEL[Y], "yardstick/criterion", "target", "verdict")
    return head, rows


def yardstick_source():
    """The commit of the yardstick sources, marked if they have local changes."""
    git = lambda *a: subprocess.run(["git"] + list(a), cwd=REPO, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL).stdout.decode().strip()
    commit = git("rev-parse", "--short", "HEAD") or "?"
    if git("status", "--porcelain", "--", "crates"):
        commit += " with uncommitted changes"
    return commit


def context_lines(args, res, source, builds):
    rustc = subprocess.run(["rustc", "--version"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL).stdout.decode().strip()
    crit = "0.8"
    try:
        with open(os.path.join(HERE, "Cargo.lock")) as f:
            m = re.search(r'name = "criterion"\nversion = "([^"]+)"', f.read())
            if m:
                crit = m.group(1)
    except OSError:
        pass
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"model name\s*:\s*(.*)", f.read())
            if m:
                cpu = m.group(1).strip()
    except OSError:
        pass
    foreign = res["foreign"]
    lines = [
        f"{time.strftime('%Y-%m-%d')}, yardstick at commit {source}, criterion {crit}, "
        f"{rustc}, {cpu}, {os.cpu_count()} cores; {args.reps} repetition(s), medians shown.",
    ]
    if foreign:
        lines.append(f"Other processes used {statistics.median(foreign):.2f} cores (median) and "
                     f"{max(foreign):.2f} cores (max) while the harness runs ran.")
    for h, b in (builds or {}).items():
        if b:
            lines.append(f"Other processes used {b['foreign']:.2f} cores during the clean build "
                         f"of {LABEL[h]}.")
    return lines


METHOD = [
    "Each harness's bench binary is run directly, one benchmark per process "
    "(`<bench-binary> --bench <workload> --noplot`), never two processes at once; "
    "wall time is that of the whole process. A saved baseline exists (as on any re-run), "
    "so the default runs include the comparison (yardstick's: in lock-step with the "
    "baseline's kept binary).",
    "Analysis time: wall (and CPU) time of `<bench-binary> --bench empty --noplot --sample-size 100 "
    "--warm-up-time 0.001 --measurement-time 0.001`, where sampling takes about 2 ms, so the "
    "process time is the analysis of 100 samples with the default 100,000 resamples (plus start-up "
    "and file writes): once with no baseline, then again comparing with the baseline the first run saved "
    "(yardstick with `--baseline-binary ignore`: its saved numbers, the analysis alone).",
    "Accuracy: the estimate (middle number of `time: [lo est hi]`) divided by the mean of the plain "
    "`Instant` loop (`reference`, same bodies, same profile) run just before and just after it; "
    "runs go ref, A, ref, B, ref per workload, the harness order alternating per repetition.",
    "Clean build: a scratch copy of the one-bench crate with a fresh CARGO_TARGET_DIR and the "
    "comparison's Cargo.lock, dependencies fetched before timing `cargo bench --no-run`; crates "
    "counted as `Compiling` lines and as distinct packages in "
    "`cargo tree -e normal,build,dev --prefix none` (dev edges, since the harness is a dev-dependency), "
    "the bench crate excluded.",
]


def render(head, rows, notes, markdown):
    out = []
    if markdown:
        out.append("| " + " | ".join(head) + " |")
        out.append("| " + " | ".join("---" for _ in head) + " |")
        for r in rows:
            out.append("| " + " | ".join(c.replace("|", "\\|") if c else "" for c in r) + " |")
        out.append("")
        for n in notes:
            out.append(f"- {n}")
    else:
        widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
        line = lambda r: "  ".join(str(c).ljust(widths[i]) for i, c in enumerate(r)).rstrip()
        out.append(line(head))
        out.append("  ".join("-" * w for w in widths))
        out.extend(line(r) for r in rows)
        out.append("")
        for n in notes:
            out.append(f"* {n}")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="one repetition and a 0.5 s reference loop")
    ap.add_argument("--reps", type=int, help="repetitions (default 3, 1 with --quick)")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    ap.add_argument("--no-clean-build", action="store_true",
                    help="skip the clean-build measurement")
    ap.add_argument("--ref-seconds", type=float, help="length of one reference loop (default 1)")
    ap.add_argument("--idle-wait", type=float, default=30.0,
                    help="before each timed run, wait up to this many seconds for other "
                         "processes to use less than --idle-threshold cores (default 30; 0: never wait)")
    ap.add_argument("--idle-threshold", type=float, default=0.3)
    ap.add_argument("--json", metavar="FILE",
                    help="also write every repetition's figures to FILE as JSON")
    args = ap.parse_args()
    if args.reps is None:
        args.reps = 1 if args.quick else 3
    if args.ref_seconds is None:
        args.ref_seconds = 0.5 if args.quick else 1.0
    if args.reps < 1 or args.ref_seconds <= 0:
        ap.error("--reps and --ref-seconds must be positive")

    problems = []
    # The yardstick sources measured are those of this moment: other work
    # may commit while the comparison runs.
    source = yardstick_source()
    exes = build_all(problems)
    if not any(exes.get(h) for h in HARNESSES):
        sys.exit("neither harness built:\n" + "\n".join(problems))

    # The clean builds first, so that they compile the same yardstick
    # sources as the bench binary just built.
    builds = None
    if not args.no_clean_build:
        builds = {}
        for h in HARNESSES:
            wait_idle(args.idle_wait, args.idle_threshold)
            builds[h] = clean_build(h, problems)
            if builds[h]:
                b = builds[h]
                log(f"    {h}: {b['seconds']:.1f} s, {b['compiling']} `Compiling` lines, "
                    f"{b['tree']} packages in cargo tree besides the bench crate")

    res = measure(args, exes, problems)

    head, rows = table(args, res, builds, problems)
    notes = context_lines(args, res, source, builds) + METHOD
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"yardstick_source": source, "results": res, "clean_build": builds,
                       "problems": problems, "table": [head] + rows}, f, indent=1)
    if problems:
        notes += ["Problems: " + p.replace("\n", " / ") for p in problems]
    print(render(head, rows, notes, args.markdown))


if __name__ == "__main__":
    main()
