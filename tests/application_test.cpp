// The whole-application projection (application/): kernels scaled by what bounds them, transfers
// by the anchored ratio, both replays, the steps against a recording on the target.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <functional>
#include <iostream>
#include <map>

#include "application/app_projection.hpp"
#include "application/kernel_scaling.hpp"
#include "application/steps.hpp"
#include "core/error.hpp"
#include "test_util.hpp"
#include "sim/simulate.hpp"
#include "topology/loader.hpp"
#include "trace/kineto.hpp"
#include "trace/reader.hpp"
#include "trace/ranks.hpp"
#include "trace/select.hpp"
#include "projection/projector.hpp"

namespace linkcast::application {
namespace {

using ::testing::HasSubstr;

TEST(KernelScaling, ClassesFollowTheKernelNames) {
  // Names from tests/data/real/h100-1gpu-apps/app_train_pinned.json.gz and app_gpt_mixed.json.gz.
  EXPECT_EQ(classify_kernel("sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x32"),
            KernelBound::matrix_tensor);
  EXPECT_EQ(classify_kernel("void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_tn_align1>"), KernelBound::matrix_fp32);
  EXPECT_EQ(classify_kernel("sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize256x64x8"),
            KernelBound::matrix_fp32);
  EXPECT_EQ(classify_kernel("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>"),
            KernelBound::memory);
  EXPECT_EQ(classify_kernel("void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>"), KernelBound::memory);
  // torch.compile (tests/data/real/h200-1gpu-apps7/app_compiled_mlp.json.gz): Inductor's fused
  // pointwise and reduction kernels move data; a max-autotune matrix template does not (a
  // triton_tem_ kernel read as memory-bound would scale by the HBM ratio, 0.70x from H100 to H200,
  // where its tensor rate does not change).
  EXPECT_EQ(classify_kernel("triton_per_fused_gelu_gelu_backward_native_layer_norm_native_layer_norm_backward_1"),
            KernelBound::memory);
  EXPECT_EQ(classify_kernel("triton_red_fused_sum_3"), KernelBound::memory);
  EXPECT_EQ(classify_kernel("triton_tem_fused_addmm_gelu_0"), KernelBound::matrix_tensor);
  // Inductor's pointwise kernels name the operators fused into them, a convolution's epilogue or
  // attention's softmax among them: memory kernels all the same.
  EXPECT_EQ(classify_kernel("triton_poi_fused_convolution_relu_0"), KernelBound::memory);
  EXPECT_EQ(classify_kernel("triton_red_fused__scaled_dot_product_flash_attention_backward_sum_1"), KernelBound::memory);
}

TEST(KernelScaling, MemoryKernelsScaleByTheShareOfTheStreamingRateTheyMove) {
  const GpuRates h100{2879, 989, 56.2}, h200{4095, 989, 56.2};
  const double r = 2879.0 / 4095.0;
  // Without shapes, the occupancy: cuDNN batch norm at 24% (mostly latency-bound, measured
  // 0.94x) and an elementwise kernel at 100% (all of it streams, measured 0.70x).
  trace::KernelInfo bn;
  bn.occupancy_pct = 24;
  EXPECT_NEAR(scale_kernel("void cudnn::bn_bw_1C11_kernel_new", &bn, 6.28e6, h100, h200).factor, 0.76 + 0.24 * r, 1e-12);
  trace::KernelInfo full;
  full.occupancy_pct = 100;
  EXPECT_NEAR(scale_kernel("vectorized_elementwise_kernel", &full, 618.7e3, h100, h200).factor, r, 1e-12);
  // With shapes, the bytes the operator took over the kernel's time: train_pinned's first
  // max_pool2d_with_indices_backward took grad_output [256, 512, 10, 10] and self
  // [256, 512, 20, 20] in float and indices [256, 512, 10, 10] in int64: 52.4 + 209.7 + 104.9 MB
  // = 367.0 MB in (on the H100, median of 8) 537.5 us, 683 GB/s: 23.7% of the H100's 2879. So
  // 0.763 + 0.237 r = 0.930 (measured on the H200: 534.0 us, 0.994; the occupancy, 100%, said
  // r = 0.703).
  trace::KernelInfo pool;
  pool.occupancy_pct = 100;
  pool.input_bytes = 256.0 * 512 * 10 * 10 * 4 + 256.0 * 512 * 20 * 20 * 4 + 256.0 * 512 * 10 * 10 * 8;
  const double pool_ns = 537.5e3;
  const double f = pool.input_bytes / pool_ns / 2879.0;
  EXPECT_NEAR(f, 0.2372, 0.0005);
  EXPECT_NEAR(memory_bound_share(&pool, pool_ns, 2879), f, 1e-12);
  EXPECT_NEAR(scale_kernel("void at::native::max_pool_backward_nchw", &pool, pool_ns, h100, h200).factor, 1 - f + f * r,
              1e-12);
  // More bytes than the rate moves in the time (a bound from the shapes, not a measurement): 1.
  pool.input_bytes = 1e10;
  EXPECT_DOUBLE_EQ(memory_bound_share(&pool, pool_ns, 2879), 1.0);
  // Without an occupancy, resident warps / 64: 2 blocks of 256 threads per SM = 16 warps = 25%.
  trace::KernelInfo warps;
  warps.blocks_per_sm = 2;
  warps.block_threads = 256;
  EXPECT_NEAR(memory_bound_share(&warps, 1e3, 2879), 0.25, 1e-12);
  // Matrix kernels follow the tensor rate: equal on H100 and H200 SXM.
  EXPECT_DOUBLE_EQ(scale_kernel("sm90_xmma_gemm", nullptr, 1e3, h100, h200).factor, 1.0);
  // A rate either node lacks keeps the time and says so.
  const KernelScale unknown = scale_kernel("sm90_xmma_gemm", nullptr, 1e3, h100, GpuRates{4095, 0, 0});
  EXPECT_DOUBLE_EQ(unknown.factor, 1.0);
  EXPECT_FALSE(unknown.known);
}

/// A Kineto trace's GPU work replayed on a 1 x H200 node with its recorded durations, but for the
/// work `given` names a duration for (ns; NaN keeps the recorded one).
sim::SimResult replay_with(const trace::Trace& t, const std::function<double(std::size_t)>& given) {
  const auto node = topology::load_node(test::config("testbed-h200-1gpu.yaml"));
  sim::SimOptions o;
  o.durations_ns.assign(t.size(), std::nan(""));
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!trace::runs_on_gpu(t.kinds()[i])) continue;
    const double ns = given(i);
    o.durations_ns[i] = std::isnan(ns) ? static_cast<double>(t.durations()[i]) : ns;
  }
  return sim::simulate(node, t, o);
}

const auto kAsRecorded = [](std::size_t) { return std::nan(""); };

TEST(ApplicationReplay, WorkLaunchedLongBeforeFollowsItsStreamWithItsRecordedGap) {
  // One stream the CPU ran ahead of: a 2 ms kernel (5-2005 us, launched at 0), a memset launched
  // at 10 us that ran 1.5 us after it (2006.5-2007.5), and a kernel launched at 20 us that ran
  // 3.5 us after the memset (2011-2061 us), 1991 us after its launch. Its stream held it, not its
  // launch (the trace's launch latency is 5 us: the first kernel's). Replayed with the first
  // kernel at 1 ms, both follow it with their recorded gaps: the last ends at 1061 us. Kept at its
  // recorded delay after its launch, it would start at 2011 us whatever the kernel before took.
  const std::string text = R"json({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 0, "dur": 4, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemsetAsync", "pid": 1, "tid": 1, "ts": 10, "dur": 4, "args": {"correlation": 2}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 20, "dur": 4, "args": {"correlation": 3}},
    {"ph": "X", "cat": "kernel", "name": "void long_kernel", "pid": 0, "tid": 7, "ts": 5, "dur": 2000,
     "args": {"device": 0, "stream": 7, "correlation": 1, "grid": [4, 1, 1], "block": [128, 1, 1]}},
    {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 2006.5, "dur": 1,
     "args": {"device": 0, "stream": 7, "correlation": 2, "bytes": 128}},
    {"ph": "X", "cat": "kernel", "name": "void next_kernel", "pid": 0, "tid": 7, "ts": 2011, "dur": 50,
     "args": {"device": 0, "stream": 7, "correlation": 3, "grid": [4, 1, 1], "block": [128, 1, 1]}}
  ]})json";
  const trace::Trace t = trace::parse_kineto(text, "backlog.json");
  ASSERT_TRUE(t.has_application());
  // The honest replay: as recorded.
  EXPECT_NEAR(replay_with(t, kAsRecorded).application.replayed_span_ns, 2061e3, 1);
  const auto shorter_first = [&](std::size_t i) { return t.durations()[i] == 2000000 ? 1000e3 : std::nan(""); };
  EXPECT_NEAR(replay_with(t, shorter_first).application.replayed_span_ns, 1061e3, 1);
}

TEST(ApplicationReplay, WorkHeldByAGpuFillingCopyWaitsItsShareOfTheCopy) {
  // A 64 MiB D2D copy (copy kernels on every SM) runs 5-1005 us on stream 13; a kernel launched
  // at 10 us on stream 7 could not start until 980 us, 975 us (97.5%) into the copy: held by its
  // SMs, as app_d2d_beside_compute's kernels were by its 1 GiB copies. Replayed with the copy at
  // 500 us, the kernel waits 97.5% of that: it starts at 5 + 487.5 us and ends at 542.5 us; kept
  // as a launch delay it would have started at 980 us whatever the copy took.
  const std::string text = R"json({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 0, "dur": 4, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 4, "args": {"correlation": 2}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "pid": 0, "tid": 13, "ts": 5, "dur": 1000,
     "args": {"device": 0, "stream": 13, "correlation": 1, "bytes": 67108864}},
    {"ph": "X", "cat": "kernel", "name": "void small_kernel", "pid": 0, "tid": 7, "ts": 980, "dur": 50,
     "args": {"device": 0, "stream": 7, "correlation": 2, "grid": [4, 1, 1], "block": [128, 1, 1]}}
  ]})json";
  const trace::Trace t = trace::parse_kineto(text, "held.json");
  ASSERT_TRUE(t.has_application());
  const sim::SimResult recorded = replay_with(t, kAsRecorded);
  EXPECT_EQ(recorded.application.sm_waits, 1u);
  EXPECT_NEAR(recorded.application.replayed_span_ns, 1030e3, 1);  // the honest replay: as recorded
  const auto shorter_copy = [&](std::size_t i) { return t.kinds()[i] == trace::OpKind::copy ? 500e3 : std::nan(""); };
  EXPECT_NEAR(replay_with(t, shorter_copy).application.replayed_span_ns, 542.5e3, 1);
}

TEST(ApplicationReplay, APageableCopysCallWaitsForTheCopy) {
  // A pageable H2D copy of 8 MiB (8 staging chunks): its cudaMemcpyAsync call runs 0-1450 us,
  // staging every chunk; the copy's DMA runs 200-1465 us, 15 us past the call (the last chunk's
  // DMA), as the 72 such copies of tests/data/real/h200-1gpu-apps11/app_accum_checkpoint.json.gz
  // did (11.7-18.4 us). The next call starts 10 us after it and launches a 100 us kernel, 5 us
  // after its start. The call waits for the copy and ends with it (not the DMA before: an
  // event-driven replay learns the copy's end, shared links included, only then): as recorded the
  // kernel ends at 1465 + 10 + 5 + 100 us (the recording: 1565 us); replayed with the copy at 2 ms
  // (a slower host), at 200 + 2000 + 115 us. Kept as the call's own CPU time, the span would not
  // have moved. A pinned copy's call is left as it is.
  const std::string text = R"json({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 0, "dur": 1450, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1460, "dur": 4, "args": {"correlation": 2}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 200, "dur": 1265,
     "args": {"device": 0, "stream": 7, "correlation": 1, "bytes": 8388608}},
    {"ph": "X", "cat": "kernel", "name": "void next_kernel", "pid": 0, "tid": 7, "ts": 1465, "dur": 100,
     "args": {"device": 0, "stream": 7, "correlation": 2, "grid": [4, 1, 1], "block": [128, 1, 1]}}
  ]})json";
  const trace::Trace t = trace::parse_kineto(text, "staged.json");
  ASSERT_TRUE(t.has_application());
  const sim::SimResult recorded = replay_with(t, kAsRecorded);
  EXPECT_EQ(recorded.application.blocking_calls, 1u);
  EXPECT_NEAR(recorded.application.replayed_span_ns, 1580e3, 1);  // 15 us past the recording: the DMA
  const auto slower_copy = [&](std::size_t i) { return t.kinds()[i] == trace::OpKind::copy ? 2000e3 : std::nan(""); };
  EXPECT_NEAR(replay_with(t, slower_copy).application.replayed_span_ns, 2315e3, 1);
  std::string pinned = text;
  pinned.replace(pinned.find("Pageable -> Device"), 18, "Pinned -> Device");
  EXPECT_EQ(replay_with(trace::parse_kineto(pinned, "pinned.json"), kAsRecorded).application.blocking_calls, 0u);
}

TEST(ApplicationReplay, AHostPollingAnEventWaitsForTheWorkItSawDone) {
  // A host that polls an event until its GPU work is done instead of synchronizing (a progress
  // loop; tests/data/real/h200-1gpu-apps15/app_event_poll_mlp.json.gz polled 143-171 times a
  // step): a 1 ms kernel (5-1005 us, launched at 0), the event recorded at 10 us, 21 polls of 1 us
  // from 20 us with 50 us of CPU work between (the 20th at 989 us, before the kernel's end; the
  // 21st at 1040-1041 us saw it done), then a launch at 1051 us of a 100 us kernel (1056-1156).
  // The last poll waits for the kernel and ends 36 us after it, as recorded: replayed with the
  // first kernel at 500 us the next kernel ends at 505 + 36 + 10 + 5 + 100 = 656 us, at 2 ms at
  // 2156 us. Kept as CPU time, the polls would hold the span at 1156 us however fast the kernel.
  const std::string text = R"json({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 0, "dur": 4, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventRecordWithFlags", "pid": 1, "tid": 1, "ts": 10, "dur": 2, "args": {"correlation": 3}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 20, "dur": 1, "args": {"correlation": 100}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 71, "dur": 1, "args": {"correlation": 101}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 122, "dur": 1, "args": {"correlation": 102}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 173, "dur": 1, "args": {"correlation": 103}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 224, "dur": 1, "args": {"correlation": 104}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 275, "dur": 1, "args": {"correlation": 105}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 326, "dur": 1, "args": {"correlation": 106}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 377, "dur": 1, "args": {"correlation": 107}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 428, "dur": 1, "args": {"correlation": 108}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 479, "dur": 1, "args": {"correlation": 109}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 530, "dur": 1, "args": {"correlation": 110}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 581, "dur": 1, "args": {"correlation": 111}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 632, "dur": 1, "args": {"correlation": 112}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 683, "dur": 1, "args": {"correlation": 113}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 734, "dur": 1, "args": {"correlation": 114}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 785, "dur": 1, "args": {"correlation": 115}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 836, "dur": 1, "args": {"correlation": 116}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 887, "dur": 1, "args": {"correlation": 117}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 938, "dur": 1, "args": {"correlation": 118}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 989, "dur": 1, "args": {"correlation": 119}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventQuery", "pid": 1, "tid": 1, "ts": 1040, "dur": 1, "args": {"correlation": 120}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1051, "dur": 4, "args": {"correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "void step_kernel", "pid": 0, "tid": 7, "ts": 5, "dur": 1000,
     "args": {"device": 0, "stream": 7, "correlation": 1, "grid": [4, 1, 1], "block": [128, 1, 1]}},
    {"ph": "X", "cat": "kernel", "name": "void next_kernel", "pid": 0, "tid": 7, "ts": 1056, "dur": 100,
     "args": {"device": 0, "stream": 7, "correlation": 2, "grid": [4, 1, 1], "block": [128, 1, 1]}}
  ]})json";
  const trace::Trace t = trace::parse_kineto(text, "polls.json");
  ASSERT_TRUE(t.has_application());
  const sim::SimResult recorded = replay_with(t, kAsRecorded);
  EXPECT_EQ(recorded.application.blocking_calls, 1u);
  EXPECT_EQ(recorded.application.poll_runs, 1u);
  EXPECT_NEAR(recorded.application.replayed_span_ns, 1156e3, 1);
  const auto first_kernel_at = [&](double ns) {
    return [&t, ns](std::size_t i) { return t.op_names[t.names()[i]] == "void step_kernel" ? ns : std::nan(""); };
  };
  EXPECT_NEAR(replay_with(t, first_kernel_at(500e3)).application.replayed_span_ns, 656e3, 1);
  EXPECT_NEAR(replay_with(t, first_kernel_at(2000e3)).application.replayed_span_ns, 2156e3, 1);
  // Polls while work launched before them is still queued did not see it done (the caching
  // allocator's and DDP's queries of one event among others; a review of this rule): a second
  // kernel launched at 15 us runs 1005-3000 us, so the 21st poll is no wait, and the replay keeps
  // the polls' CPU time (the span then ends with that kernel, 3000 us, whatever the first takes).
  std::string queued = text;
  queued.insert(queued.find("    {\"ph\": \"X\", \"cat\": \"kernel\""),
                R"(    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 15, "dur": 3, "args": {"correlation": 4}},
    {"ph": "X", "cat": "kernel", "name": "void queued_kernel", "pid": 0, "tid": 7, "ts": 1005, "dur": 1995,
     "args": {"device": 0, "stream": 7, "correlation": 4, "grid": [4, 1, 1], "block": [128, 1, 1]}},
)");
  const trace::Trace q = trace::parse_kineto(queued, "queued.json");
  EXPECT_EQ(replay_with(q, kAsRecorded).application.poll_runs, 0u);
  // Another thread idle since 3 us that launches a 100 us kernel 45 us after the 10th poll (at 525
  // us: woken by it) follows that poll, which now ends the run: as recorded the span is the same
  // (a robustness hunt, round 33: the woken thread had moved to the run's start, -28%). An
  // annotation that begins between two polls (a step's edge) ends a run too.
  std::string woken = text;
  woken.insert(woken.find("    {\"ph\": \"X\", \"cat\": \"kernel\""),
               R"(    {"ph": "X", "cat": "cuda_runtime", "name": "cudaGetDevice", "pid": 1, "tid": 2, "ts": 2, "dur": 1, "args": {"correlation": 5}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 525, "dur": 3, "args": {"correlation": 6}},
    {"ph": "X", "cat": "kernel", "name": "void woken_kernel", "pid": 0, "tid": 8, "ts": 530, "dur": 100,
     "args": {"device": 0, "stream": 8, "correlation": 6, "grid": [4, 1, 1], "block": [128, 1, 1]}},
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 700, "dur": 500},
)");
  const trace::Trace w = trace::parse_kineto(woken, "woken.json");
  const sim::SimResult wr = replay_with(w, kAsRecorded);
  EXPECT_NEAR(wr.application.replayed_span_ns, wr.application.recorded_span_ns, 1);
  EXPECT_EQ(wr.application.wakeups, 1u);
  EXPECT_EQ(wr.application.poll_runs, 1u);  // polls 14-21 (after the step's edge at 700 us)
  // A poll that found the work done at once (one poll, no run) waits for nothing.
  std::string once = text;
  for (int j = 0; j < 20; ++j) {
    const std::size_t at = once.find("\"cudaEventQuery\"");
    once.replace(at, 16, "\"cudaFooBar\"");
  }
  const sim::SimResult single = replay_with(trace::parse_kineto(once, "once.json"), kAsRecorded);
  EXPECT_EQ(single.application.poll_runs, 0u);
}

TEST(ApplicationReplay, ACudaFreeWaitsForTheDeviceThenFrees) {
  // torch.cuda.empty_cache() while a kernel runs: its cudaFree (2000-5200 us) waits for all of
  // the device's work (the 5 ms kernel, 5-5005 us) and then unmaps, returning 195 us after it, as
  // each step's first cudaFree of tests/data/real/h200-1gpu-apps15/app_empty_cache_mlp.json.gz
  // did (184-202 us). The next call, 10 us later, launches a 100 us kernel (5215-5315 us).
  // Replayed with the first kernel at 2 ms the free ends at 2005 + 195 and the last kernel at
  // 2315 us; kept as 3.2 ms of CPU time (a call that ended more than 20 us after the work, named
  // as no synchronisation) it would hold the span at 5315 us. A stream-ordered cudaFreeAsync
  // waits for nothing.
  const std::string text = R"json({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 0, "dur": 4, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaFree", "pid": 1, "tid": 1, "ts": 2000, "dur": 3200, "args": {"correlation": 3}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 5210, "dur": 4, "args": {"correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "void step_kernel", "pid": 0, "tid": 7, "ts": 5, "dur": 5000,
     "args": {"device": 0, "stream": 7, "correlation": 1, "grid": [4, 1, 1], "block": [128, 1, 1]}},
    {"ph": "X", "cat": "kernel", "name": "void next_kernel", "pid": 0, "tid": 7, "ts": 5215, "dur": 100,
     "args": {"device": 0, "stream": 7, "correlation": 2, "grid": [4, 1, 1], "block": [128, 1, 1]}}
  ]})json";
  const trace::Trace t = trace::parse_kineto(text, "free.json");
  const sim::SimResult recorded = replay_with(t, kAsRecorded);
  EXPECT_EQ(recorded.application.blocking_calls, 1u);
  EXPECT_NEAR(recorded.application.replayed_span_ns, 5315e3, 1);
  const auto shorter_first = [&](std::size_t i) { return t.op_names[t.names()[i]] == "void step_kernel" ? 2000e3 : std::nan(""); };
  EXPECT_NEAR(replay_with(t, shorter_first).application.replayed_span_ns, 2315e3, 1);
  std::string async = text;
  async.replace(async.find("\"cudaFree\""), 10, "\"cudaFreeAsync\"");
  EXPECT_EQ(replay_with(trace::parse_kineto(async, "free_async.json"), kAsRecorded).application.blocking_calls, 0u);
  // A free that began on an idle device waits for nothing, not for work another thread launched
  // while it ran (a review of this rule: a 100 us kernel of thread 2 at 2100-2200 us, 10x longer,
  // had held the free and the span +26%).
  const std::string idle = R"json({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 0, "dur": 4, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaFree", "pid": 1, "tid": 1, "ts": 2000, "dur": 3200, "args": {"correlation": 3}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 2095, "dur": 4, "args": {"correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "void early_kernel", "pid": 0, "tid": 7, "ts": 5, "dur": 1000,
     "args": {"device": 0, "stream": 7, "correlation": 1, "grid": [4, 1, 1], "block": [128, 1, 1]}},
    {"ph": "X", "cat": "kernel", "name": "void other_thread_kernel", "pid": 0, "tid": 8, "ts": 2100, "dur": 100,
     "args": {"device": 0, "stream": 8, "correlation": 2, "grid": [4, 1, 1], "block": [128, 1, 1]}}
  ]})json";
  EXPECT_EQ(replay_with(trace::parse_kineto(idle, "free_idle.json"), kAsRecorded).application.blocking_calls, 0u);
}

TEST(ApplicationReplay, AnAnnotationWithNoCallInsideMovesWithItsThread) {
  // A step's last annotation launches nothing (PyTorch's Optimizer.zero_grad with set_to_none):
  // a 1 ms kernel (5-1005 us, launched at 0), a cudaDeviceSynchronize from 10 us that returns at
  // 1010 us, then zero_grad at 1020-1030 us. Replayed with the kernel at 500 us the sync returns
  // at 510 us and the annotation, 10 us after it as recorded, ends at 530 us: the span. Kept at
  // its recorded time (where it was, with no call inside to move it) it held every replay's span
  // at 1030 us, whatever the GPU.
  const std::string text = R"json({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 0, "dur": 4, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaDeviceSynchronize", "pid": 1, "tid": 1, "ts": 10, "dur": 1000, "args": {"correlation": 2}},
    {"ph": "X", "cat": "user_annotation", "name": "Optimizer.zero_grad#SGD.zero_grad", "pid": 1, "tid": 1, "ts": 1020, "dur": 10},
    {"ph": "X", "cat": "kernel", "name": "void step_kernel", "pid": 0, "tid": 7, "ts": 5, "dur": 1000,
     "args": {"device": 0, "stream": 7, "correlation": 1, "grid": [4, 1, 1], "block": [128, 1, 1]}}
  ]})json";
  const trace::Trace t = trace::parse_kineto(text, "zero_grad.json");
  EXPECT_NEAR(replay_with(t, kAsRecorded).application.replayed_span_ns, 1030e3, 1);
  const auto half = [&](std::size_t i) { return t.kinds()[i] == trace::OpKind::kernel ? 500e3 : std::nan(""); };
  EXPECT_NEAR(replay_with(t, half).application.replayed_span_ns, 530e3, 1);
}

std::string app(const std::string& machine, const std::string& name) {
  return test::source_dir() + "/tests/data/real/" + machine + "/app_" + name + ".json.gz";
}

TEST(ApplicationProjection, OntoItsOwnNodeEveryStepKeepsItsRecordedTime) {
  // The same node on both sides: every ratio is 1, so each step is exactly its recording.
  const auto h100 = topology::load_node(test::config("testbed-h100-1gpu.yaml"));
  const auto t = trace::read_trace(app("h100-1gpu-apps", "train_pageable"));
  const ApplicationProjection p = project_application(h100, h100, t, {}, model::find_model("default"));
  const StepTable s = step_table(p, nullptr);
  ASSERT_EQ(s.rows.size(), 8u);  // the profiler's schedule recorded 8 steps
  for (const StepRow& r : s.rows) EXPECT_NEAR(r.projected_ns, r.recorded_ns, 1e-6 * r.recorded_ns) << r.name;
  EXPECT_NEAR(s.projected_span_ns, s.recorded_span_ns, 1e-6 * s.recorded_span_ns);
  // The honest replay itself is within 1% of the recording (README: <= 0.2% on every app).
  EXPECT_NEAR(p.source.application.replayed_span_ns, p.source.application.recorded_span_ns,
              0.01 * p.source.application.recorded_span_ns);
}

/// Each app of tests/data/real/<machine>-<session>, replayed on the node of its machine kind
/// (configs/testbed-<machine>-apps.yaml), spans its recording within 1%.
void expect_honest_replays(const std::string& machine, const std::string& session,
                           std::initializer_list<const char*> names) {
  const auto node = topology::load_node(test::config("testbed-" + machine + "-apps.yaml"));
  for (const char* name : names) {
    SCOPED_TRACE(machine + "-" + session + "/" + name);
    const auto t = trace::read_trace(app(machine + "-" + session, name));
    const ApplicationProjection p = project_application(node, node, t, {}, model::find_model("default"));
    const double recorded = p.source.application.recorded_span_ns;
    ASSERT_GT(recorded, 0.0);
    EXPECT_NEAR(p.source.application.replayed_span_ns, recorded, 0.01 * recorded);
  }
}

TEST(ApplicationProjection, HonestReplayOfUnseenSessionsStaysWithinOnePercent) {
  // The nine apps recorded again on other H100 and H200 VMs (tests/data/real/*-apps2, 2026-11-26;
  // *-apps3, 2026-11-27), replayed on the node of the machine kind that recorded them (issue 14:
  // the same-node replay within 2%). Measured: 0.0% to +0.3% (largest on d2d_beside_compute;
  // -0.4% to 0.0% while a stream's back-to-back work lost its 1-3 us gaps); asserted 1%.
  for (const char* machine : {"h100-1gpu", "h200-1gpu"})
    for (const char* session : {"apps2", "apps3"})
      expect_honest_replays(machine, session,
                            {"train_pinned", "train_pageable", "ckpt_fresh", "ckpt_fresh_mem", "ckpt_reuse", "gpt_mixed",
                             "offload_pinned", "prefetch_overlap", "d2d_beside_compute"});
}

}  // namespace
}  // namespace linkcast::application

namespace linkcast::application {
namespace {

/// App `name` recorded on the H100 (tests/data/real/h100-1gpu-<sessions>) projected onto the H200
/// and scored against its recording there (h200-1gpu-<sessions>).
StepScore h100_to_h200(const std::string& name, const std::string& sessions = "apps") {
  // The nodes of the sessions that recorded the apps (their host rates measured there).
  const auto from = topology::load_node(test::config("testbed-h100-1gpu-apps.yaml"));
  const auto to = topology::load_node(test::config("testbed-h200-1gpu-apps.yaml"));
  const auto t = trace::read_trace(app("h100-1gpu-" + sessions, name));
  const auto actual = trace::read_trace(app("h200-1gpu-" + sessions, name));
  const ApplicationProjection p = project_application(from, to, t, {}, model::find_model("default"));
  const StepTable s = step_table(p, &actual);
  EXPECT_TRUE(s.score.has_value()) << name;
  return s.score.value_or(StepScore{});
}

// The same PyTorch programs recorded on the H100 and the H200 testbeds (2026-11-23 sessions,
// tests/data/real/*-apps; development set: the held-out apps are scored in the README only).
// Steps summed over the 8 profiled steps; thresholds just above today's figures (in comments).
TEST(ApplicationGroundTruth, TrainingStepsH100ToH200) {
  // ResNet-like training, batches copied from pinned memory: kernels decide (memory-bound
  // kernels 0.90x on the H200, each by the share of the streaming rate its operator's tensors
  // make: max-pooling kernels move 0.24-0.45 of it and keep most of their time), the step shrinks
  // 7-8%.
  // With each kernel's occupancy as its memory-bound share (before 2026-11-27) -2.8%; +2.2% while
  // kernels 3-10 us behind their stream predecessor kept their recorded delay after their launch.
  const StepScore pinned = h100_to_h200("train_pinned");
  EXPECT_EQ(pinned.steps, 8u);
  EXPECT_LE(std::fabs(pinned.projected_error_pct), 1.0);  // +0.7
  EXPECT_LT(pinned.projected_wmape_pct, pinned.measured_wmape_pct);  // 0.7 against 8.9
  // Batches from pageable memory: -1.2% (with the occupancy -5.5%; -0.6% before the stream rule)
  // against +5.7%.
  const StepScore pageable = h100_to_h200("train_pageable");
  EXPECT_LE(std::fabs(pageable.projected_error_pct), 1.5);  // -1.2
  EXPECT_LT(pageable.projected_wmape_pct, pageable.measured_wmape_pct);  // 1.6 against 5.7
}

TEST(ApplicationGroundTruth, KernelsScaledByTheirShareOfTheStreamingRateHoldOnHeldOutApps) {
  // Two apps recorded on the H100 and the H200 (tests/data/real/*-apps4, 2026-11-27) before the
  // kernels' memory-bound share became the streaming share their operator's tensors make, scored
  // once after it: a residual CNN in bf16 (+1.9% against nothing changes' +11.7%; the occupancy
  // gave -3.9%) and embedding-bag lookups with an MLP (-2.0%, WMAPE 2.5%, against +1.5%, 2.4%;
  // the occupancy gave -5.8%).
  const StepScore vision = h100_to_h200("vision_bf16", "apps4");
  EXPECT_LE(std::fabs(vision.projected_error_pct), 2.5);  // +1.9
  EXPECT_LT(vision.projected_wmape_pct, vision.measured_wmape_pct);  // 1.9 against 11.7
  EXPECT_LE(std::fabs(h100_to_h200("recsys_embed", "apps4").projected_error_pct), 2.5);  // -2.0
  // The kernel-bound apps of the later sessions (apps2, apps3), seen when the rule was chosen:
  // train_pinned -0.6% and -0.1%, prefetch_overlap -0.2% and -0.5% (+0.2, +0.8, +1.4, +0.5 before
  // the stream rule; with the occupancy -5.2, -4.6, -3.6, -5.1).
  for (const char* sessions : {"apps2", "apps3"})
    for (const char* name : {"train_pinned", "prefetch_overlap"})
      EXPECT_LE(std::fabs(h100_to_h200(name, sessions).projected_error_pct), 1.5) << name << " " << sessions;
}

TEST(ApplicationGroundTruth, KernelsHeldByD2dCopiesWaitTheCopiesShareOnTheTarget) {
  // app_d2d_beside_compute: 1 GiB D2D copies on a side stream hold every small kernel of the
  // compute stream launched beside them until their end (the copies' blocks fill the SMs); the
  // H200's copies take 0.82x as long, and so do those waits. +0.2%, +0.8%, +0.7% over the three
  // pairs of sessions against nothing changes' +6.5%, +7.1%, +7.2%; with the waits kept as launch
  // delays +5.0%, +5.7%, +5.4%. (+2.3%, +3.0%, +3.7% while the kernel after a memset, 3.3 us behind
  // it on a stream the CPU had run 13.8 ms ahead of, kept that 13.8 ms after its launch: the
  // H200's stream stalled until then in the steps that had one.)
  for (const char* sessions : {"apps", "apps2", "apps3"}) {
    const StepScore s = h100_to_h200("d2d_beside_compute", sessions);
    EXPECT_LE(std::fabs(s.projected_error_pct), 1.0) << sessions;
    EXPECT_LT(s.projected_wmape_pct, s.measured_wmape_pct) << sessions;
  }
  // Held out: a wider MLP beside eight 256 MiB copies a step (tests/data/real/*-apps5, recorded
  // after the rule, scored once): 61 waits for the copies' SMs, +1.9% against nothing changes'
  // +4.2% (with the waits kept as launch delays +2.2%; +1.8% with the stream rule).
  const StepScore many = h100_to_h200("d2d_many_beside", "apps5");
  EXPECT_LE(std::fabs(many.projected_error_pct), 2.5);
  EXPECT_LT(many.projected_wmape_pct, many.measured_wmape_pct);
}

TEST(ApplicationGroundTruth, HeldOutSixthSessionsStepsAsProjected) {
  // The sixth pair of sessions (tests/data/real/*-apps6, 2026-11-28, run_sweeps_and_apps.sh on
  // nvidia-h100-x1 and nvidia-h200), recorded after every rule here and scored once with the nodes
  // of the 2026-11-23 sessions. Where kernels decide, the step error against nothing changes':
  // train_pinned +1.2% (+9.3%), prefetch_overlap +1.0% (+9.3%), d2d_beside_compute +0.3% (+6.5%),
  // d2d_many_beside +2.1% (+4.6%), recsys_embed +0.1% (WMAPE 2.2% against 4.9%), train_pageable
  // -2.0% (WMAPE 3.6% against 4.6%). Where the host decides, both miss alike: ckpt_reuse +1.9%
  // (+3.1%), ckpt_fresh -8.3% (-8.1%). Bounds just above those figures.
  const struct {
    const char* app;
    double error_bound_pct;
    bool beats;  // projected WMAPE below nothing changes'
  } apps[] = {{"train_pinned", 1.5, true},      {"prefetch_overlap", 1.5, true}, {"d2d_beside_compute", 0.6, true},
              {"d2d_many_beside", 2.5, true},   {"recsys_embed", 0.5, true},     {"train_pageable", 2.5, true},
              {"ckpt_reuse", 2.5, true},        {"ckpt_fresh", 8.8, false}};
  for (const auto& a : apps) {
    const StepScore s = h100_to_h200(a.app, "apps6");
    EXPECT_LE(std::fabs(s.projected_error_pct), a.error_bound_pct) << a.app;
    if (a.beats) {
      EXPECT_LT(s.projected_wmape_pct, s.measured_wmape_pct) << a.app;
    }
  }
}

TEST(ApplicationGroundTruth, MatrixKernelsKeepTheirTimeFromSkinnyToSquare) {
  // tools/record/matrix_roofline.py on the H100 and the H200 (tests/data/real/*-matrix,
  // 2026-11-27): GEMMs from (8 x 4096) @ (4096 x 4096) to 8192-square in bf16 and FP32 and 3x3
  // convolutions of 32-256 channels forward and backward, 26-812 TFLOP/s. Between two GPUs of one
  // tensor and FP32 rate they keep their time (linkcast's rule): summed, the H200 took 0.997x the
  // H100's time (per case 0.82-1.20; tools/results/matrix_kernels.py), so kept is +0.3%. The
  // memory-bound kernels' rule (their operators' inputs over the time, as a share of the streaming
  // rate) would give them -3.5%.
  const auto from = topology::load_node(test::config("testbed-h100-1gpu-apps.yaml"));
  const auto to = topology::load_node(test::config("testbed-h200-1gpu-apps.yaml"));
  const std::string h100 = test::source_dir() + "/tests/data/real/h100-1gpu-matrix/matrix_roofline.json.gz";
  const std::string h200 = test::source_dir() + "/tests/data/real/h200-1gpu-matrix/matrix_roofline.json.gz";
  const ApplicationProjection p = project_application(from, to, trace::read_trace(h100), {}, model::find_model("default"));
  // What the H200 ran, by class: its own recording's sums (the same node on both sides).
  const ApplicationProjection actual = project_application(to, to, trace::read_trace(h200), {}, model::find_model("default"));
  const auto on = [](const ApplicationProjection& a, WorkClass c, bool target) {
    const WorkTotals& w = a.by_class[static_cast<std::size_t>(c)];
    return target ? w.target_ns : w.source_ns;
  };
  const double projected = on(p, WorkClass::matrix_tensor, true) + on(p, WorkClass::matrix_fp32, true);
  const double measured = on(actual, WorkClass::matrix_tensor, false) + on(actual, WorkClass::matrix_fp32, false);
  ASSERT_GT(measured, 1e6);  // 20.9 ms of matrix kernels
  EXPECT_NEAR(projected / measured, 1.0, 0.01);  // 1.003
  // Its streaming add (a + b, 256 Mi bf16 elements: 1.07 of the H100's streaming rate read and
  // written) runs 0.695x on the H200, the rates' ratio (0.703); its operator's inputs alone make
  // 0.70 of the rate, so the memory rule gives it 0.79x: the writes the trace does not record.
  const double memory = on(p, WorkClass::memory_kernels, true) / on(actual, WorkClass::memory_kernels, false);
  EXPECT_GT(memory, 1.05);  // +11.2%: the known undercount of written bytes
  EXPECT_LT(memory, 1.15);
}

TEST(ApplicationProjection, HonestReplayOfTheMatrixSessionsAppsStaysWithinOnePercent) {
  // The two apps recorded with the matrix microbenchmark (tests/data/real/*-matrix), each replayed
  // on the node of the machine kind that recorded it: 0.0% on both machines (-0.3% and -0.2% for
  // mobile_fp16 while a stream's back-to-back kernels lost their 1-3 us gaps in the replay).
  for (const char* machine : {"h100-1gpu", "h200-1gpu"})
    expect_honest_replays(machine, "matrix", {"mobile_fp16", "encoder_bf16"});
}

TEST(ApplicationProjection, HonestReplayOfPatternsTheOtherAppsLackStaysWithinOnePercent) {
  // Five apps of patterns no earlier recording had (tests/data/real/h200-1gpu-apps7 and its held-out
  // second run -apps8, 2026-11-28, tools/record/run_unseen_apps.sh on one H200): kernels launched
  // from CUDA graphs (graphed_mlp), two streams joined by events (two_stream_branches), steps paced
  // by the host's launches (launch_bound), logits read back through pinned memory and an event
  // (infer_pinned_out), Triton kernels of torch.compile (compiled_mlp). Each replayed on the H200
  // apps node: 0.00% on all ten (tools/results/honest_replays.sh); asserted 1%.
  for (const char* session : {"apps7", "apps8"})
    expect_honest_replays("h200-1gpu", session,
                          {"graphed_mlp", "two_stream_branches", "launch_bound", "infer_pinned_out", "compiled_mlp"});
}

TEST(ApplicationProjection, HonestReplayOfLoadersDecodingCpuOptimizersAndSmallPageableCopies) {
  // Four apps of patterns no earlier recording had (tests/data/real/h200-1gpu-apps9 and its held-out
  // second run -apps10, 2026-11-29, tools/record/run_unseen_apps2.sh on one H200): a DataLoader's
  // worker processes and pin-memory thread (loader_workers), a CPU Adam over pinned master weights
  // (cpu_adam_offload), 64 small pageable copies a step (small_pageable); kv_decode's traces (15.7 MB
  // each) are not committed, their replays measured +0.00% on both runs. Each replayed on the H200
  // apps node: 0.00-0.02% (tools/results/honest_replays.sh); asserted 1%.
  for (const char* session : {"apps9", "apps10"})
    expect_honest_replays("h200-1gpu", session, {"loader_workers", "cpu_adam_offload", "small_pageable"});
}

TEST(ApplicationProjection, HonestReplayOfProfilerSettingsAndPatternsOfTheThirdUnseenSet) {
  // Four apps recorded with profiler settings and patterns no earlier recording had
  // (tests/data/real/h200-1gpu-apps11 and its held-out second run -apps12, 2026-11-29,
  // tools/record/run_unseen_apps3.sh on one H200): Python stacks, FLOPs and module names in the
  // trace (stack_flops_cnn), a mixture of experts with blocking nonzero() gathers profiled without
  // shapes (moe_router), pageable non_blocking micro-batches with activation checkpointing and a
  // GradScaler profiled without a schedule (accum_checkpoint: no ProfilerStep markers), sequence
  // lengths changing every step with expandable segments (dynamic_seq). Each replayed on the H200
  // apps node: 0.00-0.14% (tools/results/honest_replays.sh; accum_checkpoint's 0.13-0.14% are its
  // 72 pageable copies' last DMAs, which its calls end with in the replay); asserted 1%.
  for (const char* session : {"apps11", "apps12"})
    expect_honest_replays("h200-1gpu", session, {"stack_flops_cnn", "moe_router", "accum_checkpoint", "dynamic_seq"});
}

TEST(ApplicationProjection, HonestReplayOfCudaOnlyAndWindowedProfiles) {
  // Profiles users often take and no earlier recording was (tests/data/real/h200-1gpu-apps13 and
  // its held-out second run -apps14, 2026-11-29, tools/record/run_unseen_apps4.sh on one H200):
  // activities=[CUDA] alone (runtime calls and GPU work, no CPU operators or step markers), and
  // three windows of two steps written by tensorboard_trace_handler (three files of one process,
  // read as its successive windows, the unprofiled steps between them kept as recorded). Each
  // replayed on the H200 apps node: 0.00-0.04% (tools/results/honest_replays.sh); asserted 1%. The
  // windows' steps are 92-93% GPU work: the CPU-paced warning reads the steps, not the span that
  // holds the unprofiled steps between windows (it said 69% CPU).
  const auto node = topology::load_node(test::config("testbed-h200-1gpu-apps.yaml"));
  for (const char* session : {"apps13", "apps14"}) {
    const std::string dir = test::source_dir() + "/tests/data/real/h200-1gpu-" + session + "/";
    for (const std::string& path : {dir + "app_cuda_only_cnn.json.gz", dir + "app_windows_mlp"}) {
      SCOPED_TRACE(path);
      const trace::Trace t = trace::read_traces({path});
      ASSERT_TRUE(t.has_application());
      const ApplicationProjection p = project_application(node, node, t, {}, model::find_model("default"));
      const double recorded = p.source.application.recorded_span_ns;
      ASSERT_GT(recorded, 0.0);
      EXPECT_NEAR(p.source.application.replayed_span_ns, recorded, 0.01 * recorded);
      if (path.ends_with("windows_mlp")) {
        EXPECT_EQ(p.source.application.steps.size(), 6u);  // ProfilerStep#2, 3, 6, 7, 10, 11
        EXPECT_FALSE(sim::profiler_paced_warning(t, p.source.application).has_value());
      }
    }
  }
}

TEST(ApplicationProjection, HonestReplayOfTheFifthUnseenSetAndItsWaitsThatAreNoCpuWork) {
  // Runtime patterns no earlier recording had (tests/data/real/h200-1gpu-apps15 and its held-out
  // second run -apps16, 2026-11-29, tools/record/run_unseen_apps5.sh on one H200): the
  // stream-ordered allocator (cudaMallocAsync/cudaFreeAsync), torch.cuda.empty_cache() after every
  // step (cudaFree), a host polling cudaEventQuery with CPU work between instead of synchronizing,
  // stream priorities, two CPU threads launching on two streams. Each replayed on the H200 apps
  // node: -0.02..+0.02% (tools/results/honest_replays.sh); asserted 1%.
  const auto node = topology::load_node(test::config("testbed-h200-1gpu-apps.yaml"));
  for (const char* session : {"apps15", "apps16"}) {
    SCOPED_TRACE(session);
    expect_honest_replays("h200-1gpu", session,
                          {"async_alloc_mlp", "empty_cache_mlp", "event_poll_mlp", "priority_streams", "threads_two_models"});
    // The polls and the cudaFree that waited for the GPU are waits: replayed with all GPU work at
    // half its recorded time, the polled trace (GPU-bound steps, the GPU busy 13.1-13.2 of their
    // 13.7 ms) spans 0.53-0.56 of its recording, the freeing one 0.66-0.69 (asserted: below 0.6 and
    // 0.75). With the polls and frees kept as the CPU time they took (their calls renamed in the
    // trace) both span 0.99-1.00; with those rules but the call-less annotations at their recorded
    // times (before AnAnnotationWithNoCallInsideMovesWithItsThread) both spanned 0.88.
    for (const auto& [name, below] : {std::pair{"event_poll_mlp", 0.60}, std::pair{"empty_cache_mlp", 0.75}}) {
      SCOPED_TRACE(name);
      const trace::Trace t = trace::read_trace(app(std::string("h200-1gpu-") + session, name));
      sim::SimOptions o;
      o.durations_ns.assign(t.size(), std::nan(""));
      for (std::size_t i = 0; i < t.size(); ++i)
        if (trace::runs_on_gpu(t.kinds()[i])) o.durations_ns[i] = 0.5 * static_cast<double>(t.durations()[i]);
      const sim::SimResult r = sim::simulate(node, t, o);
      EXPECT_LT(r.application.replayed_span_ns, below * r.application.recorded_span_ns);
    }
  }
}

TEST(ApplicationProjection, AWhatIfOfOneKernelsLengthMatchesTheRecordingOfThatLength) {
  // Three apps whose hosts wait for the GPU in three ways (polling an event, a cudaFree after
  // every step, a blocking loss.item()), each step started by a GPU spin of 4e6 cycles (_a:
  // 2.02 ms) or 12e6 (_b: 6.06 ms), recorded twice on one H200 (tests/data/real/h200-1gpu-spin,
  // and -spin2 held out and scored once; tools/record/run_sleep_pairs.sh). The _a trace replayed
  // with its spin kernels 3x as long spans what the _b trace recorded: -0.31%, +1.43%, -0.03%
  // (spin), -0.40%, -0.18%, -0.13% (spin2); nothing changes (the _a span) is 21-28% short; with the
  // polls and the cudaFree kept as CPU time (their calls renamed) -0.93..-1.07% and -4.43..-5.77%.
  // Asserted: within 2%.
  const auto node = topology::load_node(test::config("testbed-h200-1gpu-apps.yaml"));
  for (const char* session : {"spin", "spin2"})
    for (const char* app_name : {"poll", "free", "item"}) {
      SCOPED_TRACE(std::string(session) + " " + app_name);
      const std::string dir = test::source_dir() + "/tests/data/real/h200-1gpu-" + session + "/app_spin_" + app_name;
      const trace::Trace a = trace::read_trace(dir + "_a.json.gz");
      const trace::Trace b = trace::read_trace(dir + "_b.json.gz");
      sim::SimOptions o;
      o.durations_ns = sim::recorded_gpu_durations(a);
      for (std::size_t i = 0; i < a.size(); ++i)
        if (a.op_names[a.names()[i]].find("spin_kernel") != std::string::npos) o.durations_ns[i] *= 3;
      const double predicted = sim::simulate(node, a, o).application.replayed_span_ns;
      const double actual = trace::recorded_span_ns(b);
      EXPECT_NEAR(predicted, actual, 0.02 * actual);
      EXPECT_LT(std::abs(predicted - actual), std::abs(trace::recorded_span_ns(a) - actual));
    }
}

TEST(ApplicationProjection, ASlowerHostsPageableCopiesLengthenTheStepsTheyPace) {
  // accum_checkpoint (tests/data/real/h200-1gpu-apps11): 72 pageable H2D copies of 8 MiB a trace
  // (87.3 ms of 914 ms), each inside its cudaMemcpyAsync call, which stages it. Projected onto
  // the same node with pageable H2D copies at 2/3 of its measured rate (its own rates, as
  // `--target-host-rates` prices them), the span grows by what those copies grow: the calls wait
  // for them. It grew by 0 when the calls' time was kept as CPU time. Measured here: the span's
  // change 1.00x the transfers' (tolerance 10%: the copies' first chunks and small copies).
  const auto from = topology::load_node(test::config("testbed-h200-1gpu-apps.yaml"));
  topology::Node to = from;
  for (auto& e : to.endpoints)
    if (e.kind == topology::EndpointKind::cpu && e.memory.pageable_h2d_gbps > 0) e.memory.pageable_h2d_gbps *= 2.0 / 3.0;
  const auto t = trace::read_trace(app("h200-1gpu-apps11", "accum_checkpoint"));
  const trace::Trace data = trace::data_movement(t);
  const projection::Projector onto(from, to, data, {}, projection::HostRateChoice{.target_rates = true});
  const ApplicationProjection p = project_application(from, to, t, {}, model::find_model("default"), &onto);
  const WorkTotals& copies = p.by_class[static_cast<std::size_t>(WorkClass::transfers)];
  const double copies_grew = copies.target_ns - copies.source_ns;
  ASSERT_GT(copies_grew, 20e6);  // the copies at 2/3 the rate: +40 ms or so
  const double span_grew = p.target.application.replayed_span_ns - p.source.application.replayed_span_ns;
  EXPECT_NEAR(span_grew / copies_grew, 1.0, 0.1);
}

TEST(ApplicationReplay, APageableCopyOfAtMostOneStagingChunkIsTimedAsItsDmaByCupti) {
  // tools/record/pageable_chunks.py on one H200 (tests/data/real/h200-1gpu-pageable, 2026-11-29): 20
  // pageable copies a size each way under the PyTorch profiler. Up to 1 MiB, CUPTI timed a pageable
  // H2D copy as the pinned one (21.55 against 21.52 us at 1 MiB): the CPU staged it whole before its
  // DMA. Priced by the model in a Kineto trace as the DMA alone, with the pinned class's 1-byte cost
  // (trace::recorded_regime): medians of 128 KiB-1 MiB at 1.06-1.26x CUPTI's time H2D and
  // 0.75-1.42x D2H (the 1-byte costs, 3.1-3.7 us, are timed between CUDA events, above CUPTI's; D2H
  // of 512-768 KiB ran 1.4x its pinned copy, partly staged, which the rule does not see), where the
  // staged price was 3.5-4.8x (small_pageable's 128 and 384 KiB copies). Past one chunk the staging
  // shows (H2D 1.12x the pinned copy at 1.25 MiB, 2.0x at 2 MiB): its first chunk is priced as a
  // DMA and the rest staged (trace::unstaged_bytes): H2D 1.68-1.94x, D2H 0.95-1.48x up to 8 MiB,
  // where the whole copy staged was 1.9-5.1x and 1.1-2.3x. H2D stays slow because this copy's source
  // was cache-warm (the later chunks ran at 16-20 GB/s) and the node's staging rate is the cold
  // one (8.9 GB/s): which a copy meets, a trace does not say (`project` anchors it).
  const auto node = topology::load_node(test::config("testbed-h200-1gpu-apps.yaml"));
  const trace::Trace t =
      trace::read_trace(test::source_dir() + "/tests/data/real/h200-1gpu-pageable/pageable_chunks.json.gz");
  EXPECT_TRUE(trace::times_gpu_activity(t));
  EXPECT_EQ(trace::recorded_regime(t, trace::kPageableStagingChunkBytes), model::HostRegime::direct);
  EXPECT_EQ(trace::recorded_regime(t, trace::kPageableStagingChunkBytes + 1), model::HostRegime::staged);
  trace::Trace csv = t;
  csv.format = "csv";  // CUDA events time the staging too
  EXPECT_EQ(trace::recorded_regime(csv, 1024), model::HostRegime::staged);
  const sim::SimResult r = sim::simulate(node, t, {});
  // Pageable copies, simulated / recorded, by direction and size.
  std::map<std::pair<bool, std::uint64_t>, std::vector<double>> ratio;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const trace::Op op = t.op(i);
    const bool h2d = op.src_mem == model::MemKind::pageable, d2h = op.dst_mem == model::MemKind::pageable;
    if (op.kind != trace::OpKind::copy || !(h2d || d2h) || op.duration_ns <= 0) continue;
    ratio[{h2d, op.bytes}].push_back((r.ops[i].end_ns - r.ops[i].start_ns) / static_cast<double>(op.duration_ns));
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  for (const bool h2d : {true, false}) {
    for (std::uint64_t kib : {128, 256, 512, 768, 1024}) {
      const std::vector<double>& v = ratio[std::pair{h2d, kib * 1024}];
      ASSERT_EQ(v.size(), 20u) << kib;
      std::cout << (h2d ? "H2D " : "D2H ") << kib << " KiB: simulated / recorded " << median(v) << "\n";
      EXPECT_GT(median(v), 0.7) << h2d << " " << kib << " KiB";
      EXPECT_LT(median(v), 1.5) << h2d << " " << kib << " KiB";
    }
    // Past one chunk: the first chunk's DMA, then the rest at the slower of the link and the host's
    // staging rate (the node's cold rate; these copies' source was cache-warm).
    for (std::uint64_t kib : {1280, 1536, 2048, 3072, 4096, 8192}) {
      const std::vector<double>& v = ratio[std::pair{h2d, kib * 1024}];
      ASSERT_EQ(v.size(), 20u) << kib;
      std::cout << (h2d ? "H2D " : "D2H ") << kib << " KiB: simulated / recorded " << median(v) << "\n";
      EXPECT_GT(median(v), 0.9) << h2d << " " << kib << " KiB";
      EXPECT_LT(median(v), 2.0) << h2d << " " << kib << " KiB";
    }
  }
}

TEST(ApplicationReplay, SmallPageableCopiesOfAKinetoTraceArePricedAsTheDmaItTimes) {
  // small_pageable (tests/data/real/h200-1gpu-apps9) copies 64 pageable blocks of 128 and 384 KiB to
  // the GPU each step: Kineto (CUPTI) timed them at 5.2 and 9.95 us (the pinned DMA's time; the
  // CPU's staging is in the cudaMemcpyAsync call, which the replay keeps), where the model priced
  // the whole staged copy at the host's pageable rate, 18.1 and 47.5 us. Replayed with every copy
  // priced by the model (simulate without --as-recorded): +10.16% before pageable copies of at most
  // one staging chunk were priced as their DMA (trace::recorded_regime), +0.13% after; the
  // held-out second run (-apps10), scored once: +12.07% -> +0.28%. With the pinned class's 1-byte
  // cost for such copies (a review's finding: the pageable one is timed with the staging, 3.39 us
  // H2D here against 3.74 pinned, but 7.81 against 3.14 D2H): +0.24% and +0.41%.
  const auto node = topology::load_node(test::config("testbed-h200-1gpu-apps.yaml"));
  for (const char* session : {"h200-1gpu-apps9", "h200-1gpu-apps10"}) {
    SCOPED_TRACE(session);
    const trace::Trace t = trace::read_trace(app(session, "small_pageable"));
    const sim::SimResult r = sim::simulate(node, t, {});
    const double recorded = r.application.recorded_span_ns;
    ASSERT_GT(recorded, 0.0);
    EXPECT_NEAR(r.application.replayed_span_ns, recorded, 0.01 * recorded);
  }
}

TEST(ApplicationProjection, KinetoSyncEventsNamingNoProducerAreReadAsNothing) {
  // Five apps profiled with enable_cuda_sync_events (tests/data/real/h200-1gpu-sync, 2026-11-29,
  // tools/record/run_sync_apps.sh on one H200, PyTorch 2.11 on CUDA 13.0): Kineto adds a
  // "cuda_sync" event for every stream wait, event and stream synchronisation, but each "Stream
  // Wait Event" gives wait_on_stream -1 and wait_on_cuda_event_record_corr_id -1 (32 of 32 in
  // two_stream_branches), so none names the work it waited for: the replay keeps inferring waits
  // across streams from the timings (README, Limits). The events are no GPU work: the trace's
  // kernels (1168), memsets (64) and copies (8) are its 1240 GPU operations, and each app replays
  // as recorded (0.00-0.01%, tools/results/honest_replays.sh; asserted 1%).
  const auto t = trace::read_trace(app("h200-1gpu-sync", "two_stream_branches"));
  std::size_t gpu_ops = 0;
  for (std::size_t i = 0; i < t.size(); ++i) gpu_ops += trace::runs_on_gpu(t.kinds()[i]) ? 1 : 0;
  EXPECT_EQ(gpu_ops, 1240u);
  for (std::size_t i = 0; i < t.size(); ++i)
    ASSERT_NE(t.op_names[t.names()[i]], "Stream Wait Event") << t.describe_record(i);
  expect_honest_replays("h200-1gpu", "sync",
                        {"two_stream_branches", "prefetch_overlap", "d2d_beside_compute", "graphed_mlp", "offload_pinned"});
}

TEST(ApplicationProjection, StepsTheCpuPacesAreSaidToCarryTheProfilersCost) {
  // launch_bound (tests/data/real/h200-1gpu-apps7): 99% of its replayed critical path is CPU time,
  // and its step took 17.17 ms profiled against 8.55 ms without the profiler (apps_steps.csv); the
  // projection says so once. train_pinned (h200-1gpu-apps, 1% CPU: 49.21 against 48.81 ms) is
  // left unremarked.
  const auto node = topology::load_node(test::config("testbed-h200-1gpu-apps.yaml"));
  const auto paced = trace::read_trace(app("h200-1gpu-apps7", "launch_bound"));
  const ApplicationProjection p = project_application(node, node, paced, {}, model::find_model("default"));
  EXPECT_EQ(std::count_if(p.warnings.begin(), p.warnings.end(),
                          [](const std::string& w) { return w.find("the CPU paces this recording (99%") != std::string::npos; }),
            1);
  EXPECT_TRUE(sim::profiler_paced_warning(paced, p.source.application).has_value());
  const auto gpu_paced = trace::read_trace(app("h200-1gpu-apps", "train_pinned"));
  const ApplicationProjection q = project_application(node, node, gpu_paced, {}, model::find_model("default"));
  EXPECT_FALSE(sim::profiler_paced_warning(gpu_paced, q.source.application).has_value());
  // The same CPU-paced replay read from another profiler says nothing of PyTorch's.
  trace::Trace renamed = paced;
  renamed.format = "nsys";
  EXPECT_FALSE(sim::profiler_paced_warning(renamed, p.source.application).has_value());
}

TEST(ApplicationGroundTruth, CheckpointStepsH100ToH200) {
  // Steps that copy 1 GiB of weights to the host: the transfers' projection decides (README).
  // The sessions' host rates said the H200 VM copies to the host 11-26% faster; in the apps it did
  // not (nothing changes: -2.2% and +6.8%). Both VMs are one host's hardware, so the copies keep the
  // H100 session's host rates (projection/same_host.hpp): -3.5% and +6.5%, where the sessions' own
  // rates gave -6.5% and -15.6%. (-3.0% for ckpt_reuse while three of its four checkpoint steps
  // kept the H100's time: a kernel 3-10 us after its stream predecessor, launched milliseconds
  // earlier, was replayed at its recorded delay after its launch, not after that predecessor.)
  EXPECT_LE(std::fabs(h100_to_h200("ckpt_reuse").projected_error_pct), 3.8);  // -3.5
  EXPECT_LE(std::fabs(h100_to_h200("ckpt_fresh").projected_error_pct), 7.1);  // +6.5
}

}  // namespace
}  // namespace linkcast::application

namespace linkcast::application {
namespace {

TEST(Placement, OneMapPlacesATraceOnBothNodes) {
  // DDP rank 1 recorded on CUDA device 1 of the 2 x H200 machine, described on the source side by
  // a 1-GPU node: `gpu1=gpu0` places it there and on the target alike (issue 15: one placement
  // option on both sides). The same node on both sides keeps every step.
  const auto one = topology::load_node(test::config("testbed-h200-1gpu.yaml"));
  const auto t = trace::read_trace(test::source_dir() + "/tests/data/real/h200-2gpu/torch_ddp_rank1.json.gz");
  const projection::EndpointMap map = {{"gpu1", "gpu0"}};
  EXPECT_EQ(projection::source_placement(one, map), map);
  const ApplicationProjection p = project_application(one, one, t, map, model::find_model("default"));
  EXPECT_NEAR(step_table(p, nullptr).projected_span_ns, p.source.application.recorded_span_ns,
              1e-6 * p.source.application.recorded_span_ns);
  // Without the map the source node says which endpoint is missing and what fixes it.
  EXPECT_THAT([&] { (void)project_application(one, one, t, {}, model::find_model("default")); },
              ::testing::ThrowsMessage<InputError>(
                  HasSubstr("kernel on gpu1, which the source node testbed-h200-1gpu lacks; place the trace's GPUs "
                            "with --map gpu1=gpuN")));
}

TEST(Placement, AMapPlacesEveryEndpointItNamesAndRefusesWhatCannotHoldIt) {
  // A robustness hunt (round 26): `simulate --map cpu0=cpu1` ran the trace from cpu0 (5.7 ms on
  // Summit: 3 x 256 MiB from the CPU of their GPUs; from cpu1, over the 64 GB/s X-Bus: 12.6 ms, as
  // the same trace written with cpu1 takes), a misspelt entry (GPU0=gpu1) was dropped unsaid and a
  // GPU went onto a CPU (gpu0=cpu0).
  const auto summit = topology::load_node(test::config("summit.yaml"));
  trace::Trace t;
  for (const char* gpu : {"gpu0", "gpu1", "gpu2"}) {
    trace::Op op;
    op.kind = trace::OpKind::copy;
    op.src = t.endpoint("cpu0");
    op.dst = t.endpoint(gpu);
    op.bytes = std::uint64_t{256} << 20;
    op.src_mem = model::MemKind::pinned;
    op.dst_mem = model::MemKind::device;
    t.push(op);
  }
  auto makespan = [&](const projection::EndpointMap& map) {
    sim::SimOptions o;
    EXPECT_TRUE(place(summit, t, map, o).empty());
    return sim::simulate(summit, t, o).makespan_ns;
  };
  const double moved = makespan({{"cpu0", "cpu1"}});
  EXPECT_GT(moved, 1.8 * makespan({}));  // X-Bus (64 GB/s) under the GPUs' NVLinks
  sim::SimOptions o;
  const std::vector<std::string> w = place(summit, t, {{"GPU0", "gpu1"}}, o);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_THAT(w[0], HasSubstr("--map GPU0=gpu1: the trace has no endpoint 'GPU0' (did you mean 'gpu0'?)"));
  EXPECT_THAT([&] { (void)place(summit, t, {{"gpu0", "cpu0"}}, o); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("--map gpu0=cpu0: 'cpu0' of node 'summit' is a cpu, not "
                                                             "a GPU")));
  EXPECT_THAT([&] { (void)place(summit, t, {{"cpu0", "gpu3"}}, o); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("'gpu3' of node 'summit' is a GPU, and 'cpu0' of the "
                                                             "trace is none")));
  EXPECT_THAT([&] { (void)place(summit, t, {{"cpu0", "cpu9"}}, o); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("--map cpu0=cpu9: node 'summit'")));
  // Two GPUs of the trace on one of the node's: the two ranks' streams ran as one GPU's and the
  // replay stopped on "tasks never started ... the trace's streams wait on each other".
  EXPECT_THAT([&] { (void)place(summit, t, {{"gpu1", "gpu0"}}, o); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("--map places gpu0 and gpu1 of the trace both on 'gpu0' "
                                                             "of node 'summit'")));
}

}  // namespace
}  // namespace linkcast::application
