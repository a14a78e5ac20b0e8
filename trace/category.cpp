#include "trace/category.hpp"

namespace linkcast::trace {

namespace {
constexpr auto kNames = std::to_array<std::string_view>(
    {"h2d_pinned", "h2d_pageable", "d2h_pinned", "d2h_pageable", "d2d", "p2p", "h2h", "access", "migrate", "memset",
     "allreduce", "allgather", "reducescatter", "broadcast", "reduce", "alltoall", "sendrecv", "kernel", "runtime",
     "annotation"});
static_assert(kNames.size() == kCategoryCount, "one name per Category");
constexpr auto kBuckets = std::to_array<std::string_view>(
    {"<=10 B", "10 B-1 KiB", "1-64 KiB", "64 KiB-1 MiB", "1-16 MiB", "16-256 MiB", ">256 MiB"});
static_assert(kBuckets.size() == kSizeBucketCount, "one label per size bucket");
}  // namespace

std::string_view to_string(Category c) { return kNames[static_cast<std::size_t>(c)]; }

std::vector<char> host_flags(const trace::Trace& trace) {
  std::vector<char> host(trace.endpoint_count());
  for (std::size_t e = 0; e < host.size(); ++e)
    host[e] = trace::is_host_name(trace.endpoint_name(static_cast<std::uint16_t>(e))) ? 1 : 0;
  return host;
}

namespace {

/// Operation i's category, given whether its source and destination are hosts.
Category categorize(const trace::Trace& trace, std::size_t i, bool src_host, bool dst_host) {
  switch (trace.kinds()[i]) {
    case OpKind::access: return Category::access;
    case OpKind::migrate: return Category::migrate;
    case OpKind::memset: return Category::memset;
    case OpKind::allreduce: return Category::allreduce;
    case OpKind::allgather: return Category::allgather;
    case OpKind::reducescatter: return Category::reducescatter;
    case OpKind::broadcast: return Category::broadcast;
    case OpKind::reduce: return Category::reduce;
    case OpKind::alltoall: return Category::alltoall;
    case OpKind::send:
    case OpKind::recv: return Category::sendrecv;
    case OpKind::kernel: return Category::kernel;
    case OpKind::runtime: return Category::runtime;
    case OpKind::annotation: return Category::annotation;
    case OpKind::copy: break;
  }
  if (src_host && dst_host) return Category::h2h;
  if (src_host) return trace.src_mems()[i] == model::MemKind::pageable ? Category::h2d_pageable : Category::h2d_pinned;
  if (dst_host) return trace.dst_mems()[i] == model::MemKind::pageable ? Category::d2h_pageable : Category::d2h_pinned;
  return trace.srcs()[i] == trace.dsts()[i] ? Category::d2d : Category::p2p;
}

}  // namespace

Category categorize(const trace::Trace& trace, std::size_t i) {
  return categorize(trace, i, trace::is_host_name(trace.endpoint_name(trace.srcs()[i])),
                    trace::is_host_name(trace.endpoint_name(trace.dsts()[i])));
}

Category categorize(const trace::Trace& trace, std::size_t i, const std::vector<char>& host) {
  return categorize(trace, i, host[trace.srcs()[i]] != 0, host[trace.dsts()[i]] != 0);
}

std::size_t size_bucket(std::uint64_t bytes) {
  if (bytes <= 10) return 0;
  if (bytes <= 1024) return 1;
  if (bytes <= 64 * 1024) return 2;
  if (bytes <= 1024 * 1024) return 3;
  if (bytes <= 16ull * 1024 * 1024) return 4;
  if (bytes <= 256ull * 1024 * 1024) return 5;
  return 6;
}

std::string_view size_bucket_label(std::size_t bucket) { return kBuckets[bucket]; }

}  // namespace linkcast::trace
