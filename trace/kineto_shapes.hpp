// The bytes of the tensors a PyTorch CPU operator took, from its Kineto event (recorded with
// `record_shapes=True`: args "Input Dims" and "Input type"), and the "External id" that links it
// to the kernels it launched. Read from the event's text alone: a training trace holds millions of
// such events, which the reader otherwise passes over unparsed (trace/kineto.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace linkcast::trace {

struct OperatorInputs {
  std::uint64_t external_id = 0;
  double bytes = 0;  // > 0
};

/// Bytes of one element of a tensor whose "Input type" is `type` (PyTorch's C++ scalar type names
/// as the profiler writes them: "float", "c10::BFloat16", "long int", ...); 0 for any other text.
[[nodiscard]] double element_bytes(std::string_view type);

/// The operator's External id and the bytes of its input tensors: each tensor's elements times
/// its type's size; a TensorList's tensors (their type is not written) at the size of the
/// operator's first typed tensor, else 4 bytes (float, PyTorch's default). Scalars, lists of
/// integers and unknown types count nothing. Nothing where the event has no External id, no
/// "Input Dims" and "Input type" lists, or no tensor in them; text that is no such list (a
/// hostile file) ends the count where it stops being one.
[[nodiscard]] std::optional<OperatorInputs> operator_inputs(std::string_view event);

}  // namespace linkcast::trace
