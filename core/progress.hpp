// Progress of long work on standard error: one line, rewritten at most once a second, shown only
// once the work has run for two seconds, and only where someone watches (standard error is a
// terminal) or LINKCAST_PROGRESS=1 asks for it (plain lines then, for logs and tests).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace linkcast {

class ProgressLine {
 public:
  explicit ProgressLine(std::string what);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Turns every progress line off (a command with its own progress, such as sweep, whose
  /// threads run workloads and simulations).
  static void disable_all();

  /// `done` units of about `total` (0: unknown), in `unit`s ("steps", "events").
  void update(std::uint64_t done, std::uint64_t total, const char* unit);

 private:
  std::string what_;
  bool enabled_ = false, tty_ = false, shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace linkcast
