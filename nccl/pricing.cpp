#include "nccl/pricing.hpp"

#include <algorithm>

namespace linkcast::nccl {

using trace::OpKind;

double ring_time_ns(OpKind kind, std::size_t nranks, double bytes, const RingPaths& paths,
                    const model::Model& model, double fixed_ns) {
  const auto n = static_cast<double>(nranks);
  if (paths.ring.empty() || nranks < 2) return 0.0;
  // The slowest edge for a step of `step_bytes`: steps are synchronous around the ring.
  auto step = [&](double step_bytes, const std::vector<model::PathSpec>& edges) {
    model::Transfer t;
    t.bytes = step_bytes;
    t.access = model::Access::write;
    t.fixed_ns = fixed_ns;
    double worst = 0;
    for (const auto& p : edges) worst = std::max(worst, model.time_ns(p, t));
    return worst;
  };
  switch (kind) {
    case OpKind::allreduce: return 2.0 * (n - 1.0) * step(bytes / n, paths.ring);
    case OpKind::allgather:
    case OpKind::reducescatter: return (n - 1.0) * step(bytes / n, paths.ring);
    case OpKind::broadcast:
    case OpKind::reduce: return step(bytes, paths.ring) + (n - 2.0) * fixed_ns;
    case OpKind::alltoall: return (n - 1.0) * step(bytes / n, paths.from_first);
    default: return 0.0;
  }
}

}  // namespace linkcast::nccl
