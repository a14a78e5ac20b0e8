// How a kernel recorded on one GPU runs on another: what bounds it, read from its name and its
// launch parameters, and the factor its recorded time changes by.
//
// Classes (classify_kernel):
//  - matrix, tensor cores: GEMM, convolution and attention kernels (cuBLAS, cuDNN, CUTLASS,
//    flash attention: names with gemm, xmma, conv, fprop/dgrad/wgrad, cutlass, nvjet, flash,
//    attention, mma; TorchInductor's template kernels, `triton_tem_fused_*`, which its
//    max-autotune writes for matrix products and convolutions) scale by the GPUs' dense tensor
//    rates (GPU key `tensor_tflops`); Inductor's pointwise, reduction, persistent-reduction and
//    foreach kernels (`triton_poi_`, `triton_red_`, `triton_per_`, `triton_for_`) are memory
//    kernels whatever operators their names list (`triton_poi_fused_convolution_relu_0` is a
//    convolution's bias and ReLU);
//  - matrix, FP32: the same families where the name says plain FP32 on the SIMT units (`simt`,
//    `sgemm`, `f32f32_f32f32` without `tf32`) scale by `fp32_tflops`;
//  - memory: every other kernel (elementwise, reductions, normalisation, pooling, layout changes,
//    optimizers, copies) moves data. Such a kernel streams at the lower of two rates: the GPU
//    memory's (`stream_gbps`, else the peak `bandwidth_gbps`), and what its resident warps keep in
//    flight divided by the memory latency (Little's law), which does not change between GPUs of
//    one generation. The share f of its time bound by the memory's rate is the share of the
//    source memory's streaming rate it moved: the bytes of the tensors its operator took (Kineto's
//    "Input Dims" and "Input type", recorded with `record_shapes=True`) over its recorded time, over
//    the source's rate, at most 1; where the trace has no shapes, its occupancy (Kineto's "est.
//    achieved occupancy %", else resident warps / 64). factor = 1 - f + f x r, r = source rate /
//    target rate. Measured on H100 -> H200 (tests/data/real/*-apps, r = 0.703): elementwise
//    kernels ran 0.70x, cuDNN batch-norm kernels 0.83-0.94x, and max-pooling kernels at 100%
//    occupancy 0.97-0.99x: by their operators' tensors they move 0.24-0.45 of the streaming rate
//    (index arithmetic, not bytes, holds them), which the occupancy took for 1. The operator's
//    inputs leave out what it writes and what it reads twice, so f is a lower bound: summed over
//    each app's memory-class kernels, the inputs alone came within 1.5% of the H200's times on
//    seven of eight apps in three pairs of sessions (+4.1..+4.3% on d2d_beside_compute), where the
//    occupancy gave -9.9..+8.0% and inputs plus the largest again as written -8.5..-1.6%. Held out
//    and scored once: +0.8% and +0.4% on two apps (occupancy -10.1% and -14.0%), +7.1% and -5.9%
//    on two more (mobile_fp16, whose cuDNN batch-norm backward rereads its inputs; encoder_bf16,
//    whose foreach optimizer kernels have no shapes). `python3 tools/results/kernel_shares.py APP
//    SESSIONS...` (README, "Whole applications").
// Matrix kernels keep their time where the tensor (FP32) rates are equal: measured from skinny to
// square on the H100 and the H200, they took 0.997x summed (tests/data/real/*-matrix,
// tools/results/matrix_kernels.py), though 1x1 convolutions that stream ran 0.67-0.75x.
// A rate a node lacks keeps the kernel's time (factor 1) and is reported.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "topology/node.hpp"
#include "trace/trace.hpp"

namespace linkcast::application {

enum class KernelBound : std::uint8_t { matrix_tensor, matrix_fp32, memory };
inline constexpr std::size_t kKernelBoundCount = 3;
[[nodiscard]] std::string_view to_string(KernelBound bound);

/// The class of a kernel by its name (see the file comment).
[[nodiscard]] KernelBound classify_kernel(std::string_view name);

/// Share of a kernel's time bound by the memory's rate, 0..1: the share of `stream_gbps` (the
/// source GPU's) that its operator's input tensors over its `duration_ns` make, else its
/// occupancy as recorded (`info` may be null: 1, the kernel is taken to saturate memory).
[[nodiscard]] double memory_bound_share(const trace::KernelInfo* info, double duration_ns, double stream_gbps);

/// The rates of one GPU that bound its kernels; 0 where the node does not say.
struct GpuRates {
  double stream_gbps = 0;  // measured streaming rate, else the peak memory bandwidth
  double tensor_tflops = 0;
  double fp32_tflops = 0;
};
[[nodiscard]] GpuRates gpu_rates(const topology::Endpoint& gpu);

struct KernelScale {
  KernelBound bound = KernelBound::memory;
  double factor = 1;    // target time / source time
  bool known = true;    // false: a rate was missing on either node and the time is kept
};
/// How a kernel named `name` (launch `info`, may be null) that took `duration_ns` on a GPU with
/// rates `from` runs on a GPU with rates `to`.
[[nodiscard]] KernelScale scale_kernel(std::string_view name, const trace::KernelInfo* info, double duration_ns,
                                       const GpuRates& from, const GpuRates& to);

}  // namespace linkcast::application
