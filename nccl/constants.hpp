// Constants from NCCL's source (github.com/NVIDIA/nccl), each with where it is defined: buffer
// slots, step and chunk sizes, channel and thread limits. Shared by the decomposition of
// collectives (collectives.hpp), the ring search (search.hpp) and the tuning model (tuning.hpp).
#pragma once

#include <cstdint>

namespace linkcast::nccl {

/// NCCL_STEPS (src/include/device.h): buffer slots per connection.
inline constexpr int kSteps = 8;
/// DEFAULT_BUFFSIZE / DEFAULT_BUFFER_SIZE_BYTES = 1 << 22 (src/init.cc, src/include/comm.h;
/// env NCCL_BUFFSIZE): the Simple protocol's buffer per connection.
inline constexpr std::uint64_t kBuffBytes = std::uint64_t{1} << 22;
/// comm->buffSizes[NCCL_PROTO_SIMPLE] / NCCL_STEPS (calcCollChunking, src/enqueue.cc): 512 KiB.
inline constexpr std::uint64_t kStepBytes = kBuffBytes / kSteps;
/// ALLREDUCE_CHUNKSTEPS = NCCL_STEPS/2, ALLGATHER_CHUNKSTEPS = NCCL_STEPS/2,
/// REDUCESCATTER_CHUNKSTEPS = NCCL_STEPS/2, BROADCAST_CHUNKSTEPS = 1, REDUCE_CHUNKSTEPS = 1
/// (src/include/collectives.h). Ring chunk = stepSize * chunkSteps; tree uses 1 step.
inline constexpr int kAllReduceChunkSteps = kSteps / 2;
inline constexpr int kAllGatherChunkSteps = kSteps / 2;
inline constexpr int kReduceScatterChunkSteps = kSteps / 2;
inline constexpr int kBroadcastChunkSteps = 1;
inline constexpr int kReduceChunkSteps = 1;
/// ALLREDUCE_SLICESTEPS = ALLGATHER_SLICESTEPS = REDUCESCATTER_SLICESTEPS = NCCL_STEPS/4
/// (src/include/collectives.h): a ring/Simple chunk of chunkSteps steps runs in chunkSteps /
/// sliceSteps = 2 slices (ProtoSimple<SlicePerChunk, StepPerSlice>, src/device/all_reduce.h).
inline constexpr int kRingSliceSteps = kSteps / 4;
inline constexpr int kRingSlicesPerChunk = kAllReduceChunkSteps / kRingSliceSteps;
/// A primitive's slice is at least stepSize * sliceSteps / 32 bytes (genericOp in
/// src/device/prims_simple.h: sliceSize = max(divUp(nelem, 16 * SlicePerChunk) * 16,
/// sliceSize / 32)): a chunk of at most 32 KiB runs in one slice.
inline constexpr std::uint64_t kMinSliceBytes = kStepBytes * kRingSliceSteps / 32;
/// NCCL_PARAM(P2pNvlChunkSize, "P2P_NVL_CHUNKSIZE", 1 << 19) (src/init.cc): send/recv chunk
/// between GPUs of one node.
inline constexpr std::uint64_t kP2pChunkBytes = std::uint64_t{1} << 19;
/// NCCL_PARAM(P2pLLThreshold, "P2P_LL_THRESHOLD", 16384) (src/enqueue.cc): a send or receive
/// runs in the LL protocol while its bytes are at most the communicator's p2p channels per peer
/// times this (addP2pToPlan's thresholdLL = nChannelsMax * P2P_LL_THRESHOLD, nChannelsMax being
/// comm->p2pnChannelsPerPeer: 32 on the H200 testbeds, so up to 512 KiB a peer), else Simple;
/// NCCL_ALGO and NCCL_PROTO do not enter.
inline constexpr std::uint64_t kP2pLlThresholdBytes = 16384;
/// DEFAULT_LL_BUFFSIZE / NCCL_STEPS (src/init.cc: NCCL_LL_LINES_PER_THREAD 8 x
/// NCCL_LL_MAX_NTHREADS 512 x NCCL_STEPS 8 x 16-byte lines = 512 KiB): one LL step, 64 KiB of
/// lines, half of them data.
inline constexpr std::uint64_t kLlStepBytes = std::uint64_t{8} * 512 * 16;
/// NCCL_LL128_LINEELEMS = 16 and NCCL_LL128_DATAELEMS = 15 (src/include/device.h): an LL128
/// line is 16 eight-byte elements of which 15 carry data and one the flag.
inline constexpr double kLl128DataFraction = 15.0 / 16.0;
/// MAXCHANNELS (src/include/device.h, NCCL 2.12-2.18).
inline constexpr int kMaxChannels = 32;
/// WARP_SIZE and NCCL_SIMPLE_MAX_NTHREADS (src/include/device.h); NCCL_MAX_NTHREADS = 640.
inline constexpr int kWarpSize = 32;
inline constexpr int kSimpleMaxThreads = 512;
inline constexpr int kMaxThreads = 640;
/// NCCL_SIMPLE_THREAD_THRESHOLD (src/include/comm.h): getAlgoInfo (src/enqueue.cc) drops
/// channels while nBytes < nChannels * nThreads * 64.
inline constexpr int kSimpleThreadThreshold = 64;
/// NCCL_LL_THREAD_THRESHOLD and NCCL_LL128_THREAD_THRESHOLD (src/include/comm.h), the same rule's
/// bytes a thread for LL and LL128; a ring's LL one is multiplied by its ranks (ncclTopoTuneModel,
/// src/graph/tuning.cc; the 2-GPU logs: "threadThresholds 8/8/64 | 16/8/64", tree then ring).
inline constexpr int kLlThreadThreshold = 8;
inline constexpr int kLl128ThreadThreshold = 8;
/// NCCL_LL_MAX_NTHREADS and NCCL_LL128_MAX_NTHREADS (src/include/device.h): the threads of an
/// LL and an LL128 block.
inline constexpr int kLlMaxThreads = 512;
inline constexpr int kLl128MaxThreads = 640;
/// Ring/Simple kernels run NCCL_SIMPLE_MAX_NTHREADS + WARP_SIZE threads ("Extra warp for sync",
/// getAlgoInfo) and round a chunk up to (nthreads - WARP_SIZE) * 8 bytes (runRing):
/// 512 * 8 = 4096 bytes.
inline constexpr std::uint64_t kRingChunkAlignBytes = std::uint64_t{kSimpleMaxThreads} * 8;
/// The least traffic NCCL gives one channel when it splits a call over its channels
/// (MinTrafficPerChannel, scheduleCollTasksToPlan, src/enqueue.cc of NCCL 2.28.9): channels take
/// the call in cells of this over the bytes each element moves.
inline constexpr std::uint64_t kMinTrafficPerChannelBytes = 16 * 1024;

}  // namespace linkcast::nccl
