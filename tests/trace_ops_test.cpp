// trace: what one operation is to the models and to the communicator tables. Each test states
// the operation, the path class it takes on the node, the expected value and why.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <tuple>

#include "trace/category.hpp"
#include "trace/csv.hpp"
#include "trace/index.hpp"
#include "trace/select.hpp"
#include "trace/trace.hpp"

namespace linkcast::trace {
namespace {

using model::Access;
using model::PathClass;

Op op(OpKind kind, std::uint64_t bytes, std::uint16_t src = 0, std::uint16_t dst = 1) {
  Op o;
  o.kind = kind;
  o.bytes = bytes;
  o.src = src;
  o.dst = dst;
  return o;
}

TEST(TraceNames, NcclKernelsAreKnownInEveryFormTheReadersMeet) {
  // Kineto and nsys name them plainly, nvprof may keep the return type or the mangled name.
  EXPECT_TRUE(is_nccl_kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
  EXPECT_TRUE(is_nccl_kernel("ncclKernel_AllGather_RING_LL_Sum_int8_t"));
  EXPECT_TRUE(is_nccl_kernel("void ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"));
  EXPECT_TRUE(is_nccl_kernel("_Z22ncclDevKernel_SendRecvP11ncclDevCommmP8ncclWork"));
  EXPECT_TRUE(is_nccl_kernel("NCCLKERNEL_x"));
  EXPECT_FALSE(is_nccl_kernel("void at::native::vectorized_elementwise_kernel<4, ...>"));
  EXPECT_FALSE(is_nccl_kernel("_Z5helloPf"));
  EXPECT_FALSE(is_nccl_kernel("ncc"));
  EXPECT_FALSE(is_nccl_kernel(""));
}

TEST(TransferOf, ACopyMovesItsBytesWithItsPathsNaturalAccess) {
  // 1 MiB host-to-device: the GPU's copy engine reads host memory (DMA reads); device-to-host
  // and peer copies push with writes. No fixed cost: the caller adds its L + O.
  const model::Transfer h2d = transfer_of(op(OpKind::copy, 1 << 20), PathClass::h2d, false);
  EXPECT_EQ(h2d.bytes, 1048576.0);
  EXPECT_EQ(h2d.access, Access::read);
  EXPECT_FALSE(h2d.pageable);
  EXPECT_EQ(h2d.request_bytes, 0.0);
  EXPECT_EQ(h2d.fixed_ns, 0.0);
  EXPECT_FALSE(h2d.write_only);
  EXPECT_EQ(transfer_of(op(OpKind::copy, 1 << 20), PathClass::d2h, false).access, Access::write);
  EXPECT_EQ(transfer_of(op(OpKind::copy, 1 << 20), PathClass::p2p, false).access, Access::write);
  // Whether the host end is pageable is the caller's rule; the transfer carries it.
  EXPECT_TRUE(transfer_of(op(OpKind::copy, 1 << 20), PathClass::d2h, true).pageable);
}

TEST(TransferOf, ADeviceAccessReadsOrWritesByWhoIssuedItInWarpRequests) {
  // gpu1 loads 4 KiB from gpu0's memory (issuer = the destination): reads, in 128-byte requests
  // (one warp's coalesced 32 x 4 B), whatever the path's natural access.
  Op load = op(OpKind::access, 4096, 0, 1);
  load.issuer = 1;
  const model::Transfer l = transfer_of(load, PathClass::p2p, false);
  EXPECT_EQ(l.access, Access::read);
  EXPECT_EQ(l.request_bytes, 128.0);
  // gpu0 stores into gpu1 (issuer = the source): writes.
  Op store = op(OpKind::access, 4096, 0, 1);
  store.issuer = 0;
  EXPECT_EQ(transfer_of(store, PathClass::h2d, false).access, Access::write);
  // A 64-byte access is one request of 64 bytes.
  Op small = op(OpKind::access, 64, 0, 1);
  small.issuer = 1;
  EXPECT_EQ(transfer_of(small, PathClass::p2p, false).request_bytes, 64.0);
  // Without a recorded issuer an access is taken as a load.
  EXPECT_EQ(transfer_of(op(OpKind::access, 4096), PathClass::p2p, false).access, Access::read);
}

TEST(TransferOf, AMemsetOnlyWrites) {
  // cudaMemset of 1 MiB within a GPU writes its memory once (a copy reads and writes it).
  const model::Transfer t = transfer_of(op(OpKind::memset, 1 << 20, 1, 1), PathClass::d2d, false);
  EXPECT_TRUE(t.write_only);
  EXPECT_EQ(t.access, Access::write);
}

TEST(CommunicatorKey, NameAndMembersTogether) {
  // Ranks of one communicator share the key; an unnamed communicator is told apart by its
  // members, and a name reused for other members is another communicator.
  Trace t;
  const std::uint16_t g0 = t.endpoint("gpu0"), g1 = t.endpoint("gpu1"), g2 = t.endpoint("gpu2");
  const std::uint32_t a = t.add_group({g0, g1}), b = t.add_group({g0, g2});
  const std::uint32_t w = t.comms.intern("W");
  Op x = op(OpKind::allreduce, 8, g0, g0), y = op(OpKind::allreduce, 8, g1, g1);
  x.group = y.group = a;
  x.comm = y.comm = w;
  EXPECT_EQ(communicator_key(x), communicator_key(y));
  Op reused = x;
  reused.group = b;
  EXPECT_NE(communicator_key(reused), communicator_key(x));
  Op unnamed_a = x, unnamed_b = reused;
  unnamed_a.comm = unnamed_b.comm = 0;
  EXPECT_NE(communicator_key(unnamed_a), communicator_key(unnamed_b));
  EXPECT_NE(communicator_key(unnamed_a), communicator_key(x));
}

TEST(CollectiveCalls, TheKthRecordOfACommunicatorOnEachRankIsCallK) {
  // Two ranks of communicator {gpu0, gpu1}: rank 1's records come later in the trace (a second
  // file) and a memset and a collective of another communicator sit between them. Calls: k = 0
  // {0, 5}, k = 1 {1, 6}, then the other communicator's {3}; a collective without a group is in
  // no call.
  Trace t;
  const std::uint16_t g0 = t.endpoint("gpu0"), g1 = t.endpoint("gpu1"), g2 = t.endpoint("gpu2");
  const std::uint32_t pair = t.add_group({g0, g1}), other = t.add_group({g0, g2});
  auto coll = [&](std::uint16_t rank, std::uint32_t group, std::uint64_t bytes) {
    Op o = op(OpKind::allreduce, bytes, rank, rank);
    o.group = group;
    t.push(o);
  };
  coll(g0, pair, 8);     // 0
  coll(g0, pair, 16);    // 1
  t.push(op(OpKind::memset, 8, g0, g0));  // 2
  coll(g0, other, 8);    // 3
  coll(g1, 0, 8);        // 4: no group
  coll(g1, pair, 8);     // 5
  coll(g1, pair, 16);    // 6
  const std::vector<std::vector<std::size_t>> expected = {{0, 5}, {1, 6}, {3}};
  EXPECT_EQ(collective_calls(t), expected);
}

TEST(DataMovement, KeepsTheTransfersOfAnApplicationInOrderAndHandsOverTheRest) {
  // An application trace: a runtime call launching a copy, a kernel, a memset, a second copy. Its
  // data movement is the copy, the memset and the copy, in that order, with their sizes and
  // streams, and no launch link or kernel record (they point at operations left out).
  Trace t;
  Op call;
  call.kind = OpKind::runtime;
  call.name = t.op_names.intern("cudaMemcpyAsync");
  t.push(call);
  auto push = [&](OpKind kind, std::uint64_t bytes, std::uint32_t stream) {
    Op op;
    op.kind = kind;
    op.src = t.endpoint("gpu0");
    op.dst = t.endpoint("gpu1");
    op.bytes = bytes;
    op.stream = stream;
    op.launch = 0;
    t.push(op);
  };
  push(OpKind::copy, 100, 7);
  push(OpKind::kernel, 0, 7);
  push(OpKind::memset, 200, 8);
  push(OpKind::copy, 300, 9);
  ASSERT_TRUE(t.has_application());
  const Trace lent = data_movement(t);  // a copy: t stays whole
  EXPECT_EQ(t.size(), 5u);
  Trace moved = data_movement(std::move(t));
  for (const Trace* d : {&lent, static_cast<const Trace*>(&moved)}) {
    EXPECT_FALSE(d->has_application());
    EXPECT_THAT(d->kinds(), ::testing::ElementsAre(OpKind::copy, OpKind::memset, OpKind::copy));
    EXPECT_THAT(d->bytes(), ::testing::ElementsAre(100u, 200u, 300u));
    EXPECT_THAT(d->streams(), ::testing::ElementsAre(7u, 8u, 9u));
    // The launch links go with the calls: the column holds nothing again.
    EXPECT_TRUE(d->launches().uniform());
    for (std::size_t i = 0; i < d->size(); ++i) EXPECT_EQ(d->launches()[i], kNoIndex);
  }
  // A trace of data movement alone is handed back as it is: the same columns, not a copy.
  const std::uint64_t* before = moved.bytes().data();
  const Trace again = data_movement(std::move(moved));
  EXPECT_EQ(again.bytes().data(), before);
}

// Which transfers ran beside a kernel (trace::mark_transfers_beside_compute, done by
// data_movement before it drops the kernels). System: a kernel on gpu0 from 100 to 200 ns.
// Expected: a copy on gpu0 from 150 to 160 ns and a copy into gpu0 from 50 to 101 ns overlap it;
// a copy on gpu0 from 200 to 210 ns (the kernel has ended), a copy on gpu1 and an allreduce on
// gpu0 (a collective's time is its own kernel's) do not; the flags stay on the kept operations.
TEST(DataMovement, MarksTheTransfersThatRanBesideAKernelOnTheirGpu) {
  const Trace t = parse_csv_trace("kind,src,dst,bytes,start_ns,duration_ns,group\n"
                                  "kernel,gpu0,gpu0,0,100,100,\n"
                                  "copy,gpu0,gpu0,64,150,10,\n"
                                  "copy,cpu0,gpu0,64,50,51,\n"
                                  "copy,gpu0,gpu0,64,200,10,\n"
                                  "copy,gpu1,gpu1,64,150,10,\n"
                                  "allreduce,gpu0,gpu0,64,150,10,0-1\n",
                                  "t.csv");
  const Trace d = data_movement(t);
  ASSERT_EQ(d.size(), 5u);
  std::vector<bool> beside;
  for (std::size_t i = 0; i < d.size(); ++i) beside.push_back((d.flags()[i] & kBesideCompute) != 0);
  EXPECT_THAT(beside, ::testing::ElementsAre(true, true, false, false, false));
  // Times at the file's limit (INT64_MAX ns) do not overflow: a kernel from 0 to the end of time
  // overlaps a copy that starts just before it ends.
  const Trace edge = data_movement(parse_csv_trace("kind,src,dst,bytes,start_ns,duration_ns\n"
                                                   "kernel,gpu0,gpu0,0,0,9223372036854775807\n"
                                                   "copy,gpu0,gpu0,64,9223372036854775806,9223372036854775807\n",
                                                   "t.csv"));
  ASSERT_EQ(edge.size(), 1u);
  EXPECT_EQ(edge.flags()[0] & kBesideCompute, kBesideCompute);
}

// A copy trace names no object, communicator, kernel or launching call: those columns take no
// memory until an operation has one (trace/column.hpp). System: 1,000 copies pushed one by one,
// then one with an object. Expected: 35 bytes a row (kind 1, src/dst 4, memory kinds 2, bytes,
// start and duration 24, stream 4) exactly, as every column is reserved to 1,000 rows; then 4
// bytes a row more for the object ids, and every earlier row still reads "no object".
TEST(SparseColumns, AColumnNoOperationUsesTakesNoMemoryAndFillsInOnFirstUse) {
  Trace t;
  t.reserve(1000);
  Op o;
  o.src = t.endpoint("cpu0");
  o.dst = t.endpoint("gpu0");
  for (int i = 0; i < 999; ++i) t.push(o);
  EXPECT_EQ(t.memory_bytes(), 1000u * 35u);
  o.object = t.objects.intern("weights");
  t.push(o);
  EXPECT_EQ(t.memory_bytes(), 1000u * (35u + 4u));
  EXPECT_EQ(t.op(0).object, 0u);
  EXPECT_EQ(t.op(998).object, 0u);
  EXPECT_EQ(t.objects[t.op(999).object], "weights");
  EXPECT_EQ(t.op(999).launch, kNoIndex);
  EXPECT_EQ(t.op(999).issuer, kNoEndpoint);
}

// A reader that collects its rows in file order and then sorts them (the Kineto reader) gets, from
// order_by_start, the rows in start order, ties in file order, every column moved with its row,
// and launch links pointing at their calls' new positions.
TEST(Trace, OrderByStartMovesEveryColumnAndRemapsLaunchLinks) {
  Trace t;
  const std::uint16_t host = t.endpoint("host"), gpu = t.endpoint("gpu0");
  Op call;  // record 0 in file order, start 30
  call.kind = OpKind::runtime;
  call.src = call.dst = host;
  call.start_ns = 30;
  call.duration_ns = 5;
  call.thread = t.thread_names.intern("1/1");
  call.name = t.op_names.intern("cudaLaunchKernel");
  t.push(call);
  Op kernel;  // record 1, start 40, launched by record 0
  kernel.kind = OpKind::kernel;
  kernel.src = kernel.dst = gpu;
  kernel.start_ns = 40;
  kernel.duration_ns = 100;
  kernel.stream = 7;
  kernel.launch = 0;
  t.push(kernel);
  Op copy;  // record 2, start 10: first after sorting
  copy.kind = OpKind::copy;
  copy.src = host;
  copy.dst = gpu;
  copy.bytes = 4096;
  copy.start_ns = 10;
  copy.duration_ns = 2;
  t.push(copy);
  Op late_call = call;  // record 3, start 30 like record 0: stays after it
  late_call.duration_ns = 6;
  t.push(late_call);
  t.set_kernel(1, t.add_kernel_info(KernelInfo{}));
  t.order_by_start();
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t.op(0).kind, OpKind::copy);
  EXPECT_EQ(t.op(0).bytes, 4096u);
  EXPECT_EQ(t.op(1).duration_ns, 5);  // the first call of the tie
  EXPECT_EQ(t.op(2).duration_ns, 6);
  EXPECT_EQ(t.op(1).thread, call.thread);
  const Op k = t.op(3);
  EXPECT_EQ(k.kind, OpKind::kernel);
  EXPECT_EQ(k.stream, 7u);
  EXPECT_EQ(k.launch, 1u);  // its call moved from record 0 to record 1
  EXPECT_EQ(k.kernel, 0u);
  EXPECT_EQ(t.op(0).launch, kNoIndex);
}

/// A trace of n operations of which about `distinct_share` have a size of their own; the others
/// repeat a few keys (kinds, endpoints, memory kinds, issuers and collective groups varied).
Trace mixed_trace(std::size_t n, double distinct_share, std::uint64_t seed) {
  Trace t;
  const std::uint16_t host = t.endpoint("cpu0"), g0 = t.endpoint("gpu0"), g1 = t.endpoint("gpu1");
  const std::uint32_t pair_group = t.add_group({g0, g1});
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> share(0.0, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    Op o;
    switch (rng() % 6) {
      case 0: o = op(OpKind::copy, 0, host, g0); o.src_mem = model::MemKind::pageable; break;
      case 1: o = op(OpKind::copy, 0, g1, host); o.dst_mem = model::MemKind::pinned; break;
      case 2: o = op(OpKind::copy, 0, g0, g1); break;
      case 3: o = op(OpKind::memset, 0, g0, g0); break;
      case 4: o = op(OpKind::access, 0, g0, g1); o.issuer = rng() % 2 ? g0 : g1; break;
      default: o = op(OpKind::allreduce, 0, g0, g0); o.group = pair_group; break;
    }
    o.bytes = share(rng) < distinct_share ? (std::uint64_t{1} << 40) + i : std::uint64_t{1} << (rng() % 4);
    o.duration_ns = 1000;
    t.push(o);
  }
  return t;
}

TEST(TraceIndex, GroupsOperationsByTheirWholeKeyInOrderOfFirstUse) {
  // Whether most operations have their own size (the index then tells them apart without a table)
  // or few do, the groups are those of a plain map from the key to its first operation. 600,000
  // operations make three chunks of the passes that run on the machine's cores (categories, the
  // sieve's counts and its marks), so threads share the sieve's words.
  for (const double distinct_share : {0.0, 0.2, 0.6, 0.9, 1.0})
    for (const std::size_t n :
         {std::size_t{1}, std::size_t{37}, std::size_t{5000}, std::size_t{70000}, std::size_t{600000}}) {
      if (n == 600000 && distinct_share != 0.6 && distinct_share != 1.0) continue;
      const Trace t = mixed_trace(n, distinct_share, n + static_cast<std::uint64_t>(distinct_share * 100));
      const TraceIndex index(t);
      using Key = std::tuple<OpKind, Category, model::MemKind, model::MemKind, std::uint16_t, std::uint16_t,
                             std::uint16_t, std::uint32_t, std::uint64_t>;
      std::map<Key, std::uint32_t> group_by_key;
      std::vector<std::uint32_t> group_of, first, count;
      for (std::size_t i = 0; i < t.size(); ++i) {
        const Key key{t.kinds()[i], categorize(t, i), t.src_mems()[i], t.dst_mems()[i], t.srcs()[i], t.dsts()[i],
                      t.issuers()[i], t.group_ids()[i], t.bytes()[i]};
        const auto [it, added] = group_by_key.emplace(key, static_cast<std::uint32_t>(first.size()));
        if (added) {
          first.push_back(static_cast<std::uint32_t>(i));
          count.push_back(0);
        }
        group_of.push_back(it->second);
        ++count[it->second];
      }
      const std::string what = fmt::format("{} ops, {} distinct", n, distinct_share);
      EXPECT_EQ(index.group_of, group_of) << what;
      EXPECT_EQ(index.group_first, first) << what;
      EXPECT_EQ(index.group_count, count) << what;
    }
}

}  // namespace
}  // namespace linkcast::trace
