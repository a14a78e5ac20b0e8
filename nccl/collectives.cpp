#include "nccl/collectives.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/error.hpp"
#include "core/units.hpp"
#include "nccl/search.hpp"
#include "topology/node.hpp"
#include "topology/routing.hpp"
#include "trace/limits.hpp"

namespace linkcast::nccl {

using trace::OpKind;
using trace::is_collective;

std::string_view to_string(CollAlgo algo) { return algo == CollAlgo::ring ? "ring" : "tree"; }

std::optional<CollAlgo> parse_coll_algo(std::string_view name) {
  if (name == "ring") return CollAlgo::ring;
  if (name == "tree") return CollAlgo::tree;
  return std::nullopt;
}

bool per_rank_block(OpKind kind) {
  return kind == OpKind::allgather || kind == OpKind::reducescatter || kind == OpKind::alltoall;
}

namespace {

std::uint64_t div_up(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }
std::uint64_t round_up(std::uint64_t a, std::uint64_t b) { return div_up(a, b) * b; }

/// Builds the step list. Steps of zero bytes (the tail of the last loop) are not emitted; a
/// step depending on one inherits its dependencies instead, so the order constraints survive.
/// Each logical step gets a slot; a slot's "effective" set is the emitted step itself or, for a
/// skipped step, the union of its dependencies' effective sets.
class Builder {
 public:
  static constexpr std::int64_t kNone = -1;

  Builder(Decomposition& d, std::size_t max_steps) : d_(d), max_steps_(max_steps) {}
  /// A builder that only sums bytes and transfers per rank pair into `totals` (no steps, no
  /// dependencies): what pair_totals walks.
  Builder(Decomposition& d, PairTotals& totals) : d_(d), max_steps_(0), totals_(&totals) {}

  /// Adds a logical step depending on up to two earlier slots (`dep_a`: the step whose data it
  /// passes on, where it passes any on); returns its slot.
  std::int64_t add(std::uint32_t src, std::uint32_t dst, std::uint64_t bytes, std::uint32_t channel,
                   std::uint32_t chunk, std::uint32_t step, std::int64_t dep_a, std::int64_t dep_b) {
    if (totals_ != nullptr) {
      if (bytes > 0) totals_->add(src, dst, bytes);
      return kNone;
    }
    scratch_.clear();
    append_effective(dep_a);
    append_effective(dep_b);
    std::sort(scratch_.begin(), scratch_.end());
    scratch_.erase(std::unique(scratch_.begin(), scratch_.end()), scratch_.end());
    const auto slot = static_cast<std::int64_t>(slot_begin_.size());
    if (bytes == 0) {
      slot_begin_.push_back(static_cast<std::uint32_t>(pool_.size()));
      slot_count_.push_back(static_cast<std::uint32_t>(scratch_.size()));
      pool_.insert(pool_.end(), scratch_.begin(), scratch_.end());
      emitted_.push_back(false);
      return slot;
    }
    if (d_.steps.size() >= max_steps_) {
      throw InputError(fmt::format(
          "{} of {} on {} ranks in chunks of {} makes more than {} transfers; give a larger chunk",
          to_string(d_.spec.kind), format_bytes(d_.spec.bytes), d_.spec.nranks,
          format_bytes(d_.spec.chunk_bytes), max_steps_));
    }
    CollStep s;
    s.src = src;
    s.dst = dst;
    s.bytes = bytes;
    s.channel = channel;
    s.chunk = chunk;
    s.step = step;
    if (dep_a != kNone && emitted_[static_cast<std::size_t>(dep_a)]) {
      const std::uint32_t from = pool_[slot_begin_[static_cast<std::size_t>(dep_a)]];
      if (d_.steps[from].dst == src && d_.steps[from].src != src) s.data_step = from;
    }
    s.dep_begin = static_cast<std::uint32_t>(d_.deps.size());
    s.dep_count = static_cast<std::uint32_t>(scratch_.size());
    d_.deps.insert(d_.deps.end(), scratch_.begin(), scratch_.end());
    const auto index = static_cast<std::uint32_t>(d_.steps.size());
    d_.steps.push_back(s);
    slot_begin_.push_back(static_cast<std::uint32_t>(pool_.size()));
    slot_count_.push_back(1);
    pool_.push_back(index);
    emitted_.push_back(true);
    return slot;
  }

 private:
  void append_effective(std::int64_t slot) {
    if (slot == kNone) return;
    const auto s = static_cast<std::size_t>(slot);
    for (std::uint32_t i = 0; i < slot_count_[s]; ++i) scratch_.push_back(pool_[slot_begin_[s] + i]);
  }

  Decomposition& d_;
  std::size_t max_steps_;
  PairTotals* totals_ = nullptr;
  std::vector<std::uint32_t> slot_begin_, slot_count_, pool_;
  std::vector<bool> emitted_;  // by slot: a step of its own (not one of no bytes)
  std::vector<std::uint32_t> scratch_;
};

/// Ring chunks are rounded up to NCCL's 4096-byte grain when the chunk is a multiple of it (as
/// NCCL's always are); a custom chunk that is not keeps element granularity.
std::uint64_t ring_align(const CollectiveSpec& s) {
  return s.chunk_bytes % nccl::kRingChunkAlignBytes == 0 ? nccl::kRingChunkAlignBytes : s.elem_bytes;
}

/// The chunk of one loop of a ring pass with `left` bytes still to go, split into `pieces` (one per
/// channel, or per channel and rank for allreduce): NCCL's chunk, shrunk in the last loop to spread
/// what is left, aligned as the protocol needs.
std::uint64_t loop_chunk_bytes(const CollectiveSpec& s, std::uint64_t left, std::uint64_t pieces) {
  return round_up(std::min(s.chunk_bytes, div_up(left, pieces)), ring_align(s));
}

/// The bytes of a chunk that starts at `offset` of a `size`-byte buffer: none past the end.
std::uint64_t chunk_bytes_at(std::uint64_t size, std::uint64_t offset, std::uint64_t chunk) {
  return offset >= size ? 0 : std::min(chunk, size - offset);
}

void ring_allreduce(const CollectiveSpec& s, Builder& b) {
  const auto n = static_cast<std::uint64_t>(s.nranks);
  const auto channels = static_cast<std::uint64_t>(s.channels);
  const std::uint64_t size = s.bytes;
  const std::uint64_t loop = channels * n * s.chunk_bytes;
  // last[c][r]: slot of rank r's latest step on channel c (program order across loops).
  std::vector<std::vector<std::int64_t>> last(channels, std::vector<std::int64_t>(n, Builder::kNone));
  std::vector<std::int64_t> cur(n);
  std::uint32_t loop_index = 0;
  for (std::uint64_t grid = 0; grid < size; grid += loop, ++loop_index) {
    const std::uint64_t real = loop_chunk_bytes(s, size - grid, channels * n);
    for (std::uint64_t c = 0; c < channels; ++c) {
      auto& prev = last[c];
      const std::uint32_t steps = 2 * static_cast<std::uint32_t>(n) - 2;
      for (std::uint32_t j = 0; j < steps; ++j) {
        for (std::uint64_t r = 0; r < n; ++r) {
          // Step j of rank r sends chunk (r - j - 1) mod n (runRing, src/device/all_reduce.h).
          const std::uint64_t chunk = (r + 2 * n - (j % n) - 1) % n;
          const std::uint64_t bytes = chunk_bytes_at(size, grid + c * n * real + chunk * real, real);
          const std::int64_t data_dep = j == 0 ? Builder::kNone : prev[(r + n - 1) % n];
          cur[r] = b.add(static_cast<std::uint32_t>(r), static_cast<std::uint32_t>((r + 1) % n), bytes,
                         static_cast<std::uint32_t>(c), loop_index, j, data_dep, prev[r]);
        }
        prev = cur;
      }
    }
  }
}


/// Allgather and reducescatter: n-1 ring steps per chunk over each rank's block.
void ring_gather_scatter(const CollectiveSpec& s, Builder& b) {
  const auto n = static_cast<std::uint64_t>(s.nranks);
  const auto channels = static_cast<std::uint64_t>(s.channels);
  const std::uint64_t block = s.bytes / n;
  const std::uint64_t loop = channels * s.chunk_bytes;
  std::vector<std::vector<std::int64_t>> last(channels, std::vector<std::int64_t>(n, Builder::kNone));
  std::vector<std::int64_t> cur(n);
  std::uint32_t loop_index = 0;
  for (std::uint64_t grid = 0; grid < block; grid += loop, ++loop_index) {
    const std::uint64_t real = loop_chunk_bytes(s, block - grid, channels);
    for (std::uint64_t c = 0; c < channels; ++c) {
      const std::uint64_t bytes = chunk_bytes_at(block, grid + c * real, real);
      auto& prev = last[c];
      for (std::uint32_t j = 0; j + 1 < n; ++j) {
        for (std::uint64_t r = 0; r < n; ++r) {
          const std::int64_t data_dep = j == 0 ? Builder::kNone : prev[(r + n - 1) % n];
          cur[r] = b.add(static_cast<std::uint32_t>(r), static_cast<std::uint32_t>((r + 1) % n), bytes,
                         static_cast<std::uint32_t>(c), loop_index, j, data_dep, prev[r]);
        }
        prev = cur;
      }
    }
  }
}

/// Broadcast (from root) and reduce (to root): a chain along the ring, one chunk per channel per
/// loop. `first` is the chain's first rank.
void chain(const CollectiveSpec& s, Builder& b, std::uint64_t first) {
  const auto n = static_cast<std::uint64_t>(s.nranks);
  const auto channels = static_cast<std::uint64_t>(s.channels);
  const std::uint64_t size = s.bytes;
  const std::uint64_t loop = channels * s.chunk_bytes;
  std::vector<std::vector<std::int64_t>> last(channels, std::vector<std::int64_t>(n, Builder::kNone));
  std::uint32_t loop_index = 0;
  for (std::uint64_t grid = 0; grid < size; grid += loop, ++loop_index) {
    const std::uint64_t real = loop_chunk_bytes(s, size - grid, channels);
    for (std::uint64_t c = 0; c < channels; ++c) {
      const std::uint64_t bytes = chunk_bytes_at(size, grid + c * real, real);
      std::int64_t hop_before = Builder::kNone;
      for (std::uint32_t h = 0; h + 1 < n; ++h) {
        const std::uint64_t from = (first + h) % n;
        hop_before = b.add(static_cast<std::uint32_t>(from), static_cast<std::uint32_t>((from + 1) % n), bytes,
                           static_cast<std::uint32_t>(c), loop_index, h, hop_before, last[c][from]);
        last[c][from] = hop_before;
      }
    }
  }
}

/// Tree allreduce inside a node: the chain 0 - 1 - ... - n-1 with rank 0 on top. Reduce up
/// (n-1 -> 0), then broadcast down (0 -> n-1); up and down run on separate warps
/// (runTreeSplit), so each direction keeps its own program order.
/// The bytes each channel of a tree allreduce takes: NCCL 2.19 and later split a call evenly over
/// its channels in cells of MinTrafficPerChannel / 2 bytes (an allreduce moves each byte twice; LL
/// four times more: scheduleCollTasksToPlan, src/enqueue.cc of NCCL 2.28.9), the last channel
/// taking what is left; each channel then runs its share in chunks, the last one partial
/// (runTreeSplit's loop over ncclCollCbdPart's channelCount, src/device/all_reduce.h). NCCL 2.18
/// and before dealt whole chunks to the channels loop by loop, which left all but the first few
/// channels idle in a call's last loop.
std::uint64_t tree_channel_bytes(const CollectiveSpec& s) {
  const auto channels = static_cast<std::uint64_t>(s.channels);
  const std::uint64_t cell = std::max<std::uint64_t>(
      s.elem_bytes, nccl::kMinTrafficPerChannelBytes / (s.proto == Proto::ll ? 8 : 2));
  return round_up(div_up(s.bytes, channels), cell);
}

void tree_allreduce(const CollectiveSpec& s, Builder& b) {
  const auto n = static_cast<std::uint64_t>(s.nranks);
  const auto channels = static_cast<std::uint64_t>(s.channels);
  const std::uint64_t size = s.bytes;
  const std::uint64_t share = tree_channel_bytes(s);
  const std::uint64_t chunk = std::max<std::uint64_t>(s.chunk_bytes, 1);
  std::vector<std::vector<std::int64_t>> last_up(channels, std::vector<std::int64_t>(n, Builder::kNone));
  std::vector<std::vector<std::int64_t>> last_down(channels, std::vector<std::int64_t>(n, Builder::kNone));
  const auto hops = static_cast<std::uint32_t>(n - 1);
  std::uint32_t loop_index = 0;
  for (std::uint64_t within = 0; within < share; within += chunk, ++loop_index) {
    for (std::uint64_t c = 0; c < channels; ++c) {
      const std::uint64_t start = c * share;  // this channel's part of the buffer
      const std::uint64_t part = start >= size ? 0 : std::min(share, size - start);
      const std::uint64_t bytes = within >= part ? 0 : std::min(chunk, part - within);
      std::int64_t before = Builder::kNone;
      for (std::uint32_t u = 0; u < hops; ++u) {
        const std::uint64_t from = n - 1 - u;
        before = b.add(static_cast<std::uint32_t>(from), static_cast<std::uint32_t>(from - 1), bytes,
                       static_cast<std::uint32_t>(c), loop_index, u, before, last_up[c][from]);
        last_up[c][from] = before;
      }
      for (std::uint32_t d = 0; d < hops; ++d) {
        const std::uint64_t from = d;
        before = b.add(static_cast<std::uint32_t>(from), static_cast<std::uint32_t>(from + 1), bytes,
                       static_cast<std::uint32_t>(c), loop_index, hops + d, before, last_down[c][from]);
        last_down[c][from] = before;
      }
    }
  }
}

/// How NCCL stripes one send of `bytes` to a peer over its p2p channels (addP2pToPlan,
/// src/enqueue.cc, NCCL 2.28; the channel counts of src/graph/paths.cc): the communicator's
/// channels rounded up to a power of two are its p2p channels, each peer may use all of them,
/// fewer while the peers of one round would not fit (nChannelsMin * nRanks > p2pnChannels);
/// a send takes one channel per part of its step / 8 (Simple: the P2P chunk, 64 KiB parts; LL:
/// its buffer's step, 8 KiB parts), at most that many, and doubles them while a part exceeds 32
/// steps. The NCCL log of the 2- and 4-GPU recordings says "32 p2p channels, 32 p2p channels per
/// peer" for 24 collective channels.
struct P2pParts {
  std::uint64_t channels = 1;
  std::uint64_t part_bytes = 0;
};
/// The communicator's p2p channels, each of which a peer may use (nChannelsMax).
std::uint64_t p2p_channels_per_peer(std::uint64_t coll_channels) {
  std::uint64_t p2p_channels = 1;
  while (p2p_channels < std::min<std::uint64_t>(coll_channels, kMaxChannels)) p2p_channels *= 2;
  return p2p_channels;
}
P2pParts p2p_parts(std::uint64_t bytes, std::uint64_t nranks, std::uint64_t coll_channels, bool ll) {
  const std::uint64_t per_peer = p2p_channels_per_peer(coll_channels);
  std::uint64_t least = per_peer;
  while (least * nranks > per_peer && least > 1) least /= 2;
  const std::uint64_t step = ll ? nccl::kLlStepBytes : kP2pChunkBytes;
  const std::uint64_t min_part = step / 8, max_part = step * 32;
  P2pParts p;
  p.channels = std::max<std::uint64_t>(1, std::min(least, (bytes + min_part - 1) / min_part));
  p.part_bytes = std::max(min_part, (bytes + p.channels - 1) / p.channels);
  while (p.part_bytes > max_part && p.channels <= per_peer / 2) {
    p.channels *= 2;
    p.part_bytes = (bytes + p.channels - 1) / p.channels;
  }
  return p;
}

/// The peers of NCCL's p2p rounds on one node (the p2p schedule of src/init.cc): round k sends to
/// the rank delta_k ahead and receives from the one delta_k behind, the deltas enumerated by the
/// quadratic formula (x^2 + x) / 2 mod the ranks rounded up to a power of two, those past the
/// ranks skipped: 0, 1, 3, 2 for 4 ranks; 0, 1, 3, 6, 2, 7, 5, 4 for 8. Round 0 is the rank itself.
std::vector<std::uint64_t> p2p_round_deltas(std::uint64_t nranks) {
  std::uint64_t pow2 = 1;
  while (pow2 < nranks) pow2 *= 2;
  std::vector<std::uint64_t> deltas;
  std::uint64_t delta = 0;
  for (std::uint64_t step = 0; step < pow2;) {
    if (delta < nranks) deltas.push_back(delta);
    ++step;
    delta = (delta + step) & (pow2 - 1);
  }
  return deltas;
}

/// The p2p channel part `part` of round `round`'s send runs on (ncclP2pChannelBaseForRound and
/// ncclP2pChannelForPart, src/include/p2p.h of NCCL 2.28, one node): the round's base channel plus
/// the part's index with its bits reversed over the channels' log2, modulo the communicator's p2p
/// channels (a power of two). Rounds thus take interleaved channels: on 8 ranks with 4 parts a
/// peer, the 7 rounds take 28 distinct channels of 32.
std::uint32_t p2p_channel(std::uint64_t round, std::uint64_t part, std::uint64_t p2p_channels) {
  std::uint64_t bits = 0;
  while ((std::uint64_t{1} << bits) < p2p_channels) ++bits;
  std::uint64_t reversed = 0;
  for (std::uint64_t b = 0; b < bits; ++b)
    if (part & (std::uint64_t{1} << b)) reversed |= std::uint64_t{1} << (bits - 1 - b);
  return static_cast<std::uint32_t>((round + reversed) & (p2p_channels - 1));
}

/// Alltoall as nccl-tests runs it: grouped ncclSend/ncclRecv to every peer, in NCCL's round order
/// (p2p_round_deltas); each block striped over its p2p channels (p2p_parts) as NCCL maps a round's
/// parts onto them (p2p_channel), each part sent in P2P chunks one after the other on its channel.
void alltoall(const CollectiveSpec& s, Builder& b) {
  const auto n = static_cast<std::uint64_t>(s.nranks);
  const std::uint64_t block = s.bytes / n;
  const P2pParts parts = p2p_parts(block, n, static_cast<std::uint64_t>(s.channels), s.proto == Proto::ll);
  const std::uint64_t p2p_channels = p2p_channels_per_peer(static_cast<std::uint64_t>(s.channels));
  const std::vector<std::uint64_t> deltas = p2p_round_deltas(n);
  for (std::uint64_t r = 0; r < n; ++r) {
    // The block a rank keeps is a local copy (src == dst), one step.
    b.add(static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(r), block, 0, 0, 0, Builder::kNone,
          Builder::kNone);
    for (std::uint64_t round = 1; round < deltas.size(); ++round) {
      const std::uint64_t peer = (r + deltas[round]) % n;
      std::uint32_t piece = 0;
      for (std::uint64_t part = 0; part < parts.channels; ++part) {
        const std::uint64_t begin = part * parts.part_bytes;
        if (begin >= block) break;
        const std::uint64_t end = std::min(block, begin + parts.part_bytes);
        const std::uint32_t channel = p2p_channel(round, part, p2p_channels);
        std::int64_t last = Builder::kNone;
        for (std::uint64_t offset = begin; offset < end; offset += s.chunk_bytes, ++piece)
          last = b.add(static_cast<std::uint32_t>(r), static_cast<std::uint32_t>(peer),
                       std::min(s.chunk_bytes, end - offset), channel, piece, 0, last, Builder::kNone);
      }
    }
  }
}

}  // namespace

Primitive send_primitive(OpKind kind, int nranks, std::uint32_t step) {
  const auto n = static_cast<std::uint32_t>(std::max(nranks, 1));
  switch (kind) {
    case OpKind::allreduce:
      if (step == 0) return Primitive::send;
      if (step < n - 1) return Primitive::recv_reduce_send;
      if (step == n - 1) return Primitive::recv_reduce_copy_send;
      return Primitive::recv_copy_send;
    case OpKind::allgather: return step == 0 ? Primitive::copy_send : Primitive::recv_copy_send;
    case OpKind::reducescatter: return step == 0 ? Primitive::send : Primitive::recv_reduce_send;
    case OpKind::broadcast: return step == 0 ? Primitive::send : Primitive::recv_copy_send;
    case OpKind::alltoall: return Primitive::p2p_send;
    default: return Primitive::none;
  }
}

Primitive final_receive_primitive(OpKind kind) {
  switch (kind) {
    case OpKind::allreduce:
    case OpKind::allgather:
    case OpKind::broadcast: return Primitive::recv;
    case OpKind::reducescatter: return Primitive::recv_reduce_copy;
    case OpKind::alltoall: return Primitive::p2p_recv;
    default: return Primitive::none;
  }
}

MemoryOps memory_ops(Primitive p) {
  switch (p) {
    case Primitive::send:
    case Primitive::p2p_send: return {1, 0, 1};
    case Primitive::copy_send:
    case Primitive::recv_copy_send: return {1, 1, 1};
    case Primitive::recv_reduce_send: return {2, 0, 1};
    case Primitive::recv_reduce_copy_send: return {2, 1, 1};
    case Primitive::recv:
    case Primitive::p2p_recv: return {1, 1, 0};
    case Primitive::recv_reduce_copy: return {2, 1, 0};
    case Primitive::none: break;
  }
  return {};
}

int ll_l2_free_loads(Primitive p) {
  switch (p) {
    case Primitive::send:
    case Primitive::recv_reduce_send:
    case Primitive::recv_reduce_copy_send:
    case Primitive::recv_reduce_copy: return 1;
    default: return 0;
  }
}

MemoryOps send_memory_ops(OpKind kind, int nranks, std::uint32_t step) {
  return memory_ops(send_primitive(kind, nranks, step));
}

bool ends_chunk(OpKind kind, int nranks, std::uint32_t step) {
  if (kind == OpKind::alltoall) return true;
  const auto n = static_cast<std::uint32_t>(std::max(nranks, 2));
  return step + 1 == (kind == OpKind::allreduce ? 2 * n - 2 : n - 1);
}

namespace {
bool ring_sliced(OpKind kind, CollAlgo algo) {
  return algo == CollAlgo::ring && (kind == OpKind::allreduce || kind == OpKind::allgather || kind == OpKind::reducescatter);
}
}  // namespace

bool runs_simple_slices(OpKind kind, CollAlgo algo) {
  // ProtoSimple<1, 1>: the tree's chain (runTreeSplit) and the ring broadcast run one slice a chunk.
  return ring_sliced(kind, algo) || (algo == CollAlgo::tree && kind == OpKind::allreduce) ||
         (algo == CollAlgo::ring && kind == OpKind::broadcast);
}

int simple_slices(OpKind kind, CollAlgo algo, std::uint64_t chunk_bytes) {
  if (ring_sliced(kind, algo)) return chunk_bytes > kMinSliceBytes ? kRingSlicesPerChunk : 1;
  return runs_simple_slices(kind, algo) ? 1 : 0;
}

MemoryOps final_receive_memory_ops(OpKind kind) { return memory_ops(final_receive_primitive(kind)); }

int ll_l2_free_loads(OpKind kind, int nranks, std::uint32_t step) {
  return ll_l2_free_loads(send_primitive(kind, nranks, step));
}

int ll_l2_free_final_receive_loads(OpKind kind) { return ll_l2_free_loads(final_receive_primitive(kind)); }

std::uint64_t user_buffer_bytes(OpKind kind, int nranks, std::uint64_t bytes) {
  const auto n = static_cast<std::uint64_t>(std::max(nranks, 1));
  switch (kind) {
    case OpKind::allgather:
    case OpKind::reducescatter: return bytes + bytes / n;
    case OpKind::alltoall: return 2 * bytes;
    default: return bytes;
  }
}

std::uint64_t ll_connection_bytes(OpKind kind, CollAlgo algo, int nranks, std::uint64_t bytes, int channels) {
  if (nranks < 2 || channels < 1) return 0;
  const auto n = static_cast<std::uint64_t>(nranks);
  std::uint64_t received = bytes;
  int connections = 1;
  if (algo == CollAlgo::tree) {
    connections = nranks > 2 ? 2 : 1;
  } else if (kind == OpKind::allgather || kind == OpKind::reducescatter) {
    received = bytes / n * (n - 1);
  } else if (kind == OpKind::allreduce) {
    received = 2 * (bytes / n * (n - 1));
  }
  const std::uint64_t buffers = static_cast<std::uint64_t>(channels) * static_cast<std::uint64_t>(connections) *
                                static_cast<std::uint64_t>(kSteps) * kLlStepBytes;
  // An LL line carries 8 data bytes in 16 (compared halved: no overflow on any size).
  return received > buffers / 2 ? buffers : 2 * received;
}

int alltoall_send_channels(int nranks, std::uint64_t bytes, int channels) {
  CollectiveSpec spec;
  spec.kind = OpKind::alltoall;
  spec.nranks = nranks;
  spec.bytes = bytes;
  spec.channels = channels;
  const int coll = effective_channels(spec);
  if (nranks < 2) return 1;
  const auto n = static_cast<std::uint64_t>(nranks);
  const std::uint64_t block = bytes / n;
  const P2pParts parts = p2p_parts(block, n, static_cast<std::uint64_t>(coll), alltoall_sends_ll(nranks, bytes, coll));
  const std::uint64_t p2p_channels = p2p_channels_per_peer(static_cast<std::uint64_t>(coll));
  // The channels alltoall()'s parts land on, counted as it places them.
  std::vector<bool> used(p2p_channels, false);
  for (std::uint64_t round = 1; round < n; ++round)
    for (std::uint64_t part = 0; part < parts.channels && (part == 0 || part * parts.part_bytes < block); ++part)
      used[p2p_channel(round, part, p2p_channels)] = true;
  return static_cast<int>(std::max<std::ptrdiff_t>(1, std::count(used.begin(), used.end(), true)));
}

bool alltoall_sends_ll(int nranks, std::uint64_t bytes, int channels) {
  const auto n = static_cast<std::uint64_t>(std::max(nranks, 1));
  // addP2pToPlan's thresholdLL: nChannelsMax (every p2p channel) x P2P_LL_THRESHOLD.
  return bytes / n <= p2p_channels_per_peer(static_cast<std::uint64_t>(std::max(channels, 1))) * nccl::kP2pLlThresholdBytes;
}

int effective_channels(const CollectiveSpec& spec) {
  int nc = spec.channels > 0 ? spec.channels : kDefaultChannels;
  nc = std::min(nc, nccl::kMaxChannels);
  // Sends and receives (alltoall) take no collective algorithm: scheduleP2pTasksToPlan stripes
  // them over the communicator's p2p channels whatever their size (p2p_parts).
  if (spec.kind == OpKind::alltoall) return nc;
  // getAlgoInfo: while (nBytes < nc * nt * threadThreshold) { if (nc >= 2) nc--; else break; }
  // with nt = comm->maxThreads[algo][proto] and threadThreshold = comm->threadThresholds[algo]
  // [proto] (ncclTopoTuneModel, src/graph/tuning.cc of NCCL 2.28.9): Simple 512 threads (ring and
  // tree; the tree's extra warps are added after) x 64 bytes, LL 512 x 8 (x nRanks on a ring),
  // LL128 640 x 8.
  std::uint64_t nt = nccl::kSimpleMaxThreads, threshold = nccl::kSimpleThreadThreshold;
  if (spec.proto == Proto::ll) {
    nt = nccl::kLlMaxThreads;
    threshold = nccl::kLlThreadThreshold * (spec.algo == CollAlgo::ring ? static_cast<std::uint64_t>(std::max(spec.nranks, 1)) : 1);
  } else if (spec.proto == Proto::ll128) {
    nt = nccl::kLl128MaxThreads;
    threshold = nccl::kLl128ThreadThreshold;
  }
  while (nc >= 2 && spec.bytes < static_cast<std::uint64_t>(nc) * nt * threshold) --nc;
  return std::max(nc, 1);
}

std::uint64_t default_chunk_bytes(const CollectiveSpec& spec) {
  switch (spec.kind) {
    case OpKind::alltoall: return nccl::kP2pChunkBytes;
    case OpKind::allgather: return nccl::kStepBytes * nccl::kAllGatherChunkSteps;
    case OpKind::reducescatter: return nccl::kStepBytes * nccl::kReduceScatterChunkSteps;
    case OpKind::broadcast: return nccl::kStepBytes * nccl::kBroadcastChunkSteps;
    case OpKind::reduce: return nccl::kStepBytes * nccl::kReduceChunkSteps;
    default: break;
  }
  if (spec.algo == CollAlgo::ring) return nccl::kStepBytes * nccl::kAllReduceChunkSteps;
  // Tree/Simple: chunkSteps = 1, so one step's bytes (calcCollChunking, src/enqueue.cc of NCCL
  // 2.28.9, which halves the chunk for CollNet, NVLS and tree/LL128 but no longer for tree/Simple).
  return nccl::kStepBytes;
}

void validate(const CollectiveSpec& s) {
  if (!is_collective(s.kind)) {
    throw InputError(fmt::format("collective: '{}' is not a collective; use allreduce, allgather, reducescatter, "
                                 "broadcast, reduce or alltoall",
                                 to_string(s.kind)));
  }
  if (s.nranks < 1) throw InputError(fmt::format("{}: nranks is {}; a communicator has at least 1 rank",
                                                 to_string(s.kind), s.nranks));
  if (static_cast<std::size_t>(s.nranks) > trace::kMaxListedGpus)
    throw InputError(fmt::format("{}: {} ranks; a communicator inside a node has at most {} (the largest NVLink "
                                 "domain, NVL576)",
                                 to_string(s.kind), s.nranks, trace::kMaxListedGpus));
  if ((s.kind == OpKind::broadcast || s.kind == OpKind::reduce) && (s.root < 0 || s.root >= s.nranks)) {
    throw InputError(fmt::format("{}: root {} is not a rank of the {}-rank communicator; use 0..{}", to_string(s.kind),
                                 s.root, s.nranks, s.nranks - 1));
  }
  if (s.elem_bytes == 0) throw InputError(fmt::format("{}: element size is 0 bytes; use 1, 2, 4 or 8", to_string(s.kind)));
  if (s.bytes % s.elem_bytes != 0) {
    throw InputError(fmt::format("{}: bytes={} is not a whole number of {}-byte elements", to_string(s.kind), s.bytes,
                                 s.elem_bytes));
  }
  if (per_rank_block(s.kind) && s.bytes % (static_cast<std::uint64_t>(s.nranks) * s.elem_bytes) != 0) {
    throw InputError(fmt::format("{}: bytes={} does not split into {} equal blocks of whole {}-byte elements; "
                                 "give a multiple of {}",
                                 to_string(s.kind), s.bytes, s.nranks, s.elem_bytes,
                                 static_cast<std::uint64_t>(s.nranks) * s.elem_bytes));
  }
  if (s.channels < 0 || s.channels > nccl::kMaxChannels) {
    throw InputError(fmt::format("{}: channels={} is out of range; NCCL runs 1..{} channels (MAXCHANNELS)",
                                 to_string(s.kind), s.channels, nccl::kMaxChannels));
  }
  if (s.chunk_bytes != 0 && s.chunk_bytes % s.elem_bytes != 0) {
    throw InputError(fmt::format("{}: chunk={} is not a whole number of {}-byte elements", to_string(s.kind),
                                 s.chunk_bytes, s.elem_bytes));
  }
  if (s.algo == CollAlgo::tree && (s.kind == OpKind::allgather || s.kind == OpKind::reducescatter)) {
    throw InputError(fmt::format("{}: NCCL runs {} with the ring algorithm only (its tree is for allreduce, "
                                 "broadcast and reduce); use algo=ring",
                                 to_string(s.kind), to_string(s.kind)));
  }
  if (s.algo == CollAlgo::tree && s.kind == OpKind::alltoall) {
    throw InputError("alltoall: NCCL runs alltoall as point-to-point sends to every peer, neither ring nor tree; "
                     "leave algo out or use algo=ring");
  }
}

namespace {

/// decomposition_size of a spec whose channels and chunk are resolved.
double resolved_size(const CollectiveSpec& s) {
  const auto n = static_cast<double>(s.nranks);
  const auto channels = static_cast<double>(s.channels);
  const auto chunk = static_cast<double>(std::max<std::uint64_t>(s.chunk_bytes, 1));
  const auto bytes = static_cast<double>(s.bytes);
  auto loops = [](double size, double per_loop) { return std::max(1.0, std::ceil(size / per_loop)); };
  if (s.kind == OpKind::alltoall) {
    const P2pParts parts = p2p_parts(s.bytes / static_cast<std::uint64_t>(s.nranks), static_cast<std::uint64_t>(s.nranks),
                                     static_cast<std::uint64_t>(s.channels), s.proto == Proto::ll);
    // Each part adds at most one piece beyond the block's chunks (its last, partial one).
    const double block = std::floor(bytes / n);
    const double used_parts =
        std::min(static_cast<double>(parts.channels), loops(block, static_cast<double>(parts.part_bytes)));
    return n + n * (n - 1) * (loops(block, chunk) + used_parts - 1);
  }
  if (s.nranks < 2 || s.bytes == 0) return 0;
  switch (s.kind) {
    case OpKind::allreduce:
      if (s.algo == CollAlgo::tree) {
        const auto share = static_cast<double>(tree_channel_bytes(s));
        return loops(share, std::max(chunk, 1.0)) * channels * 2 * (n - 1);
      }
      return loops(bytes, channels * n * chunk) * channels * (2 * n - 2) * n;
    case OpKind::allgather:
    case OpKind::reducescatter: return loops(bytes / n, channels * chunk) * channels * (n - 1) * n;
    case OpKind::broadcast:
    case OpKind::reduce: return loops(bytes, channels * chunk) * channels * (n - 1);
    default: return 0;
  }
}

CollectiveSpec resolved(const CollectiveSpec& spec) {
  CollectiveSpec s = spec;
  s.channels = effective_channels(spec);
  if (s.chunk_bytes == 0) s.chunk_bytes = default_chunk_bytes(spec);
  return s;
}

}  // namespace

double decomposition_size(const CollectiveSpec& spec) { return resolved_size(resolved(spec)); }

namespace {

/// Checks `spec`, resolves it into d.spec and refuses it when its walk would pass `max_steps`.
void resolve_within(const CollectiveSpec& spec, std::size_t max_steps, Decomposition& d) {
  validate(spec);
  d.spec = resolved(spec);
  const double size = resolved_size(d.spec);
  if (size > static_cast<double>(max_steps)) {
    throw InputError(fmt::format(
        "{} of {} on {} ranks in chunks of {} over {} channels makes {:.3g} transfers, more than the limit of {}; "
        "give a larger chunk",
        to_string(d.spec.kind), format_bytes(d.spec.bytes), d.spec.nranks, format_bytes(d.spec.chunk_bytes),
        d.spec.channels, size, max_steps));
  }
}

/// Walks the resolved call's schedule into `b`.
void walk(const CollectiveSpec& s, Builder& b) {
  if (s.kind == OpKind::alltoall) {
    alltoall(s, b);
    return;
  }
  if (s.nranks < 2 || s.bytes == 0) return;
  switch (s.kind) {
    case OpKind::allreduce:
      if (s.algo == CollAlgo::tree) tree_allreduce(s, b);
      else ring_allreduce(s, b);
      break;
    case OpKind::allgather:
    case OpKind::reducescatter: ring_gather_scatter(s, b); break;
    case OpKind::broadcast: chain(s, b, static_cast<std::uint64_t>(s.root)); break;
    case OpKind::reduce: chain(s, b, static_cast<std::uint64_t>((s.root + 1) % s.nranks)); break;
    default: break;
  }
}

}  // namespace

Decomposition decompose(const CollectiveSpec& spec, std::size_t max_steps) {
  Decomposition d;
  resolve_within(spec, max_steps, d);
  Builder b(d, max_steps);
  walk(d.spec, b);
  return d;
}

PairTotals pair_totals(const CollectiveSpec& spec, std::size_t max_steps) {
  Decomposition d;
  resolve_within(spec, max_steps, d);
  PairTotals totals(d.spec.nranks);
  Builder b(d, totals);
  walk(d.spec, b);
  return totals;
}

std::vector<std::uint64_t> PairTotals::sent_bytes() const {
  const auto n = static_cast<std::size_t>(nranks);
  std::vector<std::uint64_t> out(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (i != j) out[i] += bytes[i * n + j];
  return out;
}

std::vector<std::uint64_t> Decomposition::sent_bytes() const {
  std::vector<std::uint64_t> out(static_cast<std::size_t>(spec.nranks), 0);
  for (const CollStep& s : steps)
    if (s.src != s.dst) out[s.src] += s.bytes;
  return out;
}

std::vector<std::uint64_t> Decomposition::pair_bytes() const {
  const auto n = static_cast<std::size_t>(spec.nranks);
  std::vector<std::uint64_t> out(n * n, 0);
  for (const CollStep& s : steps) out[s.src * n + s.dst] += s.bytes;
  return out;
}

std::uint64_t Decomposition::inter_rank_bytes() const {
  std::uint64_t total = 0;
  for (const CollStep& s : steps)
    if (s.src != s.dst) total += s.bytes;
  return total;
}

std::uint64_t mpisee_lower_bound_bytes(OpKind kind, int nranks, std::uint64_t bytes) {
  const auto p = static_cast<std::uint64_t>(std::max(nranks, 1));
  switch (kind) {
    case OpKind::broadcast: return (p - 1) * bytes;
    case OpKind::allreduce:
    case OpKind::reduce: return p * bytes;
    case OpKind::allgather:
    case OpKind::reducescatter: return p * (bytes / p);
    case OpKind::alltoall: return p * p * (bytes / p);
    default: return 0;
  }
}

std::uint64_t inter_rank_lower_bound_bytes(OpKind kind, int nranks, std::uint64_t bytes) {
  if (nranks < 2) return 0;
  const auto p = static_cast<std::uint64_t>(nranks);
  switch (kind) {
    case OpKind::reduce: return (p - 1) * bytes;
    case OpKind::alltoall: return p * (p - 1) * (bytes / p);
    default: return mpisee_lower_bound_bytes(kind, nranks, bytes);
  }
}

int default_channels(const topology::Node& node, const std::vector<int>& gpu_endpoints) {
  if (gpu_endpoints.size() < 2) return kDefaultChannels;
  const topology::Routes routes(node, topology::Routes::Compute::on_demand);
  return search_rings(node, routes, gpu_endpoints).channels();
}

}  // namespace linkcast::nccl
