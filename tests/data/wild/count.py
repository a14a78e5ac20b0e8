#!/usr/bin/env python3
"""Independent counter for the files in tests/data/wild/.

Plain Python 3, standard library only (json, gzip, sqlite3, xml.etree, re). It shares no code
and no tables with linkcast: it exists so that a test can compare what linkcast reads from these
real-world files against counts made a second, independent way.

    python3 count.py            # counts every file under the folder this script lives in
    python3 count.py DIR        # or under DIR (same layout)
    python3 count.py > expected.json

Layout read: kineto/ (Chrome-trace JSON, plain or gzip'd, searched recursively), nsys/ and
nvprof/ (SQLite, plain or gzip'd), nccl_topo/ (NCCL/RCCL topology XML, plain or gzip'd),
smi_topo/ (text of `nvidia-smi topo -m`). Output: one JSON object, keys sorted, one entry per file
keyed by its path relative to the root. Every rule is written down next to the code that applies
it; when in doubt the rule is "count what the file literally says, and say what is unknown".
"""
import gzip
import json
import os
import re
import sqlite3
import sys
import tempfile
import xml.etree.ElementTree as ET


def read_bytes(path):
    """Whole file, transparently gunzipped (gzip magic 1f 8b, whatever the extension)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data


# ----------------------------------------------------------------------------------------------
# Kineto / PyTorch profiler Chrome traces
# ----------------------------------------------------------------------------------------------
#
# RULES
# K1. Only complete events ("ph": "X") are counted. Flow events ("s"/"f"), instant events,
#     metadata ("M") and counters are ignored.
# K2. Categories are compared case-insensitively and with an optional "gpu_" prefix removed:
#     "gpu_memcpy" (PyTorch >= 1.9 / Kineto) and "Memcpy" (PyTorch 1.8-era libkineto) are both a
#     copy; "gpu_memset" and "Memset" are both a memset; "kernel" and "Kernel" are both a kernel.
#     The spellings actually seen are reported under "category_spelling" so a test can tell
#     which era a file comes from.
# K3. Copy direction is the word after "Memcpy " in the event name: HtoD, DtoH, DtoD, PtoP,
#     HtoH (anything else -> "other"). Memory kinds are the two words in "(SRC -> DST)",
#     lower-cased as written ("pageable", "pinned", "device", and on ROCm "host"); the pair is
#     reported as "src->dst". No mapping between "host" and "pageable"/"pinned" is attempted.
# K4. Bytes of a copy or memset are args["bytes"] when it is a number; events without it are
#     counted in "bytes_unknown" and add nothing to "bytes" (ROCm traces here have copies and
#     memsets without a "bytes" arg: a reader must not turn them into 0-byte operations silently).
# K5. Memset memory kind is the word in "Memset (KIND)", lower-cased ("device", "unknown").
# K6. PtoP copies additionally report the (fromDevice, toDevice) pairs from args (or "?").
# K7. An NCCL/RCCL kernel is an event of kernel category whose name starts with "nccl"
#     (case-insensitive): ncclKernel_*, ncclDevKernel_*, ncclAllReduceRingLLKernel_* ...
# K8. The kind of an NCCL kernel comes from args["Collective name"] when present, normalised:
#     lower-case, leading "_" removed, suffixes "_base", "_into_tensor", "_coalesced" removed,
#     "all_reduce"->"allreduce", "all_gather"->"allgather", "reduce_scatter"->"reducescatter",
#     "all_to_all"/"alltoall_base"->"alltoall". Without it, the kind is read from the kernel name:
#     the first of allreduce, allgather, reducescatter, alltoall, broadcast, sendrecv, send, recv,
#     reduce found in the lower-cased name with "_" removed (so "ncclKernel_SendRecv_RING" ->
#     "sendrecv", "ncclDevKernel_AllGather_RING_LL" -> "allgather"). A name that says none of
#     these (ncclDevKernel_Generic, used by recent NCCL/RCCL for every collective) is "unknown".
# K9. Bytes of an NCCL kernel are known only when args carry "In msg nelems"/"Out msg nelems" and
#     a "dtype" of known size. As nccl-tests counts its "size": allgather uses Out msg nelems
#     (the gathered buffer), every other kind uses In msg nelems. Otherwise the kernel is counted
#     in "count_size_unknown" and contributes no bytes. Never 0 bytes "by default".
# K10. "devices" lists args["device"] of every copy, memset and NCCL kernel: the GPU index the
#     operation ran on, which is not necessarily the rank (distributedInfo.rank is reported
#     separately).
# K11. "nccl_cpu_ops" counts CPU-side events whose name starts with "nccl:" (record_function
#     ranges such as "nccl:all_reduce"); they are not GPU work and are reported only to help
#     explain NCCL kernels of unknown kind.

DTYPE_BYTES = {
    "float": 4, "float32": 4, "double": 8, "float64": 8, "half": 2, "float16": 2,
    "bfloat16": 2, "int": 4, "int32": 4, "long": 8, "int64": 8, "short": 2, "int16": 2,
    "char": 1, "int8": 1, "byte": 1, "uint8": 1, "bool": 1, "complexfloat": 8,
    "complexdouble": 16, "float8_e4m3fn": 1, "float8_e5m2": 1, "float8_e4m3fnuz": 1,
    "float8_e5m2fnuz": 1,
}

NAME_KINDS = ["allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "sendrecv",
              "send", "recv", "reduce"]


def nccl_kind_from_collective(name):
    n = name.strip().lower().lstrip("_")
    for suffix in ("_into_tensor", "_coalesced", "_base"):
        if n.endswith(suffix):
            n = n[: -len(suffix)]
    n = {"all_reduce": "allreduce", "all_gather": "allgather", "reduce_scatter": "reducescatter",
         "all_to_all": "alltoall", "all_to_allv": "alltoall"}.get(n, n)
    n = n.replace("_", "")
    return n if n in NAME_KINDS else "other:" + name


def nccl_kind_from_kernel_name(name):
    n = name.lower().replace("_", "")
    for k in NAME_KINDS:
        if k in n:
            return k
    return "unknown"


def norm_cat(cat):
    c = str(cat or "").lower()
    return c[4:] if c.startswith("gpu_") else c


def count_kineto(path):
    doc = json.loads(read_bytes(path))
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    out = {
        "format": "kineto",
        "events_total": len(events),
        "category_spelling": {},
        "copies": {"count": 0, "bytes": 0, "bytes_unknown": 0, "by_direction": {}},
        "memsets": {"count": 0, "bytes": 0, "bytes_unknown": 0, "by_kind": {}},
        "nccl_kernels": {"count": 0, "by_kind": {}, "names_without_args": {}},
        "nccl_cpu_ops": {},
        "kernels_total": 0,
        "devices": [],
    }
    devices = set()
    spelling = {}
    for e in events:
        if not isinstance(e, dict) or e.get("ph") != "X":
            continue
        raw_cat = e.get("cat")
        cat = norm_cat(raw_cat)
        name = str(e.get("name", ""))
        args = e.get("args") or {}
        if cat in ("memcpy", "memset", "kernel"):
            spelling[str(raw_cat)] = spelling.get(str(raw_cat), 0) + 1
        if cat == "memcpy":
            m = re.match(r"Memcpy (\w+)", name)
            direction = m.group(1) if m and m.group(1) in ("HtoD", "DtoH", "DtoD", "PtoP", "HtoH") else "other"
            mk = re.search(r"\(\s*([^()]*?)\s*->\s*([^()]*?)\s*\)", name)
            mem = (mk.group(1).lower() + "->" + mk.group(2).lower()) if mk else "unstated"
            d = out["copies"]["by_direction"].setdefault(direction, {"count": 0, "bytes": 0, "bytes_unknown": 0, "by_mem": {}})
            dm = d["by_mem"].setdefault(mem, {"count": 0, "bytes": 0, "bytes_unknown": 0})
            b = args.get("bytes")
            out["copies"]["count"] += 1
            d["count"] += 1
            dm["count"] += 1
            if isinstance(b, (int, float)) and not isinstance(b, bool):
                out["copies"]["bytes"] += int(b)
                d["bytes"] += int(b)
                dm["bytes"] += int(b)
            else:
                out["copies"]["bytes_unknown"] += 1
                d["bytes_unknown"] += 1
                dm["bytes_unknown"] += 1
            if direction == "PtoP":
                pair = "%s->%s" % (args.get("fromDevice", "?"), args.get("toDevice", "?"))
                pp = d.setdefault("peer_pairs", {})
                pp[pair] = pp.get(pair, 0) + 1
            if "device" in args:
                devices.add(args["device"])
        elif cat == "memset":
            mk = re.search(r"Memset \(([^)]*)\)", name)
            kind = mk.group(1).lower() if mk else "unstated"
            k = out["memsets"]["by_kind"].setdefault(kind, {"count": 0, "bytes": 0, "bytes_unknown": 0})
            b = args.get("bytes")
            out["memsets"]["count"] += 1
            k["count"] += 1
            if isinstance(b, (int, float)) and not isinstance(b, bool):
                out["memsets"]["bytes"] += int(b)
                k["bytes"] += int(b)
            else:
                out["memsets"]["bytes_unknown"] += 1
                k["bytes_unknown"] += 1
            if "device" in args:
                devices.add(args["device"])
        elif cat == "kernel":
            out["kernels_total"] += 1
            if not name.lower().startswith("nccl"):
                continue
            coll = args.get("Collective name")
            kind = nccl_kind_from_collective(coll) if coll else nccl_kind_from_kernel_name(name)
            k = out["nccl_kernels"]["by_kind"].setdefault(kind, {"count": 0, "count_with_size": 0, "count_size_unknown": 0, "bytes": 0, "group_sizes": []})
            out["nccl_kernels"]["count"] += 1
            k["count"] += 1
            size = DTYPE_BYTES.get(str(args.get("dtype", "")).lower())
            nel = args.get("Out msg nelems") if kind == "allgather" else args.get("In msg nelems")
            if size is not None and isinstance(nel, (int, float)) and not isinstance(nel, bool) and nel >= 0:
                k["count_with_size"] += 1
                k["bytes"] += int(nel) * size
            else:
                k["count_size_unknown"] += 1
            gs = args.get("Group size")
            if gs is not None and gs not in k["group_sizes"]:
                k["group_sizes"].append(gs)
            if not coll:
                short = name.split("(")[0]
                nw = out["nccl_kernels"]["names_without_args"]
                nw[short] = nw.get(short, 0) + 1
            if "device" in args:
                devices.add(args["device"])
        elif name.startswith("nccl:"):
            out["nccl_cpu_ops"][name] = out["nccl_cpu_ops"].get(name, 0) + 1
    for k in out["nccl_kernels"]["by_kind"].values():
        k["group_sizes"].sort()
    out["category_spelling"] = spelling
    out["devices"] = sorted(devices)
    out["gpu_transfer_ops"] = out["copies"]["count"] + out["memsets"]["count"] + out["nccl_kernels"]["count"]
    if isinstance(doc, dict):
        di = doc.get("distributedInfo") or {}
        out["rank"] = di.get("rank")
        out["world_size"] = di.get("world_size")
        out["backend"] = di.get("backend")
        props = doc.get("deviceProperties") or []
        out["device_properties"] = [p.get("name") for p in props if isinstance(p, dict)]
    return out


# ----------------------------------------------------------------------------------------------
# Nsight Systems (nsys export --type sqlite) and nvprof (--export-profile) SQLite databases
# ----------------------------------------------------------------------------------------------
#
# RULES
# S1. Flavor: "nsys" when the database has META_DATA_EXPORT or TARGET_INFO_GPU; "nvprof" when it
#     has a "Version" table and CUPTI_* tables whose rows carry an "_id_" column; else "unknown".
# S2. Copies are the rows of CUPTI_ACTIVITY_KIND_MEMCPY, plus (nvprof) CUPTI_ACTIVITY_KIND_MEMCPY2
#     (peer copies). Direction is named from copyKind. nsys: the database's own
#     ENUM_CUDA_MEMCPY_OPER (column "name", prefix "CUDA_MEMCPY_KIND_" removed, e.g. "DTOH",
#     "UVM_HTOD") when present; otherwise, and for nvprof, CUPTI's CUpti_ActivityMemcpyKind:
#     0 UNKNOWN, 1 HTOD, 2 DTOH, 3 HTOA, 4 ATOH, 5 ATOA, 6 ATOD, 7 DTOA, 8 DTOD, 9 HTOH, 10 PTOP.
#     (Upper-case CUPTI spelling here; the Kineto section uses the trace's own "HtoD" spelling.)
# S3. Memory kinds: nsys numbers them from 0 and names them in ENUM_CUDA_MEM_KIND (used when
#     present, prefix "CUDA_MEMOPR_MEMORY_KIND_" removed and lower-cased; fallback 0 pageable, 1 pinned, 2 device, 3 array, 4 managed, 5 device_static,
#     6 managed_static, 7 unknown). nvprof uses CUPTI's CUpti_ActivityMemoryKind: 0 unknown,
#     1 pageable, 2 pinned, 3 device, 4 array, 5 managed, 6 device_static, 7 managed_static.
# S4. Bytes are the "bytes" column, summed as integers.
# S5. Memsets are the rows of CUPTI_ACTIVITY_KIND_MEMSET; kind from memKind (nsys) or memoryKind
#     (nvprof) with the numbering of S3.
# S6. Unified-memory counters: rows of CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER counted per
#     counterKind, with "value" summed (bytes for the transfer kinds).
# S7. NCCL kernels: rows of CUPTI_ACTIVITY_KIND_KERNEL / _CONCURRENT_KERNEL whose resolved name
#     starts with "nccl" (names via StringIds for nsys shortName/demangledName, StringTable for
#     nvprof "name"); kind from the name as in K8.
# S8. "cuda_tables" lists the CUPTI_ACTIVITY_KIND_* tables present with their row counts; an
#     export made without CUDA tracing has none (or only RUNTIME).
# S9. nsys only, the rest of the application: "kernels" = rows of CUPTI_ACTIVITY_KIND_KERNEL;
#     "runtime_calls" = rows of CUPTI_ACTIVITY_KIND_RUNTIME (runtime and driver calls alike);
#     "nvtx_ranges" = rows of NVTX_EVENTS whose eventType is named NvtxPushPopRange,
#     NvtxStartEndRange, NvtxtPushPopRange or NvtxtStartEndRange in ENUM_NSYS_EVENT_TYPE and
#     whose end is not NULL (marks and unclosed ranges are not ranges).
# S10. "launch_links": rows of CUPTI_ACTIVITY_KIND_MEMCPY, _MEMSET and _KERNEL whose
#     (process, correlationId) equals that of a CUPTI_ACTIVITY_KIND_RUNTIME row, the process
#     being globalPid // 2**24 % 2**24 for the GPU rows and globalTid // 2**24 % 2**24 for the
#     calls; "kernel_launchers" = those kernels counted by the launching call's StringIds name,
#     as stored (with Nsight Systems' "_vNNNN" suffix).

CUPTI_COPY = {0: "UNKNOWN", 1: "HTOD", 2: "DTOH", 3: "HTOA", 4: "ATOH", 5: "ATOA", 6: "ATOD",
              7: "DTOA", 8: "DTOD", 9: "HTOH", 10: "PTOP"}
NSYS_MEM = {0: "pageable", 1: "pinned", 2: "device", 3: "array", 4: "managed", 5: "device_static",
            6: "managed_static", 7: "unknown"}
NVPROF_MEM = {0: "unknown", 1: "pageable", 2: "pinned", 3: "device", 4: "array", 5: "managed",
              6: "device_static", 7: "managed_static"}


def sql_tables(con):
    return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def sql_cols(con, table):
    return [r[1] for r in con.execute('PRAGMA table_info("%s")' % table)]


def count_sqlite(path):
    data = read_bytes(path)
    with tempfile.NamedTemporaryFile(suffix=".sqlite", delete=False) as tmp:
        tmp.write(data)
        tmpname = tmp.name
    try:
        con = sqlite3.connect("file:%s?mode=ro" % tmpname, uri=True)
        return count_sqlite_con(con)
    finally:
        try:
            con.close()
        except Exception:
            pass
        os.unlink(tmpname)


def count_sqlite_con(con):
    tables = sql_tables(con)
    out = {"format": "sqlite"}
    if "META_DATA_EXPORT" in tables or "TARGET_INFO_GPU" in tables:
        flavor = "nsys"
    elif "Version" in tables and any(t.startswith("CUPTI_") and "_id_" in sql_cols(con, t) for t in tables):
        flavor = "nvprof"
    else:
        flavor = "unknown"
    out["flavor"] = flavor
    out["cuda_tables"] = {t: con.execute('SELECT COUNT(*) FROM "%s"' % t).fetchone()[0]
                          for t in sorted(tables) if t.startswith("CUPTI_ACTIVITY_KIND_")}
    if flavor == "nsys" and "META_DATA_EXPORT" in tables:
        md = dict(con.execute("SELECT name, value FROM META_DATA_EXPORT").fetchall())
        out["exporter_version"] = md.get("EXPORT_PRODUCT_VERSION")
        out["schema_version"] = md.get("EXPORT_SCHEMA_VERSION")
    if "TARGET_INFO_GPU" in tables:
        out["gpus"] = sorted(r[0] for r in con.execute("SELECT name FROM TARGET_INFO_GPU"))

    copy_names = dict(CUPTI_COPY)
    mem_names = NVPROF_MEM if flavor == "nvprof" else dict(NSYS_MEM)
    if flavor == "nsys" and "ENUM_CUDA_MEMCPY_OPER" in tables:
        copy_names = {r[0]: r[1].replace("CUDA_MEMCPY_KIND_", "")
                      for r in con.execute("SELECT id, name FROM ENUM_CUDA_MEMCPY_OPER")}
    if flavor == "nsys" and "ENUM_CUDA_MEM_KIND" in tables:
        mem_names = {r[0]: r[1].replace("CUDA_MEMOPR_MEMORY_KIND_", "").lower()
                     for r in con.execute("SELECT id, name FROM ENUM_CUDA_MEM_KIND")}

    copies = {"count": 0, "bytes": 0, "by_direction": {}}
    for table in ("CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMCPY2"):
        if table not in tables:
            continue
        cols = sql_cols(con, table)
        sel = ["copyKind", "srcKind", "dstKind", "bytes"]
        peer = "srcDeviceId" in cols and "dstDeviceId" in cols
        if peer:
            sel += ["srcDeviceId", "dstDeviceId"]
        for row in con.execute("SELECT %s FROM %s" % (", ".join(sel), table)):
            ck, sk, dk, b = row[:4]
            direction = str(copy_names.get(ck, "copyKind%s" % ck))
            mem = "%s->%s" % (mem_names.get(sk, sk), mem_names.get(dk, dk))
            d = copies["by_direction"].setdefault(direction, {"count": 0, "bytes": 0, "by_mem": {}})
            m = d["by_mem"].setdefault(mem, {"count": 0, "bytes": 0})
            copies["count"] += 1
            copies["bytes"] += int(b or 0)
            d["count"] += 1
            d["bytes"] += int(b or 0)
            m["count"] += 1
            m["bytes"] += int(b or 0)
            if peer and row[4] is not None and row[5] is not None and row[4] != row[5]:
                pp = d.setdefault("peer_pairs", {})
                key = "%s->%s" % (row[4], row[5])
                pp[key] = pp.get(key, 0) + 1
    out["copies"] = copies

    memsets = {"count": 0, "bytes": 0, "by_kind": {}}
    if "CUPTI_ACTIVITY_KIND_MEMSET" in tables:
        cols = sql_cols(con, "CUPTI_ACTIVITY_KIND_MEMSET")
        kcol = "memKind" if "memKind" in cols else ("memoryKind" if "memoryKind" in cols else None)
        q = "SELECT bytes, %s FROM CUPTI_ACTIVITY_KIND_MEMSET" % (kcol or "NULL")
        for b, k in con.execute(q):
            kind = str(mem_names.get(k, k))
            e = memsets["by_kind"].setdefault(kind, {"count": 0, "bytes": 0})
            memsets["count"] += 1
            memsets["bytes"] += int(b or 0)
            e["count"] += 1
            e["bytes"] += int(b or 0)
    out["memsets"] = memsets

    um = {}
    if "CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER" in tables:
        for kind, n, v in con.execute("SELECT counterKind, COUNT(*), SUM(value) FROM CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER GROUP BY counterKind"):
            um[str(kind)] = {"count": n, "value_sum": int(v or 0)}
    out["unified_memory_counters"] = um

    strings = {}
    if "StringIds" in tables:
        strings = dict(con.execute("SELECT id, value FROM StringIds"))
    elif "StringTable" in tables:
        strings = dict(con.execute("SELECT _id_, value FROM StringTable"))
    nccl = {"count": 0, "by_kind": {}}
    for table in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL"):
        if table not in tables:
            continue
        cols = sql_cols(con, table)
        ncol = next((c for c in ("shortName", "demangledName", "name") if c in cols), None)
        if ncol is None:
            continue
        for (nid,) in con.execute("SELECT %s FROM %s" % (ncol, table)):
            name = strings.get(nid, nid if isinstance(nid, str) else "")
            if str(name).lower().startswith("nccl"):
                kind = nccl_kind_from_kernel_name(str(name))
                nccl["count"] += 1
                nccl["by_kind"][kind] = nccl["by_kind"].get(kind, 0) + 1
    out["nccl_kernels"] = nccl
    if flavor == "nsys":
        count_nsys_application(con, tables, strings, out)
    return out


def count_nsys_application(con, tables, strings, out):
    def rows(table):
        return con.execute('SELECT COUNT(*) FROM "%s"' % table).fetchone()[0] if table in tables else 0
    out["kernels"] = rows("CUPTI_ACTIVITY_KIND_KERNEL")
    out["runtime_calls"] = rows("CUPTI_ACTIVITY_KIND_RUNTIME")
    nvtx = 0
    if "NVTX_EVENTS" in tables and "ENUM_NSYS_EVENT_TYPE" in tables:
        ids = [r[0] for r in con.execute("SELECT id, name FROM ENUM_NSYS_EVENT_TYPE")
               if r[1] in ("NvtxPushPopRange", "NvtxStartEndRange", "NvtxtPushPopRange", "NvtxtStartEndRange")]
        for (etype, end) in con.execute("SELECT eventType, end FROM NVTX_EVENTS"):
            if etype in ids and end is not None:
                nvtx += 1
    out["nvtx_ranges"] = nvtx
    calls = {}
    if "CUPTI_ACTIVITY_KIND_RUNTIME" in tables:
        for tid, corr, name in con.execute("SELECT globalTid, correlationId, nameId FROM CUPTI_ACTIVITY_KIND_RUNTIME"):
            calls[(tid // 2**24 % 2**24, corr)] = strings.get(name, "")
    links = 0
    launchers = {}
    for table in ("CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_KERNEL"):
        if table not in tables:
            continue
        for pid, corr in con.execute('SELECT globalPid, correlationId FROM "%s"' % table):
            key = (pid // 2**24 % 2**24, corr) if pid is not None else None
            if key in calls:
                links += 1
                if table == "CUPTI_ACTIVITY_KIND_KERNEL":
                    launchers[calls[key]] = launchers.get(calls[key], 0) + 1
    out["launch_links"] = links
    out["kernel_launchers"] = launchers


# ----------------------------------------------------------------------------------------------
# NCCL / RCCL topology XML (NCCL_TOPO_DUMP_FILE, NCCL_TOPO_FILE)
# ----------------------------------------------------------------------------------------------
#
# RULES
# T1. Root <system> is a topology; root <graphs> (NCCL_GRAPH_DUMP_FILE) is not, and is reported as
#     {"kind": "graph"} with its graph and channel counts only.
# T2. GPUs: every <gpu> element is one GPU ("gpus_declared"), identified by its "dev" attribute
#     (falling back to document order), with the busid of its parent <pci> and its "rank".
#     Separately, <pci> elements whose class is a GPU class (0x0300xx VGA, 0x0302xx 3D, 0x1200xx
#     processing accelerator, used by AMD) and that have no <gpu> child are counted as
#     "pci_gpus_without_gpu_child" (the cloud files that list GPUs only as PCI devices).
# T3. NVLink per GPU: every <nvlink target count tclass> child of a <gpu>. An entry whose tclass is
#     0x068000 (bridge class, i.e. an NVSwitch, including the invisible "fffffff:ff:ff.0" switch
#     of VMs) is a switch link; an entry whose tclass is a GPU class is a direct GPU link to the
#     GPU whose <pci> busid equals target; a direct entry whose target is the GPU's own busid is
#     a "self link" and is reported, not counted as a pair; a direct entry whose target is no GPU
#     of the file is reported under "dangling_links".
# T4. NVLink count of a GPU pair (a, b) = direct(a->b) + via_switch(a, b), where direct(a->b) sums
#     the counts of a's direct entries targeting b, and via_switch(a, b) =
#     min(switch_total(a), switch_total(b)) when both GPUs have switch links, else 0, with
#     switch_total(g) = sum of the counts of ALL of g's switch entries, whichever NVSwitch chip
#     each one targets. NVSwitch fabrics are non-blocking all-to-all, so one <nvlink> per switch
#     chip (A100: six entries of count 2; H100: 5, 5, 4, 4) adds up to the bonded width
#     nvidia-smi reports (NV12, NV18); a VM's single entry of count 18 gives the same 18.
#     Pairs are keyed "devA-devB" with devA < devB; pairs with 0 are omitted.
# T5. AMD <xgmi target count tclass> entries are direct GPU links counted like T3/T4 direct links,
#     reported under "xgmi_pairs" (they never go through a switch here).
# T6. NICs: "nets" = number of <net> elements (each is one NIC port as NCCL sees it, including
#     socket "NICs" such as eth0 or veth bridges); "nic_elements" = number of <nic> elements;
#     "pci_nics_without_nic_child" = <pci> of class 0x0200xx (Ethernet) or 0x0207xx (InfiniBand)
#     without a <nic> child (cloud files that list NICs only as PCI devices);
#     "pci_net_names" = the distinct names of the <net> elements inside a <pci> element (the NIC
#     interfaces of PCI devices, each to be found in the import; sockets under a <cpu> are not).
# T7. "cpus" = number of <cpu> elements with their numaid attributes; "slow_bridges" = <pci>
#     elements of class 0x0604xx whose link is 2.5 GT/s or x1 (emulated VM bridges);
#     "c2c" = number of <c2c> elements.

GPU_CLASSES = ("0x0300", "0x0302", "0x1200")
NIC_CLASSES = ("0x0200", "0x0207")


def count_topology(path):
    text = read_bytes(path).decode("utf-8", errors="replace")
    root = ET.fromstring(text)
    if root.tag == "graphs":
        graphs = root.findall("graph")
        return {"format": "nccl_xml", "kind": "graph", "graphs": len(graphs),
                "channels": sum(len(g.findall("channel")) for g in graphs)}
    if root.tag != "system":
        return {"format": "nccl_xml", "kind": "unknown_root:" + root.tag}
    parent = {c: p for p in root.iter() for c in p}
    gpus = []
    for i, g in enumerate(root.iter("gpu")):
        p = parent.get(g)
        busid = p.get("busid", "").lower() if p is not None and p.tag == "pci" else ""
        gpus.append({"el": g, "dev": g.get("dev", str(i)), "rank": g.get("rank"), "busid": busid})
    by_busid = {}
    for g in gpus:
        by_busid.setdefault(g["busid"], []).append(g)

    def is_gpu_class(c):
        return (c or "").lower().startswith(GPU_CLASSES)

    switch_total = {}
    direct = {}
    xgmi = {}
    self_links = {}
    dangling = {}
    per_gpu = {}
    for g in gpus:
        sw = 0
        entries = []
        for link in list(g["el"]):
            if link.tag not in ("nvlink", "xgmi"):
                continue
            target = link.get("target", "").lower()
            count = int(link.get("count", "0") or 0)
            tclass = (link.get("tclass") or "").lower()
            entries.append("%s:%s:%s:%d" % (link.tag, target, tclass, count))
            if link.tag == "nvlink" and tclass.startswith("0x0680"):
                sw += count
            elif link.tag == "nvlink" and not is_gpu_class(tclass):
                sw += count  # unknown non-GPU target: treated as a switch (see T3)
            else:
                if target == g["busid"]:
                    self_links[g["dev"]] = self_links.get(g["dev"], 0) + count
                    continue
                if not by_busid.get(target):
                    dangling[g["dev"]] = dangling.get(g["dev"], 0) + count
                for peer in by_busid.get(target, []):
                    if peer is g:
                        continue
                    a, b = sorted((g["dev"], peer["dev"]), key=lambda s: (len(s), s))
                    key = "%s-%s" % (a, b)
                    book = xgmi if link.tag == "xgmi" else direct
                    book.setdefault(key, {})
                    book[key][g["dev"]] = book[key].get(g["dev"], 0) + count
        switch_total[g["dev"]] = sw
        per_gpu[g["dev"]] = {"rank": g["rank"], "busid": g["busid"], "switch_links": sw,
                             "nvlink_entries": sum(1 for e in entries if e.startswith("nvlink")),
                             "xgmi_entries": sum(1 for e in entries if e.startswith("xgmi"))}
    pairs = {}
    devs = [g["dev"] for g in gpus]
    for i, a in enumerate(devs):
        for b in devs[i + 1:]:
            x, y = sorted((a, b), key=lambda s: (len(s), s))
            key = "%s-%s" % (x, y)
            d = direct.get(key, {})
            # direct: the count as written by the lower-numbered side when present, else the other
            dcount = d.get(x, d.get(y, 0))
            via = min(switch_total[a], switch_total[b]) if switch_total[a] and switch_total[b] else 0
            if dcount + via:
                pairs[key] = dcount + via
    xpairs = {}
    for key, d in xgmi.items():
        x, y = key.split("-")
        xpairs[key] = d.get(x, d.get(y, 0))
    asym = sorted(k for k, d in list(direct.items()) + list(xgmi.items())
                  if len(d) == 2 and len(set(d.values())) > 1)

    pci_gpu_only = 0
    pci_nic_only = 0
    slow = 0
    for p in root.iter("pci"):
        cls = (p.get("class") or "").lower()
        kids = {c.tag for c in p}
        if cls.startswith(GPU_CLASSES) and "gpu" not in kids:
            pci_gpu_only += 1
        if cls.startswith(NIC_CLASSES) and "nic" not in kids:
            pci_nic_only += 1
        if cls.startswith("0x0604"):
            sp = p.get("link_speed", "")
            if sp.startswith("2.5") or p.get("link_width") == "1":
                slow += 1
    pci_net_names = set()
    for p in root.iter("pci"):
        for net in p.iter("net"):
            if net.get("name"):
                pci_net_names.add(net.get("name"))
    cpus = root.findall("cpu")
    return {
        "format": "nccl_xml", "kind": "system", "version": root.get("version"),
        "gpus_declared": len(gpus),
        "pci_gpus_without_gpu_child": pci_gpu_only,
        "gpus": per_gpu,
        "nvlink_pairs": pairs,
        "xgmi_pairs": xpairs,
        "asymmetric_pairs": asym,
        "self_links": self_links,
        "dangling_links": dangling,
        "nets": sum(1 for _ in root.iter("net")),
        "nic_elements": sum(1 for _ in root.iter("nic")),
        "pci_nics_without_nic_child": pci_nic_only,
        "pci_net_names": sorted(pci_net_names),
        "cpus": len(cpus),
        "cpu_numaids": [c.get("numaid") for c in cpus],
        "slow_bridges": slow,
        "c2c": sum(1 for _ in root.iter("c2c")),
    }


# ----------------------------------------------------------------------------------------------
# nvidia-smi topo -m
# ----------------------------------------------------------------------------------------------
#
# RULES
# M1. The header is the first line containing the token "GPU0" before any row. Device columns
#     are the whitespace-separated tokens of the header before "CPU Affinity" (or to the end of
#     the line): GPUk, NICk, mlx5_k, mlx4_k ... The trailing columns present are recorded in
#     order from: "CPU Affinity", "NUMA Affinity", "GPU NUMA ID".
# M2. A row is a line whose first whitespace-separated token is one of the device columns. Its
#     next len(devices) tokens are the matrix cells ("X", "NV#", "SYS", "NODE", "PHB", "PXB",
#     "PIX"). Whitespace (tabs or spaces, one or many) separates cells; hand-edited files with
#     doubled tabs read the same.
# M3. For GPU rows, the tokens after the cells are, in order and only if the header has the
#     column: CPU Affinity (a token of digits, "," and "-"; else null), NUMA Affinity (digits or
#     "N/A"), GPU NUMA ID. An older driver without a NUMA Affinity column gives numa = null.
# M4. "gpus" = number of GPU rows; "nics" = number of device columns that are not GPUk.
#     "nvlink_pairs" maps "i-j" (i < j) to the # of "NV#" in row GPUi column GPUj (pairs with no
#     NVLink omitted); "links" maps every "i-j" GPU pair to the cell text.
# M5. "NIC Legend:" lines "  NICk: name" are reported as nic_legend.

def count_smi_topo(path):
    lines = read_bytes(path).decode("utf-8", errors="replace").splitlines()
    header_i = next(i for i, l in enumerate(lines) if re.search(r"\bGPU0\b", l))
    header = lines[header_i]
    extra_names = ["CPU Affinity", "NUMA Affinity", "GPU NUMA ID"]
    cut = min([header.find(n) for n in extra_names if n in header] or [len(header)])
    devices = header[:cut].split()
    extras = [n for n in extra_names if n in header]
    rows = {}
    affinity = {}
    for l in lines[header_i + 1:]:
        toks = l.split()
        if not toks or toks[0] not in devices:
            if toks and toks[0] == "Legend:":
                break
            continue
        cells = toks[1:1 + len(devices)]
        rows[toks[0]] = cells
        if toks[0].startswith("GPU"):
            rest = toks[1 + len(devices):]
            info = {}
            j = 0
            for col in extras:
                if col == "CPU Affinity":
                    if j < len(rest) and re.fullmatch(r"[\d,\-]+", rest[j]):
                        info["cpu_affinity"] = rest[j]
                        j += 1
                    else:
                        info["cpu_affinity"] = None
                elif col == "NUMA Affinity":
                    if j < len(rest) and re.fullmatch(r"\d+|N/A", rest[j]):
                        info["numa_affinity"] = rest[j]
                        j += 1
                    else:
                        info["numa_affinity"] = None
                elif col == "GPU NUMA ID":
                    info["gpu_numa_id"] = rest[j] if j < len(rest) else None
                    j += 1
            if "NUMA Affinity" not in extras:
                info["numa_affinity"] = None
            affinity[toks[0]] = info
    gpus = [d for d in devices if re.fullmatch(r"GPU\d+", d)]
    links = {}
    nv = {}
    for a in range(len(gpus)):
        for b in range(a + 1, len(gpus)):
            ga, gb = gpus[a], gpus[b]
            cell = rows.get(ga, [None] * len(devices))[devices.index(gb)] if ga in rows else None
            key = "%s-%s" % (ga[3:], gb[3:])
            links[key] = cell
            m = re.fullmatch(r"NV(\d+)", cell or "")
            if m:
                nv[key] = int(m.group(1))
    legend = {}
    in_legend = False
    for l in lines:
        if l.strip() == "NIC Legend:":
            in_legend = True
            continue
        m = re.match(r"\s*(NIC\d+):\s*(\S+)", l) if in_legend else None
        if m:
            legend[m.group(1)] = m.group(2)
    return {
        "format": "smi_topo",
        "gpus": sum(1 for g in gpus if g in rows),
        "nics": len([d for d in devices if not re.fullmatch(r"GPU\d+", d)]),
        "columns": devices,
        "extra_columns": extras,
        "has_numa_column": "NUMA Affinity" in extras,
        "links": links,
        "nvlink_pairs": nv,
        "affinity": affinity,
        "nic_legend": legend,
        "matrix": rows,
    }


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    result = {}
    handlers = {"kineto": count_kineto, "nsys": count_sqlite, "nvprof": count_sqlite,
                "nccl_topo": count_topology, "smi_topo": count_smi_topo}
    for sub, fn in handlers.items():
        base = os.path.join(root, sub)
        if not os.path.isdir(base):
            continue
        for dirpath, _, files in os.walk(base):
            for f in sorted(files):
                p = os.path.join(dirpath, f)
                rel = os.path.relpath(p, root)
                try:
                    result[rel] = fn(p)
                except Exception as e:  # a file the counter cannot read is reported, not skipped
                    result[rel] = {"error": "%s: %s" % (type(e).__name__, e)}
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
