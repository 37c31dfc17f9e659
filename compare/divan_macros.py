#!/usr/bin/env python3
"""yardstick-divan's attribute macros against divan 0.1.21's, file by file.

The macros of yardstick-divan are a hand-written parser on proc_macro
tokens; divan's are written with syn. This checks them against each other
on the same files, compiled as a user's crate would compile them:

  pass   crates/yardstick-divan/examples/src/bin/syntax_fixture.rs, every
         syntax edge the attribute accepts: it must compile under both,
         neither may warn, and both binaries' `--list` (the names and the
         tree each benchmark registers under) must be the same.
  fail   crates/yardstick-divan/tests/ui/*.rs, the forms it must reject:
         both must reject each file, with an error on the same lines.
         Where the messages differ, both are printed; the lines listed in
         SAME_MESSAGE must also read the same.

Each side is a scratch crate (divan = "=0.1.21", or the one-line switch to
yardstick-divan) with each file as a binary, checked with
`cargo check --bins --keep-going --message-format=json`, so a file's
errors never hide another's. It needs cargo and the crates.io registry
(the first run downloads and builds divan, about a minute on one core).

Usage: python3 compare/divan_macros.py [--target-dir DIR] [--verbose]
Python 3 standard library only. Exit status 1 when the two sides disagree.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
FIXTURE = os.path.join(REPO, "crates/yardstick-divan/examples/src/bin/syntax_fixture.rs")
UI = os.path.join(REPO, "crates/yardstick-divan/tests/ui")
# The trybuild files name yardstick-divan; a user's file names divan.
EXTERN = "extern crate yardstick_divan as divan;"

# (file, first line of the item): errors whose wording and place (line and
# column) must be divan's, not only the item they are reported on.
SAME_MESSAGE = {
    ("generics", 3),
    ("generics", 6),
    ("generics", 9),
    ("generics", 12),
    ("generics", 15),
    ("generics", 18),
    ("options", 9),
}

SIDES = {
    "divan": 'divan = "=0.1.21"',
    "yardstick": 'divan = {{ package = "yardstick-divan", path = "{}" }}'.format(
        os.path.join(REPO, "crates/yardstick-divan")
    ),
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def cases():
    """(name, source, expected) for every file checked."""
    out = [("syntax_fixture", open(FIXTURE).read(), "pass")]
    for path in sorted(glob.glob(os.path.join(UI, "*.rs"))):
        name = os.path.basename(path)[:-3]
        # Blanked, not removed: the lines of the errors stay the same.
        out.append((name, open(path).read().replace(EXTERN, ""), "fail"))
    return out


def check(side, dep, files, root, target_dir):
    """{file: [(level, line, column, message)]} of `cargo check` on one side."""
    crate = os.path.join(root, side)
    os.makedirs(os.path.join(crate, "src/bin"), exist_ok=True)
    with open(os.path.join(crate, "Cargo.toml"), "w") as f:
        f.write(
            "[package]\nname = \"macros-{}\"\nversion = \"0.0.0\"\nedition = \"2021\"\n"
            "publish = false\n\n[workspace]\n\n[dependencies]\n{}\n".format(side, dep)
        )
    for name, source, _ in files:
        with open(os.path.join(crate, "src/bin", name + ".rs"), "w") as f:
            f.write(source)
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(target_dir, side))
    log("checking the {} side".format(side))
    run = subprocess.run(
        ["cargo", "check", "--bins", "--keep-going", "--message-format=json"],
        cwd=crate,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    found = {name: [] for name, _, _ in files}
    for line in run.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") != "compiler-message":
            continue
        name = msg["target"]["name"]
        d = msg["message"]
        if name not in found or d["level"] not in ("error", "warning"):
            continue
        if d["message"].startswith(("aborting due to", "could not compile")):
            continue
        spans = [s for s in d["spans"] if s["is_primary"]] or d["spans"]
        where = (spans[0]["line_start"], spans[0]["column_start"]) if spans else (0, 0)
        found[name].append((d["level"], where[0], where[1], d["message"]))
    return found


def outlines(root, target_dir):
    """{side: the fixture's `--list`} of the binary built on each side."""
    out = {}
    for side in SIDES:
        env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(target_dir, side))
        subprocess.run(
            ["cargo", "build", "--bin", "syntax_fixture"],
            cwd=os.path.join(root, side),
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        exe = os.path.join(target_dir, side, "debug", "syntax_fixture")
        out[side] = subprocess.run(
            [exe, "--list"], stdout=subprocess.PIPE, text=True, check=True
        ).stdout
    return out


def compare_outlines(lists):
    """The fixture's outlines side by side where they differ; 1 if they do."""
    print("syntax_fixture --list:")
    if lists["divan"] == lists["yardstick"]:
        print("  the same ({} lines)".format(len(lists["divan"].splitlines())))
        return 0
    d, y = lists["divan"].splitlines(), lists["yardstick"].splitlines()
    for i in range(max(len(d), len(y))):
        a = d[i] if i < len(d) else ""
        b = y[i] if i < len(y) else ""
        print("  {} {:<40} | {}".format(" " if a == b else "*", a, b))
    return 1


def block_starts(source):
    """For each line (0-based), the first line (1-based) of its block of
    non-blank lines."""
    starts, start = [], None
    for i, line in enumerate(source.splitlines()):
        if not line.strip():
            start = None
        elif start is None:
            start = i + 1
        starts.append(start or i + 1)
    return starts


def compare(files, divan, ours, verbose):
    """The disagreements, printed; their count."""
    bad = 0
    for name, source, expected in files:
        d_err = {(l, m) for lvl, l, _, m in divan[name] if lvl == "error"}
        y_err = {(l, m) for lvl, l, _, m in ours[name] if lvl == "error"}
        warnings = [(s, w) for s, side in (("divan", divan), ("yardstick", ours))
                    for w in side[name] if w[0] == "warning"]
        print("{} (expected to {}):".format(name, expected))
        if expected == "pass":
            for s, w in warnings:
                print("  {} warns at line {}: {}".format(s, w[1], w[3]))
            problems = len(d_err) + len(y_err) + len(warnings)
            for s, errs in (("divan", d_err), ("yardstick", y_err)):
                for l, m in sorted(errs):
                    print("  {} rejects line {}: {}".format(s, l, m))
            print("  both compile it" if not problems else "  DIFFERENT")
            bad += problems
            continue
        # Compared item by item (items are separated by blank lines): an
        # error may sit on the attribute on one side and on the signature
        # on the other.
        blocks = block_starts(source)
        by_block = {}
        for side, errs in (("divan", divan[name]), ("yardstick", ours[name])):
            for lvl, l, c, m in errs:
                if lvl == "error":
                    by_block.setdefault(blocks[l - 1], {"divan": [], "yardstick": []})
                    by_block[blocks[l - 1]][side].append((l, c, m))
        for b in sorted(by_block):
            dm, ym = sorted(by_block[b]["divan"]), sorted(by_block[b]["yardstick"])
            must = (name, b) in SAME_MESSAGE
            ok = bool(dm) and bool(ym) and (dm == ym or not must)
            bad += not ok
            tag = "same" if dm == ym else ("ok (wording or place differs)" if ok else "DIFFERENT")
            print("  item at line {:>3}: {}".format(b, tag))
            if dm != ym or verbose:
                for side, errs in (("divan", dm), ("yardstick", ym)):
                    text = " | ".join("{}:{} {}".format(*e) for e in errs)
                    print("    {:<10} {}".format(side + ":", text or "(no error)"))
    return bad


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--target-dir", help="cargo's target directory for both sides")
    p.add_argument("--verbose", action="store_true", help="print every message")
    a = p.parse_args()
    files = cases()
    target = a.target_dir or os.path.join(tempfile.gettempdir(), "divan-macros")
    # The scratch crates stay beside their builds, to be read after a run.
    root = os.path.join(target, "crates")
    divan = check("divan", SIDES["divan"], files, root, target)
    ours = check("yardstick", SIDES["yardstick"], files, root, target)
    bad = compare(files, divan, ours, a.verbose)
    if not divan["syntax_fixture"] and not ours["syntax_fixture"]:
        bad += compare_outlines(outlines(root, target))
    print("\n{} disagreement(s)".format(bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
