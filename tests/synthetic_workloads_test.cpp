// Synthetic workloads (synthetic/catalog.hpp): each runs a small configuration whose traffic
// is worked out by hand in the comment before the assertions. Traffic is summed here straight
// from the trace (bytes and operation counts per source -> destination), independently of the
// matrix module; exact (tolerance 0).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "core/error.hpp"
#include "test_util.hpp"
#include "topology/loader.hpp"
#include "synthetic/catalog.hpp"

namespace linkcast::synthetic {
namespace {

using trace::endpoint_index;
using ::testing::HasSubstr;

using trace::Trace;
using trace::OpKind;
using trace::Op;
using nccl::CollAlgo;
using nccl::kDefaultChannels;

struct Cell {
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
};
using Pairs = std::map<std::pair<std::string, std::string>, Cell>;

/// Bytes and ops per (src, dst) over the ops of `kind`.
Pairs pairs(const Trace& t, OpKind kind) {
  Pairs out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Op op = t.op(i);
    if (op.kind != kind) continue;
    Cell& c = out[{t.endpoint_name(op.src), t.endpoint_name(op.dst)}];
    c.bytes += op.bytes;
    ++c.count;
  }
  return out;
}

std::string gpu(int i) { return "gpu" + std::to_string(i); }

std::string err(const std::string& spec, const topology::Node* node = nullptr) {
  return test::error_of([&] { run_workload(spec, node); });
}

TEST(Workloads, StencilPeriodicOnEightGpusTouchesOnlyNeighboursAndTheWrap) {
  // 8 GPUs, 1024 x 1024 elements of 4 B, 10 iterations, periodic: each GPU stores its first row
  // into the GPU above and its last row into the GPU below (0 and 7 are neighbours), 1024 x 4 B
  // = 4 KiB per row: 10 x 4096 = 40960 bytes per direction per neighbour pair, in warp stores of
  // 32 x 4 B = 128 B: 320 per direction. Nothing else.
  const Trace t = run_workload("stencil2d:nx=1024,ny=1024,elem=4,iters=10,periodic=1", nullptr);
  const Pairs p = pairs(t, OpKind::access);
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) {
      const bool neighbours = j == (i + 1) % 8 || i == (j + 1) % 8;
      const auto it = p.find({gpu(i), gpu(j)});
      EXPECT_EQ(it == p.end() ? 0u : it->second.bytes, neighbours ? 40960u : 0u) << i << "->" << j;
      if (neighbours) {
        EXPECT_EQ(it->second.count, 320u);
      }
    }
  }
  EXPECT_EQ(t.size(), 8u * 2 * 320);
  // Stores: the issuer is the sender.
  for (std::size_t i = 0; i < t.size(); ++i) EXPECT_EQ(t.op(i).issuer, t.op(i).src);
}

TEST(Workloads, StencilWithoutWrapLeavesTheEndsOneNeighbour) {
  // 4 GPUs, 256 elements of 8 B per row, 3 iterations: rows of 2 KiB, 6144 B per direction for
  // 0-1, 1-2, 2-3 and nothing between 3 and 0.
  const Pairs p = pairs(run_workload("stencil2d:nx=256,ny=64,elem=8,iters=3,gpus=0-3", nullptr), OpKind::access);
  EXPECT_EQ(p.size(), 6u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(p.at({gpu(i), gpu(i + 1)}).bytes, 6144u);
    EXPECT_EQ(p.at({gpu(i + 1), gpu(i)}).bytes, 6144u);
  }
}

TEST(Workloads, StencilCopyModesGoDirectOrThroughTheHost) {
  // copy: one cudaMemcpyPeer per row and direction: 4 GPUs periodic, 5 iterations, 4 KiB rows:
  // 5 copies of 4096 B per neighbour direction.
  const Pairs direct =
      pairs(run_workload("stencil2d:mode=copy,periodic=1,iters=5,gpus=0-3", nullptr), OpKind::copy);
  EXPECT_EQ(direct.size(), 8u);
  EXPECT_EQ(direct.at({gpu(0), gpu(3)}).bytes, 5u * 4096);
  EXPECT_EQ(direct.at({gpu(0), gpu(3)}).count, 5u);
  // host: no peer access, each copy staged: every GPU sends its 2 rows per iteration to the host
  // and receives 2: 5 x 2 x 4096 = 40960 B each way, nothing GPU to GPU.
  const Pairs staged =
      pairs(run_workload("stencil2d:mode=host,periodic=1,iters=5,gpus=0-3", nullptr), OpKind::copy);
  EXPECT_EQ(staged.size(), 8u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(staged.at({gpu(i), "host"}).bytes, 40960u);
    EXPECT_EQ(staged.at({"host", gpu(i)}).bytes, 40960u);
    EXPECT_EQ(staged.at({"host", gpu(i)}).count, 10u);
  }
}

TEST(Workloads, BfsOnAChainPassesFlagsAroundTheRingAndOneEntryPerBoundary) {
  // A chain of 64 vertices on 4 GPUs (16 each), BFS from 0: 64 levels of one vertex, each with
  // 3 ring stages. Per stage every GPU reads its predecessor's flag (4 B) and its own flag-pointer
  // array (local, not recorded): prev -> i carries 64 x 3 x 4 = 768 B. The BFS crosses a block
  // boundary 3 times; each crossing puts one 8-byte entry in the ring buffer, read by the next
  // GPU: +8 B on 0->1, 1->2, 2->3.
  const Pairs p = pairs(run_workload("bfs-ring:graph=chain,vertices=64,gpus=0-3", nullptr), OpKind::access);
  EXPECT_EQ(p.size(), 4u);
  EXPECT_EQ(p.at({gpu(0), gpu(1)}).bytes, 776u);
  EXPECT_EQ(p.at({gpu(1), gpu(2)}).bytes, 776u);
  EXPECT_EQ(p.at({gpu(2), gpu(3)}).bytes, 776u);
  EXPECT_EQ(p.at({gpu(3), gpu(0)}).bytes, 768u);
  EXPECT_EQ(p.at({gpu(3), gpu(0)}).count, 192u);
  // flags-on=2: the only flag-pointer array is on GPU 2, so GPUs 0, 1 and 3 read 8 B from it at
  // every stage: 64 x 3 x 8 = 1536 B from GPU 2 to each of them (Snoopie's bug).
  const Pairs bug = pairs(run_workload("bfs-ring:graph=chain,vertices=64,gpus=0-3,flags-on=2", nullptr),
                          OpKind::access);
  EXPECT_EQ(bug.at({gpu(2), gpu(0)}).bytes, 1536u);
  EXPECT_EQ(bug.at({gpu(2), gpu(1)}).bytes, 1536u);
  EXPECT_EQ(bug.at({gpu(2), gpu(3)}).bytes, 1536u + 776u);
  EXPECT_EQ(bug.at({gpu(1), gpu(2)}).bytes, 776u);
}

TEST(Workloads, BfsOnARandomGraphOnlyTalksAroundTheRing) {
  // Whatever the graph, data and flags only go from a GPU to its ring successor.
  const Pairs p = pairs(run_workload("bfs-ring:vertices=2000,degree=4,seed=3,gpus=0-4", nullptr), OpKind::access);
  for (const auto& [key, cell] : p) {
    const int s = endpoint_index(key.first, "gpu"), d = endpoint_index(key.second, "gpu");
    EXPECT_EQ(d, (s + 1) % 5) << key.first << "->" << key.second;
  }
  EXPECT_EQ(p.size(), 5u);
}

TEST(Workloads, NcclWorkloadsRecordOneCallPerRankAndTheirAlgorithm) {
  // nccl-allreduce with 3 iterations on 4 GPUs: 12 records of 8 MiB on communicator "W".
  const WorkloadRun run = run_workload_full("nccl-allreduce:bytes=8MiB,iters=3,gpus=0-3,algo=tree", nullptr);
  EXPECT_EQ(run.trace.size(), 12u);
  for (std::size_t i = 0; i < run.trace.size(); ++i) {
    const Op op = run.trace.op(i);
    EXPECT_EQ(op.kind, OpKind::allreduce);
    EXPECT_EQ(op.bytes, 8u << 20);
    EXPECT_EQ(run.trace.comms[op.comm], "W");
    EXPECT_EQ(run.trace.group(op.group).size(), 4u);
  }
  EXPECT_EQ(run.collectives.algo, CollAlgo::tree);
  EXPECT_TRUE(run.collectives.algo_given);
  EXPECT_EQ(run.collectives.channels, kDefaultChannels);
  // Broadcast keeps its root.
  const Trace b = run_workload("nccl-broadcast:bytes=1MiB,root=2,gpus=0-3", nullptr);
  EXPECT_EQ(b.op(0).root, 2);
}

TEST(Workloads, ChannelsDefaultToWhatNcclsRingSearchFinds) {
  // The communicator's channels of NCCL's ring search, as `simulate` runs them (nccl::
  // default_channels): HGX H100 and DGX A100 24 (NCCL on the H200 testbeds: 24); Summit's six
  // GPUs 4. Until 2026-11-29 the workloads took 2 x the narrowest NVLink hop, capped at 32: 32,
  // 24 and 2, so `matrix --workload` split calls over other channels than `simulate`.
  const auto h100 = topology::load_node(test::config("hgx-h100.yaml"));
  EXPECT_EQ(run_workload_full("nccl-allreduce:bytes=1MiB", &h100).collectives.channels, 24);
  const auto a100 = topology::load_node(test::config("dgx-a100.yaml"));
  EXPECT_EQ(run_workload_full("nccl-allgather:bytes=1MiB", &a100).collectives.channels, 24);
  const auto summit = topology::load_node(test::config("summit.yaml"));
  EXPECT_EQ(run_workload_full("nccl-allreduce:bytes=1MiB", &summit).collectives.channels, 4);
}

TEST(Workloads, ScatterGatherUsesEachGpusOwnSocket) {
  // Summit: GPUs 0-2 on cpu0, 3-5 on cpu1. 1 MiB each way per GPU, 2 iterations: 2 MiB from
  // the GPU's socket to it and 2 MiB back, 2 copies each way.
  const auto summit = topology::load_node(test::config("summit.yaml"));
  const Pairs p = pairs(run_workload("scatter-gather:bytes=1MiB,iters=2", &summit), OpKind::copy);
  EXPECT_EQ(p.size(), 12u);
  for (int g = 0; g < 6; ++g) {
    const std::string cpu = g < 3 ? "cpu0" : "cpu1";
    EXPECT_EQ(p.at({cpu, gpu(g)}).bytes, 2u << 20) << g;
    EXPECT_EQ(p.at({gpu(g), cpu}).bytes, 2u << 20) << g;
    EXPECT_EQ(p.at({gpu(g), cpu}).count, 2u) << g;
  }
}

TEST(Workloads, DataParallelLoadsBatchesAndAllReducesByTree) {
  // 4 GPUs, 2 steps: each GPU loads 1 MiB per step from the host (2 MiB), and 8 allreduce
  // records (2 steps x 4 ranks) of 4 MiB with the tree algorithm by default.
  const WorkloadRun run = run_workload_full("data-parallel:params=4MiB,batch=1MiB,steps=2,gpus=0-3", nullptr);
  const Pairs copies = pairs(run.trace, OpKind::copy);
  for (int g = 0; g < 4; ++g) EXPECT_EQ(copies.at({"host", gpu(g)}).bytes, 2u << 20);
  const Pairs reduces = pairs(run.trace, OpKind::allreduce);
  for (int g = 0; g < 4; ++g) EXPECT_EQ(reduces.at({gpu(g), gpu(g)}).count, 2u);
  EXPECT_EQ(run.collectives.algo, CollAlgo::tree);
  EXPECT_FALSE(run.collectives.algo_given);
}

TEST(Workloads, ModelParallelMakesEveryGpuReadAndWriteGpuZero) {
  // 4 GPUs, 8 layers (2 per GPU: layers 0-1 on GPU 0 stay local), activations 64 KiB (A),
  // weights 16 KiB (W), one step. A GPU with k = 2 layers reads k(3A + 2W) = 2 x 229,376 =
  // 458,752 B from GPU 0 in 512-byte warp loads (896) and writes k(2A + W) = 294,912 B (576).
  const Pairs p = pairs(run_workload("model-parallel:layers=8,activation=64KiB,weights=16KiB,gpus=0-3", nullptr),
                        OpKind::access);
  EXPECT_EQ(p.size(), 6u);
  for (int g = 1; g < 4; ++g) {
    EXPECT_EQ(p.at({gpu(0), gpu(g)}).bytes, 458752u) << g;
    EXPECT_EQ(p.at({gpu(0), gpu(g)}).count, 896u) << g;
    EXPECT_EQ(p.at({gpu(g), gpu(0)}).bytes, 294912u) << g;
    EXPECT_EQ(p.at({gpu(g), gpu(0)}).count, 576u) << g;
  }
}

TEST(Workloads, SamplingRecordsAFractionOfRemoteAccesses) {
  // model-parallel as above moves 3 x (896 + 576) = 4416 warp accesses to or from GPU 0;
  // sample=0.5 keeps each with probability 1/2: mean 2208, sd 33; accept +-200.
  const WorkloadRun run = run_workload_full(
      "model-parallel:layers=8,activation=64KiB,weights=16KiB,gpus=0-3,sample=0.5,sample-seed=11", nullptr);
  EXPECT_EQ(run.stats.remote_accesses, 4416u);
  EXPECT_NEAR(static_cast<double>(run.trace.size()), 2208.0, 200.0);
}

TEST(Workloads, SpecErrorsNameTheKeyAndTheValidOnes) {
  EXPECT_EQ(err("stencil3d"),
            "--workload: unknown workload 'stencil3d' (did you mean 'stencil2d'?); workloads are stencil2d, bfs-ring, "
            "nccl-allreduce, nccl-allgather, nccl-reducescatter, nccl-broadcast, nccl-reduce, nccl-alltoall, "
            "scatter-gather, data-parallel, model-parallel");
  EXPECT_EQ(err("stencil2d:itres=3"),
            "workload 'stencil2d': unknown key 'itres' (did you mean 'iters'?); its keys are nx, ny, iters, elem, "
            "periodic, mode, gpus, sample, sample-seed");
  EXPECT_EQ(err("stencil2d:mode=peer"), "workload 'stencil2d': key 'mode': 'peer' is not one of p2p, copy or host");
  EXPECT_EQ(err("nccl-allreduce:gpus=0,2"),
            "workload 'nccl-allreduce': '2' is not key=value; separate keys with ',' and write GPU lists with ';' or "
            "'-' (gpus=0;2;4 or gpus=0-3)");
  EXPECT_EQ(err("nccl-allgather:bytes=1000,gpus=0-2"),
            "workload 'nccl-allgather': allgather: bytes=1000 does not split into 3 equal blocks of whole 4-byte "
            "elements; give a multiple of 12");
  EXPECT_EQ(err("nccl-allreduce:bytes=12 parsecs"),
            "workload 'nccl-allreduce': key 'bytes': unknown unit 'parsecs' in '12 parsecs'; use B, KB, MB, GB, TB, "
            "KiB, MiB, GiB or TiB");
  const auto summit = topology::load_node(test::config("summit.yaml"));
  EXPECT_EQ(err("scatter-gather:gpus=4-7", &summit),
            fmt::format("workload 'scatter-gather': key 'gpus': gpu6 is not a GPU of node 'summit' ({}); its GPUs are "
                        "gpu0, gpu1, gpu2, gpu3, gpu4, gpu5",
                        test::config("summit.yaml")));
  EXPECT_EQ(err("stencil2d:ny=4"), "workload 'stencil2d': key 'ny': 4 rows cannot be split across 8 GPUs; give ny >= 8");
  EXPECT_EQ(err("bfs-ring:flags-on=9,gpus=0-3"), "workload 'bfs-ring': key 'flags-on': 9 is out of range; use 0..3");
  // Buffers past a GPU's memory fail as cudaMalloc does: the node's 80 GiB on an HGX H100 (the
  // 150 GB gradient buffer after the 16 MiB batch), the largest GPU's 288 GB without a node.
  const auto hgx = topology::load_node(test::config("hgx-h100.yaml"));
  EXPECT_EQ(err("data-parallel:params=150GB", &hgx),
            fmt::format("workload 'data-parallel:params=150GB': cudaMalloc of 139.70 GiB at model.py:112 on gpu0: out of "
                        "memory (cudaErrorMemoryAllocation): the GPU holds 80 GiB (memory.capacity_gib of node "
                        "'hgx-h100', {}) and 16 MiB is allocated; lower the workload's sizes",
                        test::config("hgx-h100.yaml")));
  EXPECT_THAT(err("nccl-alltoall:bytes=200GB,iters=1"),
              ::testing::HasSubstr("cudaMalloc of 186.26 GiB at common.cu:846 on gpu0: out of memory "
                                   "(cudaErrorMemoryAllocation): the GPU holds 268.22 GiB (no node gives its memory: "
                                   "the most any GPU ships with, 288 GB (B300, MI355X)) and 186.26 GiB is allocated"));
}

TEST(Workloads, HelpListsEveryWorkloadAndKey) {
  const std::string help = workload_help();
  for (const WorkloadInfo& w : workload_catalog()) {
    EXPECT_THAT(help, HasSubstr("  " + w.name + "  ")) << w.name;
    for (const WorkloadKey& k : w.keys) EXPECT_THAT(help, HasSubstr(k.key + "=")) << k.key;
  }
}

}  // namespace
}  // namespace linkcast::synthetic
