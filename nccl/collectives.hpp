// NCCL's collectives as the peer transfers NCCL makes: one call decomposed, channel by channel
// and chunk by chunk, into (src rank, dst rank, bytes) steps with the steps each depends on.
//
// What is modelled (single node, NCCL's Simple protocol):
//  - ring (allreduce, allgather, reducescatter, broadcast, reduce): ranks in group order form
//    the ring r -> r+1; every channel runs the same ring on its own slice of the buffer, in
//    loops of `chunk_bytes` per rank and channel, exactly as the device code partitions it
//    (runRing in src/device/all_reduce.h and its siblings, NCCL 2.18);
//  - tree (allreduce, broadcast, reduce): inside one node NCCL's tree is a chain following the
//    ring order with rank 0 at the top (Snoopie, ICS'24, sec. 5.3): reduce up the chain
//    (n-1 -> ... -> 0), broadcast down (0 -> ... -> n-1); broadcast and reduce run the chain from
//    and to their root;
//  - alltoall: NCCL has no alltoall kernel; nccl-tests issues one ncclSend/ncclRecv pair per
//    peer inside a group. Every rank sends bytes/n to every other rank in P2P chunks spread over
//    the channels, and copies its own block locally (a step with src == dst).
// Not modelled: NVLS/CollNet/PAT algorithms, the LL/LL128 protocols' chunking, buffer-slot flow
// control (a slice may start before the previous one left, NCCL_STEPS deep), NCCL's topology
// search (ring order and channel count come from the caller).
//
// Dependencies: each step lists the steps that must finish before it starts: the step that
// delivered its input (data dependency) and the same rank's previous step on the same channel
// and direction (a channel's primitives run in order). Steps are emitted in an order where every
// dependency precedes its dependant, so `steps` is a topological order.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nccl/constants.hpp"
#include "trace/trace.hpp"

namespace linkcast::topology {
struct Node;
}

namespace linkcast::nccl {

enum class CollAlgo : std::uint8_t { ring, tree };
std::string_view to_string(CollAlgo algo);
[[nodiscard]] std::optional<CollAlgo> parse_coll_algo(std::string_view name);

/// NCCL's protocols, in NCCL's order (NCCL_PROTO_LL, NCCL_PROTO_LL128, NCCL_PROTO_SIMPLE).
enum class Proto : std::uint8_t { ll, ll128, simple };
inline constexpr int kProtoCount = 3;
static_assert(kProtoCount == static_cast<int>(Proto::simple) + 1, "kProtoCount counts every Proto");
std::string_view to_string(Proto p);
[[nodiscard]] std::optional<Proto> parse_proto(std::string_view name);  // "LL", "LL128", "Simple" (any case)
std::vector<std::string> proto_names();


/// Channels when neither the caller nor a node says: NCCL's topology search finds one ring on a
/// PCIe-only node and duplicates it (ncclTopoPostset, src/graph/connect.cc): 2.
inline constexpr int kDefaultChannels = 2;

/// One collective call on a communicator of `nranks` ranks.
struct CollectiveSpec {
  trace::OpKind kind = trace::OpKind::allreduce;  // allreduce allgather reducescatter broadcast reduce alltoall
  int nranks = 1;
  /// Bytes as nccl-tests counts them: allgather's output, reducescatter's input, each rank's
  /// alltoall send buffer, the whole buffer otherwise.
  std::uint64_t bytes = 0;
  int root = 0;  // broadcast/reduce: rank within the communicator
  CollAlgo algo = CollAlgo::ring;
  /// Channels the communicator has; 0: kDefaultChannels. Callers that know the node pass
  /// default_channels(node, gpus). A small call runs on fewer (effective_channels).
  int channels = 0;
  /// Bytes per chunk per rank and channel; 0: NCCL's default for the algorithm (chunk_bytes()).
  std::uint64_t chunk_bytes = 0;
  /// Bytes per element; chunks never split an element.
  std::uint32_t elem_bytes = 4;
  /// NCCL's protocol: a small call's channels follow its threads and threshold
  /// (effective_channels); LL counts its traffic four times over when NCCL splits a call over the
  /// channels, so a channel's share grows in smaller cells (tree_channel_bytes); an alltoall's LL
  /// sends are cut in smaller parts (p2p_parts).
  Proto proto = Proto::simple;
};

/// One peer transfer.
struct CollStep {
  std::uint32_t src = 0;  // rank
  std::uint32_t dst = 0;  // rank; == src for alltoall's local block
  std::uint64_t bytes = 0;
  std::uint32_t channel = 0;
  std::uint32_t chunk = 0;  // loop index within the channel (alltoall: piece index)
  /// Position in the algorithm's schedule for this chunk: ring step 0..2n-3 (allreduce) or
  /// 0..n-2; tree: hop 0..n-2 reducing up, n-1..2n-3 broadcasting down; alltoall: 0.
  std::uint32_t step = 0;
  std::uint32_t dep_begin = 0;  // into Decomposition::deps
  std::uint32_t dep_count = 0;
  /// The step whose data this one passes on (it arrived in this step's sender's buffer), or
  /// kNoDataStep: a rank's own data, or data of no bytes.
  std::uint32_t data_step = kNoDataStep;
  static constexpr std::uint32_t kNoDataStep = 0xFFFFFFFFu;
};

/// A collective's share on one of the rings it runs on (a simulation splits a call over its
/// rings by their channels): NCCL's decomposition of `spec`, whose rank k is communicator rank
/// ring[k].
struct RingPart {
  CollectiveSpec spec;
  std::vector<int> ring;
};

struct Decomposition {
  CollectiveSpec spec;  // as resolved: channels and chunk_bytes filled in
  std::vector<CollStep> steps;
  std::vector<std::uint32_t> deps;  // indices into steps

  std::span<const std::uint32_t> deps_of(std::size_t i) const {
    return {deps.data() + steps[i].dep_begin, steps[i].dep_count};
  }
  /// Bytes each rank sends to other ranks (local copies excluded).
  std::vector<std::uint64_t> sent_bytes() const;
  /// n x n row-major: bytes rank i sends to rank j (the diagonal holds local copies).
  std::vector<std::uint64_t> pair_bytes() const;
  /// Sum of bytes over steps with src != dst.
  std::uint64_t inter_rank_bytes() const;
};

/// The ring/tree chunk NCCL 2.28 uses by default for this call (calcCollChunking,
/// src/enqueue.cc): ring: 512 KiB x chunkSteps; tree allreduce (Simple): one step, 512 KiB;
/// alltoall: the P2P chunk.
std::uint64_t default_chunk_bytes(const CollectiveSpec& spec);

/// The distinct channels one rank's alltoall sends run on: each peer's block striped over its
/// p2p channels as NCCL stripes a send (addP2pToPlan), the peers' channels side by side, at most
/// the communicator's p2p channels (its channels rounded up to a power of two).
[[nodiscard]] int alltoall_send_channels(int nranks, std::uint64_t bytes, int channels);

/// Whether an alltoall's sends run in NCCL's LL protocol: each peer's block is at most the p2p
/// channels a peer may use (nChannelsMax: the communicator's `channels` rounded up to a power of
/// two, 32 for 24) times P2P_LL_THRESHOLD (addP2pToPlan's thresholdLL, src/enqueue.cc), 512 KiB
/// a peer on the H200 testbeds; otherwise Simple. NCCL picks a send's protocol so whatever
/// NCCL_ALGO and NCCL_PROTO say: the 2 x H200 recordings with
/// NCCL_PROTO=LL (tests/data/real/h200-2gpu-nccl) time alltoall as the default does from 16 MiB
/// to 4 GiB (within 3%), where a ring allgather in LL takes 2.9x as long.
[[nodiscard]] bool alltoall_sends_ll(int nranks, std::uint64_t bytes, int channels);

/// The memory operations per element of one of NCCL's primitives, as its thread block issues
/// them: loads (of the user's buffer or a connection buffer), stores into this GPU's memory, and
/// stores into the peer's connection buffer.
struct MemoryOps {
  int loads = 0, stores = 0, peer_stores = 0;
  [[nodiscard]] int total() const { return loads + stores + peer_stores; }
  friend bool operator==(const MemoryOps&, const MemoryOps&) = default;
};

/// NCCL's primitives a rank's channel runs (src/device/prims_*.h), with p2p_send and p2p_recv,
/// alltoall's send and receive in NCCL's send/receive kernel (src/device/sendrecv.h).
enum class Primitive : std::uint8_t {
  none,
  send,
  copy_send,
  recv_copy_send,
  recv_reduce_send,
  recv_reduce_copy_send,
  recv,
  recv_reduce_copy,
  p2p_send,
  p2p_recv,
};
/// The primitive a rank runs for its send in step `step` of a ring call (runRing in
/// src/device/all_reduce.h, all_gather.h, reduce_scatter.h, broadcast.h): allreduce send,
/// recvReduceSend x (n-2), recvReduceCopySend, recvCopySend x (n-2); out-of-place all-gather
/// copySend, recvCopySend x (n-2); reduce-scatter send, recvReduceSend x (n-2); broadcast (step =
/// the chain's hop from the root) send from the root in place, as torch.distributed.broadcast
/// does, recvCopySend down the chain; alltoall p2p_send; none for the others.
[[nodiscard]] Primitive send_primitive(trace::OpKind kind, int nranks, std::uint32_t step);
/// The primitive that ends a chunk on its last receiver (ends_chunk): recv (allreduce, allgather,
/// broadcast), recvReduceCopy (reducescatter), p2p_recv (alltoall); none for the others.
[[nodiscard]] Primitive final_receive_primitive(trace::OpKind kind);
/// A primitive's memory operations per element, with out-of-place user buffers and the
/// connection buffers in the receiver's memory, as NCCL's P2P transport between processes has
/// them: send (a load, a store to the peer), copySend and recvCopySend (a load, a store, a store
/// to the peer), recvReduceSend (two loads, a store to the peer), recvReduceCopySend (two loads, a
/// store, a store to the peer), recv (a load, a store), recvReduceCopy (two loads, a store).
[[nodiscard]] MemoryOps memory_ops(Primitive p);
/// The loads of a user buffer in an LL primitive that cost its block nothing when the L2 holds
/// that buffer: one in send, recvReduceSend, recvReduceCopySend and recvReduceCopy (the input,
/// loaded beside the line it waits for), none in copySend (all-gather's first step: bound by its
/// store into its own output and the peer's line, with its input in the L2 or not), in alltoall's
/// (not measured) nor in primitives without a user load. Measured on 2 x H200, one channel, from
/// CUDA graphs (tests/data/real/h200-2gpu-nccl-l2): with the buffers in the L2 against not,
/// reduce-scatter of 8 MiB 13.8 against 8.4 GB/s, allreduce 7.3 against 5.3, an all-gather in
/// place (send) 12.3 against 9.2, out of place (copySend) 8.5 against 8.0.
[[nodiscard]] int ll_l2_free_loads(Primitive p);

/// memory_ops of send_primitive.
[[nodiscard]] MemoryOps send_memory_ops(trace::OpKind kind, int nranks, std::uint32_t step);
/// Whether the send in step `step` is the last its chunk makes: its receiver then ends the chunk
/// with a receive that moves nothing over links (final_receive_memory_ops). Every alltoall piece.
[[nodiscard]] bool ends_chunk(trace::OpKind kind, int nranks, std::uint32_t step);
/// The slices one Simple primitive runs on a chunk of `chunk_bytes` (a rank's, on one channel):
/// ring allreduce, all-gather and reduce-scatter kRingSlicesPerChunk, or one where the chunk is at
/// most kMinSliceBytes; the tree allreduce's chain and the ring broadcast one (ProtoSimple<1, 1>);
/// 0 for the others.
[[nodiscard]] int simple_slices(trace::OpKind kind, CollAlgo algo, std::uint64_t chunk_bytes);
/// Whether the primitives of `kind` in `algo` run slices at all (simple_slices > 0 for a chunk).
[[nodiscard]] bool runs_simple_slices(trace::OpKind kind, CollAlgo algo);
/// memory_ops of final_receive_primitive.
[[nodiscard]] MemoryOps final_receive_memory_ops(trace::OpKind kind);

/// ll_l2_free_loads of send_primitive, and of final_receive_primitive.
[[nodiscard]] int ll_l2_free_loads(trace::OpKind kind, int nranks, std::uint32_t step);
[[nodiscard]] int ll_l2_free_final_receive_loads(trace::OpKind kind);
/// A rank's user buffers for a call of `bytes` (as nccl-tests counts them) among `nranks`:
/// allreduce and broadcast in place (the buffer), allgather and reducescatter out of place (the
/// buffer and one rank's block), alltoall (send and receive buffers).
[[nodiscard]] std::uint64_t user_buffer_bytes(trace::OpKind kind, int nranks, std::uint64_t bytes);
/// The LL lines a rank's receive connections hold in its GPU's memory during a call of `bytes` on
/// `channels`: what the rank receives (ring: (n-1)/n of the bytes a pass, two passes in an
/// allreduce; tree and broadcast: the bytes), as 16-byte lines of 8 data bytes, up to its
/// connections' LL buffers (kSteps x kLlStepBytes = 512 KiB a connection; NCCL's p2p transport
/// places the LL buffer on the receiving GPU, p2pRecvSetup in src/transport/p2p.cc). One
/// connection a channel on a ring; a chain's middle ranks receive from both sides, two.
[[nodiscard]] std::uint64_t ll_connection_bytes(trace::OpKind kind, CollAlgo algo, int nranks, std::uint64_t bytes,
                                                int channels);

/// Channels NCCL would run this call on: spec.channels (kDefaultChannels when 0), reduced while
/// bytes < channels * nthreads * NCCL_SIMPLE_THREAD_THRESHOLD (getAlgoInfo, src/enqueue.cc),
/// never below 1.
int effective_channels(const CollectiveSpec& spec);

/// Whether the collective's buffer is split into one block per rank (allgather, reducescatter,
/// alltoall): its size must divide by the ranks, and NCCL runs it without a tree.
bool per_rank_block(trace::OpKind kind);

/// Checks the spec (kind is a collective, 1 <= nranks <= trace::kMaxListedGpus, root in range,
/// algorithm supported, sizes) and throws InputError naming the field and the fix.
void validate(const CollectiveSpec& spec);

/// Bytes and transfers from rank i to rank j of one call, n x n row-major (the diagonal holds
/// alltoall's local copies): what decompose(spec).steps sum to.
struct PairTotals {
  int nranks = 0;
  std::vector<std::uint64_t> bytes, count;

  explicit PairTotals(int n = 0)
      : nranks(n), bytes(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0),
        count(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0) {}
  void add(std::uint32_t src, std::uint32_t dst, std::uint64_t b) {
    const std::size_t cell = std::size_t{src} * static_cast<std::size_t>(nranks) + dst;
    bytes[cell] += b;
    count[cell] += 1;
  }
  /// Bytes each rank sends to other ranks (local copies excluded).
  std::vector<std::uint64_t> sent_bytes() const;
};

/// Most transfers one call is decomposed into (about 70 bytes each while it is built: 1 GB).
inline constexpr std::size_t kMaxDecompositionSteps = 16'000'000;

/// The number of steps decompose() walks for `spec` (channels and chunk resolved as decompose
/// resolves them), counting the zero-byte tail steps it skips: an upper bound of its size, in
/// floating point so that no product overflows.
double decomposition_size(const CollectiveSpec& spec);

/// Decomposes one call. Throws InputError for an invalid spec or one that would make more than
/// `max_steps` steps (choose a larger chunk), before building anything.
Decomposition decompose(const CollectiveSpec& spec, std::size_t max_steps = kMaxDecompositionSteps);

/// The per-pair sums of decompose(spec), walked without keeping the steps or their
/// dependencies (a few nanoseconds and no memory a step; decompose keeps about 70 bytes a step).
/// Throws as decompose does.
PairTotals pair_totals(const CollectiveSpec& spec, std::size_t max_steps = kMaxDecompositionSteps);

/// mpisee's lower bound on the communication volume of one call (Vardas et al., appendix A),
/// with m the per-rank buffer: bcast (p-1)m, allreduce and reduce pm, allgather pm (m = each
/// rank's block = bytes/p), reduce_scatter_block pm (m = bytes/p), alltoall p*p*m (m = bytes/p,
/// the block per peer). `bytes` counts as CollectiveSpec::bytes does.
std::uint64_t mpisee_lower_bound_bytes(trace::OpKind kind, int nranks, std::uint64_t bytes);
/// The part of that bound that must cross between ranks: reduce's bound counts the root's own
/// buffer and alltoall's each rank's block to itself, which never leave their GPU
/// (reduce (p-1)m, alltoall p(p-1)m); others as above. 0 for one rank.
std::uint64_t inter_rank_lower_bound_bytes(trace::OpKind kind, int nranks, std::uint64_t bytes);

/// The channels of a communicator over `gpu_endpoints` (indices into node.endpoints): the
/// communicator's channels of NCCL's ring search (search_rings), the count `simulate` runs its
/// collectives on, so that `matrix --node` and synthetic workloads split calls as it does (they
/// took 2 x the narrowest NVLink count, 32 on HGX-H100 where the search, and NCCL on the H200
/// testbeds, gives 24). kDefaultChannels for fewer than two GPUs.
int default_channels(const topology::Node& node, const std::vector<int>& gpu_endpoints);

/// How the caller wants collectives decomposed where a trace does not say (traces carry no
/// algorithm): what `--workload nccl-*:algo=,channels=,chunk=` and `linkcast matrix --algo`
/// give.
struct CollectiveConfig {
  CollAlgo algo = CollAlgo::ring;
  bool algo_given = false;  // false: the consumer may choose by size, as NCCL does
  int channels = 0;         // 0: default
  bool channels_given = false;  // false: `channels` is a default (the node's or kDefaultChannels)
  std::uint64_t chunk_bytes = 0;  // 0: NCCL's default
  std::uint32_t elem_bytes = 4;

  /// One call of `kind` on `nranks` ranks under this configuration.
  CollectiveSpec spec(trace::OpKind kind, int nranks, std::uint64_t bytes, int root = 0) const {
    CollectiveSpec s;
    s.kind = kind;
    s.nranks = nranks;
    s.bytes = bytes;
    s.root = root;
    s.algo = algo;
    s.channels = channels;
    s.chunk_bytes = chunk_bytes;
    s.elem_bytes = elem_bytes;
    return s;
  }
};

}  // namespace linkcast::nccl
