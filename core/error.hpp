// Errors that reach the user. Bad input (a YAML node file, a trace, a CLI argument) raises
// InputError with a message that names the file, line, key or record and says what would fix it;
// the CLI prints it and exits with code 2 without writing any output file.
#pragma once

#include <stdexcept>
#include <string>

namespace linkcast {

/// Exit code for bad input (usage errors, invalid files). Documented in the README.
inline constexpr int kExitBadInput = 2;

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

/// "file:line:column" with 1-based line and column, the form editors and compilers use.
std::string location(const std::string& file, int line, int column);

}  // namespace linkcast
