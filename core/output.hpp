// All-or-nothing output files: a command that fails half-way must not leave a half-written file.
// AtomicOutput writes into a temporary file beside the target and renames it over the target on
// commit(); if commit() is never reached (an error was thrown), the temporary is removed.
#pragma once

#include <fstream>
#include <memory>
#include <ostream>
#include <string>

namespace linkcast {

class AtomicOutput {
 public:
  /// `path` "-" or "" writes to standard output (buffered until commit()).
  explicit AtomicOutput(std::string path);
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;
  ~AtomicOutput();

  std::ostream& stream();
  /// Flushes and moves the file into place. Throws InputError if the file cannot be written.
  void commit();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string temp_path_;
  std::unique_ptr<std::ostream> out_;
  bool to_stdout_ = false;
  bool committed_ = false;
};

}  // namespace linkcast
