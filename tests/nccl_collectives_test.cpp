// NCCL collectives decomposed into peer transfers (nccl/collectives.hpp). Every expected
// value below is computed by hand from the algorithm; byte counts are exact (tolerance 0).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "nccl/collectives.hpp"
#include "test_util.hpp"
#include "topology/loader.hpp"

namespace linkcast::nccl {
namespace {

using trace::OpKind;
using ::testing::StrEq;
using ::testing::ThrowsMessage;

constexpr std::uint64_t MiB = 1024 * 1024;

CollectiveSpec spec(OpKind kind, int n, std::uint64_t bytes, CollAlgo algo = CollAlgo::ring, int channels = 2) {
  CollectiveConfig c;
  c.algo = algo;
  c.channels = channels;
  return c.spec(kind, n, bytes);
}

std::uint64_t at(const std::vector<std::uint64_t>& m, int n, int i, int j) {
  return m[static_cast<std::size_t>(i * n + j)];
}

/// Every dependency precedes its dependant, and every step moves data.
void expect_well_formed(const Decomposition& d) {
  for (std::size_t i = 0; i < d.steps.size(); ++i) {
    EXPECT_GT(d.steps[i].bytes, 0u) << "step " << i;
    for (const std::uint32_t dep : d.deps_of(i)) EXPECT_LT(dep, i) << "step " << i;
  }
}

TEST(Collectives, RingAllreduceEachRankSendsTwiceNMinusOneOverNOfTheBuffer) {
  // 8 ranks, 64 MiB, 2 channels, NCCL's 2 MiB ring chunk (512 KiB x ALLREDUCE_CHUNKSTEPS 4):
  // a loop covers 2 channels x 8 chunks x 2 MiB = 32 MiB, so 2 loops of equal 2 MiB chunks.
  // Each rank sends 2(n-1) = 14 chunks per loop and channel: 14 x 2 MiB x 2 x 2 = 112 MiB
  // = 2 x 7/8 x 64 MiB, all to its ring successor.
  const Decomposition d = decompose(spec(OpKind::allreduce, 8, 64 * MiB));
  EXPECT_EQ(d.spec.chunk_bytes, 2 * MiB);
  EXPECT_EQ(d.spec.channels, 2);
  const auto sent = d.sent_bytes();
  for (int r = 0; r < 8; ++r) EXPECT_EQ(sent[static_cast<std::size_t>(r)], 112 * MiB) << "rank " << r;
  const auto pairs = d.pair_bytes();
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(at(pairs, 8, i, j), j == (i + 1) % 8 ? 112 * MiB : 0u) << i << "->" << j;
  EXPECT_EQ(d.steps.size(), 8u * 14 * 2 * 2);
  expect_well_formed(d);
}

TEST(Collectives, RingAllreduceStepsFollowTheRingSchedule) {
  // 3 ranks, 1 channel, a 3 x 4096-byte buffer: one loop, chunks of 4096 B. Rank r's step j
  // sends chunk (r - j - 1) mod 3 to r+1; from step 1 on it needs rank r-1's step j-1 (the data
  // it forwards) and its own step j-1 (program order).
  const Decomposition d = decompose(spec(OpKind::allreduce, 3, 3 * 4096, CollAlgo::ring, 1));
  ASSERT_EQ(d.steps.size(), 3u * 4);
  // Emission order: step-major, rank-minor: index = j*3 + r.
  for (std::uint32_t j = 0; j < 4; ++j) {
    for (std::uint32_t r = 0; r < 3; ++r) {
      const std::size_t i = j * 3 + r;
      const CollStep& s = d.steps[i];
      EXPECT_EQ(s.src, r);
      EXPECT_EQ(s.dst, (r + 1) % 3);
      EXPECT_EQ(s.step, j);
      EXPECT_EQ(s.bytes, 4096u);
      const auto deps = d.deps_of(i);
      if (j == 0) {
        EXPECT_TRUE(deps.empty());
      } else {
        const std::vector<std::uint32_t> got(deps.begin(), deps.end());
        std::vector<std::uint32_t> want = {(j - 1) * 3 + (r + 2) % 3, (j - 1) * 3 + r};
        std::sort(want.begin(), want.end());
        EXPECT_EQ(got, want) << "rank " << r << " step " << j;
      }
    }
  }
}

TEST(Collectives, RingAllreduceTotalIsExactForBuffersThatDoNotDivideEvenly) {
  // 1,000,000 bytes on 4 ranks and 2 channels: 8 chunks of 125,000 B rounded up to NCCL's
  // 4096-byte grain (126,976 B), so the last chunk is short. Whatever the split, each chunk is
  // sent 2(n-1) = 6 times: 6 x 1,000,000 bytes in all.
  const Decomposition d = decompose(spec(OpKind::allreduce, 4, 1000000));
  EXPECT_EQ(d.inter_rank_bytes(), 6u * 1000000);
  expect_well_formed(d);
}

TEST(Collectives, TreeAllreduceIsAChainWhoseEndsSendHalf) {
  // Inside a node NCCL's tree is the chain 0-1-...-7 (Snoopie sec. 5.3): reduce up (i -> i-1)
  // and broadcast down (i -> i+1), S each way per link: 2(n-1)S = 14 x 64 MiB in all; ranks 0
  // and 7 send S, the others 2S.
  const Decomposition d = decompose(spec(OpKind::allreduce, 8, 64 * MiB, CollAlgo::tree));
  // 64 MiB / (2 channels x 512 KiB) = 64 chunks per channel >= depth(7) x 8: no halving.
  EXPECT_EQ(d.spec.chunk_bytes, 512 * 1024u);
  const auto pairs = d.pair_bytes();
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      EXPECT_EQ(at(pairs, 8, i, j), (j == i - 1 || j == i + 1) ? 64 * MiB : 0u) << i << "->" << j;
  const auto sent = d.sent_bytes();
  EXPECT_EQ(sent[0], 64 * MiB);
  EXPECT_EQ(sent[7], 64 * MiB);
  for (int r = 1; r < 7; ++r) EXPECT_EQ(sent[static_cast<std::size_t>(r)], 128 * MiB);
  EXPECT_EQ(d.inter_rank_bytes(), 14 * 64 * MiB);
  expect_well_formed(d);
}

TEST(Collectives, TreeAllreduceSplitsTheBufferEvenlyOverItsChannels) {
  // NCCL 2.28.9 (scheduleCollTasksToPlan, runTreeSplit): 13 MiB on 2 ranks and 24 channels gives
  // each channel 13 MiB / 24 = 554.7 KiB, rounded up to 8 KiB cells (16 KiB of traffic, two a
  // byte): 560 KiB, run as a 512 KiB chunk and a 48 KiB one; the last channel takes the rest,
  // 13 MiB - 23 x 560 KiB = 432 KiB. Dealt loop by loop as NCCL 2.18 did, 26 chunks of 512 KiB
  // went two each to channels 0 and 1 and one to the others: a call of 13 MiB took as long as one
  // of 24 MiB (2 x H200, recorded 65-67 us at 8 MiB and 89-97 us at 16 MiB).
  const Decomposition d = decompose(spec(OpKind::allreduce, 2, 13 * MiB, CollAlgo::tree, 24));
  std::vector<std::uint64_t> up(24, 0), chunks(24, 0);
  for (const auto& st : d.steps)
    if (st.src == 1 && st.bytes > 0) {  // reduce up, 1 -> 0
      up[st.channel] += st.bytes;
      ++chunks[st.channel];
    }
  for (std::uint32_t c = 0; c < 23; ++c) {
    EXPECT_EQ(up[c], 560 * 1024u) << c;
    EXPECT_EQ(chunks[c], 2u) << c;
  }
  EXPECT_EQ(up[23], 13 * MiB - 23 * 560 * 1024u);
  EXPECT_EQ(chunks[23], 1u);
  expect_well_formed(d);
}

TEST(Collectives, TreeBroadcastDownNeedsTheRootToHaveReduced) {
  // 3 ranks, 1 channel, one chunk: up 2->1 (hop 0), 1->0 (hop 1); down 0->1 (hop 2) needs 1->0,
  // 1->2 (hop 3) needs 0->1.
  const Decomposition d = decompose(spec(OpKind::allreduce, 3, 4096, CollAlgo::tree, 1));
  ASSERT_EQ(d.steps.size(), 4u);
  EXPECT_EQ(d.steps[0].src, 2u);
  EXPECT_EQ(d.steps[1].src, 1u);
  EXPECT_EQ(d.steps[2].src, 0u);
  EXPECT_EQ(d.steps[3].src, 1u);
  EXPECT_EQ(d.steps[3].dst, 2u);
  EXPECT_EQ(std::vector<std::uint32_t>(d.deps_of(2).begin(), d.deps_of(2).end()), std::vector<std::uint32_t>{1});
  EXPECT_EQ(std::vector<std::uint32_t>(d.deps_of(3).begin(), d.deps_of(3).end()), std::vector<std::uint32_t>{2});
}

TEST(Collectives, AllgatherAndReducescatterSendNMinusOneBlocks) {
  // bytes counts allgather's output (reducescatter's input): 8 MiB on 4 ranks = 2 MiB blocks.
  // Each rank forwards n-1 = 3 blocks to its successor: 6 MiB.
  for (OpKind k : {OpKind::allgather, OpKind::reducescatter}) {
    const Decomposition d = decompose(spec(k, 4, 8 * MiB));
    const auto pairs = d.pair_bytes();
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        EXPECT_EQ(at(pairs, 4, i, j), j == (i + 1) % 4 ? 6 * MiB : 0u) << to_string(k) << " " << i << "->" << j;
    expect_well_formed(d);
  }
}

TEST(Collectives, BroadcastAndReduceRunAChainFromAndToTheRoot) {
  // Broadcast from rank 2 of 4: 2 -> 3 -> 0 -> 1, the whole buffer on each hop.
  CollectiveSpec b = spec(OpKind::broadcast, 4, 3 * MiB);
  b.root = 2;
  auto pairs = decompose(b).pair_bytes();
  EXPECT_EQ(at(pairs, 4, 2, 3), 3 * MiB);
  EXPECT_EQ(at(pairs, 4, 3, 0), 3 * MiB);
  EXPECT_EQ(at(pairs, 4, 0, 1), 3 * MiB);
  EXPECT_EQ(at(pairs, 4, 1, 2), 0u);
  // Reduce to rank 0 of 4: 1 -> 2 -> 3 -> 0.
  CollectiveSpec r = spec(OpKind::reduce, 4, 3 * MiB, CollAlgo::tree);
  pairs = decompose(r).pair_bytes();
  EXPECT_EQ(at(pairs, 4, 1, 2), 3 * MiB);
  EXPECT_EQ(at(pairs, 4, 2, 3), 3 * MiB);
  EXPECT_EQ(at(pairs, 4, 3, 0), 3 * MiB);
  EXPECT_EQ(at(pairs, 4, 0, 1), 0u);
}

TEST(Collectives, AlltoallSendsOneBlockToEveryPeerAndKeepsItsOwn) {
  // 4 MiB send buffer per rank on 4 ranks: 1 MiB to each peer (2 P2P chunks of 512 KiB), and
  // the rank's own 1 MiB block copied locally (the diagonal).
  const Decomposition d = decompose(spec(OpKind::alltoall, 4, 4 * MiB));
  const auto pairs = d.pair_bytes();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(at(pairs, 4, i, j), MiB) << i << "->" << j;
  EXPECT_EQ(d.steps.size(), 4u * (1 + 3 * 2));
  EXPECT_EQ(d.inter_rank_bytes(), 12 * MiB);
  expect_well_formed(d);
}

TEST(Collectives, SmallCallsRunOnFewerChannelsAsNcclDoes) {
  // getAlgoInfo drops a channel while bytes < channels x 512 threads x 64 = channels x 32 KiB.
  EXPECT_EQ(effective_channels(spec(OpKind::allreduce, 8, 64 * 1024, CollAlgo::ring, 2)), 2);
  EXPECT_EQ(effective_channels(spec(OpKind::allreduce, 8, 64 * 1024 - 4, CollAlgo::ring, 2)), 1);
  EXPECT_EQ(effective_channels(spec(OpKind::allreduce, 8, 1 * MiB, CollAlgo::ring, 32)), 32);
  EXPECT_EQ(effective_channels(spec(OpKind::allreduce, 8, 512 * 1024, CollAlgo::ring, 32)), 16);
  // Tree/Simple counts 512 threads too (comm->maxThreads[TREE][SIMPLE] = NCCL_SIMPLE_MAX_NTHREADS;
  // its 4 extra warps are added after the channels are chosen): 64 KiB keeps 2 channels.
  EXPECT_EQ(effective_channels(spec(OpKind::allreduce, 8, 64 * 1024, CollAlgo::tree, 2)), 2);
  // LL: 512 threads x 8 bytes, x nRanks on a ring (the 2-GPU logs' "threadThresholds 8/8/64 |
  // 16/8/64"): a 2-rank ring keeps 24 channels down to 24 x 8 KiB = 192 KiB, where Simple's rule
  // had 6; a tree down to 24 x 4 KiB. LL128: 640 x 8 = 5 KiB a channel.
  CollectiveSpec ll = spec(OpKind::allreduce, 2, 192 * 1024, CollAlgo::ring, 24);
  ll.proto = Proto::ll;
  EXPECT_EQ(effective_channels(ll), 24);
  ll.bytes = 192 * 1024 - 4;
  EXPECT_EQ(effective_channels(ll), 23);
  ll.algo = CollAlgo::tree;
  ll.bytes = 96 * 1024;
  EXPECT_EQ(effective_channels(ll), 24);
  CollectiveSpec ll128 = spec(OpKind::allreduce, 2, 120 * 1024, CollAlgo::ring, 24);
  ll128.proto = Proto::ll128;
  EXPECT_EQ(effective_channels(ll128), 24);
  ll128.bytes = 120 * 1024 - 4;
  EXPECT_EQ(effective_channels(ll128), 23);
}

TEST(Collectives, TreeSimpleChunkIsOneStepWhateverTheSize) {
  // NCCL 2.28.9's calcCollChunking (src/enqueue.cc) halves the chunk for CollNet, NVLS and
  // tree/LL128 but not for tree/Simple: one step, 512 KiB, for a 1 MiB call on 8 ranks and 2
  // channels as for a 1 GiB one (older NCCLs halved it down to 64 KiB here, depth x 8 chunks).
  EXPECT_EQ(default_chunk_bytes(spec(OpKind::allreduce, 8, MiB, CollAlgo::tree)), 512 * 1024u);
  EXPECT_EQ(default_chunk_bytes(spec(OpKind::allreduce, 8, 1024 * MiB, CollAlgo::tree)), 512 * 1024u);
  EXPECT_EQ(default_chunk_bytes(spec(OpKind::broadcast, 8, MiB)), 512 * 1024u);
  EXPECT_EQ(default_chunk_bytes(spec(OpKind::allgather, 8, MiB)), 2 * MiB);
}

TEST(Collectives, MeetsMpiseeLowerBoundsForEveryKindAndSize) {
  // mpisee's bounds (appendix A) with m the per-rank buffer; reduce and alltoall exclude the
  // part that stays on its GPU. p >= 2, so NCCL's volumes are at least the bounds.
  for (OpKind k : {OpKind::allreduce, OpKind::allgather, OpKind::reducescatter, OpKind::broadcast, OpKind::reduce,
                   OpKind::alltoall}) {
    for (int n : {2, 3, 8}) {
      for (std::uint64_t bytes : {std::uint64_t{24} * 1024, 24 * MiB + 96}) {
        for (CollAlgo a : {CollAlgo::ring, CollAlgo::tree}) {
          if (a == CollAlgo::tree && (k == OpKind::allgather || k == OpKind::reducescatter || k == OpKind::alltoall))
            continue;
          const Decomposition d = decompose(spec(k, n, bytes, a));
          EXPECT_GE(d.inter_rank_bytes(), inter_rank_lower_bound_bytes(k, n, bytes))
              << to_string(k) << " n=" << n << " bytes=" << bytes << " " << to_string(a);
          expect_well_formed(d);
        }
      }
    }
  }
  // The bounds themselves: p = 4, 4 MiB.
  EXPECT_EQ(mpisee_lower_bound_bytes(OpKind::broadcast, 4, 4 * MiB), 12 * MiB);
  EXPECT_EQ(mpisee_lower_bound_bytes(OpKind::allreduce, 4, 4 * MiB), 16 * MiB);
  EXPECT_EQ(mpisee_lower_bound_bytes(OpKind::allgather, 4, 4 * MiB), 4 * MiB);
  EXPECT_EQ(mpisee_lower_bound_bytes(OpKind::alltoall, 4, 4 * MiB), 16 * MiB);
  EXPECT_EQ(inter_rank_lower_bound_bytes(OpKind::alltoall, 4, 4 * MiB), 12 * MiB);
  EXPECT_EQ(inter_rank_lower_bound_bytes(OpKind::reduce, 4, 4 * MiB), 12 * MiB);
}

TEST(Collectives, PairTotalsAreTheDecompositionsSumsWithoutItsSteps) {
  // pair_totals walks decompose's schedule but keeps only per-pair sums: for every kind,
  // algorithm, rank count, a size that leaves a partial last loop and a custom chunk, its bytes
  // and transfer counts equal the steps' sums exactly (tolerance 0), and it refuses what
  // decompose refuses with the same message.
  for (OpKind k : {OpKind::allreduce, OpKind::allgather, OpKind::reducescatter, OpKind::broadcast, OpKind::reduce,
                   OpKind::alltoall}) {
    for (int n : {1, 2, 3, 8}) {
      for (std::uint64_t bytes : {std::uint64_t{0}, std::uint64_t{24} * 1024, 24 * MiB + 96 * 8, 300 * MiB}) {
        for (CollAlgo a : {CollAlgo::ring, CollAlgo::tree}) {
          if (a == CollAlgo::tree && per_rank_block(k)) continue;
          CollectiveSpec s = spec(k, n, bytes, a, 3);
          s.chunk_bytes = bytes > 100 * MiB ? 3 * MiB : 0;
          const Decomposition d = decompose(s);
          const PairTotals t = pair_totals(s);
          std::vector<std::uint64_t> count(static_cast<std::size_t>(n * n), 0);
          for (const CollStep& step : d.steps) ++count[step.src * static_cast<std::size_t>(n) + step.dst];
          const std::string what = fmt::format("{} n={} bytes={} {}", to_string(k), n, bytes, to_string(a));
          EXPECT_EQ(t.bytes, d.pair_bytes()) << what;
          EXPECT_EQ(t.count, count) << what;
          EXPECT_EQ(t.sent_bytes(), d.sent_bytes()) << what;
        }
      }
    }
  }
  CollectiveSpec tiny_chunks = spec(OpKind::allreduce, 8, 1024 * MiB);
  tiny_chunks.chunk_bytes = 64;
  EXPECT_THAT([&] { (void)pair_totals(tiny_chunks); },
              ThrowsMessage<InputError>(::testing::HasSubstr("more than the limit of 16000000; give a larger chunk")));
}

TEST(Collectives, RejectsWhatNcclCannotDoWithTheFix) {
  EXPECT_THAT([] { decompose(spec(OpKind::allgather, 4, 4 * MiB, CollAlgo::tree)); },
              ThrowsMessage<InputError>(StrEq("allgather: NCCL runs allgather with the ring algorithm only (its tree "
                                              "is for allreduce, broadcast and reduce); use algo=ring")));
  EXPECT_THAT([] { decompose(spec(OpKind::alltoall, 3, 1000)); },
              ThrowsMessage<InputError>(StrEq("alltoall: bytes=1000 does not split into 3 equal blocks of whole "
                                              "4-byte elements; give a multiple of 12")));
  CollectiveSpec b = spec(OpKind::broadcast, 4, MiB);
  b.root = 4;
  EXPECT_THAT([&] { decompose(b); },
              ThrowsMessage<InputError>(StrEq("broadcast: root 4 is not a rank of the 4-rank communicator; use 0..3")));
  CollectiveSpec tiny = spec(OpKind::allreduce, 8, 1024 * MiB);
  tiny.chunk_bytes = 4;
  EXPECT_THROW(decompose(tiny, 1000), InputError);
}

}  // namespace
}  // namespace linkcast::nccl

namespace linkcast::nccl {
namespace {

TEST(CollectiveBlocks, PrimitivesCountTheirLoadsAndStoresAsNcclsKernelsRunThem) {
  using trace::OpKind;
  // Ring allreduce on 4 ranks (runRing, src/device/all_reduce.h): send, recvReduceSend x2,
  // recvReduceCopySend, recvCopySend x2, then recv: loads + stores per element 2 3 3 4 3 3 | 2.
  const std::vector<int> allreduce = {2, 3, 3, 4, 3, 3};
  // recvReduceCopySend: the chunk received and the rank's own loaded, their sum stored in the
  // user's buffer and into the peer's.
  EXPECT_EQ(send_memory_ops(OpKind::allreduce, 4, 3), (MemoryOps{2, 1, 1}));
  for (std::uint32_t j = 0; j < allreduce.size(); ++j) {
    EXPECT_EQ(send_memory_ops(OpKind::allreduce, 4, j).total(), allreduce[j]) << j;
    EXPECT_EQ(ends_chunk(OpKind::allreduce, 4, j), j == 5) << j;
  }
  EXPECT_EQ(final_receive_memory_ops(OpKind::allreduce), (MemoryOps{1, 1, 0}));
  // Out-of-place all-gather: copySend, recvCopySend (3), then recv (2); reduce-scatter: send (2),
  // recvReduceSend (3), then recvReduceCopy (3).
  EXPECT_EQ(send_memory_ops(OpKind::allgather, 4, 0), (MemoryOps{1, 1, 1}));
  EXPECT_EQ(send_memory_ops(OpKind::reducescatter, 4, 0), (MemoryOps{1, 0, 1}));
  EXPECT_EQ(send_memory_ops(OpKind::reducescatter, 4, 1), (MemoryOps{2, 0, 1}));
  EXPECT_EQ(final_receive_memory_ops(OpKind::reducescatter), (MemoryOps{2, 1, 0}));
  EXPECT_TRUE(ends_chunk(OpKind::allgather, 2, 0));
  // Alltoall (src/device/sendrecv.h): every piece a send (2) that its receiver copies out (2).
  EXPECT_EQ(send_memory_ops(OpKind::alltoall, 4, 0), (MemoryOps{1, 0, 1}));
  EXPECT_TRUE(ends_chunk(OpKind::alltoall, 4, 0));
  EXPECT_EQ(final_receive_memory_ops(OpKind::alltoall), (MemoryOps{1, 1, 0}));
  // No block model for reduce.
  EXPECT_EQ(send_memory_ops(OpKind::reduce, 4, 0).total(), 0);
}

TEST(CollectiveBlocks, LlLoadsTheL2MakesFreeAreThoseOfTheUsersInputBesideALine) {
  using trace::OpKind;
  // Ring allreduce on 4 ranks: send, recvReduceSend x2 and recvReduceCopySend load the input
  // (one free load each where the L2 holds it); recvCopySend x2 and the final recv load only
  // lines.
  const std::vector<int> allreduce = {1, 1, 1, 1, 0, 0};
  for (std::uint32_t j = 0; j < allreduce.size(); ++j)
    EXPECT_EQ(ll_l2_free_loads(OpKind::allreduce, 4, j), allreduce[j]) << j;
  EXPECT_EQ(ll_l2_free_final_receive_loads(OpKind::allreduce), 0);
  // Reduce-scatter: send and recvReduceSend, then recvReduceCopy: every primitive loads the input.
  for (std::uint32_t j = 0; j < 3; ++j) EXPECT_EQ(ll_l2_free_loads(OpKind::reducescatter, 4, j), 1) << j;
  EXPECT_EQ(ll_l2_free_final_receive_loads(OpKind::reducescatter), 1);
  // All-gather out of place: copySend keeps its load (bound by its two stores: 8.5 GB/s with its
  // buffers in the L2, 8.0 without, tests/data/real/h200-2gpu-nccl-l2), recvCopySend has none.
  for (std::uint32_t j = 0; j < 3; ++j) EXPECT_EQ(ll_l2_free_loads(OpKind::allgather, 4, j), 0) << j;
  // Broadcast: the root's send; the chain's recvCopySend loads only lines.
  EXPECT_EQ(ll_l2_free_loads(OpKind::broadcast, 4, 0), 1);
  EXPECT_EQ(ll_l2_free_loads(OpKind::broadcast, 4, 1), 0);
  // The user buffers a rank touches: allreduce in place (the buffer), all-gather and
  // reduce-scatter out of place (the buffer and one rank's block), alltoall both buffers.
  EXPECT_EQ(user_buffer_bytes(OpKind::allreduce, 4, 64), 64u);
  EXPECT_EQ(user_buffer_bytes(OpKind::allgather, 4, 64), 80u);
  EXPECT_EQ(user_buffer_bytes(OpKind::reducescatter, 2, 64), 96u);
  EXPECT_EQ(user_buffer_bytes(OpKind::alltoall, 4, 64), 128u);
}

TEST(CollectiveBlocks, LlConnectionBuffersHoldTheLinesARankReceivesUpToTheirSize) {
  using trace::OpKind;
  constexpr std::uint64_t kMiB = 1 << 20;
  // A ring allreduce of 32 MiB on 2 ranks and 24 channels receives 2 x 16 MiB, 64 MiB of 16-byte
  // lines of 8 data bytes: more than 24 connections' 512 KiB LL buffers hold, so 12 MiB.
  EXPECT_EQ(ll_connection_bytes(OpKind::allreduce, CollAlgo::ring, 2, 32 * kMiB, 24), 12 * kMiB);
  // A reduce-scatter of 1 MiB on 2 ranks receives 512 KiB: 1 MiB of lines, within the buffers.
  EXPECT_EQ(ll_connection_bytes(OpKind::reducescatter, CollAlgo::ring, 2, kMiB, 24), kMiB);
  // All-gather on 4 ranks receives 3/4 of the bytes; one channel holds at most 512 KiB.
  EXPECT_EQ(ll_connection_bytes(OpKind::allgather, CollAlgo::ring, 4, 64 * 1024, 1), 96u * 1024);
  EXPECT_EQ(ll_connection_bytes(OpKind::allgather, CollAlgo::ring, 4, 64 * kMiB, 1), 512u * 1024);
  // A chain's middle ranks receive from both neighbours: two connections a channel.
  EXPECT_EQ(ll_connection_bytes(OpKind::allreduce, CollAlgo::tree, 4, 64 * kMiB, 2), 2 * kMiB);
  EXPECT_EQ(ll_connection_bytes(OpKind::allreduce, CollAlgo::tree, 2, 64 * kMiB, 2), kMiB);
  // No peers, nothing received.
  EXPECT_EQ(ll_connection_bytes(OpKind::allreduce, CollAlgo::ring, 1, kMiB, 24), 0u);
}

TEST(CollectiveBlocks, P2pStripingFollowsNcclsPartRule) {
  // 2 ranks, 24 collective channels -> 32 p2p channels, 16 per peer (16 x 2 fit 32); a 2 MiB
  // block (Simple) takes all 16 (one per 64 KiB up to 16), a 512 MiB block doubles them to 32
  // (parts over 16 MiB); 4 ranks: 8 per peer, 3 peers -> 24 channels.
  EXPECT_EQ(alltoall_send_channels(2, 4ull << 20, 24), 16);
  EXPECT_EQ(alltoall_send_channels(2, 1ull << 30, 24), 32);
  EXPECT_EQ(alltoall_send_channels(4, 32ull << 20, 24), 24);
  // A send in LL (at most 512 KiB a peer) is cut in parts of its step / 8, 8 KiB: 128 KiB to the
  // peer takes 16 channels. A small alltoall keeps the communicator's channels (sends take no
  // collective algorithm, so getAlgoInfo does not thin them): 32 KiB to each of 3 peers, 4 parts
  // each, 12 channels.
  EXPECT_EQ(alltoall_send_channels(2, 256ull << 10, 24), 16);
  EXPECT_EQ(alltoall_send_channels(4, 128ull << 10, 24), 12);
  EXPECT_EQ(alltoall_send_channels(2, 16ull << 10, 24), 1);
}

}  // namespace
}  // namespace linkcast::nccl

#include "nccl/blocks.hpp"

namespace linkcast::nccl {
namespace {

TEST(CollectiveBlocks, BlocksQueueingForTheGpusMemoryKeepTheShareMeanValueAnalysisGives) {
  // One block, or nothing shared: its alone rate.
  EXPECT_DOUBLE_EQ(shared_block_speed(1, 3.0, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(shared_block_speed(24, 3.0, 0.0), 1.0);
  // Two blocks, 3 ns of own work and 1 ns at the shared memory a unit. With one block the
  // memory holds 1/4 of a block on average; the second finds it there, waits 1.25 ns a unit, and
  // the two finish 2 / 4.25 units a ns: each 16/17 of its alone rate (1/4 unit a ns).
  EXPECT_NEAR(shared_block_speed(2, 3.0, 1.0), 16.0 / 17.0, 1e-12);
  // Many blocks: the memory saturates, the blocks together finish 1 unit a ns (1 / shared):
  // each 4/100 of its alone rate at 100 blocks, within 1% (the queue is never quite full).
  EXPECT_NEAR(shared_block_speed(100, 3.0, 1.0), 0.04, 0.0004);
  // Between the two, each added block keeps less, and the blocks together still gain until the
  // memory saturates (about 4 blocks' worth of their alone rate).
  double before = 1.0, together = 1.0;
  for (int blocks = 2; blocks <= 16; ++blocks) {
    const double share = shared_block_speed(blocks, 3.0, 1.0);
    EXPECT_LT(share, before) << blocks;
    EXPECT_GT(share * blocks, together) << blocks;
    EXPECT_LT(share * blocks, 4.0) << blocks;
    before = share;
    together = share * blocks;
  }
}

TEST(CollectiveBlocks, APrimitiveCostsItsBlockItsOperationsAtTheirAloneRates) {
  // H200 Simple (configs/testbed-h200-2gpu.yaml): 139.5 GB/s of loads, 55.8 of stores, 64.3 of
  // peer stores. recvReduceCopySend (2 loads, a store, a peer store) takes 2/139.5 + 1/55.8 +
  // 1/64.3 ns a byte; the ceiling 1476 GB/s of loads and stores takes 4/1476 of it.
  const BlockRates rates{139.5, 55.8, 64.3, 1476};
  ASSERT_TRUE(rates.known());
  EXPECT_NEAR(rates.alone_ns_per_byte({2, 1, 1}), 2 / 139.5 + 1 / 55.8 + 1 / 64.3, 1e-12);
  EXPECT_NEAR(rates.shared_ns_per_byte({2, 1, 1}), 4 / 1476.0, 1e-12);
  EXPECT_FALSE((BlockRates{139.5, 55.8, 64.3, 0}).known());
}

TEST(Channels, MatrixAndWorkloadsSplitACallOverTheChannelsSimulateRuns) {
  // A robustness hunt (round 27): `matrix --node hgx-h100.yaml` split a 4-GPU allreduce over 32
  // channels (2 x the 18 NVLinks' narrowest hop, capped) while `simulate` and `report` ran it on
  // the 24 of NCCL's ring search: two matrices of one trace on one node. default_channels is now
  // that search's count (NCCL on the H200 testbeds: 24).
  for (const char* name : {"hgx-h100.yaml", "hgx-h200.yaml", "dgx-a100.yaml"}) {
    const topology::Node node = topology::load_node(test::config(name));
    std::vector<int> gpus;
    for (int g = 0; g < 4; ++g) gpus.push_back(node.find(fmt::format("gpu{}", g)));
    EXPECT_EQ(default_channels(node, gpus), 24) << name;
  }
}

}  // namespace
}  // namespace linkcast::nccl
