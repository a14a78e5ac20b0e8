// Communication matrices (matrix/matrix.hpp) of every synthetic workload and of hand-written
// traces. Each test states the system and inputs; expected matrices are worked out by hand in
// the comments. Byte counts are exact (tolerance 0).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <map>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "matrix/matrix.hpp"
#include "test_util.hpp"
#include "topology/loader.hpp"
#include "synthetic/backend.hpp"
#include "trace/csv.hpp"
#include "synthetic/catalog.hpp"

namespace linkcast::matrix {
namespace {

using trace::OpKind;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using ::testing::StrEq;
using ::testing::ThrowsMessage;
constexpr std::uint64_t MiB = 1024 * 1024;

Report of_workload(const std::string& spec, const topology::Node* node = nullptr) {
  synthetic::WorkloadRun run = synthetic::run_workload_full(spec, node);
  Options o;
  o.collectives = run.collectives;
  o.node = node;
  return build(run.trace, o);
}

std::size_t idx(const Report& r, const std::string& name) {
  for (std::size_t i = 0; i < r.endpoints.size(); ++i)
    if (r.endpoints[i] == name) return i;
  ADD_FAILURE() << "no endpoint " << name;
  return 0;
}

std::uint64_t bytes(const Report& r, const std::string& a, const std::string& b, const Matrix* m = nullptr) {
  return (m ? *m : r.total).bytes_at(idx(r, a), idx(r, b));
}

const Matrix& type(const Report& r, CommType t) { return r.by_type[static_cast<std::size_t>(t)]; }

std::string gpu(std::size_t i) { return "gpu" + std::to_string(i); }

const Check& check(const Report& r, const std::string& name) {
  for (const Check& c : r.checks)
    if (c.name == name) return c;
  static const Check none{"(missing)", false, ""};
  ADD_FAILURE() << "no check " << name;
  return none;
}

void expect_all_ok(const Report& r) {
  for (const Check& c : r.checks) EXPECT_TRUE(c.ok) << c.name << ": " << c.detail;
}

TEST(Matrix, StencilOnEightGpusHasOnlyNeighboursAndTheWrap) {
  // The example: 8 GPUs, 1024 x 1024 elements of 4 B, 10 iterations, periodic. A 9 x 9
  // matrix, host first; only i -> i+-1 (mod 8) non-zero, each 10 x 1024 x 4 = 40960 B, all of
  // type peer-access; 2 directions x 8 GPUs x 320 warp stores = 5120 transfers.
  const Report r = of_workload("stencil2d:nx=1024,ny=1024,elem=4,iters=10,periodic=1");
  ASSERT_EQ(r.endpoints.size(), 9u);
  EXPECT_EQ(r.endpoints[0], "host");
  EXPECT_EQ(r.host_count, 1u);
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < 8; ++j) {
      const bool nb = j == (i + 1) % 8 || i == (j + 1) % 8;
      EXPECT_EQ(bytes(r, gpu(i), gpu(j)), nb ? 40960u : 0u) << i << "->" << j;
    }
  EXPECT_EQ(r.total.sent_bytes(0), 0u);
  EXPECT_EQ(r.total.received_bytes(0), 0u);
  EXPECT_EQ(type(r, CommType::peer_access).total_bytes(), 16u * 40960);
  EXPECT_EQ(r.total.total_count(), 5120u);
  expect_all_ok(r);
}

TEST(Matrix, StencilAttributesHalosToBothBuffersAndTheirLines) {
  // The buffers swap every iteration: even iterations (0, 2, .., 8) write 'a_new', odd ones 'a'.
  // 4 GPUs, 4 iterations, no wrap: 6 directed neighbour pairs x 4 KiB rows; per buffer 2
  // iterations: 6 x 2 x 4096 = 49152 B. Lines: 57 carries the rows sent up (3 pairs), 61 those
  // sent down: 3 x 4 x 4096 = 49152 B each. Each GPU issues its own stores.
  const Report r = of_workload("stencil2d:iters=4,gpus=0-3");
  std::map<std::string, std::uint64_t> per_object, per_line;
  for (const AttributionRow& a : r.objects) per_object[a.key] += a.bytes;
  for (const AttributionRow& a : r.lines) per_line[a.key] += a.bytes;
  EXPECT_EQ(per_object["a (stencil2d.cu:112)"], 49152u);
  EXPECT_EQ(per_object["a_new (stencil2d.cu:113)"], 49152u);
  EXPECT_EQ(per_line["stencil2d.cu:57"], 49152u);
  EXPECT_EQ(per_line["stencil2d.cu:61"], 49152u);
  // Device view: gpu0 and gpu3 send one row per iteration (16 KiB), gpu1 and gpu2 two (32 KiB).
  std::map<std::string, std::uint64_t> issued;
  for (const DeviceRow& d : r.devices) issued[d.device] += d.bytes;
  EXPECT_EQ(issued["gpu0"], 16384u);
  EXPECT_EQ(issued["gpu1"], 32768u);
  EXPECT_EQ(issued["gpu3"], 16384u);
  // An object lives on the GPU that received the store.
  for (const AttributionRow& a : r.objects) EXPECT_NE(a.owner, a.issuer);
}

TEST(Matrix, StencilThroughTheHostShowsBothLegsOnEachGpusSocket) {
  // Summit, GPUs 2 and 3 (cpu0 and cpu1), 2 iterations, no peer access: each row goes GPU ->
  // its socket -> the other GPU: gpu2 -> cpu0 -> gpu3 and gpu3 -> cpu1 -> gpu2, 2 x 4 KiB each.
  const auto summit = topology::load_node(test::config("summit.yaml"));
  const Report r = of_workload("stencil2d:mode=host,iters=2,gpus=2;3", &summit);
  const Matrix& m = type(r, CommType::copy_via_host);
  EXPECT_EQ(r.endpoints.size(), 8u);  // cpu0, cpu1, gpu0..gpu5
  EXPECT_EQ(bytes(r, "gpu2", "cpu0", &m), 8192u);
  EXPECT_EQ(bytes(r, "cpu0", "gpu3", &m), 8192u);
  EXPECT_EQ(bytes(r, "gpu3", "cpu1", &m), 8192u);
  EXPECT_EQ(bytes(r, "cpu1", "gpu2", &m), 8192u);
  EXPECT_EQ(bytes(r, "gpu2", "gpu3"), 0u);
  EXPECT_EQ(r.ops_by_type[static_cast<std::size_t>(CommType::copy_via_host)], 8u);
  EXPECT_EQ(type(r, CommType::copy).total_count(), 0u);
  expect_all_ok(r);
}

TEST(Matrix, RingAllreduceSendsTwiceNMinusOneOverNToTheSuccessor) {
  // 4 GPUs, 16 MiB, ring: each GPU sends 2 x 3/4 x 16 MiB = 24 MiB, all to its successor.
  const Report r = of_workload("nccl-allreduce:bytes=16MiB,gpus=0-3");
  const Matrix& m = type(r, CommType::collective);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(bytes(r, gpu(i), gpu(j), &m), j == (i + 1) % 4 ? 24 * MiB : 0u);
  expect_all_ok(r);
}

TEST(Matrix, TreeAllreduceIsAChainWithHalfAtTheEnds) {
  // 8 GPUs, 64 MiB, tree: the chain 0-1-..-7 carries 64 MiB each way per link, 2 x 7 x 64 MiB
  // in all; gpu0 and gpu7 send 64 MiB, the others 128 MiB.
  const Report r = of_workload("nccl-allreduce:bytes=64MiB,algo=tree");
  EXPECT_EQ(r.total.total_bytes(), 14 * 64 * MiB);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(r.total.sent_bytes(idx(r, gpu(i))), (i == 0 || i == 7) ? 64 * MiB : 128 * MiB) << i;
    for (std::size_t j = 0; j < 8; ++j)
      EXPECT_EQ(bytes(r, gpu(i), gpu(j)), (j + 1 == i || j == i + 1) ? 64 * MiB : 0u) << i << "->" << j;
  }
}

TEST(Matrix, OtherCollectivesDecomposeAsNcclDoes) {
  // 4 GPUs, 8 MiB. allgather/reducescatter: 3 blocks of 2 MiB to the successor (6 MiB).
  // broadcast from 1: 1 -> 2 -> 3 -> 0, 8 MiB per hop. reduce to 0: 1 -> 2 -> 3 -> 0.
  // alltoall: 2 MiB to every peer and 2 MiB kept (the diagonal).
  for (const char* name : {"allgather", "reducescatter"}) {
    const Report r = of_workload(fmt::format("nccl-{}:bytes=8MiB,gpus=0-3", name));
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(bytes(r, gpu(i), gpu((i + 1) % 4)), 6 * MiB) << name;
    EXPECT_EQ(r.total.total_bytes(), 24 * MiB) << name;
  }
  Report r = of_workload("nccl-broadcast:bytes=8MiB,root=1,gpus=0-3");
  EXPECT_EQ(bytes(r, "gpu1", "gpu2"), 8 * MiB);
  EXPECT_EQ(bytes(r, "gpu3", "gpu0"), 8 * MiB);
  EXPECT_EQ(bytes(r, "gpu0", "gpu1"), 0u);
  r = of_workload("nccl-reduce:bytes=8MiB,gpus=0-3");
  EXPECT_EQ(bytes(r, "gpu3", "gpu0"), 8 * MiB);
  EXPECT_EQ(bytes(r, "gpu0", "gpu1"), 0u);
  r = of_workload("nccl-alltoall:bytes=8MiB,gpus=0-3");
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(bytes(r, gpu(i), gpu(j)), 2 * MiB);
  expect_all_ok(r);
}

TEST(Matrix, CommunicatorTableFollowsMpisee) {
  // 3 allreduce calls of 4 MiB on "W" (4 GPUs, ring): calls 3, bytes 12 MiB, mpisee's bound
  // p x m = 4 x 4 MiB per call (48 MiB), moved 2(p-1)m = 24 MiB per call (72 MiB).
  const Report r = of_workload("nccl-allreduce:bytes=4MiB,iters=3,gpus=0-3");
  ASSERT_EQ(r.comms.size(), 1u);
  const CommRow& c = r.comms[0];
  EXPECT_EQ(c.name, "W");
  EXPECT_EQ(c.members, (std::vector<std::string>{"gpu0", "gpu1", "gpu2", "gpu3"}));
  ASSERT_EQ(c.ops.size(), 1u);
  EXPECT_EQ(c.ops[0].calls, 3u);
  EXPECT_EQ(c.ops[0].bytes, 12 * MiB);
  EXPECT_EQ(c.ops[0].lower_bound_bytes, 48 * MiB);
  EXPECT_EQ(c.ops[0].moved_bytes, 72 * MiB);
  EXPECT_TRUE(c.ops[0].complete);
  EXPECT_EQ(check(r, "collectives: volume >= mpisee lower bound").detail,
            "75497472 bytes moved between ranks >= 50331648 bytes lower bound");
}

/// One 8 MiB allreduce on communicator "W" (gpu0-3), every rank's record: a CSV trace to extend.
const std::string kOneAllreduceOnW =
    "kind,src,dst,bytes,group,comm\n"
    "allreduce,gpu0,gpu0,8388608,0-3,W\n"
    "allreduce,gpu1,gpu1,8388608,0-3,W\n"
    "allreduce,gpu2,gpu2,8388608,0-3,W\n"
    "allreduce,gpu3,gpu3,8388608,0-3,W\n";

TEST(Matrix, ChecksCatchMissingRecordsAndConflictingNames) {
  // Two allreduce calls of 8 MiB on "W" (gpu0-3, ring), but only gpu0 recorded the second.
  // Each record stands for 2 x 3/4 x 8 MiB = 12 MiB sent: 5 records move 60 MiB, below the
  // bound for 2 calls, 2 x 4 x 8 MiB = 64 MiB. A second communicator also named "W" has other
  // members (gpu4-5), so the names do not identify communicators.
  const std::string csv = kOneAllreduceOnW +
      "allreduce,gpu0,gpu0,8388608,0-3,W\n"
      "allreduce,gpu4,gpu4,1048576,4-5,W\n"
      "allreduce,gpu5,gpu5,1048576,4-5,W\n";
  const Report r = build(trace::parse_csv_trace(csv, "t.csv"), Options{});
  ASSERT_EQ(r.comms.size(), 2u);
  EXPECT_EQ(r.comms[0].ops[0].calls, 2u);
  EXPECT_FALSE(r.comms[0].ops[0].complete);
  EXPECT_FALSE(check(r, "collectives: every member recorded every call").ok);
  EXPECT_EQ(check(r, "collectives: every member recorded every call").detail,
            "allreduce on 'W': gpu1 recorded 1 of 2 calls; allreduce on 'W': gpu2 recorded 1 of 2 calls; "
            "allreduce on 'W': gpu3 recorded 1 of 2 calls");
  const Check& bound = check(r, "collectives: volume >= mpisee lower bound");
  EXPECT_FALSE(bound.ok);
  // The shortfall is the missing records': the detail says so (simulate fills them in).
  EXPECT_EQ(bound.detail, "allreduce on 'W': 62914560 bytes moved between ranks < lower bound 67108864; the members "
                          "that did not record every call (the check above) moved nothing in those calls");
  const Check& names = check(r, "communicator names agree across ranks");
  EXPECT_FALSE(names.ok);
  EXPECT_EQ(names.detail, "names used with different member lists: W");
}

/// An allreduce of `bytes` on the 4-rank ring `ring` over one channel, as a simulation hands a
/// call's share on one ring to Options::ran.
nccl::RingPart allreduce_part(std::uint64_t bytes, std::vector<int> ring) {
  nccl::CollectiveSpec spec;
  spec.kind = OpKind::allreduce;
  spec.nranks = 4;
  spec.bytes = bytes;
  spec.channels = 1;
  return {spec, std::move(ring)};
}

TEST(Matrix, CallsAsRunFollowTheRingsTheyRanOn) {
  // One 8 MiB allreduce on "W" (gpu0-3), every rank recorded, that ran half on the ring
  // 0 -> 1 -> 2 -> 3 and half on 0 -> 3 -> 2 -> 1 (4 MiB each). On a ring each rank sends
  // 2 x 3/4 of its share to its successor: 6 MiB along each ring, so gpu0 sends 6 MiB to gpu1
  // and 6 MiB to gpu3, nothing to gpu2. Decomposed by Options::collectives (one ring in rank
  // order) it sends all 12 MiB to gpu1.
  const std::string csv = kOneAllreduceOnW;
  const trace::Trace t = trace::parse_csv_trace(csv, "t.csv");
  const std::vector<std::size_t> records = {0, 1, 2, 3};
  const std::vector<nccl::RingPart> parts = {allreduce_part(4 * MiB, {0, 1, 2, 3}),
                                             allreduce_part(4 * MiB, {0, 3, 2, 1})};
  Options o;
  o.ran.push_back({records, parts});
  const Report r = build(t, o);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j)
      EXPECT_EQ(bytes(r, gpu(i), gpu(j)), (j == (i + 1) % 4 || i == (j + 1) % 4) ? 6 * MiB : 0u) << i << "->" << j;
  EXPECT_TRUE(r.unrecorded_ranks.empty());  // every member recorded the call
  expect_all_ok(r);
  const Report plain = build(t, Options{});
  EXPECT_EQ(bytes(plain, "gpu0", "gpu1"), 12 * MiB);
  EXPECT_EQ(bytes(plain, "gpu0", "gpu3"), 0u);
}

TEST(Matrix, CallsAsRunAddTheRanksTheTraceLacks) {
  // Two 8 MiB allreduces on "W" (gpu0-3) on the ring 0 -> 2 -> 1 -> 3, one channel: the first
  // recorded by every rank, the second only by gpu0 (as a simulation groups them: the k-th call
  // of each rank). As the simulation takes it, gpu1-3 made the second call too: every rank
  // sends 2 x 3/4 x 8 MiB = 12 MiB per call to its successor on the ring, 24 MiB in all, and the
  // ranks added sent 3 x 12 MiB = 36 MiB. The communicator table and the checks still say what
  // was recorded: 5 records moved 60 MiB, gpu1-3 recorded 1 of 2 calls.
  const std::string csv = kOneAllreduceOnW +
      "allreduce,gpu0,gpu0,8388608,0-3,W\n";
  const trace::Trace t = trace::parse_csv_trace(csv, "t.csv");
  const std::vector<std::size_t> first = {0, 1, 2, 3}, second = {4};
  const std::vector<nccl::RingPart> parts = {allreduce_part(8 * MiB, {0, 2, 1, 3})};
  Options o;
  o.ran.push_back({first, parts});
  o.ran.push_back({second, parts});
  const Report r = build(t, o);
  const std::map<std::size_t, std::size_t> successor = {{0, 2}, {2, 1}, {1, 3}, {3, 0}};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(r.total.sent_bytes(idx(r, gpu(i))), 24 * MiB) << i;
    EXPECT_EQ(bytes(r, gpu(i), gpu(successor.at(i))), 24 * MiB) << i;
  }
  EXPECT_EQ(r.unrecorded_ranks, (std::vector<std::string>{"gpu1 of W", "gpu2 of W", "gpu3 of W"}));
  EXPECT_EQ(r.unrecorded_calls, 1u);
  EXPECT_EQ(r.unrecorded_bytes, 36 * MiB);
  // The device view has what the matrices have: each GPU issued 24 MiB of collectives.
  for (const DeviceRow& d : r.devices) EXPECT_EQ(d.bytes, 24 * MiB) << d.device;
  EXPECT_EQ(r.devices.size(), 4u);
  ASSERT_EQ(r.comms.size(), 1u);
  EXPECT_EQ(r.comms[0].ops[0].moved_bytes, 60 * MiB);
  EXPECT_FALSE(check(r, "collectives: every member recorded every call").ok);
  // Without the calls as run: the records' own rows only (gpu1-3 sent 12 MiB each).
  const Report plain = build(t, Options{});
  EXPECT_EQ(plain.total.sent_bytes(idx(plain, "gpu1")), 12 * MiB);
  EXPECT_TRUE(plain.unrecorded_ranks.empty());
}

TEST(Matrix, SendsMustMatchReceivesPerPair) {
  // gpu0 sends 1000 B to gpu1 twice; gpu1 records one receive of 1000 B: the pair fails.
  // The matrix counts the sends (2000 B).
  const std::string csv =
      "kind,src,dst,bytes\n"
      "send,gpu0,gpu1,1000\n"
      "send,gpu0,gpu1,1000\n"
      "recv,gpu0,gpu1,1000\n";
  const Report r = build(trace::parse_csv_trace(csv, "p.csv"), Options{});
  EXPECT_EQ(bytes(r, "gpu0", "gpu1"), 2000u);
  const Check& c = check(r, "point-to-point: sent == received per pair");
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.detail, "gpu0 -> gpu1: sent 2000 B in 2, received 1000 B in 1");
}

TEST(Matrix, UnifiedMemoryAndZeroCopyAreTheirOwnTypes) {
  // GPU 0 reads 2 managed pages of 64 KiB first touched by the host (2 migrations host ->
  // gpu0), and reads 256 B of pinned host memory (zero-copy host -> gpu0).
  synthetic::BackendOptions one;
  one.gpu_count = 1;
  synthetic::Backend b(one);
  const synthetic::Address m = b.malloc_managed(128 * 1024, "u", "u.cu:1");
  const synthetic::Address h = b.malloc_host(4096, model::MemKind::pinned, "h", "u.cu:2");
  b.host_access(m, 128 * 1024, "u.cu:5");
  auto k = b.launch(0, "k");
  k.load_range(m, 128 * 1024, 512, k.line("u.cu:9"));
  k.load(h, 256, k.line("u.cu:10"));
  const Report r = build(b.trace(), Options{});
  EXPECT_EQ(bytes(r, "host", "gpu0", &type(r, CommType::unified_memory)), 128 * 1024u);
  EXPECT_EQ(type(r, CommType::unified_memory).total_count(), 2u);
  EXPECT_EQ(bytes(r, "host", "gpu0", &type(r, CommType::zero_copy)), 256u);
  // Migrations are issued by the faulting GPU.
  for (const DeviceRow& d : r.devices) EXPECT_EQ(d.device, "gpu0");
}

TEST(Matrix, ScatterGatherIsAnLShapeOnEachSocket) {
  // Summit, 6 GPUs, 4 MiB each way: cpu0 <-> gpu0..2 and cpu1 <-> gpu3..5, 4 MiB each.
  const auto summit = topology::load_node(test::config("summit.yaml"));
  const Report r = of_workload("scatter-gather:bytes=4MiB", &summit);
  for (std::size_t g = 0; g < 6; ++g) {
    const std::string cpu = g < 3 ? "cpu0" : "cpu1", other = g < 3 ? "cpu1" : "cpu0";
    EXPECT_EQ(bytes(r, cpu, gpu(g)), 4 * MiB);
    EXPECT_EQ(bytes(r, gpu(g), cpu), 4 * MiB);
    EXPECT_EQ(bytes(r, other, gpu(g)), 0u);
  }
  EXPECT_EQ(r.total.total_bytes(), 48 * MiB);
  EXPECT_EQ(r.endpoints[0], "cpu0");
  EXPECT_EQ(r.endpoints[1], "cpu1");
}

TEST(Matrix, BfsRingWithTheFlagBugShowsTheExtraColumn) {
  // As in the workload test: chain of 64 vertices, 4 GPUs, flag pointers on GPU 2: the ring
  // 0->1->2->3->0 (768 B of flags, +8 B of data on 0->1, 1->2, 2->3) plus 1536 B from gpu2 to
  // each other GPU.
  const Report r = of_workload("bfs-ring:graph=chain,vertices=64,gpus=0-3,flags-on=2");
  EXPECT_EQ(bytes(r, "gpu0", "gpu1"), 776u);
  EXPECT_EQ(bytes(r, "gpu1", "gpu2"), 776u);
  EXPECT_EQ(bytes(r, "gpu2", "gpu3"), 776u + 1536u);
  EXPECT_EQ(bytes(r, "gpu3", "gpu0"), 768u);
  EXPECT_EQ(bytes(r, "gpu2", "gpu0"), 1536u);
  EXPECT_EQ(bytes(r, "gpu2", "gpu1"), 1536u);
  EXPECT_EQ(bytes(r, "gpu0", "gpu2"), 0u);
  // Snoopie's object view names the culprit: flag_ptrs on gpu2, read by three GPUs.
  std::set<std::string> readers;
  for (const AttributionRow& a : r.objects)
    if (a.key == "flag_ptrs (bfs_ring.cu:93)") {
      EXPECT_EQ(a.owner, "gpu2");
      readers.insert(a.issuer);
    }
  EXPECT_EQ(readers, (std::set<std::string>{"gpu0", "gpu1", "gpu3"}));
}

TEST(Matrix, DataParallelVersusModelParallel) {
  // data-parallel, 4 GPUs, 2 steps, 4 MiB gradients by tree, 1 MiB batches: host -> gpu 2 MiB
  // each (copy); chain i <-> i+1 with 2 x 4 MiB each way (collective).
  Report r = of_workload("data-parallel:params=4MiB,batch=1MiB,steps=2,gpus=0-3");
  for (std::size_t g = 0; g < 4; ++g) EXPECT_EQ(bytes(r, "host", gpu(g), &type(r, CommType::copy)), 2 * MiB);
  for (std::size_t g = 0; g + 1 < 4; ++g) {
    EXPECT_EQ(bytes(r, gpu(g), gpu(g + 1), &type(r, CommType::collective)), 8 * MiB);
    EXPECT_EQ(bytes(r, gpu(g + 1), gpu(g), &type(r, CommType::collective)), 8 * MiB);
  }
  EXPECT_EQ(bytes(r, "gpu0", "gpu3"), 0u);
  // model-parallel, 4 GPUs, 8 layers, A = 64 KiB, W = 16 KiB: gpu0 -> g 458752 B, g -> gpu0
  // 294912 B for g = 1..3, nothing between the others.
  r = of_workload("model-parallel:layers=8,activation=64KiB,weights=16KiB,gpus=0-3");
  for (std::size_t g = 1; g < 4; ++g) {
    EXPECT_EQ(bytes(r, "gpu0", gpu(g)), 458752u);
    EXPECT_EQ(bytes(r, gpu(g), "gpu0"), 294912u);
    for (std::size_t h = 1; h < 4; ++h) EXPECT_EQ(bytes(r, gpu(g), gpu(h)), 0u);
  }
}

TEST(Matrix, HostResolvesToEachGpusSocketOnANode) {
  // A recorded trace that did not know the socket: on Summit gpu4's "host" is cpu1, gpu1's cpu0.
  const std::string csv =
      "kind,src,dst,bytes\n"
      "copy,host,gpu4,100\n"
      "copy,gpu1,host,200\n";
  const auto summit = topology::load_node(test::config("summit.yaml"));
  Options o;
  o.node = &summit;
  const Report r = build(trace::parse_csv_trace(csv, "h.csv"), o);
  EXPECT_EQ(bytes(r, "cpu1", "gpu4"), 100u);
  EXPECT_EQ(bytes(r, "gpu1", "cpu0"), 200u);
  // Without the node, "host" is one endpoint, listed first.
  const Report plain = build(trace::parse_csv_trace(csv, "h.csv"), Options{});
  EXPECT_EQ(plain.endpoints, (std::vector<std::string>{"host", "gpu1", "gpu4"}));
}

TEST(Matrix, TracesOnANodeTakeTheNodesChannelCount) {
  // A DGX A100 allgather of 8 MiB: the workload uses 24 channels (12 NVLinks x 2). Read as a
  // plain trace with the node, the matrix finds the same 24 for the group's GPUs: each GPU sends
  // 7 blocks of 1 MiB split over 24 channels in 4096-byte grains (43,691 B -> 45,056 B chunks:
  // 23 full and one short), 7 x 24 = 168 transfers per GPU, 1344 in all, as with the workload.
  const auto a100 = topology::load_node(test::config("dgx-a100.yaml"));
  synthetic::WorkloadRun run = synthetic::run_workload_full("nccl-allgather:bytes=8MiB", &a100);
  Options o;
  o.node = &a100;
  const Report from_trace = build(run.trace, o);
  EXPECT_TRUE(from_trace.node_channels);
  EXPECT_EQ(from_trace.total.total_count(), 1344u);
  EXPECT_EQ(of_workload("nccl-allgather:bytes=8MiB", &a100).total.total_count(), 1344u);
  // Without the node: 2 channels, 7 x 2 = 14 transfers per GPU.
  EXPECT_EQ(build(run.trace, Options{}).total.total_count(), 112u);
}

TEST(Matrix, RejectsACollectiveRecordedOutsideItsGroup) {
  const std::string csv = "kind,src,dst,bytes,group\nallreduce,gpu5,gpu5,1024,0-3\n";
  EXPECT_THAT([&] { build(trace::parse_csv_trace(csv, "bad.csv"), Options{}); },
              ThrowsMessage<InputError>(StrEq(
                  "bad.csv: record 1 (line 2): allreduce recorded on gpu5 whose group (gpu0;gpu1;gpu2;gpu3) does not "
                  "include it; a collective is recorded once per member, with src = dst = that member")));
}

TEST(Matrix, RendersJsonWithEndpointsBytesAndCountFirst) {
  const Report r = of_workload("stencil2d:iters=1,gpus=0-1,nx=32");
  std::ostringstream out;
  render_json(r, out);
  const std::string j = out.str();
  EXPECT_THAT(j, StartsWith("{\n \"endpoints\": ["));
  EXPECT_THAT(j, HasSubstr("\"bytes\": [\n  [0,0,0],\n  [0,0,128],\n  [0,128,0]\n ],\n \"count\": [\n  [0,0,0],\n  "
                           "[0,0,1],\n  [0,1,0]\n ]"));
}

TEST(Matrix, RendersEveryViewAsTableAndCsv) {
  const Report r = of_workload("nccl-allreduce:bytes=1MiB,gpus=0-1");
  for (View v : {View::type, View::object, View::line, View::comm, View::device}) {
    std::ostringstream table, csv;
    render_table(r, v, Metric::bytes, table);
    render_csv(r, v, csv);
    EXPECT_THAT(table.str(), HasSubstr("Checks:"));
    EXPECT_GT(csv.str().size(), 20u);
  }
  std::ostringstream csv;
  render_csv(r, View::type, csv);
  // 2 GPUs, ring, 1 MiB: each sends 2 x 1/2 x 1 MiB = 1 MiB to the other, in 2 channels x 2
  // steps = 4 transfers (one 1 MiB loop of 256 KiB chunks).
  EXPECT_EQ(csv.str(),
            "type,src,dst,bytes,count\n"
            "all,gpu0,gpu1,1048576,4\n"
            "all,gpu1,gpu0,1048576,4\n"
            "collective,gpu0,gpu1,1048576,4\n"
            "collective,gpu1,gpu0,1048576,4\n");
}

}  // namespace
}  // namespace linkcast::matrix
