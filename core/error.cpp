#include "core/error.hpp"

#include <fmt/format.h>

#include <cassert>

namespace linkcast {

ChoiceError::ChoiceError(const std::string& message, Choice choice, std::size_t hint_at, std::size_t hint_size,
                         std::string endpoint)
    : InputError(message), choice_(choice), hint_at_(hint_at), hint_size_(hint_size), endpoint_(std::move(endpoint)) {
  assert(hint_at_ + hint_size_ <= message.size());
}

std::string ChoiceError::with_hint(std::string_view hint) const {
  std::string out = what();
  // what() ends at a NUL byte a message may quote from its input: keep what is there.
  if (hint_at_ > out.size()) return out;
  out.replace(hint_at_, hint_size_, hint);
  return out;
}

std::string location(const std::string& file, int line, int column) {
  return fmt::format("{}:{}:{}", file, line, column);
}

}  // namespace linkcast
