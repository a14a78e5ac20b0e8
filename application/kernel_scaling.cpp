#include "application/kernel_scaling.hpp"

#include "core/strings.hpp"

#include <algorithm>
#include <string>

namespace linkcast::application {

namespace {

bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

// The most resident warps an SM holds: 64 on Volta, Ampere and Hopper (CUDA C++ Programming
// Guide, "Technical Specifications per Compute Capability": 2048 threads per SM).
constexpr double kMaxWarpsPerSm = 64;

}  // namespace

std::string_view to_string(KernelBound bound) {
  switch (bound) {
    case KernelBound::matrix_tensor: return "matrix (tensor cores)";
    case KernelBound::matrix_fp32: return "matrix (FP32)";
    case KernelBound::memory: return "memory";
  }
  return "?";
}

KernelBound classify_kernel(std::string_view name) {
  const std::string n = to_lower(name);
  // TorchInductor's generated kernels say their kind after "triton_": a template (matrix product,
  // convolution, attention) or a pointwise, reduction, persistent-reduction or foreach kernel,
  // whose name lists the operators fused into it ("triton_poi_fused_convolution_relu_0" is a
  // convolution's bias and ReLU, not the convolution).
  if (n.starts_with("triton_poi_") || n.starts_with("triton_red_") || n.starts_with("triton_per_") ||
      n.starts_with("triton_for_"))
    return KernelBound::memory;
  static constexpr std::string_view kMatrix[] = {"gemm", "xmma", "conv", "fprop", "dgrad", "wgrad", "cutlass",
                                                 "nvjet", "flash", "attention", "mma", "cublas", "triton_tem_"};
  const bool matrix = std::any_of(std::begin(kMatrix), std::end(kMatrix), [&](std::string_view k) { return contains(n, k); });
  if (!matrix) return KernelBound::memory;
  const bool fp32 = contains(n, "simt") || contains(n, "sgemm") || (contains(n, "f32f32_f32f32") && !contains(n, "tf32"));
  return fp32 ? KernelBound::matrix_fp32 : KernelBound::matrix_tensor;
}

double memory_bound_share(const trace::KernelInfo* info, double duration_ns, double stream_gbps) {
  if (info == nullptr) return 1;
  if (info->input_bytes > 0 && duration_ns > 0 && stream_gbps > 0)
    return std::clamp(info->input_bytes / duration_ns / stream_gbps, 0.0, 1.0);
  if (info->occupancy_pct >= 0) return std::clamp(info->occupancy_pct / 100.0, 0.0, 1.0);
  if (info->blocks_per_sm > 0 && info->block_threads > 0) {
    const double warps = info->blocks_per_sm * std::ceil(info->block_threads / 32.0);
    return std::clamp(warps / kMaxWarpsPerSm, 0.0, 1.0);
  }
  return 1;
}

GpuRates gpu_rates(const topology::Endpoint& gpu) {
  GpuRates r;
  r.stream_gbps = gpu.memory.streaming_gbps();
  r.tensor_tflops = gpu.tensor_tflops;
  r.fp32_tflops = gpu.fp32_tflops;
  return r;
}

KernelScale scale_kernel(std::string_view name, const trace::KernelInfo* info, double duration_ns, const GpuRates& from,
                         const GpuRates& to) {
  KernelScale s;
  s.bound = classify_kernel(name);
  const auto ratio = [&](double a, double b) {
    if (a > 0 && b > 0) return a / b;
    s.known = false;
    return 1.0;
  };
  switch (s.bound) {
    case KernelBound::matrix_tensor: s.factor = ratio(from.tensor_tflops, to.tensor_tflops); break;
    case KernelBound::matrix_fp32: s.factor = ratio(from.fp32_tflops, to.fp32_tflops); break;
    case KernelBound::memory: {
      const double r = ratio(from.stream_gbps, to.stream_gbps);
      const double f = memory_bound_share(info, duration_ns, from.stream_gbps);
      s.factor = 1 - f + f * r;
      break;
    }
  }
  return s;
}

}  // namespace linkcast::application
