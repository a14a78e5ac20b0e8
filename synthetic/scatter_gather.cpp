// scatter-gather (MGBench; ComScribe case 4, Fig. 3g): the host copies a buffer to every GPU
// with cudaMemcpyAsync(HostToDevice), then gathers it back with DeviceToHost. Each GPU's host
// buffer lives on the GPU's own socket when the node says which.
#include <fmt/format.h>

#include "synthetic/programs.hpp"

namespace linkcast::synthetic {


void scatter_gather(Context& ctx) {
  const Params& p = ctx.params;
  Backend& b = ctx.backend;
  const std::uint64_t bytes = p.size("bytes", std::uint64_t{64} << 20, 1);
  const std::uint64_t iters = p.count("iters", 1);
  const bool pinned = p.flag("pinned", true);
  const int n = b.device_count();
  const double copies = 2.0 * static_cast<double>(iters) * n;
  p.check_work("iters", copies, copies, fmt::format("{} iterations of 2 copies to and from {} GPUs", iters, n));
  std::vector<Address> host(static_cast<std::size_t>(n)), dev(static_cast<std::size_t>(n));
  for (int d = 0; d < n; ++d) {
    host[static_cast<std::size_t>(d)] =
        b.malloc_host(bytes, pinned ? model::MemKind::pinned : model::MemKind::pageable, "host_buf",
                      "scatter_gather.cu:61", b.device_socket(d));
    dev[static_cast<std::size_t>(d)] = b.malloc_device(d, bytes, "dev_buf", "scatter_gather.cu:64");
  }
  for (std::uint64_t it = 0; it < iters; ++it) {
    for (int d = 0; d < n; ++d)
      b.memcpy(dev[static_cast<std::size_t>(d)], host[static_cast<std::size_t>(d)], bytes,
               Backend::CopyKind::host_to_device, "scatter_gather.cu:80");
    for (int d = 0; d < n; ++d)
      b.memcpy(host[static_cast<std::size_t>(d)], dev[static_cast<std::size_t>(d)], bytes,
               Backend::CopyKind::device_to_host, "scatter_gather.cu:92");
  }
}

}  // namespace linkcast::synthetic
