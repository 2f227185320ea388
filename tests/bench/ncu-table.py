#!/usr/bin/env python3
# Turns profile-gpu.sh's Nsight Compute CSVs (one per case) into one table:
# per case, the last launch of each kernel (the earlier ones are cold), with
# time, DRAM throughput as a percent of peak, issue slots used, instructions
# per output pixel, registers and occupancy; the SM copy first.
#
#   tests/bench/ncu-table.py DIR/ncu [--markdown]

import csv
import glob
import os
import re
import sys

from tables import print_table

SIZES = {"4k": (3840, 2160), "1080p": (1920, 1080), "2048": (2048, 2048)}


def pixels(case):
    w, h = SIZES[case.split("-")[0]]
    return w * h


def short_kernel(name):
    # "void cc::separable_tile<unsigned char, 4, 4, 3>(CcSepParams)" ->
    # "separable_tile<unsigned char, 4, 4, 3>"
    name = re.sub(r"^void ", "", name)
    name = re.sub(r"\(.*\)$", "", name)
    return name.replace("cc::", "")


def rows_of(path):
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    reader = csv.DictReader(lines)
    out = []
    for row in reader:
        if not row.get("Kernel Name") or row.get("ID", "").strip() == "":
            continue
        try:
            int(row["ID"])
        except ValueError:
            continue  # the units row
        out.append(row)
    return out


def num(row, key):
    v = row.get(key, "").replace(",", "")
    try:
        return float(v)
    except ValueError:
        return float("nan")


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: ncu-table.py DIR [--markdown]")
    md = "--markdown" in sys.argv
    head = ["case", "kernel", "us", "dram%", "issue%", "sm%", "inst/px",
            "regs", "occ%"]
    table = []
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.csv"))):
        case = os.path.basename(path)[:-4]
        last = {}
        for row in rows_of(path):
            last[row["Kernel Name"]] = row  # later launches replace
        kernels = sorted(last.items(), key=lambda kv: "copy_rows" not in kv[0])
        for name, row in kernels:
            # --print-units base: nanoseconds
            us = num(row, "gpu__time_duration.sum") / 1000.0
            table.append([
                case, short_kernel(name)[:48], "%.1f" % us,
                "%.0f" % num(row, "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
                "%.0f" % num(row, "sm__inst_issued.avg.pct_of_peak_sustained_active"),
                "%.0f" % num(row, "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
                "%.1f" % (num(row, "smsp__inst_executed.sum") * 32 / pixels(case)),
                "%.0f" % num(row, "launch__registers_per_thread"),
                "%.0f" % num(row, "sm__warps_active.avg.pct_of_peak_sustained_active"),
            ])
    print_table(head, table, md, right_from=2)


if __name__ == "__main__":
    main()
