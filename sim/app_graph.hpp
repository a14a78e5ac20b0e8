// The application in a whole-trace recording (kernels, copies, collectives, runtime calls): what
// waited for what, inferred from when things happened, so that the recording can be replayed
// with other durations (another node's) and every wait moves with what it waited for. As Lumos
// (MLSys 2025) and Daydream do for Kineto traces, the graph has:
//  - CPU thread order: a thread's runtime calls run one after another, separated by the CPU time
//    the recording shows between them (kept as it is); calls nested in another (a driver call
//    inside a runtime call) start at their recorded offset inside it;
//  - threads waking each other: a thread that was idle long (PyTorch's autograd thread between
//    backward passes, the main thread while backward runs) resumed after the last call another
//    thread of its process made during the wait: it follows that call, a recorded CPU delay
//    later, rather than its own idle time;
//  - launch edges: GPU work starts after the runtime call that launched it (the profiler's
//    correlation id), a recorded latency later when nothing else held it;
//  - stream order: GPU work on one stream of one GPU runs in order, each piece its recorded gap
//    (1-10 us) behind the one before where that one held it: within 3 us of its end, or within
//    10 us when the work was launched long before it ran (the CPU ahead of a backlogged GPU);
//  - waits across streams: GPU work whose start was held neither by its stream nor by its launch
//    waited for something on another stream of its GPU (cudaStreamWaitEvent, wait_stream): the
//    work there that ended just before it started;
//  - blocking calls: a runtime call that ended within a few microseconds of the end of GPU work
//    that was running when it began (cudaDeviceSynchronize, cudaStreamSynchronize, a blocking or
//    pageable cudaMemcpy, .item(); a cudaFree, which waits for all of the device's work and then
//    frees, however long after it) waited for it, and ends that long after it in the replay; a
//    pageable host-to-device copy's call, which stages the copy chunk by chunk and returns one
//    chunk's DMA before its end, ends with the copy; a host that polls an event or a stream
//    (cudaEventQuery, cudaStreamQuery in a loop with CPU work between) until GPU work is done
//    waits for that work: the poll that saw it done ends as long after it as recorded, and the
//    polls and CPU time before it shrink or grow with the work;
//  - the GPU's SMs: a kernel whose grid is more than one wave (more warps than every SM holds at
//    once) occupies all SMs until its last blocks start, so kernels and device-to-device copies
//    (which run as copy kernels) on other streams wait for it: on an H200 a 256 MiB cudaMemcpy
//    device-to-device took 0.13 ms alone and 10.8 ms beside a kernel of many short blocks
//    (tests/data/real/h200-1gpu-apps/interference.csv), while copy-engine copies beside the same
//    kernel kept their speed;
//  - work held by such a kernel or copy: GPU work held by neither its stream, its launch nor a wait
//    across streams that started while GPU-filling work ran on another stream of its GPU waited for
//    that work's SMs, and starts the same share of that work's time after its start (replayed with
//    another duration, the wait scales with it). In the recorded apps a 1 GiB D2D copy held every
//    small kernel launched beside it until 17-29 us before its end, and each GEMM until 0.42-0.51
//    of its time, on the H100 and the H200 alike (tests/data/real/*-apps/app_d2d_beside_compute
//    .json.gz; tools/results/sm_waits.py).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace linkcast::sim {

/// Resident warps per SM at full occupancy: 64 on compute capability 7.0-9.0 (V100, A100, H100,
/// H200; CUDA C++ Programming Guide, "Technical Specifications per Compute Capability"). A grid
/// with more warps per SM than this runs in more than one wave.
inline constexpr double kMaxWarpsPerSm = 64;
/// Device-to-device copies of at least this many bytes are taken to fill the GPU with copy blocks
/// (the 64 and 256 MiB copies of interference.csv waited for the SMs; smaller copies were not
/// measured).
inline constexpr std::uint64_t kGpuFillingCopyBytes = std::uint64_t{1} << 20;

struct AppGraph {
  /// By trace record (kNoIndex / 0 where a field does not apply).
  std::vector<std::uint32_t> chain_prev;  // runtime call: the previous call on its thread
  std::vector<std::uint32_t> parent;      // nested runtime call: the call it ran inside
  std::vector<double> gap_ns;             // call: CPU time before it (after chain_prev, or the
                                          // offset inside its parent, or after woken_by's end;
                                          // first call: from t0)
  std::vector<std::uint32_t> woken_by;    // call after an idle wait: the call on another thread
                                          // of its process whose end woke it
  std::vector<double> own_ns;             // call: its time when nothing blocks it
  std::vector<std::uint32_t> awaits;      // blocking call: the GPU work whose end released it
  std::vector<double> tail_ns;            // blocking call: its end after that work's end (a
                                          // synchronous pageable copy: the last chunk's host copy;
                                          // it scales with that work's duration in a replay)
  std::vector<double> launch_ns;          // GPU work: from its launching call's start to its start
  std::vector<std::uint32_t> after;       // GPU work: work on another stream it waited for
  std::vector<std::uint8_t> fills_gpu;    // GPU work that holds all the GPU's SMs
  std::int64_t t0_ns = 0;                 // the earliest recorded start

  /// GPU work held by GPU-filling work on another stream (rare: kept apart, by work).
  struct SmHold {
    std::uint32_t work;  // the held work
    std::uint32_t by;    // the GPU-filling work running when it started
    double offset_ns;    // its start after by's start, as recorded
  };
  std::vector<SmHold> sm_holds;

  /// GPU work its stream held (stream order above) that started some time after its
  /// predecessor's end: it starts that long after the predecessor in a replay too. By work; 16
  /// bytes each, for the stream-held work with a gap (most kernels of a busy stream).
  struct StreamGap {
    std::uint32_t work, prev;  // the held work, its predecessor on its stream
    double gap_ns;             // its start after prev's end, as recorded
  };
  std::vector<StreamGap> stream_gaps;

  /// Annotations (ProfilerStep#N, record_function spans) with the runtime calls inside them on
  /// their thread, to replay them.
  struct Span {
    std::uint32_t record;  // the annotation
    std::uint32_t first_call = trace::kNoIndex, last_call = trace::kNoIndex;
    /// Where no call runs inside it (zero_grad(set_to_none=True) launches nothing): the last
    /// call of its thread that ended before it began, else the first that began after it ended;
    /// it keeps its recorded distance from that call.
    std::uint32_t anchor_call = trace::kNoIndex;
  };
  std::vector<Span> spans;

  std::size_t blocking_calls = 0, cross_stream_waits = 0, launch_links = 0, gpu_filling = 0, wakeups = 0, sm_waits = 0;
  std::size_t poll_runs = 0;  // of the blocking calls, the polls that saw GPU work done (a run's last)

  /// Frees what only building the replay's tasks reads (CPU gaps and call times, SM filling):
  /// 17 bytes an operation, before the links between the tasks are made.
  void release_task_values() {
    for (auto* v : {&gap_ns, &own_ns}) std::vector<double>().swap(*v);
    std::vector<std::uint8_t>().swap(fills_gpu);
  }
  /// Frees the per-record vectors once the replay's tasks hold what they say (the spans, counts
  /// and t0 stay): 53 bytes an operation that a long trace's run need not hold.
  void release_per_record() {
    for (auto* v : {&chain_prev, &parent, &woken_by, &awaits, &after}) std::vector<std::uint32_t>().swap(*v);
    for (auto* v : {&gap_ns, &own_ns, &tail_ns, &launch_ns}) std::vector<double>().swap(*v);
    std::vector<std::uint8_t>().swap(fills_gpu);
    std::vector<SmHold>().swap(sm_holds);
    std::vector<StreamGap>().swap(stream_gaps);
  }
};

/// Infers the graph of an application trace (trace.has_application()). Linear in the trace's size
/// but for a binary search per blocking candidate.
[[nodiscard]] AppGraph infer_app_graph(const trace::Trace& trace);

/// The name prefix of the trace's step annotations: "ProfilerStep#" where the PyTorch profiler
/// marked steps; else the commonest prefix P of annotations named P<number> whose P says "step"
/// (any case; "train_step" of train_step0, train_step1, ...) with at least two numbers; else "".
[[nodiscard]] std::string step_prefix(const trace::Trace& trace);

}  // namespace linkcast::sim
