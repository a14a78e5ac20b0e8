#include "nccl/blocks.hpp"

#include <algorithm>

namespace linkcast::nccl {

double shared_block_speed(int blocks, double own_ns, double shared_ns) {
  own_ns = std::max(own_ns, 0.0);
  shared_ns = std::max(shared_ns, 0.0);
  const double alone_ns = own_ns + shared_ns;
  if (blocks <= 1 || shared_ns <= 0 || alone_ns <= 0) return 1.0;
  // Mean value analysis (Reiser and Lavenberg, 1980): with k blocks, a unit's wait at the shared
  // resource is its own service plus that of the units found queued there (the queue seen with
  // k - 1 blocks); throughput follows from Little's law over the cycle.
  double queued = 0, units_per_ns = 0;
  for (int k = 1; k <= blocks; ++k) {
    const double shared_wait_ns = shared_ns * (1 + queued);
    units_per_ns = k / (own_ns + shared_wait_ns);
    queued = units_per_ns * shared_wait_ns;
  }
  return units_per_ns * alone_ns / blocks;
}

}  // namespace linkcast::nccl
