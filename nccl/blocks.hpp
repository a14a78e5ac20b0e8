#pragma once
// NCCL's channel blocks on one GPU: what a block's primitives cost it alone, and how the blocks of
// a call slow each other down as they share the GPU's memory system.

#include "nccl/collectives.hpp"

namespace linkcast::nccl {

/// One channel block's rates alone, per byte of each kind of memory operation its primitives
/// issue (MemoryOps), and the rate at which all the GPU's channel blocks together load and store
/// at most. Measured per protocol (node keys nccl_simple_*_gbps, nccl_ll128_*_gbps and
/// nccl_block_memory_gbps).
struct BlockRates {
  double load_gbps = 0, store_gbps = 0, peer_store_gbps = 0;
  double memory_gbps = 0;
  /// Whether every rate is given.
  [[nodiscard]] bool known() const {
    return load_gbps > 0 && store_gbps > 0 && peer_store_gbps > 0 && memory_gbps > 0;
  }
  /// Nanoseconds one block alone takes per element byte of a primitive with these operations.
  [[nodiscard]] double alone_ns_per_byte(const MemoryOps& ops) const {
    return ops.loads / load_gbps + ops.stores / store_gbps + ops.peer_stores / peer_store_gbps;
  }
  /// Nanoseconds of the GPU-wide ceiling the same byte takes.
  [[nodiscard]] double shared_ns_per_byte(const MemoryOps& ops) const { return ops.total() / memory_gbps; }
};

/// The fraction of its alone rate each of `blocks` identical blocks keeps when each spends
/// `own_ns` of a unit of work on its own and `shared_ns` at a resource all of them share, one unit
/// at a time (a closed queueing network of a delay and a single server, solved exactly by mean
/// value analysis): 1 for one block, falling to 1 / (blocks x shared_ns / (own_ns + shared_ns))
/// once the shared resource saturates, and smoothly between, as a block waits longer the more
/// others are queued ahead of it. own_ns + shared_ns > 0.
[[nodiscard]] double shared_block_speed(int blocks, double own_ns, double shared_ns);

}  // namespace linkcast::nccl
