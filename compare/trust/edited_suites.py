"""default_flow.py's `guide` and `divan` modes on a scratch copy of the
suite, with `cargo yardstick init` (`--setup yes`) or without, and an edit
before each `cargo bench` (`--edit none|neutral|neutral-lib`).

The copy lies in a temporary directory (`init` writes the project's
`.cargo/config.toml`, so never in the checkout) and depends on this
checkout's harness by path. Each run edits the copy, runs `cargo bench`
(which rebuilds what the edit touched) into one home and reads the
verdicts of the comparison with the run before; the first run only saves.

  none         nothing changes: from the second run on, the builds are
               byte-identical (A/A).
  neutral      layouts_flow's never-called function of 7 to 61 lines,
               different each run, added to every selected bench file, so
               every bench target rebuilds and its code moves.
  neutral-lib  the same function added to the library the bench targets
               link instead (the guide's `mycrate`, src/lib.rs; only
               getting_started calls it, but all 20 targets rebuild
               against it). divan's example files share no library, so
               there it is refused.

Every `regressed`/`improved` line is a false alarm.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import layouts_flow  # noqa: E402  (neutral_function, add_neutral, block)

CHANGED = ("regressed", "improved")
GUIDE = os.path.join(REPO, "examples", "guide")
DIVAN = os.path.join(REPO, "crates", "yardstick-divan", "examples")


def guide_crate(root):
    """examples/guide copied to `root` as its own workspace, the harness by
    path; its bench files and its library."""
    shutil.copytree(GUIDE, root)
    manifest = os.path.join(root, "Cargo.toml")
    with open(manifest) as f:
        text = f.read()
    # The workspace's fields, as the root manifest sets them.
    text = text.replace("version.workspace = true", 'version = "0.1.0"')
    text = text.replace("edition.workspace = true", 'edition = "2021"')
    text = re.sub(r"(?m)^(license|repository)\.workspace = true\n", "", text)
    harness = os.path.join(REPO, "crates", "yardstick")
    text = text.replace('path = "../../crates/yardstick"', f"path = {json.dumps(harness)}")
    assert harness in text, "examples/guide/Cargo.toml: the harness's path moved"
    # The root's bench profile applies to the member; keep it in the copy.
    text += "\n[profile.bench]\ndebug = false\n\n[workspace]\n"
    with open(manifest, "w") as f:
        f.write(text)
    shutil.copy(os.path.join(REPO, "Cargo.lock"), root)
    benches = os.path.join(root, "benches")
    files = sorted(os.path.join(benches, n) for n in os.listdir(benches) if n.endswith(".rs"))
    return files, os.path.join(root, "src", "lib.rs")


def divan_crate(root, names):
    """divan's example files `names` as a crate of their own under `root`
    (the other targets and the test fixtures left out); their paths."""
    os.makedirs(os.path.join(root, "benches"))
    os.makedirs(os.path.join(root, "src"))
    with open(os.path.join(root, "src", "lib.rs"), "w") as f:
        f.write("")
    files = []
    for name in names:
        source = os.path.join(DIVAN, "benches", f"{name}.rs")
        if not os.path.exists(source):
            sys.exit(f"no bench file {name}.rs among divan's example files")
        files.append(shutil.copy(source, os.path.join(root, "benches")))
    harness = os.path.join(REPO, "crates", "yardstick-divan")
    targets = "".join(f'\n[[bench]]\nname = "{n}"\nharness = false\n' for n in names)
    with open(os.path.join(root, "Cargo.toml"), "w") as f:
        f.write('[package]\nname = "yardstick-divan-examples"\nversion = "0.0.0"\n'
                'edition = "2021"\npublish = false\n\n[dev-dependencies]\n'
                f'divan = {{ package = "yardstick-divan", path = {json.dumps(harness)} }}\n'
                'fastrand = "2"\nlibc = "0.2"\n' + targets
                + "\n[profile.bench]\ndebug = false\n\n[workspace]\n")
    shutil.copy(os.path.join(REPO, "Cargo.lock"), root)
    return files


def cargo_env(scratch, home, target_dir, cargo_yardstick):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("YARDSTICK_", "CRITERION_"))}
    env["CARGO_TARGET_DIR"] = os.path.abspath(target_dir) if target_dir else os.path.join(scratch, "target")
    env["YARDSTICK_HOME"] = home
    env.pop("RUSTFLAGS", None)
    if cargo_yardstick:
        # `init` names the wrapper without a path: rustc finds it on PATH.
        env["PATH"] = os.path.dirname(cargo_yardstick) + os.pathsep + env["PATH"]
    return env


def loadavg():
    return os.getloadavg()[0]


def one_run(root, env, cargo_args, keep, r):
    """One `cargo bench` (rebuild included); its output and seconds."""
    start = time.monotonic()
    p = subprocess.run(["cargo", "bench", *cargo_args], cwd=root, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, check=False)
    seconds = time.monotonic() - start
    text = p.stdout.decode(errors="replace")
    if keep:
        os.makedirs(keep, exist_ok=True)
        with open(os.path.join(keep, f"run{r}.txt"), "w") as f:
            f.write(text)
    if p.returncode != 0:
        sys.exit(f"cargo bench failed in run {r} ({p.returncode}):\n{text[-3000:]}")
    return text, seconds


def run_count(text, verdicts, r, seconds, load):
    """What one compared run said."""
    v = verdicts(text)
    flagged = [f"{bench}: {verdict}{interval(text, bench)}"
               for bench, verdict in v.items() if verdict in CHANGED]
    return {"run": r, "comparisons": len(v), "flagged": flagged,
            "too_noisy": sum(x == "too noisy" for x in v.values()),
            "lockstep": text.count("Measured in lock-step"),
            "verdicts": v, "seconds": seconds, "load": load}


def interval(text, bench):
    """The `change:` line under benchmark `bench`, for the list of alarms."""
    for follow in layouts_flow.block(text, bench)[1:]:
        if "change:" in follow:
            return " " + " ".join(follow.split("change:")[1].split())
    return ""


def edited_flow(args, kind, verdicts, scratch):
    """`args.runs` runs of the guide's suite or divan's files (`kind`) on a
    copy under `scratch`, set up and edited as `args` says; prints the
    counts. `verdicts` reads a run's output ({benchmark: verdict})."""
    if args.setup == "yes" and not os.path.exists(args.cargo_yardstick):
        sys.exit(f"{args.cargo_yardstick}: no such cargo-yardstick (build it with "
                 "`cargo build --release -p cargo-yardstick`, or pass --cargo-yardstick)")
    if kind == "divan" and args.edit == "neutral-lib":
        sys.exit("divan's example files share no library: --edit neutral-lib applies to guide only")
    root = os.path.join(scratch, "crate")
    if kind == "guide":
        files, lib = guide_crate(root)
        cargo_args = []
    else:
        names = args.files.split(",")
        files, lib = divan_crate(root, names), None
        cargo_args = [a for n in names for a in ("--bench", n)]
        cargo_args += ["--", "--target-precision", "1", "--output-format", "criterion"]
    cargo_yardstick = os.path.abspath(args.cargo_yardstick) if args.setup == "yes" else None
    env = cargo_env(scratch, os.path.join(scratch, "home"), args.target_dir, cargo_yardstick)
    if cargo_yardstick:
        subprocess.run([cargo_yardstick, "yardstick", "init"], cwd=root, env=env, check=True,
                       stdout=subprocess.DEVNULL)
    edited = {"none": [], "neutral": files, "neutral-lib": [lib]}[args.edit]
    runs = []
    for r in range(1, args.runs + 1):
        for f in edited:
            layouts_flow.add_neutral(f, r)
        before = loadavg()
        text, secs = one_run(root, env, cargo_args, args.keep, r)
        count = run_count(text, verdicts, r, secs, (before, loadavg()))
        if r > 1:
            runs.append(count)
        print(f"run {r}/{args.runs}: {count['comparisons']} verdicts, "
              f"{len(count['flagged'])} regressed/improved, {count['too_noisy']} too noisy, "
              f"{count['lockstep']} in lock-step, {secs:.0f} s, load {before:.1f}→{loadavg():.1f}"
              + "".join(f"\n  {x}" for x in count["flagged"]), file=sys.stderr)
        if args.json:
            with open(args.json, "w") as out:
                json.dump({"kind": kind, "setup": args.setup, "edit": args.edit,
                           "files": getattr(args, "files", None), "runs": runs}, out, indent=1)
    summarise(kind, args, runs)


def summarise(kind, args, runs):
    total = sum(r["comparisons"] for r in runs)
    flagged = [f"run {r['run']} {x}" for r in runs for x in r["flagged"]]
    secs = sorted(r["seconds"] for r in runs)
    loads = [x for r in runs for x in r["load"]]
    what = "the guide's examples" if kind == "guide" else f"divan's example files {args.files}"
    print(f"{args.runs} runs of {what}, setup {args.setup}, edit {args.edit}: "
          f"{total} comparisons in runs 2..{args.runs}, {len(flagged)} regressed/improved "
          f"({len(flagged) / max(total, 1):.1%}), "
          f"{sum(r['too_noisy'] for r in runs)} too noisy, "
          f"{sum(r['lockstep'] for r in runs)} in lock-step; s a run: median "
          f"{secs[len(secs) // 2] if secs else 0:.0f} ({secs[0] if secs else 0:.0f}–"
          f"{secs[-1] if secs else 0:.0f}); load average {min(loads, default=0):.1f}–"
          f"{max(loads, default=0):.1f}")
    counts = {}
    for r in runs:
        for v in r["verdicts"].values():
            counts[v] = counts.get(v, 0) + 1
    for verdict, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"  {verdict}: {n} ({n / max(total, 1):.1%})")
    print("| run | comparisons | regressed/improved | too noisy | in lock-step | s | load before→after |")
    print("|---|---|---|---|---|---|---|")
    for r in runs:
        print(f"| {r['run']} | {r['comparisons']} | {len(r['flagged'])} | {r['too_noisy']} "
              f"| {r['lockstep']} | {r['seconds']:.0f} | {r['load'][0]:.1f}→{r['load'][1]:.1f} |")
    for line in flagged:
        print(f"  {line}")
