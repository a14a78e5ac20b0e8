#!/usr/bin/env python3
"""validation_diff.py BEFORE.csv AFTER.csv [--min-bytes N] [--max-bytes N] [--case NAME] [--group REGEX]: what a change to the
simulator did to the recorded collectives, from two `linkcast_validate_real ... --csv FILE` runs over the
same folders (the build before the change and the build after; e.g. a `git worktree` of the commit
before).

Only calls of at least --min-bytes (default 1048576, the issue's "from 1 MiB") count: the CSV holds
every row the folders have, whatever the validator's --min-bytes. --max-bytes (default none) and
--case (a collective: alltoall, allgather, ...) narrow the calls further, and --group to the rows
whose group matches a regular expression (`_cold\+graph$`: the calls on a new set of buffers each).

Prints, before -> after, the geometric mean of |error| and the cases past 20%: over every
collective, replayed from CUDA graphs or issued from Python (with and without the host's pace as
the recording measured it: the CSV's pace column, issue_us or small calls; in CSVs without that
column, issue_us), per algorithm/protocol (the note
column), from 128 MiB, up to 16 MiB and per folder; then the mean signed error of the calls
replayed from CUDA graphs, every variant, per GPU count, collective, algorithm/protocol, channels
(NCCL's count, or pinned to 1-4 or 8-16) and size class (1-4 MiB, 8-32 MiB, 64-256 MiB, 512 MiB
and more).
"""
import argparse
import collections
import csv
import math
import re
import sys


def paced(row):
    """Whether an eager row waited for a host pace its recording measured (issue_us, or the same
    loop's small calls), not the node's collective_call_us."""
    if "pace" in row:
        return row["pace"] in ("issue_us", "small calls")
    return bool(row.get("issue_us"))


def cases(path, min_bytes, max_bytes=None, case=None, group=None):
    out = {}
    for r in csv.DictReader(open(path)):
        if r["group"] == "copies" or r["group"].startswith("pipeline/") or int(r["bytes"]) < min_bytes:
            continue
        if (max_bytes is not None and int(r["bytes"]) > max_bytes) or (case is not None and r["case"] != case):
            continue
        if group is not None and not re.search(group, r["group"]):
            continue
        measured = float(r["measured_ns"])
        out[(r["machine"], r["group"], r["case"], r["bytes"])] = (r, (float(r["simulated_ns"]) - measured) / measured)
    return out


def summary(errors):
    if not errors:
        return "-"
    geo = math.exp(sum(math.log(max(abs(e), 1e-9)) for e in errors) / len(errors))
    return f"{100 * geo:5.2f}% {sum(abs(e) > 0.2 for e in errors):4d} past 20%"


def size_class(nbytes):
    mib = nbytes >> 20
    return "1-4 MiB" if mib <= 4 else "8-32 MiB" if mib <= 32 else "64-256 MiB" if mib <= 256 else ">= 512 MiB"


def channel_class(group):
    pinned = re.search(r"_ch(\d+)", group)
    return "NCCL's count" if not pinned else "1-4 ch" if int(pinned.group(1)) <= 4 else "8-16 ch"


def main():
    ap = argparse.ArgumentParser(usage=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--min-bytes", type=int, default=1 << 20)
    ap.add_argument("--max-bytes", type=int, default=None)
    ap.add_argument("--case", default=None)
    ap.add_argument("--group", default=None,
                    help="only rows whose group (nccl/<variant>[+graph]) matches this regular expression")
    args = ap.parse_args()
    before = cases(args.before, args.min_bytes, args.max_bytes, args.case, args.group)
    after = cases(args.after, args.min_bytes, args.max_bytes, args.case, args.group)
    print(f"calls of at least {args.min_bytes} bytes"
          + (f", at most {args.max_bytes}" if args.max_bytes is not None else "")
          + (f", {args.case} only" if args.case else "")
          + (f", groups matching '{args.group}'" if args.group else ""))
    keys = [k for k in before if k in after]
    print(f"{len(keys)} cases in both ({len(before)} before, {len(after)} after)")
    groups = {"all": lambda r: True,
              "CUDA graphs": lambda r: "+graph" in r["group"],
              "issued from Python": lambda r: "+graph" not in r["group"],
              "  at the host's recorded pace": lambda r: "+graph" not in r["group"] and paced(r),
              "  at a pace not recorded": lambda r: "+graph" not in r["group"] and not paced(r),
              ">= 128 MiB": lambda r: int(r["bytes"]) >= 128 << 20,
              "<= 16 MiB": lambda r: int(r["bytes"]) <= 16 << 20}
    for note in sorted({before[k][0]["note"] for k in keys}):
        groups[note] = lambda r, note=note: r["note"] == note
    for folder in sorted({before[k][0]["machine"] for k in keys}):
        groups[folder.rsplit("/", 1)[-1]] = lambda r, folder=folder: r["machine"] == folder
    for name, pred in groups.items():
        chosen = [k for k in keys if pred(after[k][0])]  # the newer build's CSV (it may carry the pace)
        print(f"  {name:28} {len(chosen):5d}  {summary([before[k][1] for k in chosen])}  ->  "
              f"{summary([after[k][1] for k in chosen])}")
    print("CUDA graphs, every variant, mean signed error:")
    signed = collections.defaultdict(lambda: ([], []))
    for k in keys:
        r = before[k][0]
        if "+graph" not in r["group"]:
            continue
        gpus = r["machine"].rsplit("/", 1)[-1].split("-")[1]
        cell = signed[(gpus, r["case"], r["note"], channel_class(r["group"]), size_class(int(r["bytes"])))]
        cell[0].append(before[k][1])
        cell[1].append(after[k][1])
    for key in sorted(signed):
        b, a = signed[key]
        print(f"  {' / '.join(key):64} {len(b):3d}  {100 * sum(b) / len(b):+6.1f}% -> {100 * sum(a) / len(a):+6.1f}%")


if __name__ == "__main__":
    main()
