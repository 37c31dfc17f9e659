#!/usr/bin/env python3
"""Seconds per benchmark from timestamped `cargo bench` output, the same
way for Criterion.rs and yardstick, so that the two can be set side by side.

Each line of a log starts with the seconds since the run began (a tab or
spaces after them): `layouts_flow.py --keep DIR` writes yardstick's that
way, and `cargo bench -- --noplot 2>&1 | python3 bench_times.py --stamp`
Criterion.rs's. A benchmark's time is from the first line naming it to the
first line naming the next one (Criterion.rs names a benchmark when it
starts, yardstick when its result prints: either way one benchmark's whole
cycle; with both harnesses' `Benchmarking` lines, from one start to the
next), the last one's to the log's last line. Benchmarks whose id ends in
a number over --large-above (base64's input sizes) are counted apart.

usage: bench_times.py LOG [LOG ...] [--large-above N] [--skip-first]
       COMMAND | bench_times.py --stamp > LOG
"""

import argparse
import re
import statistics
import sys
import time

ID = re.compile(r"^(?:Benchmarking )?([A-Za-z_][\w.-]*(?:/[\w.-]+)+)(?::|\s|$)")


def stamp():
    start = time.time()
    for line in sys.stdin:
        sys.stdout.write(f"{time.time() - start:.3f}\t{line}")
        sys.stdout.flush()


def firsts(path, starts=False):
    """(seconds, id) of each benchmark's first line, in order, and the
    seconds of the log's last line; with `starts`, only `Benchmarking`
    lines count (yardstick prints a group's summary under the group's
    name after its benchmarks)."""
    seen, order, last = set(), [], 0.0
    with open(path, errors="replace") as f:
        for line in f:
            head, _, rest = line.lstrip().partition("\t" if "\t" in line else " ")
            try:
                t = float(head)
            except ValueError:
                continue
            last = t
            if starts and not rest.startswith("Benchmarking "):
                continue
            m = ID.match(rest.rstrip("\n"))
            if m and m.group(1) not in seen:
                seen.add(m.group(1))
                order.append((t, m.group(1)))
    return order, last


def durations(path, starts):
    order, last = firsts(path, starts)
    out = []
    for i, (t, bid) in enumerate(order):
        if starts:
            end = order[i + 1][0] if i + 1 < len(order) else last
            out.append((bid, end - t))
        elif i > 0:
            out.append((bid, t - order[i - 1][0]))
    return out


def size(bid):
    tail = bid.rsplit("/", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def summary(name, values):
    if not values:
        return f"{name}: none"
    return (f"{name}: {len(values)}, median {statistics.median(values):.2f} s, "
            f"mean {statistics.mean(values):.2f} s")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("logs", nargs="*")
    p.add_argument("--stamp", action="store_true", help="timestamp standard input's lines")
    p.add_argument("--large-above", type=int, default=1_000_000)
    p.add_argument("--skip-first", action="store_true",
                   help="leave out each log's first benchmark (the count before measuring)")
    args = p.parse_args()
    if args.stamp:
        return stamp()
    for log in args.logs:
        with open(log, errors="replace") as f:
            starts = "Benchmarking " in f.read()
        d = durations(log, starts)
        if args.skip_first and d:
            d = d[1:]
        small = [s for b, s in d if size(b) <= args.large_above]
        large = [s for b, s in d if size(b) > args.large_above]
        print(f"{log} ({'from starts' if starts else 'from results'}): "
              f"{summary('small', small)}; {summary('large', large)}; "
              f"all {sum(s for _, s in d):.0f} s")


if __name__ == "__main__":
    main()
