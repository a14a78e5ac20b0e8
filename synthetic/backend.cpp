#include "synthetic/backend.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/random.hpp"
#include "core/units.hpp"
#include "topology/plausibility.hpp"

namespace linkcast::synthetic {

using trace::OpKind;
using trace::Op;
using trace::is_collective;

std::string_view to_string(Backend::CopyKind kind) {
  switch (kind) {
    case Backend::CopyKind::host_to_host: return "host_to_host";
    case Backend::CopyKind::host_to_device: return "host_to_device";
    case Backend::CopyKind::device_to_host: return "device_to_host";
    case Backend::CopyKind::device_to_device: return "device_to_device";
    case Backend::CopyKind::inferred: return "inferred";
  }
  return "inferred";
}

namespace {

/// Allocations are aligned like cudaMalloc's (256 B) and separated by a guard gap so that an
/// access running past one object never lands in the next.
constexpr std::uint64_t kAlignBytes = 256;
constexpr std::uint64_t kGuardBytes = 4096;

bool on_host(model::MemKind k) { return k == model::MemKind::pinned || k == model::MemKind::pageable; }

}  // namespace

Backend::Backend(BackendOptions options) : options_(std::move(options)) {
  if (options_.gpu_ids.empty()) {
    if (options_.gpu_count < 1) throw InputError(fmt::format("backend: {} GPUs; give at least 1", options_.gpu_count));
    for (int g = 0; g < options_.gpu_count; ++g) options_.gpu_ids.push_back(g);
  }
  if (options_.gpu_ids.size() > kMaxBackendGpus)
    throw InputError(fmt::format("a synthetic workload runs on at most {} GPUs, not {} (its runtime keeps a page's "
                                 "device in a byte); give fewer in key 'gpus'",
                                 kMaxBackendGpus, options_.gpu_ids.size()));
  if (!options_.gpu_sockets.empty() && options_.gpu_sockets.size() != options_.gpu_ids.size()) {
    throw InputError(fmt::format("backend: {} host sockets given for {} GPUs", options_.gpu_sockets.size(),
                                 options_.gpu_ids.size()));
  }
  if (!(options_.sample_rate > 0.0 && options_.sample_rate <= 1.0)) {
    throw InputError(fmt::format("backend: sample rate {} is not in (0, 1]; e.g. 0.1 records one access in ten",
                                 options_.sample_rate));
  }
  if (options_.page_bytes == 0 || (options_.page_bytes & (options_.page_bytes - 1)) != 0) {
    throw InputError(fmt::format("backend: page size {} is not a power of two", options_.page_bytes));
  }
  trace_.format = "synthetic";
  for (std::size_t d = 0; d < options_.gpu_ids.size(); ++d) {
    device_names_.push_back(fmt::format("gpu{}", options_.gpu_ids[d]));
    device_endpoint_.push_back(trace_.endpoint(device_names_.back()));
  }
  const std::size_t n = device_endpoint_.size();
  if (!options_.gpu_memory_bytes.empty() && options_.gpu_memory_bytes.size() != n) {
    throw InputError(fmt::format("backend: memory given for {} GPUs of {}", options_.gpu_memory_bytes.size(), n));
  }
  for (std::size_t d = 0; d < n; ++d) {
    const std::uint64_t given = options_.gpu_memory_bytes.empty() ? 0 : options_.gpu_memory_bytes[d];
    device_memory_bytes_.push_back(given > 0 ? given : topology::kLargestGpuMemoryBytes);
  }
  device_live_bytes_.assign(n, 0);
  peer_.assign(n * n, 0);
  comm_count_.assign(n, 0);
  next_stream_ = static_cast<std::uint32_t>(n) + 1;
  rng_state_ = options_.sample_seed;
  sample_threshold_ = options_.sample_rate >= 1.0
                          ? ~std::uint64_t{0}
                          : static_cast<std::uint64_t>(std::ldexp(options_.sample_rate, 64));
}

const std::string& Backend::device_name(int device) const {
  check_device(device, "device_name");
  return device_names_[static_cast<std::size_t>(device)];
}

int Backend::device_socket(int device) const {
  check_device(device, "device_socket");
  if (options_.gpu_sockets.empty()) return -1;
  return options_.gpu_sockets[static_cast<std::size_t>(device)];
}

void Backend::no_such_device(int device, const std::string& context) const {
  throw InputError(fmt::format("{}: device {} does not exist; this run has devices 0..{} ({} GPUs)", context, device,
                               device_count() - 1, device_count()));
}

void Backend::over_budget() const {
  if (trace_.size() >= options_.max_ops) {
    if (options_.max_ops < kMaxWorkloadOps) {
      throw WorkloadLimitError(fmt::format("records more than {} operations (the limit for a workload that is "
                                           "simulated: about 500 bytes and 6 us an operation); lower its sizes or counts",
                                           options_.max_ops));
    }
    throw WorkloadLimitError(fmt::format("records more than {} operations (the limit for a workload, about {} of trace); "
                                 "lower its sizes or counts",
                                 options_.max_ops, format_bytes_compact(static_cast<double>(options_.max_ops) * 56)));
  }
  throw WorkloadLimitError(fmt::format("takes more than {} steps (device accesses its kernels issue and operations it "
                               "records; the limit for a workload); lower its sizes or counts",
                               options_.max_work));
}

void Backend::tick() const {
  if (options_.progress) options_.progress(work_, options_.max_work);
}

Address Backend::reserve(std::uint64_t bytes, std::string_view what) {
  if (bytes == 0) throw InputError(fmt::format("{}: cannot allocate 0 bytes", what));
  const Address base = next_address_;
  next_address_ += (bytes + kAlignBytes - 1) / kAlignBytes * kAlignBytes + kGuardBytes;
  return base;
}

std::uint32_t Backend::object_id(std::string_view name, std::string_view site) {
  if (name.empty() && site.empty()) return trace_.objects.intern("(unnamed allocation)");
  if (name.empty()) return trace_.objects.intern(site);
  if (site.empty()) return trace_.objects.intern(name);
  return trace_.objects.intern(fmt::format("{} ({})", name, site));
}

std::uint16_t Backend::host_endpoint(int socket) {
  return socket < 0 ? trace_.endpoint("host") : trace_.endpoint(fmt::format("cpu{}", socket));
}

Address Backend::malloc_device(int device, std::uint64_t bytes, std::string_view name, std::string_view site) {
  check_device(device, [&] { return fmt::format("cudaMalloc at {}", site); });
  const auto d = static_cast<std::size_t>(device);
  if (bytes > device_memory_bytes_[d] - device_live_bytes_[d]) {
    const bool given = !options_.gpu_memory_bytes.empty() && options_.gpu_memory_bytes[d] > 0;
    throw WorkloadLimitError(fmt::format(
        "cudaMalloc of {} at {} on {}: out of memory (cudaErrorMemoryAllocation): the GPU holds {} ({}) and {} "
        "is allocated; lower the workload's sizes",
        format_bytes(bytes), site, device_names_[d], format_bytes(device_memory_bytes_[d]),
        given ? options_.gpu_memory_source
              : "no node gives its memory: the most any GPU ships with, 288 GB (B300, MI355X)",
        format_bytes(device_live_bytes_[d])));
  }
  device_live_bytes_[d] += bytes;
  Allocation a;
  a.base = reserve(bytes, fmt::format("cudaMalloc at {}", site));
  a.bytes = bytes;
  a.kind = model::MemKind::device;
  a.device = device;
  a.endpoint = device_endpoint_[static_cast<std::size_t>(device)];
  a.object = object_id(name, site);
  allocations_.push_back(a);
  bases_.push_back(a.base);
  return a.base;
}

Address Backend::malloc_host(std::uint64_t bytes, model::MemKind kind, std::string_view name, std::string_view site,
                             int socket) {
  if (kind != model::MemKind::pinned && kind != model::MemKind::pageable) {
    throw InputError(fmt::format("host allocation at {}: kind {} is not host memory; use pinned or pageable", site,
                                 model::to_string(kind)));
  }
  Allocation a;
  a.base = reserve(bytes, fmt::format("host allocation at {}", site));
  a.bytes = bytes;
  a.kind = kind;
  a.endpoint = host_endpoint(socket);
  a.object = object_id(name, site);
  allocations_.push_back(a);
  bases_.push_back(a.base);
  return a.base;
}

Address Backend::malloc_managed(std::uint64_t bytes, std::string_view name, std::string_view site) {
  Allocation a;
  a.base = reserve(bytes, fmt::format("cudaMallocManaged at {}", site));
  a.bytes = bytes;
  a.kind = model::MemKind::managed;
  a.endpoint = host_endpoint(-1);
  a.object = object_id(name, site);
  const std::uint64_t pages = (bytes + options_.page_bytes - 1) / options_.page_bytes;
  if (page_location_.size() + pages > 0xFFFFFFFFULL) throw InputError("cudaMallocManaged: too many pages");
  a.first_page = static_cast<std::uint32_t>(page_location_.size());
  page_location_.resize(page_location_.size() + pages, kUnpopulated);
  allocations_.push_back(a);
  bases_.push_back(a.base);
  return a.base;
}

void Backend::free(Address base) {
  const std::ptrdiff_t i = find(base);
  if (i < 0 || allocations_[static_cast<std::size_t>(i)].base != base) {
    throw InputError(fmt::format("free: {:#x} is not the start of an allocation", base));
  }
  Allocation& a = allocations_[static_cast<std::size_t>(i)];
  if (a.freed) throw InputError(fmt::format("free: {} was already freed", describe(a)));
  a.freed = true;
  if (a.kind == model::MemKind::device) device_live_bytes_[static_cast<std::size_t>(a.device)] -= a.bytes;
}

std::ptrdiff_t Backend::find(Address address) const {
  // Bases only grow, so the table is sorted: the candidate is the last base <= address. A
  // branchless binary search: the comparisons of a random lookup are unpredictable, and
  // mispredicted branches would cost more than the search itself.
  if (bases_.empty() || address < bases_.front()) return -1;
  std::uint32_t& memo = memo_[static_cast<std::size_t>(address >> 16) & (kMemoSize - 1)];
  if (memo < allocations_.size()) {
    const Allocation& m = allocations_[memo];
    if (address >= m.base && address < m.base + m.bytes) return memo;
  }
  const Address* first = bases_.data();
  std::size_t len = bases_.size();
  while (len > 1) {
    const std::size_t half = len / 2;
    first = first[half] <= address ? first + half : first;
    len -= half;
  }
  const std::ptrdiff_t i = first - bases_.data();
  const Allocation& a = allocations_[static_cast<std::size_t>(i)];
  if (address >= a.base + a.bytes) return -1;
  memo = static_cast<std::uint32_t>(i);
  return i;
}

void Backend::lookup_failed(Address address, std::uint64_t bytes, std::ptrdiff_t index,
                            const std::string& context) const {
  if (index < 0) {
    throw InputError(fmt::format("{}: address {:#x} is not in any allocation (an illegal address)", context, address));
  }
  const Allocation& a = allocations_[static_cast<std::size_t>(index)];
  throw InputError(fmt::format("{}: {} bytes at offset {} run past the end of {} ({} bytes)", context, bytes,
                               address - a.base, describe(a), a.bytes));
}

std::string Backend::describe(const Allocation& a) const {
  std::string where = a.kind == model::MemKind::device ? device_names_[static_cast<std::size_t>(a.device)]
                                                        : trace_.endpoint_name(a.endpoint);
  return fmt::format("'{}' ({} memory on {})", trace_.objects[a.object], model::to_string(a.kind), where);
}

void Backend::enable_peer_access(int device, int peer) {
  check_device(device, "enable_peer_access");
  check_device(peer, "enable_peer_access");
  if (device == peer) {
    throw InputError(fmt::format("enable_peer_access: device {} cannot enable access to itself", device));
  }
  peer_[static_cast<std::size_t>(device) * device_endpoint_.size() + static_cast<std::size_t>(peer)] = 1;
}

void Backend::disable_peer_access(int device, int peer) {
  check_device(device, "disable_peer_access");
  check_device(peer, "disable_peer_access");
  peer_[static_cast<std::size_t>(device) * device_endpoint_.size() + static_cast<std::size_t>(peer)] = 0;
}

void Backend::enable_all_peer_access() {
  for (int a = 0; a < device_count(); ++a)
    for (int b = 0; b < device_count(); ++b)
      if (a != b) enable_peer_access(a, b);
}

bool Backend::peer_access(int device, int peer) const {
  if (device == peer) return true;
  return peer_[static_cast<std::size_t>(device) * device_endpoint_.size() + static_cast<std::size_t>(peer)] != 0;
}

std::uint32_t Backend::default_stream(int device) const {
  check_device(device, "default_stream");
  return static_cast<std::uint32_t>(device) + 1;
}

std::uint32_t Backend::create_stream(int device) {
  check_device(device, "create_stream");
  return next_stream_++;
}

std::uint32_t Backend::stream_for(int device, std::uint32_t stream) const {
  if (stream != 0) return stream;
  return device >= 0 ? static_cast<std::uint32_t>(device) + 1 : 0;
}

void Backend::push_copy(std::uint16_t src, std::uint16_t dst, model::MemKind src_mem, model::MemKind dst_mem,
                        std::uint64_t bytes, std::uint32_t stream, std::uint32_t object, std::uint32_t line) {
  Op op;
  op.kind = OpKind::copy;
  op.src = src;
  op.dst = dst;
  op.src_mem = src_mem;
  op.dst_mem = dst_mem;
  op.bytes = bytes;
  op.stream = stream;
  op.object = object;
  op.line = line;
  record(op);
  ++stats_.copies;
}

std::uint16_t Backend::location_endpoint(const Allocation& a, Address address) {
  if (a.kind != model::MemKind::managed) return a.endpoint;
  const std::size_t page = a.first_page + static_cast<std::size_t>((address - a.base) / options_.page_bytes);
  const std::int8_t loc = page_location_[page];
  if (loc >= 0) return device_endpoint_[static_cast<std::size_t>(loc)];
  return a.endpoint;
}

void Backend::touch_managed(const Allocation& a, Address address, std::uint64_t bytes, std::int8_t to,
                            std::uint32_t line, std::uint32_t stream) {
  const std::uint64_t first = (address - a.base) / options_.page_bytes;
  const std::uint64_t last = (address + bytes - 1 - a.base) / options_.page_bytes;
  for (std::uint64_t p = first; p <= last; ++p) {
    std::int8_t& loc = page_location_[a.first_page + static_cast<std::size_t>(p)];
    if (loc == to) continue;
    if (loc != kUnpopulated) {
      Op op;
      op.kind = OpKind::migrate;
      op.src = loc >= 0 ? device_endpoint_[static_cast<std::size_t>(loc)] : a.endpoint;
      op.dst = to >= 0 ? device_endpoint_[static_cast<std::size_t>(to)] : a.endpoint;
      op.src_mem = model::MemKind::managed;
      op.dst_mem = model::MemKind::managed;
      op.bytes = std::min(options_.page_bytes, a.bytes - p * options_.page_bytes);
      op.stream = stream;
      op.object = a.object;
      op.line = line;
      record(op);
      ++stats_.migrated_pages;
    }
    loc = to;
  }
}

void Backend::memcpy(Address dst, Address src, std::uint64_t bytes, CopyKind kind, std::string_view site,
                     std::uint32_t stream) {
  if (bytes == 0) return;
  const auto context = [&] { return fmt::format("memcpy ({}) at {}", to_string(kind), site); };
  const Allocation& s = lookup(src, bytes, [&] { return context() + " source"; });
  const Allocation& d = lookup(dst, bytes, [&] { return context() + " destination"; });
  const bool src_host = on_host(s.kind), dst_host = on_host(d.kind);
  const bool src_dev = s.kind == model::MemKind::device, dst_dev = d.kind == model::MemKind::device;
  auto mismatch = [&](const Allocation& a, const char* end, const char* expected) {
    throw InputError(fmt::format("{}: the {} {} is not {} memory; use the kind that matches the pointers, or "
                                 "inferred (cudaMemcpyDefault)",
                                 context(), end, describe(a), expected));
  };
  switch (kind) {
    case CopyKind::host_to_host:
      if (src_dev) mismatch(s, "source", "host");
      if (dst_dev) mismatch(d, "destination", "host");
      break;
    case CopyKind::host_to_device:
      if (src_dev) mismatch(s, "source", "host");
      if (dst_host) mismatch(d, "destination", "device");
      break;
    case CopyKind::device_to_host:
      if (src_host) mismatch(s, "source", "device");
      if (dst_dev) mismatch(d, "destination", "host");
      break;
    case CopyKind::device_to_device:
      if (src_host) mismatch(s, "source", "device");
      if (dst_host) mismatch(d, "destination", "device");
      break;
    case CopyKind::inferred: break;
  }
  // Managed ends are wherever their first page lives (an unpopulated page counts as host).
  const std::uint16_t src_ep = location_endpoint(s, src), dst_ep = location_endpoint(d, dst);
  const int src_device = src_dev ? s.device : -1;
  const int dst_device = dst_dev ? d.device : -1;
  const std::uint32_t line = trace_.lines.intern(site);
  const int stream_device = src_device >= 0 ? src_device : dst_device;
  const std::uint32_t st = stream_for(stream_device, stream);
  if (src_device >= 0 && dst_device >= 0 && src_device != dst_device &&
      !peer_access(src_device, dst_device) && !peer_access(dst_device, src_device)) {
    // No peer access: the driver stages the copy through pinned host memory next to the source.
    // Each leg is attributed to the user's object it reads or writes.
    const std::uint16_t host = host_endpoint(device_socket(src_device));
    push_copy(src_ep, host, s.kind, model::MemKind::pinned, bytes, st, s.object, line);
    push_copy(host, dst_ep, model::MemKind::pinned, d.kind, bytes, st, d.object, line);
    ++stats_.staged_copies;
    return;
  }
  push_copy(src_ep, dst_ep, s.kind, d.kind, bytes, st, src_host ? d.object : s.object, line);
}

void Backend::memcpy_peer(Address dst, int dst_device, Address src, int src_device, std::uint64_t bytes,
                          std::string_view site, std::uint32_t stream) {
  const auto context = [&] { return fmt::format("memcpy_peer at {}", site); };
  check_device(dst_device, context);
  check_device(src_device, context);
  const Allocation& s = lookup(src, bytes == 0 ? 1 : bytes, [&] { return context() + " source"; });
  const Allocation& d = lookup(dst, bytes == 0 ? 1 : bytes, [&] { return context() + " destination"; });
  if (s.kind != model::MemKind::device || s.device != src_device) {
    throw InputError(fmt::format("{}: the source {} is not memory of device {}", context(), describe(s), src_device));
  }
  if (d.kind != model::MemKind::device || d.device != dst_device) {
    throw InputError(
        fmt::format("{}: the destination {} is not memory of device {}", context(), describe(d), dst_device));
  }
  memcpy(dst, src, bytes, CopyKind::device_to_device, site, stream);
}

void Backend::memset(Address dst, std::uint64_t bytes, std::string_view site, std::uint32_t stream) {
  if (bytes == 0) return;
  const auto context = [&] { return fmt::format("memset at {}", site); };
  const Allocation& d = lookup(dst, bytes, context);
  if (d.kind != model::MemKind::device) {
    throw InputError(fmt::format("{}: {} is not device memory; cudaMemset writes GPU memory", context(), describe(d)));
  }
  Op op;
  op.kind = OpKind::memset;
  op.src = op.dst = d.endpoint;
  op.src_mem = op.dst_mem = model::MemKind::device;
  op.bytes = bytes;
  op.stream = stream_for(d.device, stream);
  op.object = d.object;
  op.line = trace_.lines.intern(site);
  record(op);
}

void Backend::host_access(Address address, std::uint64_t bytes, std::string_view site) {
  if (bytes == 0) return;
  const Allocation& a = lookup(address, bytes, [&] { return fmt::format("host access at {}", site); });
  if (a.kind == model::MemKind::device) {
    throw InputError(fmt::format("host access at {}: {} is device memory; the host cannot touch it (copy it "
                                 "with memcpy)",
                                 site, describe(a)));
  }
  if (a.kind == model::MemKind::managed) touch_managed(a, address, bytes, kOnHost, trace_.lines.intern(site), 0);
}

bool Backend::sample() {
  if (sample_threshold_ == ~std::uint64_t{0}) return true;
  return splitmix64(rng_state_) < sample_threshold_;
}

Backend::Kernel Backend::launch(int device, std::string_view name, std::uint32_t stream) {
  check_device(device, [&] { return fmt::format("launch of kernel '{}'", name); });
  return Kernel(*this, device, std::string(name), stream_for(device, stream),
                device_endpoint_[static_cast<std::size_t>(device)]);
}

std::uint32_t Backend::Kernel::line(std::string_view file_line) { return backend_->trace_.lines.intern(file_line); }

void Backend::Kernel::access(Address address, std::uint32_t bytes, std::uint32_t line, bool store) {
  Backend& b = *backend_;
  ++b.stats_.device_accesses;
  b.spend(1);
  if (address < cached_begin_ || address + bytes > cached_end_) {
    const Allocation& hit = b.lookup(address, bytes, [&] {
      return fmt::format("kernel '{}' on {} ({} at line '{}')", name_, b.device_names_[static_cast<std::size_t>(device_)],
                         store ? "store" : "load", b.trace_.lines[line]);
    });
    cached_index_ = static_cast<std::size_t>(&hit - b.allocations_.data());
    cached_begin_ = b.allocations_[cached_index_].base;
    cached_end_ = cached_begin_ + b.allocations_[cached_index_].bytes;
  }
  const Allocation& a = b.allocations_[cached_index_];
  if (a.freed) ++b.stats_.accesses_after_free;
  Op op;
  switch (a.kind) {
    case model::MemKind::device: {
      if (a.device == device_) {
        ++b.stats_.local_accesses;
        return;
      }
      if (!b.peer_access(device_, a.device)) {
        throw InputError(fmt::format("kernel '{}' on {} {} {} at line '{}' without peer access; call "
                                     "enable_peer_access({}, {}) first",
                                     name_, b.device_names_[static_cast<std::size_t>(device_)],
                                     store ? "stores to" : "loads from", b.describe(a), b.trace_.lines[line], device_,
                                     a.device));
      }
      op.src_mem = op.dst_mem = model::MemKind::device;
      break;
    }
    case model::MemKind::pinned:  // zero-copy: mapped pinned host memory
      op.src_mem = store ? model::MemKind::device : model::MemKind::pinned;
      op.dst_mem = store ? model::MemKind::pinned : model::MemKind::device;
      break;
    case model::MemKind::managed:
      b.touch_managed(a, address, bytes, static_cast<std::int8_t>(device_), line, stream_);
      ++b.stats_.local_accesses;
      return;
    default:
      throw InputError(fmt::format("kernel '{}' on {} {} {} at line '{}': pageable host memory is not mapped into "
                                   "the GPU's address space; allocate it pinned (cudaMallocHost) for zero-copy",
                                   name_, b.device_names_[static_cast<std::size_t>(device_)],
                                   store ? "stores to" : "loads from", b.describe(a), b.trace_.lines[line]));
  }
  ++b.stats_.remote_accesses;
  if (!b.sample()) return;
  ++b.stats_.recorded_accesses;
  op.kind = OpKind::access;
  op.src = store ? endpoint_ : a.endpoint;
  op.dst = store ? a.endpoint : endpoint_;
  op.issuer = endpoint_;
  op.bytes = bytes;
  op.stream = stream_;
  op.object = a.object;
  op.line = line;
  b.record(op);
}

void Backend::Kernel::load_range(Address address, std::uint64_t bytes, std::uint32_t warp_bytes, std::uint32_t line) {
  if (warp_bytes == 0) throw InputError(fmt::format("kernel '{}': warp access size is 0 bytes", name_));
  for (std::uint64_t off = 0; off < bytes; off += warp_bytes)
    access(address + off, static_cast<std::uint32_t>(std::min<std::uint64_t>(warp_bytes, bytes - off)), line, false);
}

void Backend::Kernel::store_range(Address address, std::uint64_t bytes, std::uint32_t warp_bytes, std::uint32_t line) {
  if (warp_bytes == 0) throw InputError(fmt::format("kernel '{}': warp access size is 0 bytes", name_));
  for (std::uint64_t off = 0; off < bytes; off += warp_bytes)
    access(address + off, static_cast<std::uint32_t>(std::min<std::uint64_t>(warp_bytes, bytes - off)), line, true);
}

// --- communicators ---------------------------------------------------------------------------

Backend::Communicator Backend::comm_init_all(const std::vector<int>& devices) {
  if (devices.empty()) throw InputError("comm_init_all: give at least one device");
  std::vector<std::uint8_t> seen(device_endpoint_.size(), 0);
  int most = 0;
  for (int d : devices) {
    check_device(d, "comm_init_all");
    if (seen[static_cast<std::size_t>(d)]++) {
      throw InputError(fmt::format("comm_init_all: device {} appears twice; each rank needs its own GPU", d));
    }
    most = std::max(most, comm_count_[static_cast<std::size_t>(d)]);
  }
  bool first_world = true;
  for (int c : comm_count_) first_world = first_world && c == 0;
  Communicator c;
  c.name = first_world ? "W" : fmt::format("W_i{}", most);
  c.devices = devices;
  c.comm = trace_.comms.intern(c.name);
  std::vector<std::uint16_t> members;
  for (int d : devices) members.push_back(device_endpoint_[static_cast<std::size_t>(d)]);
  c.group = trace_.add_group(members);
  for (int d : devices) ++comm_count_[static_cast<std::size_t>(d)];
  return c;
}

std::vector<Backend::Communicator> Backend::comm_split(const Communicator& parent, const std::vector<int>& color,
                                                       const std::vector<int>& key) {
  const std::size_t n = parent.devices.size();
  if (color.size() != n) {
    throw InputError(fmt::format("comm_split of '{}': {} colors for {} ranks; give one per rank", parent.name,
                                 color.size(), n));
  }
  if (!key.empty() && key.size() != n) {
    throw InputError(
        fmt::format("comm_split of '{}': {} keys for {} ranks; give one per rank or none", parent.name, key.size(), n));
  }
  int most = 0;
  for (int d : parent.devices) most = std::max(most, comm_count_[static_cast<std::size_t>(d)]);
  std::vector<int> colors;
  for (int c : color)
    if (c >= 0 && std::find(colors.begin(), colors.end(), c) == colors.end()) colors.push_back(c);
  std::vector<Communicator> out;
  for (int c : colors) {
    std::vector<std::size_t> ranks;
    for (std::size_t r = 0; r < n; ++r)
      if (color[r] == c) ranks.push_back(r);
    std::stable_sort(ranks.begin(), ranks.end(), [&](std::size_t a, std::size_t b) {
      const int ka = key.empty() ? static_cast<int>(a) : key[a];
      const int kb = key.empty() ? static_cast<int>(b) : key[b];
      return ka != kb ? ka < kb : a < b;
    });
    Communicator comm;
    comm.name = fmt::format("{}_s{}.{}", parent.name, most, *std::min_element(ranks.begin(), ranks.end()));
    std::vector<std::uint16_t> members;
    for (std::size_t r : ranks) {
      comm.devices.push_back(parent.devices[r]);
      members.push_back(device_endpoint_[static_cast<std::size_t>(parent.devices[r])]);
    }
    comm.comm = trace_.comms.intern(comm.name);
    comm.group = trace_.add_group(members);
    out.push_back(std::move(comm));
  }
  for (const Communicator& comm : out)
    for (int d : comm.devices) ++comm_count_[static_cast<std::size_t>(d)];
  return out;
}

Backend::Communicator Backend::comm_dup(const Communicator& parent) {
  int most = 0;
  for (int d : parent.devices) most = std::max(most, comm_count_[static_cast<std::size_t>(d)]);
  Communicator c = parent;
  c.name = fmt::format("{}_d{}", parent.name, most);
  c.comm = trace_.comms.intern(c.name);
  for (int d : parent.devices) ++comm_count_[static_cast<std::size_t>(d)];
  return c;
}

void Backend::collective(OpKind kind, const Communicator& comm, const std::vector<Address>& send,
                         const std::vector<Address>& recv, std::uint64_t bytes, std::string_view site, int root,
                         std::uint32_t stream) {
  const auto context = [&] { return fmt::format("{} on '{}' at {}", to_string(kind), comm.name, site); };
  if (!is_collective(kind)) throw InputError(fmt::format("{}: not a collective operation", context()));
  const std::size_t n = comm.devices.size();
  if (send.size() != n || recv.size() != n) {
    throw InputError(fmt::format("{}: {} send and {} receive buffers for {} ranks; give one of each per rank", context(),
                                 send.size(), recv.size(), n));
  }
  const bool rooted = kind == OpKind::broadcast || kind == OpKind::reduce;
  if (rooted && (root < 0 || root >= static_cast<int>(n))) {
    throw InputError(fmt::format("{}: root {} is not a rank; use 0..{}", context(), root, n - 1));
  }
  const std::uint64_t block = n == 0 ? 0 : bytes / n;
  const std::uint64_t send_need = kind == OpKind::allgather ? block : bytes;
  const std::uint64_t recv_need = kind == OpKind::reducescatter ? block : bytes;
  const std::uint32_t line = trace_.lines.intern(site);
  for (std::size_t r = 0; r < n; ++r) {
    const int device = comm.devices[r];
    auto check = [&](Address addr, std::uint64_t need, const char* what) -> const Allocation& {
      const Allocation& a = lookup(addr, std::max<std::uint64_t>(need, 1),
                                   [&] { return fmt::format("{}: rank {} {} buffer", context(), r, what); });
      if (a.kind != model::MemKind::device || a.device != device) {
        throw InputError(fmt::format("{}: rank {}'s {} buffer {} is not memory of its GPU {}", context(), r, what,
                                     describe(a), device_names_[static_cast<std::size_t>(device)]));
      }
      return a;
    };
    check(send[r], send_need, "send");
    const Allocation& out = check(recv[r], recv_need, "receive");
    Op op;
    op.kind = kind;
    op.src = op.dst = device_endpoint_[static_cast<std::size_t>(device)];
    op.src_mem = op.dst_mem = model::MemKind::device;
    op.bytes = bytes;
    op.stream = stream_for(device, stream);
    op.object = out.object;
    op.line = line;
    op.comm = comm.comm;
    op.group = comm.group;
    op.root = rooted ? static_cast<std::int16_t>(root) : std::int16_t{-1};
    record(op);
  }
  ++stats_.collectives;
}

}  // namespace linkcast::synthetic
