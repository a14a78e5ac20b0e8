// A collective priced the way `linkcast project` prices it: NCCL's ring algorithms as
// synchronous steps around the communicator's ring of paths on the target node, each step as
// long as its slowest edge's transfer under a transfer-time model (model/models.hpp). The
// simulator instead runs a call's every chunk (collectives.hpp, search.hpp, tuning.hpp).
#pragma once

#include <cstddef>
#include <vector>

#include "model/models.hpp"
#include "model/transfer.hpp"
#include "trace/trace.hpp"

namespace linkcast::nccl {

/// The paths a communicator's ring uses on a node, in group (rank) order.
struct RingPaths {
  std::vector<model::PathSpec> ring;        // rank k -> rank k+1 (mod n)
  std::vector<model::PathSpec> from_first;  // rank 0 -> rank k, k >= 1, for all-to-all
};

/// One call of `kind` on `nranks` ranks moving `bytes` (counted as nccl-tests counts them),
/// each step paying `fixed_ns` (the peer copy's 1-byte cost L + O), ns:
///   allreduce: reduce-scatter then all-gather, 2(n-1) steps of S/n;
///   allgather (S = output) and reducescatter (S = input): n-1 steps of S/n;
///   broadcast and reduce: S pipelined around the ring, n-1 hops of latency;
///   alltoall (S = one rank's send buffer): n-1 exchanges of S/n.
/// 0 for a communicator of one rank or without paths, and for kinds that are not collectives.
double ring_time_ns(trace::OpKind kind, std::size_t nranks, double bytes, const RingPaths& paths,
                    const model::Model& model, double fixed_ns);

}  // namespace linkcast::nccl
