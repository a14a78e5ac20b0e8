#include "sim/app_graph.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace linkcast::sim {

using trace::kNoIndex;
using trace::OpKind;

namespace {

/// GPU work that started within this long of its stream predecessor's end was held by its stream
/// (a stream's back-to-back kernels start 1-3 us apart on Hopper).
constexpr double kStreamSlackNs = 3000;
/// The same for work launched long before it ran (the CPU ahead of a backlogged GPU): behind
/// memsets and some kernels the next work starts 3-10 us after its predecessor's end (3,016 of
/// the 3,159 such gaps of 3-100 us in the recorded apps, tests/data/real/h*-1gpu-apps*:
/// tools/results/stream_gaps.py).
constexpr double kBackloggedStreamSlackNs = 10000;
/// A wait across streams: the other stream's work ended at most this long before the start.
constexpr double kCrossStreamSlackNs = 3000;
/// A runtime call shorter than this is taken not to block (the calls that block for a few
/// microseconds change nothing measurable).
constexpr double kMinBlockingCallNs = 10000;
/// A call that returns at most this long after GPU work ended was released by it; named
/// synchronisations return later after the work they waited for (the driver's wake-up).
constexpr double kCallTailNs = 20000;
constexpr double kSyncTailNs = 100000;
/// A thread idle for longer than this between two calls may have been woken by another thread
/// (PyTorch's autograd thread starts a backward pass 0.2-0.6 ms after the main thread's last
/// forward launch: tests/data/real/h100-1gpu-apps/app_*.json.gz); shorter gaps are CPU work.
constexpr double kIdleGapNs = 500000;
/// Launch latency when a trace shows none held only by its launch.
constexpr double kDefaultLaunchNs = 5000;
/// How many of its thread's calls before (and after) an annotation with no call inside are
/// looked at for the one it keeps its distance from; beyond, it keeps its recorded time.
constexpr std::ptrdiff_t kAnchorSearchCalls = 8;
/// How many GPU works that ended while a free ran are looked at for the one it waited for (the
/// latest its own thread launched before it); beyond, it waited for none.
constexpr std::size_t kFreeCandidates = 64;

/// Whether a runtime call frees memory in a way that first waits for all of the device's work
/// (cudaFree, cudaFreeHost, cuMemFree and their versioned nsys names; not the stream-ordered
/// cudaFreeAsync): it then runs its own work, so it returns as long after the device's last work
/// as that takes. In tests/data/real/h200-1gpu-apps15/app_empty_cache_mlp.json.gz each step's
/// first cudaFree (torch.cuda.empty_cache()) began while a kernel ran and returned 184-202 us
/// after the device's last work ended, 3.2-3.9 ms after it began; the nine after it took
/// 67-120 us each with the device idle.
bool frees_after_the_device(std::string_view name) {
  for (std::string_view f : {"cudaFree", "cudaFreeHost", "cudaFreeArray", "cuMemFree", "cuMemFreeHost"})
    if (name == f || (name.starts_with(f) && name.substr(f.size()).starts_with("_v"))) return true;
  return false;
}

/// A query of an event or a stream (returns at once, done or not).
bool is_poll_call(std::string_view name) {
  return name.find("EventQuery") != std::string_view::npos || name.find("StreamQuery") != std::string_view::npos;
}

bool is_sync_call(std::string_view name) {
  return name.find("Synchronize") != std::string_view::npos || name == "cudaMemcpy" || name == "cuMemcpy" ||
         name.find("Memcpy") != std::string_view::npos || is_poll_call(name);
}

/// Records in the order of their recorded ends (ties by record): 4 bytes a record, the end read
/// from the trace where it is compared (a pair with the end took 16 and was a quarter of a long
/// replay's peak memory).
class ByEnd {
 public:
  explicit ByEnd(const trace::Trace& t) : t_(&t) {}
  std::int64_t end(std::uint32_t record) const { return trace::recorded_end_ns(*t_, record); }
  void sort(std::vector<std::uint32_t>& records) const {
    std::sort(records.begin(), records.end(), [this](std::uint32_t a, std::uint32_t b) {
      const std::int64_t ea = end(a), eb = end(b);
      return ea < eb || (ea == eb && a < b);
    });
  }
  /// The first of `records` (sorted) that ends after `ns`.
  std::vector<std::uint32_t>::const_iterator first_ending_after(const std::vector<std::uint32_t>& records,
                                                                std::int64_t ns) const {
    return std::upper_bound(records.begin(), records.end(), ns,
                            [this](std::int64_t v, std::uint32_t r) { return v < end(r); });
  }

 private:
  const trace::Trace* t_;
};

/// "823" of a thread named "823/860" (the profiler's process and thread ids).
std::string_view process_of(std::string_view thread) {
  const std::size_t slash = thread.find('/');
  return slash == std::string_view::npos ? thread : thread.substr(0, slash);
}

/// The polls of one thread's calls (in order): each run of two or more top-level polls, each
/// following the one before with only CPU time between, where the latest-ending GPU work the
/// thread had launched before the run ended after the poll before the last began and before the
/// last began: the last poll saw all of it done (the caching allocator's and DDP's queries of one
/// event among others, 1-3 us apart while launched work is still queued, do not). It waits for
/// that work and ends as long after it as recorded, following the run's first poll with no CPU
/// time between; the polls between run inside it, from its start. A run ends at a poll after
/// which another thread woke (`wakes`, by call) and before an annotation edge of the thread
/// (`annotation_edges_ns`, sorted starts and ends). `latest_launched[c]`: the latest-ending work
/// call c launched (kNoIndex where none).
void link_poll_runs(const trace::Trace& t, const std::vector<std::uint32_t>& calls,
                    const std::vector<std::uint32_t>& latest_launched, const std::vector<char>& wakes,
                    const std::vector<std::int64_t>& annotation_edges_ns, AppGraph& a) {
  const auto& starts = t.starts();
  const auto is_poll = [&](std::uint32_t c) {
    return a.parent[c] == kNoIndex && a.awaits[c] == kNoIndex && is_poll_call(t.op_names[t.names()[c]]);
  };
  std::uint32_t latest = kNoIndex;  // the latest-ending work launched by the calls so far
  const auto note_launches = [&](std::uint32_t c) {
    const std::uint32_t w = latest_launched[c];
    if (w != kNoIndex && (latest == kNoIndex || trace::recorded_end_ns(t, w) > trace::recorded_end_ns(t, latest))) latest = w;
  };
  std::size_t first = 0;
  while (first < calls.size()) {
    if (!is_poll(calls[first])) {
      note_launches(calls[first++]);
      continue;
    }
    // The run: calls[first .. last], each top-level poll following the one before.
    std::size_t last = first, next = first + 1;
    for (; next < calls.size(); ++next) {
      const std::uint32_t c = calls[next];
      if (a.parent[c] != kNoIndex) continue;  // a driver call inside a poll
      if (!is_poll(c) || a.chain_prev[c] != calls[last] || a.woken_by[c] != kNoIndex) break;
      // An annotation of the thread that begins or ends between two polls (a step's edge, a
      // range around each poll) ends the run: the polls it holds stay where it says.
      const auto edge = std::upper_bound(annotation_edges_ns.begin(), annotation_edges_ns.end(), starts[calls[last]]);
      if (edge != annotation_edges_ns.end() && *edge < starts[c]) break;
      last = next;
      // A poll after which another thread woke ends the run: that thread follows it.
      if (wakes[c]) {
        ++next;
        break;
      }
    }
    const std::uint32_t q0 = calls[first], qk = calls[last];
    std::uint32_t before = kNoIndex;  // the poll before the last
    for (std::size_t j = last; j-- > first;)
      if (a.parent[calls[j]] == kNoIndex) {
        before = calls[j];
        break;
      }
    const std::size_t run_end = next;
    for (std::size_t j = first; j < run_end; ++j) note_launches(calls[j]);  // a driver call inside a poll may launch
    first = run_end;
    if (before == kNoIndex || latest == kNoIndex) continue;
    const std::int64_t seen_end_ns = trace::recorded_end_ns(t, latest);
    if (seen_end_ns <= starts[before] || seen_end_ns > starts[qk]) continue;
    a.awaits[qk] = latest;
    a.tail_ns[qk] = static_cast<double>(trace::recorded_end_ns(t, qk) - seen_end_ns);
    a.chain_prev[qk] = q0;
    a.gap_ns[qk] = 0;
    for (std::size_t j = run_end; j-- > 0 && calls[j] != q0;) {
      const std::uint32_t c = calls[j];
      if (c == qk || a.parent[c] != kNoIndex) continue;
      a.chain_prev[c] = kNoIndex;
      a.parent[c] = qk;
      a.gap_ns[c] = 0;
    }
    ++a.blocking_calls;
    ++a.poll_runs;
  }
}

}  // namespace

AppGraph infer_app_graph(const trace::Trace& t) {
  const std::size_t n = t.size();
  AppGraph a;
  a.chain_prev.assign(n, kNoIndex);
  a.parent.assign(n, kNoIndex);
  a.gap_ns.assign(n, 0.0);
  a.own_ns.assign(n, 0.0);
  a.awaits.assign(n, kNoIndex);
  a.tail_ns.assign(n, 0.0);
  a.launch_ns.assign(n, 0.0);
  a.after.assign(n, kNoIndex);
  a.fills_gpu.assign(n, 0);
  a.woken_by.assign(n, kNoIndex);
  a.t0_ns = std::numeric_limits<std::int64_t>::max();
  for (std::int64_t s : t.starts())
    if (s >= 0) a.t0_ns = std::min(a.t0_ns, s);
  if (a.t0_ns == std::numeric_limits<std::int64_t>::max()) a.t0_ns = 0;
  const auto& kinds = t.kinds();
  const auto& starts = t.starts();
  const auto& launches = t.launches();

  // GPU work per (GPU endpoint, stream), and ends per GPU for waits across streams.
  std::map<std::pair<std::uint16_t, std::uint32_t>, std::uint32_t> last_on_stream;
  std::vector<std::uint32_t> stream_prev(n, kNoIndex);
  const ByEnd by_end(t);
  std::unordered_map<std::uint16_t, std::vector<std::uint32_t>> ends_by_gpu;
  std::vector<std::uint32_t> all_ends;
  for (std::size_t i = 0; i < n; ++i) {
    if (!trace::runs_on_gpu(kinds[i]) || starts[i] < 0) continue;
    const std::uint16_t gpu = t.srcs()[i];
    const auto key = std::make_pair(gpu, t.streams()[i]);
    if (const auto it = last_on_stream.find(key); it != last_on_stream.end()) stream_prev[i] = it->second;
    last_on_stream[key] = static_cast<std::uint32_t>(i);
    ends_by_gpu[gpu].push_back(static_cast<std::uint32_t>(i));
    all_ends.push_back(static_cast<std::uint32_t>(i));
  }
  for (auto& [gpu, v] : ends_by_gpu) by_end.sort(v);
  by_end.sort(all_ends);

  // GPU that fills every SM.
  for (std::size_t i = 0; i < n; ++i) {
    if (kinds[i] == OpKind::copy && t.srcs()[i] == t.dsts()[i] && !trace::is_host_name(t.endpoint_name(t.srcs()[i])) &&
        t.bytes()[i] >= kGpuFillingCopyBytes) {
      a.fills_gpu[i] = 1;
    } else if (kinds[i] == OpKind::kernel) {
      const std::uint32_t k = t.op(i).kernel;
      if (k == kNoIndex) continue;
      const trace::KernelInfo& info = t.kernel_info(k);
      const double warps_per_block = std::ceil(static_cast<double>(info.block_threads) / 32.0);
      if (info.blocks_per_sm > 0 && warps_per_block > 0 &&
          static_cast<double>(info.blocks_per_sm) * warps_per_block > kMaxWarpsPerSm)
        a.fills_gpu[i] = 1;
    }
    a.gpu_filling += a.fills_gpu[i];
  }

  // GPU-filling work per GPU, by start: what may hold work that starts while it runs.
  std::unordered_map<std::uint16_t, std::vector<std::uint32_t>> filling_by_gpu;
  for (std::size_t i = 0; i < n; ++i)
    if (a.fills_gpu[i] && trace::runs_on_gpu(kinds[i]) && starts[i] >= 0)
      filling_by_gpu[t.srcs()[i]].push_back(static_cast<std::uint32_t>(i));
  for (auto& [gpu, v] : filling_by_gpu)
    std::sort(v.begin(), v.end(), [&](std::uint32_t x, std::uint32_t y) { return starts[x] < starts[y] || (starts[x] == starts[y] && x < y); });
  // The GPU-filling work on another stream of work i's GPU that was running when i started (the
  // latest to start of those), else kNoIndex.
  const auto filling_at_start = [&](std::size_t i) -> std::uint32_t {
    const auto f = filling_by_gpu.find(t.srcs()[i]);
    if (f == filling_by_gpu.end()) return kNoIndex;
    const auto& v = f->second;
    auto it = std::lower_bound(v.begin(), v.end(), starts[i], [&](std::uint32_t x, std::int64_t s) { return starts[x] < s; });
    // A few of the latest to start before i: GPU-filling work mostly runs one at a time.
    for (int looked = 0; it != v.begin() && looked < 8; ++looked) {
      --it;
      if (*it != i && t.streams()[*it] != t.streams()[i] && trace::recorded_end_ns(t, *it) > starts[i]) return *it;
    }
    return kNoIndex;
  };

  // The launch latency of work held only by its launch: the trace's own median.
  std::vector<double> free_latencies;
  for (std::size_t i = 0; i < n; ++i) {
    if (!trace::runs_on_gpu(kinds[i]) || launches[i] == kNoIndex || starts[i] < 0) continue;
    const std::uint32_t p = stream_prev[i];
    const double since_prev = p == kNoIndex ? 1e18 : static_cast<double>(starts[i] - trace::recorded_end_ns(t, p));
    const double since_call = static_cast<double>(starts[i] - starts[launches[i]]);
    if (since_prev > 50000 && since_call >= 0 && since_call < 50000) free_latencies.push_back(since_call);
  }
  double typical_launch = kDefaultLaunchNs;
  if (!free_latencies.empty()) {
    std::nth_element(free_latencies.begin(), free_latencies.begin() + static_cast<long>(free_latencies.size() / 2),
                     free_latencies.end());
    typical_launch = free_latencies[free_latencies.size() / 2];
  }

  // What held each piece of GPU work.
  for (std::size_t i = 0; i < n; ++i) {
    if (!trace::runs_on_gpu(kinds[i]) || starts[i] < 0) continue;
    const std::uint32_t call = launches[i];
    if (call != kNoIndex) ++a.launch_links;
    const std::uint32_t p = stream_prev[i];
    const double start = static_cast<double>(starts[i]);
    const double since_prev = p == kNoIndex ? 0.0 : start - static_cast<double>(trace::recorded_end_ns(t, p));
    if (p != kNoIndex && since_prev <= kStreamSlackNs) {
      a.launch_ns[i] = typical_launch;  // held by its stream
      if (since_prev > 0) a.stream_gaps.push_back({static_cast<std::uint32_t>(i), p, since_prev});
      continue;
    }
    const double since_call = call == kNoIndex ? 0.0 : start - static_cast<double>(starts[call]);
    const bool launch_explains = call != kNoIndex && since_call <= 2.0 * typical_launch + 5000;
    if (!launch_explains) {
      // Held by neither: look for work on another stream of its GPU that ended just before.
      const auto& ends = ends_by_gpu[t.srcs()[i]];
      auto it = by_end.first_ending_after(ends, starts[i]);
      while (it != ends.begin()) {
        --it;
        if (static_cast<double>(starts[i] - by_end.end(*it)) > kCrossStreamSlackNs) break;
        if (*it != i && t.streams()[*it] != t.streams()[i]) {
          a.after[i] = *it;
          ++a.cross_stream_waits;
          break;
        }
      }
    }
    // Launched long before it ran, with nothing on another stream ending just before it, and its
    // predecessor on its stream ended just before it: that predecessor held it. Its delay after
    // the call is the GPU's whole backlog where the CPU ran ahead; kept as a launch delay, it
    // would stall a faster GPU's stream until that delay passed (a kernel 3.3 us after a memset,
    // 13.8 ms after its launch: tests/data/real/h100-1gpu-apps/app_d2d_beside_compute.json.gz,
    // ProfilerStep#4).
    if (!launch_explains && a.after[i] == kNoIndex && p != kNoIndex && since_prev <= kBackloggedStreamSlackNs) {
      a.stream_gaps.push_back({static_cast<std::uint32_t>(i), p, since_prev});
      a.launch_ns[i] = call == kNoIndex ? 0.0 : typical_launch;
      continue;
    }
    // Held by none of those, while GPU-filling work ran on another stream: it waited for its SMs.
    if (a.after[i] == kNoIndex && !launch_explains)
      if (const std::uint32_t by = filling_at_start(i); by != kNoIndex) {
        a.sm_holds.push_back({static_cast<std::uint32_t>(i), by, start - static_cast<double>(starts[by])});
        ++a.sm_waits;
        a.launch_ns[i] = call == kNoIndex ? 0.0 : typical_launch;
        continue;
      }
    // Launched work keeps its recorded delay after its call when nothing else explains it.
    a.launch_ns[i] = call == kNoIndex ? 0.0 : (a.after[i] != kNoIndex ? typical_launch : std::max(0.0, since_call));
  }

  // The GPU work each call launched (the last, where a call launched several).
  std::vector<std::uint32_t> launched(n, kNoIndex);
  for (std::size_t i = 0; i < n; ++i)
    if (trace::runs_on_gpu(kinds[i]) && launches[i] != kNoIndex && starts[i] >= 0) launched[launches[i]] = static_cast<std::uint32_t>(i);

  // Ends of every runtime call, for wake-ups across threads.
  std::vector<std::uint32_t> call_ends;
  for (std::size_t i = 0; i < n; ++i)
    if (kinds[i] == OpKind::runtime && starts[i] >= 0) call_ends.push_back(static_cast<std::uint32_t>(i));
  by_end.sort(call_ends);

  // CPU threads: chains of runtime calls, nested calls, blocking calls.
  std::unordered_map<std::uint32_t, std::uint32_t> top_of_thread;  // thread -> last top-level call
  std::unordered_map<std::uint32_t, std::unordered_set<std::uint16_t>> gpus_of_thread;
  for (std::size_t i = 0; i < n; ++i)
    if (trace::runs_on_gpu(kinds[i]) && launches[i] != kNoIndex)
      gpus_of_thread[t.threads()[launches[i]]].insert(t.srcs()[i]);
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> calls_of_thread;
  for (std::size_t i = 0; i < n; ++i) {
    if (kinds[i] != OpKind::runtime || starts[i] < 0) continue;
    const std::uint32_t thread = t.threads()[i];
    calls_of_thread[thread].push_back(static_cast<std::uint32_t>(i));
    const double dur = static_cast<double>(std::max<std::int64_t>(0, t.durations()[i]));
    a.own_ns[i] = dur;
    const std::int64_t call_end = trace::recorded_end_ns(t, i);
    const auto top = top_of_thread.find(thread);
    if (top != top_of_thread.end()) {
      const std::uint32_t prev = top->second;
      const std::int64_t prev_end = trace::recorded_end_ns(t, prev);
      if (call_end <= prev_end && starts[i] >= starts[prev]) {
        a.parent[i] = prev;  // nested: runs at its offset inside prev
        a.gap_ns[i] = static_cast<double>(starts[i] - starts[prev]);
        continue;
      }
      a.chain_prev[i] = prev;
      a.gap_ns[i] = std::max(0.0, static_cast<double>(starts[i] - prev_end));
      if (a.gap_ns[i] > kIdleGapNs) {
        // The last call of another thread of this process that ended during the wait woke it,
        // when it ended in the wait's second half.
        const std::string_view process = process_of(t.thread_names[thread]);
        auto w = by_end.first_ending_after(call_ends, starts[i]);
        while (w != call_ends.begin()) {
          --w;
          const std::int64_t w_end = by_end.end(*w);
          if (w_end <= prev_end) break;
          const std::uint32_t other = t.threads()[*w];
          if (other == thread || process_of(t.thread_names[other]) != process) continue;
          const double delta = static_cast<double>(starts[i] - w_end);
          if (delta < a.gap_ns[i] / 2) {
            a.woken_by[i] = *w;
            a.gap_ns[i] = delta;
            ++a.wakeups;
          }
          break;
        }
      }
    } else {
      a.gap_ns[i] = static_cast<double>(starts[i] - a.t0_ns);
    }
    top_of_thread[thread] = static_cast<std::uint32_t>(i);
    // A call that returned after the GPU work it launched ended was synchronous with it (a
    // pageable copy returns once the driver has copied its last staged chunk out, a chunk's
    // host copy after the DMA ended: 1.1-1.5 ms for 64 MiB pageable D2H into fresh memory in
    // tests/data/real/h100-1gpu-apps/app_ckpt_fresh.json.gz).
    const std::uint32_t w = launched[i];
    const bool synchronous_copy =
        w != kNoIndex && kinds[w] == OpKind::copy &&
        (t.src_mems()[w] == model::MemKind::pageable || t.dst_mems()[w] == model::MemKind::pageable ||
         t.op_names[t.names()[i]] == "cudaMemcpy");
    const std::int64_t copy_end = synchronous_copy ? trace::recorded_end_ns(t, w) : 0;
    if (synchronous_copy && copy_end <= call_end && copy_end > starts[i]) {
      a.awaits[i] = w;
      a.tail_ns[i] = static_cast<double>(call_end - copy_end);
      a.own_ns[i] = std::min(dur, std::max(a.tail_ns[i], 1000.0));
      ++a.blocking_calls;
      continue;
    }
    // A pageable host-to-device copy of several staging chunks returns once its last chunk is
    // staged, before that chunk's DMA ends (CUDA's API synchronization behavior, for
    // cudaMemcpyAsync and cudaMemcpy alike): the call staged the whole copy, and ended one chunk's
    // DMA before it (8 MiB copies: 11.7-18.4 us before copies of 1.2-1.5 ms in
    // tests/data/real/h200-1gpu-apps11/app_accum_checkpoint.json.gz; 78 MiB: 11.5-14.6 us before
    // 8 ms in h100-1gpu-apps/app_train_pageable.json.gz). Its time is the copy's, not CPU time the
    // replay keeps: it waits for the copy and ends with it. (Not that DMA before: an event-driven
    // replay cannot end a call before the end of a copy whose time, shared links included, it
    // learns only then; the 12-22 us a copy are lost.)
    const bool pageable_h2d = w != kNoIndex && kinds[w] == OpKind::copy && t.src_mems()[w] == model::MemKind::pageable &&
                              t.dst_mems()[w] == model::MemKind::device;
    if (pageable_h2d && copy_end > call_end && starts[w] < call_end) {
      const double copy_ns = static_cast<double>(std::max<std::int64_t>(0, t.durations()[w]));
      const double bytes = static_cast<double>(t.bytes()[w]);
      const double chunk_ns = copy_ns * std::min(1.0, trace::kPageableStagingChunkBytes / std::max(bytes, 1.0));
      if (bytes > trace::kPageableStagingChunkBytes && static_cast<double>(copy_end - call_end) <= chunk_ns) {
        a.awaits[i] = w;
        a.tail_ns[i] = 0;
        a.own_ns[i] = std::min(dur, 1000.0);
        ++a.blocking_calls;
        continue;
      }
    }
    if (dur < kMinBlockingCallNs) continue;
    // The latest GPU work (of a GPU this thread launches onto) that ended while the call ran. A
    // free waits for work that was there when it began (launched before it, by this thread, onto
    // a GPU it launches onto), however long its own work takes after.
    auto it = by_end.first_ending_after(all_ends, call_end);
    const auto gpus = gpus_of_thread.find(thread);
    const std::string_view name = t.op_names[t.names()[i]];
    const bool frees = frees_after_the_device(name);
    if (frees && gpus == gpus_of_thread.end()) continue;
    // A free looks at a bounded number of candidates: overlapping frees on many threads made it
    // quadratic (40,000 of them: 6.9 s).
    const std::size_t most = frees ? kFreeCandidates : all_ends.size();
    for (std::size_t looked = 0; it != all_ends.begin() && looked < most; ++looked) {
      --it;
      if (by_end.end(*it) <= starts[i]) break;
      if (gpus != gpus_of_thread.end() && !gpus->second.contains(t.srcs()[*it])) continue;
      if (frees && (launches[*it] == kNoIndex || t.threads()[launches[*it]] != thread || starts[launches[*it]] >= starts[i]))
        continue;
      const double tail = static_cast<double>(call_end - by_end.end(*it));
      const double limit = frees ? dur : is_sync_call(name) ? kSyncTailNs : kCallTailNs;
      if (tail <= limit && starts[*it] < call_end) {
        a.awaits[i] = *it;
        a.tail_ns[i] = tail;
        a.own_ns[i] = std::min(dur, std::max(tail, 1000.0));
        ++a.blocking_calls;
      }
      break;
    }
  }

  // Polls: a thread that polls an event or a stream (cudaEventQuery, cudaStreamQuery) until the
  // GPU work is done, with CPU work between the polls instead of a synchronize: the poll that saw
  // the work done waits for it, and the polls and CPU time before it are a wait, not CPU work a
  // replay with other GPU times keeps (a training step polled 143-171 times in 13.7 ms with 50 us
  // of CPU work between, its last kernel ending 1-37 us before the last poll:
  // tests/data/real/h200-1gpu-apps15/app_event_poll_mlp.json.gz).
  {
    std::vector<std::uint32_t> latest_launched(n, kNoIndex);  // by call: its latest-ending launched work
    for (std::size_t i = 0; i < n; ++i) {
      if (!trace::runs_on_gpu(kinds[i]) || launches[i] == kNoIndex || starts[i] < 0) continue;
      std::uint32_t& w = latest_launched[launches[i]];
      if (w == kNoIndex || trace::recorded_end_ns(t, i) > trace::recorded_end_ns(t, w)) w = static_cast<std::uint32_t>(i);
    }
    std::vector<char> wakes(n, 0);  // calls another thread woke after
    for (std::size_t i = 0; i < n; ++i)
      if (a.woken_by[i] != kNoIndex) wakes[a.woken_by[i]] = 1;
    std::unordered_map<std::uint32_t, std::vector<std::int64_t>> edges_of_thread;  // annotations' starts and ends
    for (std::size_t i = 0; i < n; ++i)
      if (kinds[i] == OpKind::annotation && starts[i] >= 0) {
        auto& e = edges_of_thread[t.threads()[i]];
        e.push_back(starts[i]);
        e.push_back(trace::recorded_end_ns(t, i));
      }
    for (auto& [thread, e] : edges_of_thread) std::sort(e.begin(), e.end());
    static const std::vector<std::int64_t> kNoEdges;
    for (const auto& [thread, calls] : calls_of_thread) {
      const auto e = edges_of_thread.find(thread);
      link_poll_runs(t, calls, latest_launched, wakes, e == edges_of_thread.end() ? kNoEdges : e->second, a);
    }
  }

  // Annotations and the calls inside them.
  for (std::size_t i = 0; i < n; ++i) {
    if (kinds[i] != OpKind::annotation || starts[i] < 0) continue;
    AppGraph::Span s{static_cast<std::uint32_t>(i)};
    const auto calls = calls_of_thread.find(t.threads()[i]);
    if (calls != calls_of_thread.end()) {
      const auto& v = calls->second;
      const std::int64_t begin = starts[i], end = trace::recorded_end_ns(t, i);
      auto lo = std::lower_bound(v.begin(), v.end(), begin, [&](std::uint32_t c, std::int64_t x) { return starts[c] < x; });
      auto c = lo;
      for (; c != v.end() && starts[*c] < end; ++c) {
        if (a.parent[*c] != kNoIndex || trace::recorded_end_ns(t, *c) > end) continue;
        if (s.first_call == kNoIndex) s.first_call = *c;
        s.last_call = *c;
      }
      // Only a call that runs inside another (a poll of a run, inside the run's last): that one.
      for (auto d = lo; s.first_call == kNoIndex && d != v.end() && starts[*d] < end; ++d)
        if (trace::recorded_end_ns(t, *d) <= end) s.first_call = s.last_call = *d;
      if (s.first_call == kNoIndex) {
        // A few calls back: the thread's calls nest at most a few deep around a start.
        for (auto b = lo; b != v.begin() && lo - b < kAnchorSearchCalls;) {
          --b;
          if (a.parent[*b] == kNoIndex && trace::recorded_end_ns(t, *b) <= begin) {
            s.anchor_call = *b;
            break;
          }
        }
        for (; s.anchor_call == kNoIndex && c != v.end() && c - lo < kAnchorSearchCalls; ++c)
          if (a.parent[*c] == kNoIndex && starts[*c] >= end) s.anchor_call = *c;
      }
    }
    a.spans.push_back(s);
  }
  return a;
}

std::string step_prefix(const trace::Trace& trace) {
  std::map<std::string, std::set<std::string>, std::less<>> numbers;  // prefix -> the numbers seen
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (trace.kinds()[i] != trace::OpKind::annotation) continue;
    const std::string& name = trace.op_names[trace.names()[i]];
    if (name.starts_with("ProfilerStep#")) return "ProfilerStep#";
    const std::size_t digits = name.find_last_not_of("0123456789");
    if (digits == std::string::npos || digits + 1 == name.size()) continue;
    std::string prefix = name.substr(0, digits + 1);
    std::string lower = prefix;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("step") == std::string::npos) continue;
    numbers[prefix].insert(name.substr(digits + 1));
  }
  std::string best;
  std::size_t most = 1;
  for (const auto& [prefix, seen] : numbers)
    if (seen.size() > most) {
      most = seen.size();
      best = prefix;
    }
  return best;
}

}  // namespace linkcast::sim
