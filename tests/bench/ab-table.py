#!/usr/bin/env python3
# Turns ab-libs.sh's JSON files (VARIANT-ROUND-SET.json, one per run of
# cudaconv-bench) into one table: per case and filter, the floor and each
# variant's kernel time, as the least and the greatest of its runs' medians,
# and its ratio to the floor of the same run.  Exits 1 when any run's output
# did not match the CPU backend, or a case failed: a faster wrong kernel is
# no result.
#
#   tests/bench/ab-table.py DIR [--markdown]

import glob
import json
import os
import re
import sys

from tables import print_table

NAME = re.compile(r"^(?P<variant>.+)-(?P<round>\d+)-(?P<set>\d+)\.json$")


def spread(values, fmt):
    lo, hi = fmt % min(values), fmt % max(values)
    return lo if lo == hi else "%s-%s" % (lo, hi)


def load(directory):
    """{(case, filter): {variant: [(median_us, floor_us, ok), ...]}} and the
    variants in the order ab-libs.sh was given them (its variants.txt), any
    others after them by name."""
    found = []
    for path in glob.glob(os.path.join(directory, "*.json")):
        m = NAME.match(os.path.basename(path))
        if m:
            found.append((int(m["round"]), int(m["set"]), path, m["variant"]))
    found.sort()
    variants, table = [], {}
    named = os.path.join(directory, "variants.txt")
    if os.path.exists(named):
        with open(named) as f:
            variants = [line.strip() for line in f if line.strip()]
    for variant in sorted({v for _, _, _, v in found} - set(variants)):
        variants.append(variant)
    for _, _, path, variant in found:
        with open(path) as f:
            report = json.load(f)
        for case in report.get("cases", []):
            ours = case.get("ours") or {}
            check = case.get("check") or {}
            ok = (case.get("ok", False) and ours.get("ok", False) and
                  (not check.get("done") or check.get("ok", False)))
            key = (case["name"], case.get("filter", ""))
            table.setdefault(key, {}).setdefault(variant, []).append(
                (ours.get("median_us"), case.get("floor_us"), ok))
    return variants, table


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print("usage: ab-table.py DIR [--markdown]", file=sys.stderr)
        return 2
    markdown = "--markdown" in argv[2:]
    variants, table = load(argv[1])
    if not table:
        print("no VARIANT-ROUND-SET.json files in %s" % argv[1],
              file=sys.stderr)
        return 2
    head = (["case", "filter", "floor us"] +
            ["%s us" % v for v in variants] +
            ["%s x floor" % v for v in variants])
    rows, bad = [], False
    for (name, filt), by_variant in sorted(table.items()):
        floors = [fl for runs in by_variant.values() for _, fl, _ in runs
                  if fl]
        times, ratios = [], []
        for v in variants:
            runs = by_variant.get(v, [])
            good = [(t, fl) for t, fl, ok in runs if ok and t and fl]
            if len(good) < len(runs):
                bad = True
                times.append("MISMATCH or FAILED (%d of %d runs)" %
                             (len(runs) - len(good), len(runs)))
                ratios.append("-")
            elif not good:
                times.append("-")
                ratios.append("-")
            else:
                times.append(spread([t for t, _ in good], "%.1f") +
                             " (%d)" % len(good))
                ratios.append(spread([t / fl for t, fl in good], "%.2f"))
        rows.append([name, filt, spread(floors, "%.1f") if floors else "-"] +
                    times + ratios)
    print_table(head, rows, markdown)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
