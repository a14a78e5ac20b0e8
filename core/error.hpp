// Errors that reach the user. Bad input (a YAML node file, a trace, a CLI argument) raises
// InputError with a message that names the file, line, key or record and says what would fix it;
// the CLI prints it and exits with code 2 without writing any output file.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace linkcast {

/// Exit code for bad input (usage errors, invalid files). Documented in the README.
inline constexpr int kExitBadInput = 2;

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

/// Bad input that another choice of the caller's fixes: where a trace's endpoints go on a node
/// (an endpoint map, a list of node GPUs) or which collective algorithm runs. The libraries say
/// what is wrong in their own terms and name no option of a front end: a study file makes these
/// choices with its own keys, the CLI with --map, --gpus, --algo and --proto. A front end with an
/// option for `choice()` replaces the message's hint span (possibly empty) with its own words.
class ChoiceError : public InputError {
 public:
  enum class Choice : std::uint8_t {
    map_endpoint,  // map trace endpoint endpoint() onto one the target node has (empty span)
    map_entry,     // the span is "map": the endpoint map's entry in the message
    gpu_list,      // the span names the list of node GPUs the trace's GPUs run on
    place_gpus,    // place the trace's GPUs on the node's GPUs (empty span at the end)
    collective,    // choose another collective algorithm or protocol (empty span at the end)
  };
  /// `message` with the hint span [hint_at, hint_at + hint_size).
  ChoiceError(const std::string& message, Choice choice, std::size_t hint_at, std::size_t hint_size = 0,
              std::string endpoint = {});
  [[nodiscard]] Choice choice() const { return choice_; }
  /// The trace endpoint to place (Choice::map_endpoint).
  [[nodiscard]] const std::string& endpoint() const { return endpoint_; }
  /// The message with its hint span replaced by `hint`.
  [[nodiscard]] std::string with_hint(std::string_view hint) const;

 private:
  Choice choice_;
  std::size_t hint_at_, hint_size_;
  std::string endpoint_;
};

/// "file:line:column" with 1-based line and column, the form editors and compilers use.
std::string location(const std::string& file, int line, int column);

}  // namespace linkcast
