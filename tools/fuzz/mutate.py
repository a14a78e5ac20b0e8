#!/usr/bin/env python3
"""Mutation run of the linkcast CLI (issue 16): mutants of every input kind through the commands
that read it, each checked for

  - no crash: the exit status is 0 or 2; no signal, no sanitizer report, no "internal error";
  - no hang: it ends within --timeout seconds (20);
  - no allocation beyond what the input's size justifies: peak RSS at most --rss-base MB plus
    --rss-per-byte bytes per input byte (ASan: hard_rss_limit_mb; otherwise RLIMIT_AS as well);
  - no invalid input accepted: mutants made invalid on purpose (a value no reader may accept:
    a negative size, NaN, a GPU index of 10^9, a stream id of 2^32, invalid UTF-8 in a name ...)
    must exit 2, and every JSON output must parse strictly (no NaN, no Infinity) as UTF-8;
  - no output file touched on failure: the -o file holds a sentinel before the run and must still
    hold it, with no temporary beside it, when the run fails.

    python3 tools/fuzz/mutate.py --linkcast build-fuzz/linkcast --per-kind 10000 --jobs 2 --out /tmp/mut

Findings go to OUT/findings/<kind>/<n>.<ext> with a .txt beside each (command, status, stderr);
OUT/summary.json has the figures. Deterministic for a given --seed.
"""
import argparse
import collections
import json
import math
import os
import pathlib
import random
import re
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parents[2]
SEEDS = ROOT / "tests/data/fuzz/seeds"
SQL_MARKER = "-- linkcast-fuzz-sql\n"
NODE = str(ROOT / "configs/hgx-h100.yaml")
NODE_TO = str(ROOT / "configs/hgx-h200.yaml")

INTERESTING_NUMBERS = [
    "0", "-1", "1", "255", "256", "4095", "4096", "65535", "65536", "32767", "32768", "2147483647", "2147483648",
    "4294967295", "4294967296", "9223372036854775807", "9223372036854775808", "18446744073709551615",
    "18446744073709551616", "99999999999999999999999", "1e308", "1e400", "-1e400", "1e-300", "nan", "NaN", "inf",
    "-inf", ".nan", ".inf", "0x10", "1e18", "0.5", "-0", "1000000000", "64KiB", "1GiB", "1TiB", "0-1000",
    "0-99999999", "0;0", "3-1",
]
INTERESTING_TEXT = [
    "\xff", "\xc0\xaf", "\xed\xa0\x80", "\"", "\"\"", ",", ";", "\n", "\r\n", "\x00", "&a", "*a", "!!binary",
    "~", "{", "[", "]]]]", "<", "&amp;", "<!ENTITY x \"y\">", "'", "\\", "%s", "A" * 300,
]


def rss_limit_bytes(args, size):
    return int((args.rss_base + args.rss_per_byte * size / 2**20) * 2**20)


# --- mutators ------------------------------------------------------------------------------

NUM_RE = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def mutate_bytes(rng, data, valid_only_text=False):
    data = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3, 5])):
        op = rng.randrange(9)
        if not data:
            data += b"0"
        i = rng.randrange(len(data))
        if op == 0:  # flip a byte
            data[i] = rng.randrange(256)
        elif op == 1:  # a number token -> an interesting number
            nums = list(NUM_RE.finditer(bytes(data)))
            if nums:
                m = rng.choice(nums)
                data[m.start():m.end()] = rng.choice(INTERESTING_NUMBERS).encode()
        elif op == 2:  # insert interesting text
            data[i:i] = rng.choice(INTERESTING_TEXT).encode("latin-1")
        elif op == 3:  # delete a range
            j = min(len(data), i + rng.randrange(1, 64))
            del data[i:j]
        elif op == 4:  # duplicate a range (splice within the input)
            j = min(len(data), i + rng.randrange(1, 256))
            k = rng.randrange(len(data))
            data[k:k] = data[i:j]
        elif op == 5:  # truncate
            del data[i:]
        elif op == 6:  # repeat a line many times
            lines = bytes(data).split(b"\n")
            if len(lines) > 1:
                line = rng.choice(lines)
                k = rng.randrange(len(lines))
                lines[k:k] = [line] * rng.choice([2, 10, 100, 1000])
                data = bytearray(b"\n".join(lines))
        elif op == 7:  # swap two lines
            lines = bytes(data).split(b"\n")
            if len(lines) > 2:
                a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[a], lines[b] = lines[b], lines[a]
                data = bytearray(b"\n".join(lines))
        else:  # a number token scaled by a power of ten
            nums = list(NUM_RE.finditer(bytes(data)))
            if nums:
                m = rng.choice(nums)
                data[m.start():m.end()] = (m.group(0) + b"0" * rng.randrange(1, 20))
    return bytes(data)


# Mutations that make input invalid on purpose: the run must exit 2.
def invalid_csv(rng, text):
    lines = text.split("\n")
    if len(lines) < 2:
        return None
    header = lines[0].split(",")
    rows = [i for i in range(1, len(lines)) if lines[i] and not lines[i].startswith("#")]
    if not rows:
        return None
    r = rng.choice(rows)
    fields = lines[r].split(",")
    if len(fields) != len(header):
        return None
    col = {name: k for k, name in enumerate(header)}
    choices = [("bytes", ["-1", "nan", "1e400", "x", "18446744073709551616"])]
    for name, bad in (("stream", ["4294967296", "-3"]), ("duration_ns", ["9223372036854775808", "-5"]),
                      ("start_ns", ["9223372036854775808"]), ("src_mem", ["pinnned"]), ("root", ["40000"]),
                      ("object", ["bad\udcff"])):
        if name in col:
            choices.append((name, bad))
    choices.append(("kind", ["cpoy", ""]))
    name, bad = rng.choice(choices)
    fields[col[name]] = rng.choice(bad)
    if "group" in col and fields[col["kind"]] in ("allreduce", "allgather", "broadcast", "reduce", "alltoall",
                                                   "reducescatter") and rng.random() < 0.3:
        fields[col["group"]] = rng.choice(["0-1000", "0-99999999", "0;0", "", "5-2"])
    lines[r] = ",".join(fields)
    return "\n".join(lines)


def invalid_yaml(rng, text):
    # A numeric value replaced by one no schema accepts.
    nums = list(re.finditer(r"(?<=: )-?\d+(?:\.\d+)?(?=[ \t]*(?:#|,|\}|$))", text, re.MULTILINE))
    if not nums:
        return None
    m = rng.choice(nums)
    bad = rng.choice([".nan", ".inf", "-1", "0x10", "1e400", "-.inf"])
    return text[:m.start()] + bad + text[m.end():]


def invalid_workload(rng, spec):
    name = spec.split(":")[0]
    bad = rng.choice(["iters=-1", "bytes=0", "gpus=0-99999999", "gpus=0;0", "bytes=1e400", "channels=999",
                      "nope=1", "iters=1TiB", "gpus=0-1000", "sample=nan", "sample=0"])
    return f"{name}:{bad}"


# --- input kinds ---------------------------------------------------------------------------

class Kind:
    def __init__(self, name, ext, commands, invalid=None, text=True):
        self.name, self.ext, self.commands, self.invalid, self.text = name, ext, commands, invalid, text
        self.seeds = [p.read_bytes() for p in sorted((SEEDS / name).iterdir())] if (SEEDS / name).is_dir() else []


def trace_commands(path, out):
    return [
        ["matrix", path, "--format", "json", "-o", out],
        ["matrix", path, "--save-trace", out, "-o", out + ".m"],
        ["project", "--from", NODE, "--to", NODE_TO, path, "--format", "json", "-o", out],
        ["simulate", NODE, path, "--format", "json", "-o", out],
    ]


KINDS = {
    "csv": Kind("csv", ".csv", trace_commands, invalid_csv),
    "kineto": Kind("kineto", ".json", trace_commands),
    "profiler_db": Kind("profiler_db", ".sqlite", trace_commands, text=False),
    "nccl_xml": Kind("nccl_xml", ".xml", lambda p, o: [["topo", "import", "--nccl-xml", p, "-o", o]]),
    "smi_topo": Kind("smi_topo", ".txt", lambda p, o: [["topo", "import", "--smi", p, "-o", o]]),
    "node_yaml": Kind("node_yaml", ".yaml", lambda p, o: [["topo", p, "--format", "json", "-o", o],
                                                        ["simulate", p, "--workload", "nccl-allreduce:bytes=1MiB",
                                                         "--format", "json", "-o", o]], invalid_yaml),
    "study_yaml": Kind("study_yaml", ".yaml", lambda p, o: [["sweep", p, "-j", "1", "-q", "-o", o + ".json"]]),
    "workload": Kind("workload", ".txt", None, invalid_workload),
}


def workload_commands(spec, out):
    return [["matrix", "--workload", spec, "--format", "json", "-o", out],
            ["simulate", NODE, "--workload", spec, "--format", "json", "-o", out],
            ["matrix", "--node", NODE, "--workload", spec, "--format", "csv", "-o", out]]


STUDY_TREE_LOCK = threading.Lock()


def study_tree(work):
    """A tree where a mutated study finds what the shipped ones refer to (../node.yaml, ../../tests).
    Made once, by the first of the worker threads that asks for it."""
    root = work / "tree"
    with STUDY_TREE_LOCK:
        if not root.exists():
            make_study_tree(root)
    return root / "configs/studies"


def make_study_tree(root):
    (root / "configs/studies").mkdir(parents=True)
    for p in (ROOT / "configs").iterdir():
        if p.name != "studies":
            (root / "configs" / p.name).symlink_to(p)
    (root / "tests").symlink_to(ROOT / "tests")


def to_database(data, path):
    """profiler_db mutants: an SQL script builds the database; other bytes are the file itself."""
    if data.startswith(SQL_MARKER.encode()):
        if os.path.exists(path):
            os.remove(path)
        con = sqlite3.connect(path)
        try:
            con.executescript(data[len(SQL_MARKER):].decode("utf-8", "replace"))
            con.commit()
        except (sqlite3.Error, ValueError):  # ValueError: a NUL byte in the script
            pass
        finally:
            con.close()
    else:
        pathlib.Path(path).write_bytes(data)


# --- one run ---------------------------------------------------------------------------------

SENTINEL = b"linkcast-mutate sentinel: must survive a failing run\n"


def run_one(args, kind, index, data, must_fail, work):
    slot = work / f"r{index}"
    slot.mkdir(exist_ok=True)
    out = str(slot / "out.txt")
    if kind.name == "workload":
        spec = data.decode("utf-8", "replace").strip().replace("\x00", "")
        cmds, size = workload_commands(spec, out), len(data)
    else:
        if kind.name == "study_yaml":
            inp = str(study_tree(work) / f"m{index}.yaml")
            pathlib.Path(inp).write_bytes(data)
        else:
            inp = str(slot / ("input" + kind.ext))
            if kind.name == "profiler_db":
                to_database(data, inp)
            else:
                pathlib.Path(inp).write_bytes(data)
        cmds, size = kind.commands(inp, out), os.path.getsize(inp)
    cmd = [args.linkcast] + cmds[index % len(cmds)]
    outputs = [a for a in cmd if a.startswith(out)]
    for o in outputs:
        pathlib.Path(o).write_bytes(SENTINEL)
    limit = rss_limit_bytes(args, size)
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = (f"hard_rss_limit_mb={limit // 2**20}:allocator_may_return_null=1:detect_leaks=0:"
                           "abort_on_error=1:symbolize=0")
    env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1:symbolize=0"

    def limits():
        os.nice(10)
        if not args.asan:
            resource.setrlimit(resource.RLIMIT_AS, (limit + 2**30, limit + 2**30))

    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, preexec_fn=limits,
                            cwd=str(slot))
    problem = None
    try:
        _, err = proc.communicate(timeout=args.timeout)
        status = proc.returncode
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        status, problem = None, "hang"
    elapsed = time.monotonic() - start
    err = err.decode("utf-8", "replace")
    if problem is None:
        if status < 0 or "AddressSanitizer" in err or "runtime error:" in err or "LeakSanitizer" in err:
            problem = "rss" if "hard rss limit" in err or "rss_limit" in err else "crash"
        elif status == 1 and "out of memory" in err:
            problem = "rss"
        elif status not in (0, 2):
            problem = "crash"
        elif "internal error" in err:
            problem = "internal-error"
        elif must_fail and status == 0:
            problem = "accepted-invalid"
        elif status == 0:
            for o in outputs:
                if o.endswith(".json") or "json" in cmd:
                    try:
                        text = pathlib.Path(o).read_bytes().decode("utf-8")
                        json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
                    except (ValueError, UnicodeDecodeError) as e:
                        problem = f"bad-output: {str(e)[:80]}"
                    break
        if problem is None and status != 0:
            for o in outputs:
                if pathlib.Path(o).read_bytes() != SENTINEL:
                    problem = "output-touched"
            if any(".tmp-" in p.name or ".bak-" in p.name for p in slot.iterdir()):
                problem = "temporary-left"
    shutil.rmtree(slot, ignore_errors=True)
    if kind.name == "study_yaml":
        os.remove(inp)
    outcome = "ok" if status == 0 else "refused" if status == 2 else "other"
    finding = None
    if problem:
        finding = {"kind": kind.name, "problem": problem, "command": cmd, "status": status, "seconds": elapsed,
                   "stderr": err[-4000:], "input": data}
    return outcome, problem, finding, elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--linkcast", default=str(ROOT / "build-fuzz/linkcast"))
    ap.add_argument("--asan", type=int, default=1, help="the binary is built with ASan (RSS through ASAN_OPTIONS)")
    ap.add_argument("--per-kind", type=int, default=10000)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--rss-base", type=float, default=1024.0, help="MB any run may use (ASan's own overhead included)")
    ap.add_argument("--rss-per-byte", type=float, default=64.0, help="bytes of memory per byte of input")
    ap.add_argument("--invalid-share", type=float, default=0.15, help="share of mutants made invalid on purpose")
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--out", default="/tmp/linkcast-mutate")
    args = ap.parse_args()
    args.linkcast = os.path.abspath(args.linkcast)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    work = pathlib.Path(tempfile.mkdtemp(prefix="linkcast-mutate-"))
    summary = {"binary": args.linkcast, "per_kind": args.per_kind, "timeout_s": args.timeout, "kinds": {}}
    rng = random.Random(args.seed)
    for name in args.kinds.split(","):
        kind = KINDS[name]
        if not kind.seeds:
            print(f"{name}: no seeds", file=sys.stderr)
            continue
        jobs = []
        for i in range(args.per_kind):
            seed = rng.choice(kind.seeds)
            must_fail = False
            data = None
            if kind.invalid and rng.random() < args.invalid_share:
                text = seed.decode("utf-8", "surrogateescape")
                bad = kind.invalid(rng, text)
                if bad is not None:
                    data, must_fail = bad.encode("utf-8", "surrogateescape"), True
            if data is None:
                data = mutate_bytes(rng, seed)
            jobs.append((i, data, must_fail))
        counts = collections.Counter()
        problems = collections.Counter()
        slowest = 0.0
        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for outcome, problem, finding, elapsed in pool.map(lambda j: run_one(args, kind, j[0], j[1], j[2], work), jobs):
                counts[outcome] += 1
                slowest = max(slowest, elapsed)
                if problem:
                    key = problem.split(":")[0]
                    problems[key] += 1
                    d = out / "findings" / name
                    d.mkdir(parents=True, exist_ok=True)
                    n = len(list(d.glob("*.txt")))
                    (d / f"{n:04d}{kind.ext}").write_bytes(finding.pop("input"))
                    (d / f"{n:04d}.txt").write_text(json.dumps(finding, indent=1))
        summary["kinds"][name] = {
            "mutants": len(jobs), "invalid_on_purpose": sum(1 for j in jobs if j[2]), "outcomes": dict(counts),
            "problems": dict(problems), "slowest_s": round(slowest, 2),
            "wall_s": round(time.monotonic() - started, 1)}
        print(name, json.dumps(summary["kinds"][name]), flush=True)
        (out / "summary.json").write_text(json.dumps(summary, indent=1))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
