// bfs-ring: level-synchronous breadth-first search over a generated graph whose vertices are
// split into contiguous blocks, one per GPU (the ring BFS of Snoopie's case study, ICS'24
// sec. 5.1). Each level every GPU expands its frontier; a neighbour it owns is marked at once,
// one owned by another GPU becomes an entry (vertex, depth: 2 x 4 bytes) in its ring buffer.
// Then n-1 ring stages pass the entries on: in each stage GPU i
//   1. loads the pointer to its predecessor's flag from the flag-pointer array (8 bytes),
//   2. loads that flag (4 bytes) from the predecessor i-1,
//   3. loads the predecessor's ring-buffer entries, 32 entries (256 bytes) per warp,
// keeps the entries it owns and forwards the others in its own buffer. The flag-pointer array is
// local to each GPU, unless flags-on=N puts the only copy on GPU N: then every other GPU reads it
// from GPU N at every stage (the bug Snoopie exposed).
#include <fmt/format.h>

#include <algorithm>

#include "core/random.hpp"
#include "synthetic/programs.hpp"

namespace linkcast::synthetic {


namespace {

struct Entry {
  std::uint32_t vertex;
  std::uint32_t depth;
};

}  // namespace

/// Most edges of the generated graph (adjacency lists of 4-byte vertex ids, both directions).
constexpr std::uint64_t kMaxEdges = std::uint64_t{1} << 25;
/// Most vertices: each has an adjacency list (24 bytes, and its allocation), a ring-buffer entry
/// and flags, about 70 bytes; 2^26 of them took 4.7 GB before the chain's work was refused.
constexpr std::uint64_t kMaxVertices = std::uint64_t{1} << 22;

void bfs_ring(Context& ctx) {
  const Params& p = ctx.params;
  Backend& b = ctx.backend;
  const std::uint64_t vertices = p.count("vertices", 4096, 1, kMaxVertices);
  const std::uint64_t degree = p.count("degree", 8, 0, 1024);
  const std::string graph = p.choice("graph", "random", {"random", "chain"});
  const std::uint64_t source = p.count("source", 0);
  const std::uint64_t seed = p.count("seed", 1);
  const auto n = static_cast<std::uint64_t>(b.device_count());
  if (graph == "random" && vertices * degree > kMaxEdges) {
    p.fail(p.has("degree") ? "degree" : "vertices",
           fmt::format("{} vertices of degree {} make {} edges; the generated graph has at most {} (about 256 MiB); "
                       "lower vertices or degree",
                       vertices, degree, vertices * degree, kMaxEdges));
  }
  if (source >= vertices) p.fail("source", fmt::format("{} is not a vertex; use 0..{}", source, vertices - 1));
  if (graph == "chain") {
    // One level per vertex from the source to the chain's far end; every level's ring exchange
    // records one read of each GPU's predecessor per stage: n (n - 1) operations.
    const auto levels = static_cast<double>(std::max(source, vertices - 1 - source) + 1);
    const double ops = levels * static_cast<double>(n) * static_cast<double>(n - 1);
    p.check_work("vertices", ops, ops,
                 fmt::format("a chain searched in {} levels of {} exchanges on {} GPUs", levels, n * (n - 1), n));
  }
  std::int64_t flags_on = -1;
  if (const auto v = p.raw("flags-on"); v && *v != "off" && *v != "none") {
    flags_on = static_cast<std::int64_t>(p.count("flags-on", 0, 0, n - 1));
  }

  // The graph, as adjacency lists.
  std::vector<std::vector<std::uint32_t>> adj(vertices);
  if (graph == "chain") {
    for (std::uint64_t v = 0; v + 1 < vertices; ++v) {
      adj[v].push_back(static_cast<std::uint32_t>(v + 1));
      adj[v + 1].push_back(static_cast<std::uint32_t>(v));
    }
  } else {
    std::uint64_t state = seed;
    for (std::uint64_t v = 0; v < vertices; ++v) {
      for (std::uint64_t e = 0; e < degree; ++e) {
        const std::uint64_t u = splitmix64(state) % vertices;
        if (u == v) continue;
        adj[v].push_back(static_cast<std::uint32_t>(u));
        adj[u].push_back(static_cast<std::uint32_t>(v));
      }
    }
  }
  const std::uint64_t block = (vertices + n - 1) / n;
  auto owner = [&](std::uint64_t v) { return v / block; };

  // Buffers. Every GPU reads its predecessor's, so peer access is on all around.
  b.enable_all_peer_access();
  std::vector<Address> ring_buf(n), flag(n), flag_ptrs(n);
  const std::uint64_t entry_bytes = sizeof(Entry);
  for (std::uint64_t i = 0; i < n; ++i) {
    const int d = static_cast<int>(i);
    ring_buf[i] = b.malloc_device(d, vertices * entry_bytes, "ring_buf", "bfs_ring.cu:88");
    flag[i] = b.malloc_device(d, 64, "flag", "bfs_ring.cu:90");
    if (flags_on < 0) flag_ptrs[i] = b.malloc_device(d, n * 8, "flag_ptrs", "bfs_ring.cu:93");
  }
  if (flags_on >= 0) {
    const Address shared = b.malloc_device(static_cast<int>(flags_on), n * 8, "flag_ptrs", "bfs_ring.cu:93");
    std::fill(flag_ptrs.begin(), flag_ptrs.end(), shared);
  }

  std::vector<std::uint8_t> visited(vertices, 0);
  std::vector<std::vector<std::uint32_t>> frontier(n), next(n);
  std::vector<std::vector<Entry>> outbox(n), forward(n);
  visited[source] = 1;
  frontier[owner(source)].push_back(static_cast<std::uint32_t>(source));
  std::uint32_t depth = 0;
  std::vector<std::uint8_t> queued(vertices, 0);
  while (std::any_of(frontier.begin(), frontier.end(), [](const auto& f) { return !f.empty(); })) {
    // Expand.
    for (std::uint64_t i = 0; i < n; ++i) {
      outbox[i].clear();
      for (const std::uint32_t v : frontier[i]) {
        for (const std::uint32_t u : adj[v]) {
          if (visited[u]) continue;
          if (owner(u) == i) {
            visited[u] = 1;
            next[i].push_back(u);
          } else if (!queued[u]) {  // one entry per vertex and level from this GPU
            queued[u] = 1;
            outbox[i].push_back({u, depth + 1});
          }
        }
      }
      for (const Entry& e : outbox[i]) queued[e.vertex] = 0;
    }
    // Ring exchange: n-1 stages.
    for (std::uint64_t stage = 1; stage < n; ++stage) {
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t prev = (i + n - 1) % n;
        auto k = b.launch(static_cast<int>(i), "bfs_exchange");
        const std::uint32_t line_ptr = k.line("bfs_ring.cu:141");
        const std::uint32_t line_flag = k.line("bfs_ring.cu:142");
        const std::uint32_t line_data = k.line("bfs_ring.cu:147");
        k.load(flag_ptrs[i] + prev * 8, 8, line_ptr);
        k.load(flag[prev], 4, line_flag);
        if (!outbox[prev].empty())
          k.load_range(ring_buf[prev], outbox[prev].size() * entry_bytes, 32 * entry_bytes, line_data);
        forward[i].clear();
        for (const Entry& e : outbox[prev]) {
          if (owner(e.vertex) == i) {
            if (!visited[e.vertex]) {
              visited[e.vertex] = 1;
              next[i].push_back(e.vertex);
            }
          } else {
            forward[i].push_back(e);
          }
        }
      }
      std::swap(outbox, forward);
    }
    for (std::uint64_t i = 0; i < n; ++i) {
      frontier[i].swap(next[i]);
      next[i].clear();
    }
    ++depth;
  }
}

}  // namespace linkcast::synthetic
