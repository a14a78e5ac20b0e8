// stencil2d: a 5-point 2D Jacobi stencil over nx x ny elements, split along y into contiguous
// row blocks, one per GPU, each with a halo row above and below (NVIDIA's multi-GPU Jacobi,
// the code Snoopie and ComScribe profile). Every iteration each GPU sends its first row to the
// GPU above and its last row to the GPU below, then swaps its two buffers (a, a_new):
//  - p2p:  the kernel stores the rows straight into the neighbours' halos, one warp store per
//          32 elements (device-initiated peer stores, the issuer is the sender);
//  - copy: cudaMemcpyPeerAsync of each row with peer access enabled;
//  - host: the same copies with peer access disabled, so the driver stages them through the
//          host (two copies each).
// Per direction and neighbour pair: iters x nx x elem bytes. Only the interior computation,
// all local, is left out (it would be filtered anyway).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "synthetic/programs.hpp"

namespace linkcast::synthetic {


void stencil2d(Context& ctx) {
  const Params& p = ctx.params;
  Backend& b = ctx.backend;
  const std::uint64_t nx = p.count("nx", 1024, 1);
  const std::uint64_t ny = p.count("ny", 1024, 1);
  const std::uint64_t iters = p.count("iters", 10);
  const std::uint64_t elem = p.count("elem", 4, 1, 1024);
  const bool periodic = p.flag("periodic", false);
  const std::string mode = p.choice("mode", "p2p", {"p2p", "copy", "host"});
  const auto n = static_cast<std::uint64_t>(b.device_count());
  if (ny < n) p.fail("ny", fmt::format("{} rows cannot be split across {} GPUs; give ny >= {}", ny, n, n));

  // Rows per GPU: ny split as evenly as possible; +2 halo rows.
  const std::uint64_t row_bytes = nx * elem;
  std::vector<std::uint64_t> rows(n);
  for (std::uint64_t i = 0; i < n; ++i) rows[i] = ny / n + (i < ny % n ? 1 : 0);
  std::vector<Address> a(n), a_new(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const int d = static_cast<int>(i);
    a[i] = b.malloc_device(d, (rows[i] + 2) * row_bytes, "a", "stencil2d.cu:112");
    a_new[i] = b.malloc_device(d, (rows[i] + 2) * row_bytes, "a_new", "stencil2d.cu:113");
  }
  auto top_of = [&](std::uint64_t i) -> std::int64_t {  // the GPU above (owning the rows before)
    if (i > 0) return static_cast<std::int64_t>(i - 1);
    return periodic ? static_cast<std::int64_t>(n - 1) : -1;
  };
  auto bottom_of = [&](std::uint64_t i) -> std::int64_t {
    if (i + 1 < n) return static_cast<std::int64_t>(i + 1);
    return periodic ? 0 : -1;
  };
  if (mode == "p2p" || mode == "copy") {
    for (std::uint64_t i = 0; i < n; ++i) {
      for (const std::int64_t nb : {top_of(i), bottom_of(i)})
        if (nb >= 0 && static_cast<std::uint64_t>(nb) != i) b.enable_peer_access(static_cast<int>(i), static_cast<int>(nb));
    }
  }
  const auto warp_bytes = static_cast<std::uint32_t>(std::min<std::uint64_t>(32 * elem, 1u << 20));
  {
    // Per iteration every GPU sends two halo rows: warp-sized stores (p2p) or one copy each
    // (two through the host without peer access).
    const double per_row = mode == "p2p" ? std::ceil(static_cast<double>(row_bytes) / warp_bytes) : mode == "copy" ? 1 : 2;
    const double per_iter = 2.0 * static_cast<double>(n) * per_row;
    p.check_work("nx", per_iter, per_iter, fmt::format("rows of {} elements, per iteration", nx));
    const double all = per_iter * static_cast<double>(iters);
    p.check_work("iters", all, all, fmt::format("{} iterations of {:.3g} accesses or copies", iters, per_iter));
  }
  for (std::uint64_t it = 0; it < iters; ++it) {
    // This iteration writes a_new; the next one the other buffer (pointer swap).
    const std::vector<Address>& out = it % 2 == 0 ? a_new : a;
    for (std::uint64_t i = 0; i < n; ++i) {
      const int d = static_cast<int>(i);
      const Address first_row = out[i] + row_bytes;           // row 1
      const Address last_row = out[i] + rows[i] * row_bytes;  // row rows[i]
      const std::int64_t top = top_of(i), bottom = bottom_of(i);
      if (mode == "p2p") {
        auto k = b.launch(d, "jacobi_kernel");
        const std::uint32_t to_top = k.line("stencil2d.cu:57");
        const std::uint32_t to_bottom = k.line("stencil2d.cu:61");
        // First row -> the top neighbour's bottom halo; last row -> the bottom neighbour's top halo.
        if (top >= 0) {
          const auto t = static_cast<std::uint64_t>(top);
          k.store_range(out[t] + (rows[t] + 1) * row_bytes, row_bytes, warp_bytes, to_top);
        }
        if (bottom >= 0) k.store_range(out[static_cast<std::uint64_t>(bottom)], row_bytes, warp_bytes, to_bottom);
      } else {
        if (top >= 0) {
          const auto t = static_cast<std::uint64_t>(top);
          b.memcpy_peer(out[t] + (rows[t] + 1) * row_bytes, static_cast<int>(t), first_row, d, row_bytes,
                        "stencil2d.cu:140");
        }
        if (bottom >= 0) {
          b.memcpy_peer(out[static_cast<std::uint64_t>(bottom)], static_cast<int>(bottom), last_row, d, row_bytes,
                        "stencil2d.cu:143");
        }
      }
    }
  }
}

}  // namespace linkcast::synthetic
