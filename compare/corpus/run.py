#!/usr/bin/env python3
"""The compatibility corpus: published crates' bench suites under their real
harness and after the one-line switch to yardstick.

For every crate of the list (compare/corpus/crates.toml: name, version,
harness, bench targets, features) the script

  1. unpacks the published package from the registry (a throwaway project
     depending on `name = "=version"` is fetched with cargo, and the
     `.crate` file in cargo's cache is unpacked), twice: the real side as
     published, and the switched side with the harness's dependency line
     made a path dependency on this repository's crate, keeping its name
     and features (`criterion = { package = "yardstick", path = ... }`,
     `divan = { package = "yardstick-divan", ... }`, `iai-callgrind = {
     package = "yardstick-callgrind", ... }`); nothing else is edited;
  2. builds each listed bench target on both sides (`cargo bench --no-run`);
  3. Criterion.rs and divan: runs each target in test mode (`cargo bench
     --bench T -- --test`) on both sides and compares the benchmarks tested
     (Criterion.rs: the `Testing <id>` lines; divan: the printed tree,
     names and indentation with the numbers left out); then runs the first
     of them for real on both sides (Criterion.rs: an anchored filter;
     divan: `--exact`);
  4. iai-callgrind: runs the whole target for real on both sides (it is
     Valgrind: there is no test mode in iai-callgrind 0.12) and compares the
     instruction count of every benchmark.

Output: the results table as markdown on stdout, every difference as JSON
(--json), progress and failures on stderr, and every command's output in
the work directory's logs/ (kept with --keep).

Needs cargo and the crates.io registry; valgrind and iai-callgrind-runner
0.12.x (on PATH, or --iai-runner) for the iai-callgrind crates; Python 3.11
standard library only. Builds go to one target directory per side shared by
all crates of the run (so a harness version is compiled once per side).
It is run by hand, never in CI: the whole list took 1.5-2 hours from cold
on a busy two-core machine with CARGO_BUILD_JOBS=1 (minutes once built).
A package that ships a Cargo.lock is built with it, as its users would.
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
import time
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# harness name in the list -> (dependency key, yardstick's crate, its folder)
HARNESSES = {
    "criterion": ("criterion", "yardstick", "crates/yardstick"),
    "divan": ("divan", "yardstick-divan", "crates/yardstick-divan"),
    "iai-callgrind": ("iai-callgrind", "yardstick-callgrind", "crates/yardstick-callgrind"),
}
SIDES = ("real", "switched")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# The list and the packages


def load_list(path):
    with open(path, "rb") as f:
        data = tomllib.load(f)
    crates = data.get("crate", [])
    for c in crates:
        for key in ("name", "version", "harness", "benches"):
            if key not in c:
                sys.exit(f"{path}: a crate without `{key}`: {c}")
        if c["harness"] not in HARNESSES:
            sys.exit(f"{path}: {c['name']}: unknown harness {c['harness']!r}")
        c.setdefault("features", [])
    return crates


def cargo_home():
    return os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))


def unpack(name, version, work):
    """The published package `name-version`, unpacked under work/packages."""
    dest = os.path.join(work, "packages", f"{name}-{version}")
    if os.path.isdir(dest):
        return dest
    probe = os.path.join(work, "fetch", f"{name}-{version}")
    os.makedirs(os.path.join(probe, "src"), exist_ok=True)
    with open(os.path.join(probe, "Cargo.toml"), "w") as f:
        f.write(
            '[package]\nname = "corpus-fetch"\nversion = "0.0.0"\nedition = "2021"\n'
            'publish = false\n\n[workspace]\n\n[dependencies]\n'
            f'fetched = {{ package = "{name}", version = "={version}", default-features = false }}\n'
        )
    open(os.path.join(probe, "src", "lib.rs"), "w").close()
    p = subprocess.run(["cargo", "fetch"], cwd=probe, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"cargo fetch of {name} {version} failed:\n{p.stderr[-2000:]}")
    found = glob.glob(os.path.join(cargo_home(), "registry", "cache", "*", f"{name}-{version}.crate"))
    if not found:
        raise RuntimeError(f"{name}-{version}.crate is not in cargo's cache after cargo fetch")
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with tarfile.open(found[0]) as t:
        t.extractall(os.path.dirname(dest), filter="data")
    return dest


# --------------------------------------------------------------------------
# The one-line switch


TABLE = re.compile(r"^\s*\[(?P<prefix>.*?)(?P<kind>dev-dependencies|dependencies)\s*\.\s*"
                   r"(?P<q>\"?)(?P<key>[A-Za-z0-9_-]+)(?P=q)\s*\]\s*(#.*)?$")
HEADER = re.compile(r"^\s*\[")
INLINE_TABLE = re.compile(r"^\s*\[(?P<prefix>.*?)(dev-dependencies|dependencies)\s*\]\s*(#.*)?$")


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise ValueError(f"unexpected value {v!r}")


def switch_manifest(text, harness, repo=REPO):
    """The manifest with the harness's dependency made the path dependency on
    yardstick's crate of that name; every other line unchanged. Returns (new
    text, number of dependency entries switched)."""
    key, package, folder = HARNESSES[harness]
    path = os.path.join(repo, folder)
    out, switched, i = [], 0, 0
    lines = text.splitlines()
    section = None
    while i < len(lines):
        line = lines[i]
        m = TABLE.match(line)
        if m and m.group("key") == key:
            # [dev-dependencies.criterion] (or a target's): drop `version`
            # and `registry`, add `package` and `path`, keep the rest.
            out.append(line)
            out.append(f'package = "{package}"')
            out.append(f"path = {json.dumps(path)}")
            i += 1
            while i < len(lines) and not HEADER.match(lines[i]):
                body = lines[i].split("=", 1)[0].strip()
                if body not in ("version", "package", "registry", "registry-index"):
                    out.append(lines[i])
                i += 1
            switched += 1
            section = None
            continue
        if HEADER.match(line):
            section = "deps" if INLINE_TABLE.match(line) else None
        elif section == "deps" and re.match(rf"^\s*\"?{re.escape(key)}\"?\s*=", line):
            # criterion = "0.5" or criterion = { version = "0.5", ... }
            dep = tomllib.loads(line)[key]
            fields = {} if isinstance(dep, str) else dict(dep)
            for k in ("version", "package", "registry"):
                fields.pop(k, None)
            fields = {"package": package, "path": path, **fields}
            out.append(f"{key} = {{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in fields.items()) + " }")
            switched += 1
            i += 1
            continue
        out.append(line)
        i += 1
    return "\n".join(out) + "\n", switched


def renamed_harness(manifest, harness):
    """The harness's dependency as the manifest declares it: (key, requirement,
    features), from [dev-dependencies] or a target's."""
    key = HARNESSES[harness][0]
    tables = [manifest.get("dev-dependencies", {}), manifest.get("dependencies", {})]
    for t in manifest.get("target", {}).values():
        tables += [t.get("dev-dependencies", {}), t.get("dependencies", {})]
    for t in tables:
        if key in t:
            d = t[key]
            if isinstance(d, str):
                return d, []
            if d.get("package", key) != key:
                return None, []
            return d.get("version", "?"), d.get("features", [])
    return None, []


# --------------------------------------------------------------------------
# Running cargo


class Runner:
    def __init__(self, work, timeout, env_extra):
        self.work = work
        self.timeout = timeout
        self.env_extra = env_extra
        self.logs = os.path.join(work, "logs")
        os.makedirs(self.logs, exist_ok=True)

    def run(self, cmd, cwd, side, label, extra_env=None, timeout=None):
        env = dict(os.environ)
        env.update(self.env_extra)
        env["CARGO_TARGET_DIR"] = os.path.join(self.work, "target", side)
        env.update(extra_env or {})
        t0 = time.monotonic()
        try:
            p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, errors="replace",
                               timeout=timeout or self.timeout)
            code, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            code = "timeout"
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        secs = time.monotonic() - t0
        with open(os.path.join(self.logs, f"{label}.log"), "w") as f:
            f.write(f"$ {' '.join(cmd)}\n# in {cwd}, {secs:.1f} s, exit {code}\n")
            f.write("## stdout\n" + out + "\n## stderr\n" + err)
        return code == 0, out, err, secs


def error_excerpt(err):
    """The first compiler error or panic of a failed command, for the table."""
    lines = err.splitlines()
    for i, l in enumerate(lines):
        if l.startswith("error") or "panicked" in l or l.startswith("thread '"):
            return " ".join(x.strip() for x in lines[i:i + 3])[:300]
    return " ".join(lines[-3:])[:300]


# --------------------------------------------------------------------------
# What each harness prints


TESTING = re.compile(r"^Testing (.+?)\s*$")


def criterion_ids(out):
    return [m.group(1) for m in map(TESTING.match, out.splitlines()) if m]


def regex_anchor(name):
    return "^" + re.sub(r"([\\.+*?()|\[\]{}^$])", r"\\\1", name) + "$"


TREE_CHARS = "│├╰└─┬ "
NUMBER = re.compile(r"\d+(\.\d+)?")


def divan_tree(out):
    """divan's table as names and indentation: each row's tree prefix and
    name, the numbers and columns left out."""
    rows = []
    for line in out.splitlines():
        if not line.strip() and rows:
            # The tree ends with a blank line; what follows (yardstick's
            # note on changes without verdicts) is not part of it.
            break
        if not line.strip() or line.startswith("Timer precision"):
            continue
        j = 0
        while j < len(line) and line[j] in TREE_CHARS:
            j += 1
        prefix, rest = line[:j], line[j:]
        name = re.split(r"\s{2,}|\s+│", rest, maxsplit=1)[0].rstrip()
        if not name:
            continue
        if rows and "─" not in prefix:
            # A counter's row under a benchmark (`61.5 GB/s`): its unit.
            name = NUMBER.sub("#", name)
        rows.append(prefix + name)
    return rows


def divan_list(out):
    """`--list --format terse` (divan answers it only under cargo-nextest,
    so it runs with NEXTEST=1): one `path: benchmark` line per benchmark."""
    return [l[: -len(": benchmark")] for l in out.splitlines() if l.endswith(": benchmark")]


def first_tree_path(rows):
    """The path of the tree's first leaf (`crate::group::bench::arg`), from
    its rows' indentation (three characters a level)."""
    parsed = []
    for r in rows:
        j = 0
        while j < len(r) and r[j] in TREE_CHARS:
            j += 1
        name = r[j:].removesuffix("(ignored)").strip()
        parsed.append((j // 3, name, r.endswith("(ignored)")))
    stack = []
    for i, (depth, name, ignored) in enumerate(parsed):
        del stack[depth:]
        stack.append(name)
        leaf = i + 1 == len(parsed) or parsed[i + 1][0] <= depth
        if leaf and not ignored and depth > 0:
            return "::".join(stack)
    return None


IAI_INSTR = re.compile(r"^\s*Instructions:\s+(\d+)")


def iai_counts(out, target):
    """{benchmark header: instruction count} from iai-callgrind's output."""
    prefix = target.replace("-", "_") + "::"
    counts, header = {}, None
    for line in out.splitlines():
        if line.startswith(prefix):
            header = line.strip()
            continue
        m = IAI_INSTR.match(line)
        if m and header is not None:
            counts[header] = int(m.group(1))
            header = None
    return counts


# --------------------------------------------------------------------------
# One crate


def run_crate(c, runner, args):
    name, version, harness = c["name"], c["version"], c["harness"]
    tag = f"{name}-{version}"
    result = {"crate": name, "version": version, "harness": harness, "targets": [],
              "differences": [], "note": c.get("note", "")}
    try:
        src = unpack(name, version, runner.work)
    except RuntimeError as e:
        result["error"] = str(e)
        return result
    with open(os.path.join(src, "Cargo.toml"), "rb") as f:
        manifest = tomllib.load(f)
    requirement, feats = renamed_harness(manifest, harness)
    result["harness_requirement"] = requirement
    result["harness_features"] = feats
    if c.get("harness_version") and c["harness_version"] != requirement:
        log(f"   note: {tag} declares {HARNESSES[harness][0]} {requirement!r}, the list says "
            f"{c['harness_version']!r}")
    dirs = {}
    for side in SIDES:
        d = os.path.join(runner.work, "sides", side, tag)
        if os.path.isdir(d):
            shutil.rmtree(d)
        shutil.copytree(src, d)
        dirs[side] = d
    with open(os.path.join(dirs["switched"], "Cargo.toml")) as f:
        text = f.read()
    new, n = switch_manifest(text, harness)
    if n == 0:
        result["error"] = f"no `{HARNESSES[harness][0]}` dependency to switch in Cargo.toml"
        return result
    with open(os.path.join(dirs["switched"], "Cargo.toml"), "w") as f:
        f.write(new)
    feature_args = ["--features", ",".join(c["features"])] if c["features"] else []
    for target in c["benches"]:
        log(f"== {tag} ({harness}) bench {target}")
        t = {"target": target}
        result["targets"].append(t)
        envs = {s: {"CRITERION_HOME": os.path.join(runner.work, "homes", s, tag)} for s in SIDES}
        if harness == "iai-callgrind" and args.iai_runner:
            envs["real"]["IAI_CALLGRIND_RUNNER"] = args.iai_runner
        for side in SIDES:
            if side == "switched" and not t["real_build"]:
                # Nothing to compare with: the target is left out.
                t["switched_build"] = None
                break
            ok, _, err, secs = runner.run(
                ["cargo", "bench", "--bench", target, "--no-run"] + feature_args,
                dirs[side], side, f"{tag}.{target}.{side}.build", envs[side],
                timeout=args.build_timeout)
            t[f"{side}_build"] = ok
            t[f"{side}_build_s"] = round(secs, 1)
            log(f"   {side} build: {'ok' if ok else 'FAILED'} ({secs:.0f} s)")
            if not ok:
                t[f"{side}_error"] = error_excerpt(err)
        if not gate(t, result, "build", "build", "switched_error",
                    "doesn't build with the real harness (left out)", "switched build fails"):
            continue
        if harness == "iai-callgrind":
            run_iai(c, t, runner, dirs, envs, feature_args, result)
        else:
            run_timed(c, t, runner, dirs, envs, feature_args, result)
    result["harness_built"] = locked_version(dirs["real"], HARNESSES[harness][0])
    return result


def locked_version(crate_dir, package):
    """The version of `package` the real side's build resolved (its Cargo.lock)."""
    try:
        with open(os.path.join(crate_dir, "Cargo.lock"), "rb") as f:
            lock = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return None
    found = [p["version"] for p in lock.get("package", []) if p["name"] == package]
    return ", ".join(found) or None


def gate(t, result, step, kind, error_key, real_fails, switched_fails):
    """Whether both sides passed `step` (`t["real_<step>"]` and
    `t["switched_<step>"]`); if not, the target's status says which side
    failed, and the switched side's failure is recorded as a difference."""
    if not t[f"real_{step}"]:
        t["status"] = real_fails
        return False
    if not t[f"switched_{step}"]:
        t["status"] = switched_fails
        result["differences"].append({"target": t["target"], "kind": kind,
                                      "switched": t.get(error_key, "")})
        return False
    return True


def bench_cmd(target, feature_args, bench_args):
    return ["cargo", "bench", "--bench", target] + feature_args + ["--"] + bench_args


def run_timed(c, t, runner, dirs, envs, feature_args, result):
    tag, harness, target = f"{c['name']}-{c['version']}", c["harness"], t["target"]
    outs = {}
    for side in SIDES:
        ok, out, err, secs = runner.run(bench_cmd(target, feature_args, ["--test"]), dirs[side],
                                        side, f"{tag}.{target}.{side}.test", envs[side])
        t[f"{side}_test"] = ok
        t[f"{side}_test_s"] = round(secs, 1)
        outs[side] = out
        log(f"   {side} --test: {'ok' if ok else 'FAILED'} ({secs:.0f} s)")
        if not ok:
            t[f"{side}_test_error"] = error_excerpt(err or out)
    if not gate(t, result, "test", "test mode", "switched_test_error",
                "test mode fails with the real harness", "switched test mode fails"):
        return
    # What was tested, side by side
    if harness == "criterion":
        ids = {s: criterion_ids(outs[s]) for s in SIDES}
        t["benchmarks"] = len(ids["real"])
        t["benchmarks_switched"] = len(ids["switched"])
        if ids["real"] != ids["switched"]:
            only_r = [x for x in ids["real"] if x not in ids["switched"]]
            only_s = [x for x in ids["switched"] if x not in ids["real"]]
            result["differences"].append({
                "target": target, "kind": "benchmarks tested",
                "only_real": only_r[:20], "only_switched": only_s[:20],
                "same_set_other_order": not only_r and not only_s})
            t["same_benchmarks"] = False
        else:
            t["same_benchmarks"] = True
        first = ids["real"][0] if ids["real"] else None
        one_args = [regex_anchor(first)] if first else []
    else:
        trees = {s: divan_tree(outs[s]) for s in SIDES}
        t["benchmarks"] = len(trees["real"])
        t["benchmarks_switched"] = len(trees["switched"])
        t["same_benchmarks"] = trees["real"] == trees["switched"]
        if not t["same_benchmarks"]:
            diff = [(i, a, b) for i, (a, b) in enumerate(zip(trees["real"], trees["switched"])) if a != b]
            result["differences"].append({
                "target": target, "kind": "tree",
                "rows_real": len(trees["real"]), "rows_switched": len(trees["switched"]),
                "first_differing_rows": diff[:10],
                "real_tail": trees["real"][len(trees["switched"]):][:10],
                "switched_tail": trees["switched"][len(trees["real"]):][:10]})
        ok, out, _, _ = runner.run(bench_cmd(target, feature_args, ["--list", "--format", "terse"]), dirs["real"], "real",
                                   f"{tag}.{target}.real.list", {**envs["real"], "NEXTEST": "1"})
        names = divan_list(out) if ok else []
        # divan before 0.1.21 has no terse list: the tree tells the path.
        first = names[0] if names else first_tree_path(trees["real"])
        one_args = ["--exact", first] if first else []
    t["one"] = first
    if not first:
        t["status"] = "no benchmark found to run for real"
        return
    for side in SIDES:
        ok, out, err, secs = runner.run(bench_cmd(target, feature_args, one_args), dirs[side], side,
                                        f"{tag}.{target}.{side}.one", envs[side])
        if ok and harness == "criterion":
            # the benchmark must have run: its id heads a result line
            ok = any(l.startswith(first) for l in (out + "\n" + err).splitlines()
                     if "time:" in l or l.strip() == first)
            if not ok:
                err = f"`{first}` did not run:\n{out[-1500:]}\n{err[-1500:]}"
        if ok and harness == "divan":
            tree = divan_tree(out)
            leaf = first.split("::")[-1]
            ok = any(r.lstrip(TREE_CHARS) == leaf or r.endswith(leaf) for r in tree)
            t[f"{side}_one_tree"] = tree
            if not ok:
                err = f"`{first}` is not in the table:\n{out[-1500:]}"
        t[f"{side}_one"] = ok
        t[f"{side}_one_s"] = round(secs, 1)
        log(f"   {side} one benchmark ({first}): {'ok' if ok else 'FAILED'} ({secs:.0f} s)")
        if not ok:
            t[f"{side}_one_error"] = error_excerpt(err)
    if harness == "divan" and t.get("real_one") and t.get("switched_one"):
        if t["real_one_tree"] != t["switched_one_tree"]:
            result["differences"].append({"target": target, "kind": "tree of one benchmark",
                                          "real": t["real_one_tree"], "switched": t["switched_one_tree"]})
    if gate(t, result, "one", "one benchmark", "switched_one_error",
            "the real harness fails to run one benchmark", "switched run of one benchmark fails"):
        t["status"] = "ok"
    for side in SIDES:
        t.pop(f"{side}_one_tree", None)


def run_iai(c, t, runner, dirs, envs, feature_args, result):
    tag, target = f"{c['name']}-{c['version']}", t["target"]
    counts = {}
    for side in SIDES:
        ok, out, err, secs = runner.run(bench_cmd(target, feature_args, []), dirs[side], side,
                                        f"{tag}.{target}.{side}.iai", envs[side])
        counts[side] = iai_counts(out + "\n" + err, target)
        t[f"{side}_one"] = ok and bool(counts[side])
        t[f"{side}_one_s"] = round(secs, 1)
        log(f"   {side} run: {'ok' if ok else 'FAILED'}, {len(counts[side])} counts ({secs:.0f} s)")
        if not ok:
            t[f"{side}_one_error"] = error_excerpt(err)
    t["benchmarks"] = len(counts["real"])
    t["benchmarks_switched"] = len(counts["switched"])
    rows, equal = [], 0
    for k in list(counts["real"]) + [k for k in counts["switched"] if k not in counts["real"]]:
        a, b = counts["real"].get(k), counts["switched"].get(k)
        rows.append({"benchmark": k, "real": a, "switched": b,
                     "difference": None if a is None or b is None else b - a})
        equal += a == b
    t["counts"] = rows
    t["counts_equal"] = equal
    t["same_benchmarks"] = list(counts["real"]) == list(counts["switched"])
    for r in rows:
        if r["real"] != r["switched"]:
            result["differences"].append({"target": target, "kind": "instruction count", **r})
    if gate(t, result, "one", "run", "switched_one_error",
            "the real harness fails to run", "switched run fails"):
        t["status"] = "ok"


# --------------------------------------------------------------------------
# The table


def mark(v):
    return {True: "ok", False: "**fails**", None: "–"}.get(v, str(v))


def table(results):
    lines = [
        "| crate | harness requirement (built) | bench target | real build | switched build | "
        "real `--test` | switched `--test` | same benchmarks | one for real (real / switched) | result |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        h = f"{r['harness']} {r.get('harness_requirement') or ''}".strip()
        if r.get("harness_built"):
            h += f" ({r['harness_built']})"
        if r.get("error"):
            lines.append(f"| {r['crate']} {r['version']} | {h} | – | – | – | – | – | – | – | {r['error'][:120]} |")
            continue
        for t in r["targets"]:
            same = t.get("same_benchmarks")
            n = t.get("benchmarks")
            if r["harness"] == "iai-callgrind" and "counts" in t:
                same_s = f"{t['counts_equal']}/{n} counts equal"
            elif same is None:
                same_s = "–"
            else:
                same_s = (f"yes ({n})" if same else f"**no** ({n} / {t.get('benchmarks_switched')})")
            one = "–"
            if "real_one" in t:
                one = f"{mark(t.get('real_one'))} / {mark(t.get('switched_one'))}"
            tests = (["n/a (Valgrind)"] * 2 if r["harness"] == "iai-callgrind"
                     else [mark(t.get("real_test")), mark(t.get("switched_test"))])
            lines.append(
                f"| {r['crate']} {r['version']} | {h} | {t['target']} | {mark(t.get('real_build'))} | "
                f"{mark(t.get('switched_build'))} | {tests[0]} | {tests[1]} | {same_s} | {one} | "
                f"{t.get('status', '')} |")
    return "\n".join(lines)


def summary(results):
    runs_real = runs_both = 0
    for r in results:
        ts = r["targets"]
        real = [t for t in ts if t.get("real_build") and t.get("real_one") is not False
                and t.get("real_test") is not False]
        if not real:
            continue
        runs_real += 1
        if all(t.get("status") == "ok" for t in real):
            runs_both += 1
    return runs_real, runs_both


def main():
    ap = argparse.ArgumentParser(
        description="Build and run published crates' bench suites with their real harness "
                    "and after the one-line switch to yardstick; print the results table.",
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", default=os.path.join(HERE, "crates.toml"),
                    help="the crate list (default: compare/corpus/crates.toml)")
    ap.add_argument("--only", action="append", default=[],
                    help="only these crates (name, name-version, or a harness: criterion, divan, "
                         "iai-callgrind); repeat or separate with commas")
    ap.add_argument("--work", help="the work directory: packages, both sides' copies, target "
                                   "directories, logs (default: a new temporary directory)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work directory (default: removed at the end, logs included)")
    ap.add_argument("--json", default="corpus-differences.json",
                    help="where every result and difference goes as JSON (default: %(default)s)")
    ap.add_argument("--iai-runner", default=os.environ.get("IAI_CALLGRIND_RUNNER"),
                    help="iai-callgrind-runner 0.12.x for the real side (default: "
                         "$IAI_CALLGRIND_RUNNER, else the one on PATH)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per run (default: %(default)s)")
    ap.add_argument("--build-timeout", type=float, default=2400,
                    help="seconds per build (default: %(default)s)")
    ap.add_argument("--table", nargs="+", metavar="JSON",
                    help="print the table of earlier runs' JSON files (merged, in order) and exit")
    args = ap.parse_args()

    if args.table:
        results = []
        for path in args.table:
            with open(path) as f:
                results += json.load(f)["results"]
        print(table(results))
        runs_real, runs_both = summary(results)
        print(f"\n- {len(results)} crates; {runs_real} build and run with the real harness, "
              f"{runs_both} of them also with the switch.")
        return

    crates = load_list(args.list)
    only = [x.strip() for o in args.only for x in o.split(",") if x.strip()]
    if only:
        crates = [c for c in crates if c["name"] in only or f"{c['name']}-{c['version']}" in only
                  or c["harness"] in only]
        if not crates:
            sys.exit(f"--only {','.join(only)} matches no crate of {args.list}")
    work = args.work or tempfile.mkdtemp(prefix="yardstick-corpus-")
    os.makedirs(work, exist_ok=True)
    log(f"work directory: {work}")
    runner = Runner(os.path.abspath(work), args.timeout, {})
    t0 = time.monotonic()
    results = []
    try:
        for c in crates:
            c0 = time.monotonic()
            results.append(run_crate(c, runner, args))
            results[-1]["seconds"] = round(time.monotonic() - c0)
            with open(args.json, "w") as f:
                json.dump({"results": results}, f, indent=1)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    total = time.monotonic() - t0
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                            capture_output=True, text=True).stdout.strip()
    runs_real, runs_both = summary(results)
    diffs = [{"crate": r["crate"], "version": r["version"], **d} for r in results for d in r["differences"]]
    with open(args.json, "w") as f:
        json.dump({"yardstick_commit": commit, "rustc": rustc, "seconds": round(total),
                   "results": results, "differences": diffs}, f, indent=1)
    print(table(results))
    print()
    print(f"- {len(results)} crates; {runs_real} build and run with the real harness, "
          f"{runs_both} of them also with the switch ({len(diffs)} differences, in {args.json}).")
    print(f"- yardstick at {commit}, {rustc}; {total / 60:.0f} minutes.")


if __name__ == "__main__":
    main()
