#!/usr/bin/env python3
"""Makes the fuzz seeds, tests/data/fuzz/seeds/<target>/, from the repository's own data.

Seeds are small (a fuzzer mutates a 3 KB file thousands of times faster than a 3 MB one) and keep
each format's structure: the first records of the CSV traces, Kineto traces cut down to their
metadata and a sample of their events, nvprof and Nsight Systems databases as SQL scripts of a few
rows per table (the profiler_db target runs a script that starts with its marker line), the NCCL
topology dumps and `nvidia-smi topo -m` outputs as they are, every node and study file, and one
workload spec per workload. `../shared` (the AHEAD traces) adds nvprof seeds where present.

    python3 tools/fuzz/make_seeds.py        # rewrites tests/data/fuzz/seeds/
"""
import gzip
import json
import pathlib
import shutil
import sqlite3
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "tests/data/fuzz/seeds"
SQL_MARKER = "-- linkcast-fuzz-sql\n"
MAX_SEED = 64 * 1024


def read(path):
    data = path.read_bytes()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def put(target, name, data):
    d = OUT / target
    d.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (d / name).write_bytes(data[:MAX_SEED])


def csv_seeds():
    for p in sorted(ROOT.glob("tests/data/real/*/*trace.csv.gz")):
        lines = read(p).decode().splitlines(keepends=True)
        put("csv", f"{p.parent.name}-{p.name[:-3]}", "".join(lines[:40]))
    put("csv", "all-columns.csv",
        "kind,src,dst,bytes,src_mem,dst_mem,start_ns,duration_ns,stream,group,root,object,line,comm,issuer\n"
        "copy,cpu0,gpu1,4096,pageable,device,100,1500,7,,,halo,stencil.cu:42,,\n"
        "access,gpu0,gpu1,128,device,device,2000,10,8,,,buf,k.cu:9,,gpu1\n"
        "migrate,cpu0,gpu0,65536,managed,managed,2100,900,8,,,um,m.cu:3,,\n"
        "memset,gpu0,gpu0,1024,,,3000,20,7,,,,,,\n"
        "allreduce,gpu0,gpu0,1048576,,,4000,50000,7,0-3,,grads,dist.py:1,W,\n"
        "allreduce,gpu1,gpu1,1048576,,,4000,50000,8,0-3,,grads,dist.py:1,W,\n"
        "broadcast,gpu2,gpu2,4096,,,9000,800,9,0;2,1,params,dist.py:7,W_s1.0,\n"
        "alltoall,gpu3,gpu3,4096,,,9500,900,9,0-3,,x,a2a.py:3,W,\n"
        "send,gpu0,gpu1,4096,,,10000,100,7,,,msg,p2p.py:2,W,\n"
        "recv,gpu0,gpu1,4096,,,10000,100,8,,,msg,p2p.py:3,W,\n")
    put("csv", "comment-and-host.csv", "# a comment line\nkind,src,dst,bytes\ncopy,host,gpu0,8\ncopy,gpu0,host,1e3\n")


def kineto_seeds():
    sources = sorted(ROOT.glob("tests/data/wild/kineto/*.json.gz")) + sorted(ROOT.glob("tests/data/wild/kineto/*.json"))
    sources += sorted(ROOT.glob("tests/data/wild/kineto/*/*.json.gz"))[:2]
    sources += sorted(ROOT.glob("tests/data/real/*/torch_*.json.gz"))
    for p in sources:
        try:
            doc = json.loads(read(p))
        except ValueError:
            continue
        # The Chrome trace's list form (a list of events alone, the first libkineto's) stays a list.
        listed = isinstance(doc, list)
        if not listed and not isinstance(doc, dict):
            continue
        events = doc if listed else doc.get("traceEvents", [])
        keep, seen = [], {}
        for e in events:
            if not isinstance(e, dict):
                continue
            cat = str(e.get("cat", "")).lower()
            name = str(e.get("name", "")).lower()
            key = (cat, "nccl" in name, e.get("ph"))
            interesting = cat in ("gpu_memcpy", "gpu_memset") or "nccl" in name or "memcpy" in name
            if seen.get(key, 0) < (6 if interesting else 1):
                seen[key] = seen.get(key, 0) + 1
                keep.append(e)
        if listed:
            small = keep[:80]
        else:
            small = {k: v for k, v in doc.items() if k != "traceEvents"}
            small["traceEvents"] = keep[:80]
        text = json.dumps(small, separators=(",", ":"))
        if len(text) <= MAX_SEED:
            put("kineto", p.name.replace(".json.gz", ".json"), text)


def sql_dump(db_path, rows_per_table=12):
    con = sqlite3.connect(db_path)
    out = [SQL_MARKER]
    tables = [r for r in con.execute("SELECT name, sql FROM sqlite_master WHERE type='table' AND sql IS NOT NULL")]
    for name, sql in tables:
        if name.startswith("sqlite_"):
            continue
        out.append(sql + ";\n")
        for row in con.execute(f'SELECT * FROM "{name}" LIMIT {rows_per_table}'):
            vals = ",".join("NULL" if v is None else repr(v) if isinstance(v, (int, float)) else
                            "'" + str(v).replace("'", "''") + "'" for v in row)
            out.append(f'INSERT INTO "{name}" VALUES({vals});\n')
    con.close()
    return "".join(out)


def profiler_seeds():
    with tempfile.TemporaryDirectory() as tmp:
        for p in sorted(ROOT.glob("tests/data/wild/nsys/*.sqlite.gz")):
            db = pathlib.Path(tmp) / p.name[:-3]
            db.write_bytes(read(p))
            put("profiler_db", p.name[:-3] + ".sql", sql_dump(db))
        shared = ROOT.parent / "shared/data/ahead"
        for p in sorted(shared.glob("Titan_Data/Bandwidth_Benchmarking/*.nvvp"))[:3]:
            put("profiler_db", p.stem + ".sql", sql_dump(p))
        # A minimal nsys export (the schema tests/trace_readers_test.cpp builds), as a script and
        # as the database file itself.
        script = (SQL_MARKER +
                  "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);\n"
                  "CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);\n"
                  "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3');\n"
                  "CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT, busLocation TEXT, totalMemory INTEGER);\n"
                  "INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA H200', '0000:06:00.0', 150109880320),"
                  " (1, 'NVIDIA H200', '0000:07:00.0', 150109880320);\n"
                  "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId "
                  "INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, "
                  "globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER, "
                  "srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER, "
                  "dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER);\n"
                  "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (1000, 3000, 0, 1, 7, 1, 1, 4096, 1, 0, 0, 2, 0, 1, 0,"
                  " 1, 0, 0), (4000, 5000, 0, 1, 7, 2, 1, 8192, 2, 0, 2, 1, 0, 1, 0, 1, 0, 0), (6000, 6500, 0, 1, 7,"
                  " 3, 1, 65536, 10, 0, 2, 2, 0, 1, 1, 2, 0, 0), (7000, 9000, 1, 2, 9, 4, 1, 2097152, 11, 0, 4, 4, 0,"
                  " 0, 1, 2, 1, 0);\n"
                  "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER, contextId "
                  "INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER, "
                  "graphNodeId INTEGER, memKind INTEGER);\n"
                  "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (500, 700, 1, 2, 9, 9, 1, 0, 1024, 0, 2);\n"
                  "CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT);\n"
                  "INSERT INTO ENUM_CUDA_MEM_KIND VALUES (0, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'),"
                  " (1, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable');\n")
        put("profiler_db", "nsys-minimal.sql", script)
        db = pathlib.Path(tmp) / "nsys-minimal.sqlite"
        con = sqlite3.connect(db)
        con.executescript(script[len(SQL_MARKER):])
        con.commit()
        con.close()
        put("profiler_db", "nsys-minimal.sqlite", db.read_bytes())


def copy_all(target, paths):
    for p in paths:
        if p.is_file() and p.stat().st_size <= MAX_SEED:
            folder = p.parent.parent.name if p.parent.name == "machine" else p.parent.name
            put(target, f"{folder}-{p.name}", p.read_bytes())


def nccl_tests_seeds():
    # The public nccl-tests outputs, and a short one with what they lack: a CUDA-graph run, an
    # mpirun --tag-output prefix and NCCL's environment line.
    copy_all("nccl_tests", sorted(ROOT.glob("tests/data/published/*/*.out")))
    put("nccl_tests", "two_ranks_graph.out", '# nccl-tests version 2.17.8 nccl-headers=22902 nccl-library=22902\n# Collective test starting: all_gather_perf\n# nThread 1 nGpus 1 minBytes 8 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 1\n#\n# Using devices\n#  Rank  0 Group  0 Pid 1000 on node1 device  0 [0000:10:00] NVIDIA H200\n#  Rank  1 Group  0 Pid 1001 on node1 device  1 [0000:11:00] NVIDIA H200\n#\n#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong\n#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)\n        1024           128     float    none      -1    12.50    0.08    0.04       0    12.40    0.08    0.04       0\n     1048576        131072     float    none      -1    16.10   65.13   32.57       0    16.00   65.53   32.77       0\n[1,0]<stdout>:node1:1000:1000 [0] NCCL INFO NCCL_ALGO set by environment to Ring\n')


def workload_seeds():
    specs = [
        "stencil2d:iters=10,periodic=1", "stencil2d:nx=64,ny=64,iters=3,mode=copy,gpus=0-3",
        "stencil2d:mode=host,gpus=0;2", "bfs-ring:gpus=0-3,flags-on=1", "bfs-ring:graph=chain,vertices=64",
        "nccl-allreduce:bytes=1MiB,algo=tree", "nccl-allgather:bytes=64KiB,channels=4", "nccl-reducescatter",
        "nccl-broadcast:root=3,bytes=1GiB", "nccl-reduce:root=1,chunk=128KiB", "nccl-alltoall:bytes=8KiB,iters=3",
        "scatter-gather:bytes=1MiB,pinned=0", "data-parallel:params=512MiB,batch=64MiB,steps=1,gpus=0-7",
        "model-parallel:layers=4,activation=64KiB,weights=16KiB,steps=2", "nccl-allreduce:sample=0.5,sample-seed=3",
    ]
    for i, s in enumerate(specs):
        put("workload", f"spec-{i:02d}.txt", s)


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    csv_seeds()
    kineto_seeds()
    profiler_seeds()
    copy_all("nccl_xml", sorted(ROOT.glob("tests/data/wild/nccl_topo/*.xml")) + sorted(ROOT.glob("tests/data/real/*/*.xml")))
    for p in sorted(ROOT.glob("tests/data/real/*/nccl_topo.xml.gz")):
        put("nccl_xml", f"{p.parent.name}-nccl_topo.xml", read(p))
    copy_all("smi_topo", sorted(ROOT.glob("tests/data/wild/smi_topo/*.txt")) + sorted(ROOT.glob("tests/data/real/*/machine/topo-m.txt")))
    nccl_tests_seeds()
    copy_all("node_yaml", sorted(ROOT.glob("configs/*.yaml")))
    copy_all("study_yaml", sorted(ROOT.glob("configs/studies/*.yaml")))
    workload_seeds()
    for d in sorted(OUT.iterdir()):
        files = list(d.iterdir())
        print(f"{d.name}: {len(files)} seeds, {sum(f.stat().st_size for f in files)} bytes")


if __name__ == "__main__":
    main()
