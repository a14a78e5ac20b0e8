// The bytes of a PyTorch CPU operator's input tensors, read from its Kineto event text
// (trace/kineto_shapes.hpp), and the kernels they reach through the External id.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "trace/kineto.hpp"
#include "trace/kineto_shapes.hpp"

namespace linkcast::trace {
namespace {

TEST(KinetoShapes, AnOperatorsTensorsAreItsElementsTimesTheirTypesSize) {
  // train_pinned's max_pool2d_with_indices_backward as PyTorch 2.11 writes it: grad_output and
  // self in float, indices in int64; the lists of ints and the bool count nothing.
  const std::string event =
      R"({"ph": "X", "cat": "cpu_op", "name": "aten::max_pool2d_with_indices_backward", "pid": 1, "tid": 1, )"
      R"("ts": 1.0, "dur": 2.0, "args": {"External id": 561, "Record function id": 0, "Concrete Inputs": )"
      R"(["", "", "[2, 2]", "[2, 2]", "[0, 0]", "[1, 1]", "False", ""], "Input type": ["float", "float", )"
      R"("ScalarList", "ScalarList", "ScalarList", "ScalarList", "Scalar", "long int"], "Input Strides": )"
      R"([[51200, 100, 10, 1], [204800, 400, 20, 1], [], [], [], [], [], [51200, 100, 10, 1]], "Input Dims": )"
      R"([[256, 512, 10, 10], [256, 512, 20, 20], [], [], [], [], [], [256, 512, 10, 10]], "Ev Idx": 48}})";
  const auto in = operator_inputs(event);
  ASSERT_TRUE(in.has_value());
  EXPECT_EQ(in->external_id, 561u);
  EXPECT_DOUBLE_EQ(in->bytes, 256.0 * 512 * 10 * 10 * 4 + 256.0 * 512 * 20 * 20 * 4 + 256.0 * 512 * 10 * 10 * 8);
}

TEST(KinetoShapes, TensorListsTakeTheOperatorsFirstTypedSizeElseFloats) {
  // _foreach_add_(TensorList, TensorList, Scalar): no typed tensor, so 4 bytes an element.
  const std::string lists =
      R"({"args": {"External id": 7, "Input type": ["TensorList", "TensorList", "Scalar"], )"
      R"("Input Dims": [[[4096, 4096], [4096]], [[4096, 4096], [4096]], []]}})";
  ASSERT_TRUE(operator_inputs(lists).has_value());
  EXPECT_DOUBLE_EQ(operator_inputs(lists)->bytes, 2 * (4096.0 * 4096 + 4096) * 4);
  // A bf16 tensor beside the list: the list's tensors are taken as bf16 too.
  const std::string mixed =
      R"({"args": {"Input Dims": [[8, 8], [[2, 2], [3]]], "Input type": ["c10::BFloat16", "TensorList"], "External id": 9}})";
  ASSERT_TRUE(operator_inputs(mixed).has_value());
  EXPECT_DOUBLE_EQ(operator_inputs(mixed)->bytes, (64.0 + 4 + 3) * 2);
  EXPECT_EQ(operator_inputs(mixed)->external_id, 9u);  // keys in another order than PyTorch's
}

TEST(KinetoShapes, NothingWithoutAnIdShapesOrATensor) {
  EXPECT_FALSE(operator_inputs(R"({"args": {"Input type": ["float"], "Input Dims": [[4]]}})"));
  EXPECT_FALSE(operator_inputs(R"({"args": {"External id": 1, "Input type": ["float"]}})"));
  EXPECT_FALSE(operator_inputs(R"({"args": {"External id": 1, "Input type": ["Scalar"], "Input Dims": [[]]}})"));
  EXPECT_FALSE(operator_inputs(R"({"args": {"External id": 1, "Input type": ["float"], "Input Dims": [[]]}})"));
  // Sizes read as integers where they are, else as decimals: 2.5e1 is 25 elements; a 19-digit id
  // is read whole, a 20-digit one past 1.8e19 is none.
  EXPECT_DOUBLE_EQ(operator_inputs(R"({"External id": 1, "Input type": ["float"], "Input Dims": [[2.5e1]]})")->bytes, 100);
  EXPECT_EQ(operator_inputs(R"({"External id": 1000000000000000000, "Input type": ["float"], "Input Dims": [[2]]})")
                ->external_id,
            1000000000000000000u);
  EXPECT_FALSE(operator_inputs(R"({"External id": 18446744073709551615, "Input type": ["float"], "Input Dims": [[2]]})"));
  EXPECT_DOUBLE_EQ(element_bytes("c10::Half"), 2);
  EXPECT_DOUBLE_EQ(element_bytes("long int"), 8);
  EXPECT_DOUBLE_EQ(element_bytes("GenericList"), 0);
}

TEST(KinetoShapes, HostileTextEndsTheCountAndNeverReadsPastTheEvent) {
  // Truncated lists, strings where sizes go, nesting deeper than a TensorList, negative and huge
  // numbers: each stops the count where the text stops being a list of sizes.
  EXPECT_DOUBLE_EQ(operator_inputs(R"({"External id": 1, "Input type": ["float", "float"], "Input Dims": [[2], ["x"]]})")->bytes, 8);
  EXPECT_FALSE(operator_inputs(R"({"External id": 1, "Input type": ["float"], "Input Dims": [[[[[2]]]]]})"));
  EXPECT_FALSE(operator_inputs(R"({"External id": 1, "Input type": ["float"], "Input Dims": [[-2]]})"));
  EXPECT_FALSE(operator_inputs(R"({"External id": -1, "Input type": ["float"], "Input Dims": [[2]]})"));
  EXPECT_FALSE(operator_inputs(R"({"External id": 1, "Input type": ["float"], "Input Dims": [[1e400]]})"));
  EXPECT_FALSE(operator_inputs(R"({"External id": 1, "Input type": ["fl\"oat"], "Input Dims": [[2]]})"));
  EXPECT_FALSE(operator_inputs(R"({"External id": 1, "Input type": ["float"], "Input Dims": [[2)"));
  EXPECT_FALSE(operator_inputs(R"("External id": 1, "Input type": [, "Input Dims")"));
  // Every prefix and random bytes: no crash, no read past the text (the sanitizer build checks).
  const std::string event = R"({"args": {"External id": 561, "Input type": ["float", "TensorList", "long int"], )"
                            R"("Input Dims": [[256, 512], [[2, 2], [3]], [256, 512, 10, 10]]}})";
  for (std::size_t n = 0; n <= event.size(); ++n) (void)operator_inputs(std::string_view(event.data(), n));
  std::mt19937 rng(3);
  for (int k = 0; k < 2000; ++k) {
    std::string mutated = event;
    for (int j = 0; j < 4; ++j) mutated[rng() % mutated.size()] = static_cast<char>(rng() % 128);
    (void)operator_inputs(mutated);
  }
}

TEST(KinetoShapes, AKernelTakesTheBytesOfTheOperatorOfItsExternalId) {
  // The kernel comes before its operator in the file: linked at the end of reading.
  const std::string text = R"({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "void at::native::max_pool_backward_nchw", "pid": 0, "tid": 7, "ts": 10, "dur": 1500,
     "args": {"External id": 561, "device": 0, "stream": 7, "correlation": 2023, "grid": [2, 256, 512], "block": [256, 1, 1],
              "blocks per SM": 1985.9, "est. achieved occupancy %": 100}},
    {"ph": "X", "cat": "kernel", "name": "void other", "pid": 0, "tid": 7, "ts": 2000, "dur": 10,
     "args": {"External id": 562, "device": 0, "stream": 7, "correlation": 2024, "grid": [1, 1, 1], "block": [32, 1, 1]}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::max_pool2d_with_indices_backward", "pid": 1, "tid": 1, "ts": 1, "dur": 5,
     "args": {"External id": 561, "Input type": ["float", "long int"], "Input Dims": [[256, 512, 10, 10], [256, 512, 10, 10]]}}
  ]})";
  const Trace t = parse_kineto(text, "shapes.json");
  ASSERT_EQ(t.size(), 2u);
  ASSERT_NE(t.op(0).kernel, kNoIndex);
  EXPECT_DOUBLE_EQ(t.kernel_info(t.op(0).kernel).input_bytes, 256.0 * 512 * 10 * 10 * (4 + 8));
  ASSERT_NE(t.op(1).kernel, kNoIndex);
  EXPECT_DOUBLE_EQ(t.kernel_info(t.op(1).kernel).input_bytes, 0);  // its operator is not in the trace
}

}  // namespace
}  // namespace linkcast::trace
