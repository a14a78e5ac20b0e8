#include "core/error.hpp"

#include <fmt/format.h>

namespace linkcast {

std::string location(const std::string& file, int line, int column) {
  return fmt::format("{}:{}:{}", file, line, column);
}

}  // namespace linkcast
