// Progress of long work on standard error: one line per phase ("reading big.csv", "simulation"),
// rewritten at most once a second, shown only once the phase has run for two seconds, and only
// where someone watches (standard error is a terminal) or LINKCAST_PROGRESS=1 asks for it (plain
// lines then, every update, for logs and tests); LINKCAST_PROGRESS=0 silences it. A line says how
// far the phase got, of how much, how fast and about how long is left:
//   linkcast: simulation: 1,234,567 of about 2,000,000 events (62%), 410,000 events/s, about 2 s left
// and, on a terminal, ends with what the phase did in all once it is over. On a terminal the line
// is also redrawn every second between updates (a phase that counts nothing, or stays long at
// one count, still shows that it runs and for how long).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

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
  /// Whether progress is shown at all (a terminal, or LINKCAST_PROGRESS=1, and not disabled).
  static bool wanted();
  /// Whether someone watches standard error (a terminal, or LINKCAST_PROGRESS=1, and not
  /// LINKCAST_PROGRESS=0), whatever disable_all() said: for a command's own progress display.
  static bool watched();

  /// `done` units of about `total` (0: unknown), in `unit`s ("steps", "events").
  void update(std::uint64_t done, std::uint64_t total, const char* unit);
  /// `done` bytes of `total` (0: unknown), shown in binary units.
  void update_bytes(std::uint64_t done, std::uint64_t total);

  /// The text of one line (for tests): `done` of `total` (0: unknown) after `seconds`; `unit`
  /// nullptr for bytes.
  static std::string text(const std::string& what, std::uint64_t done, std::uint64_t total, const char* unit,
                          double seconds);

 private:
  void show(std::uint64_t done, std::uint64_t total, const char* unit);
  /// Draws the line now (the mutex held).
  void draw(std::chrono::steady_clock::time_point now);

  std::string what_;
  bool enabled_ = false, tty_ = false, forced_ = false, shown_ = false;
  int depth_ = 0;  // lines alive before this one
  std::uint64_t last_done_ = 0, last_total_ = 0;
  const char* last_unit_ = "";
  std::chrono::steady_clock::time_point start_, last_;
  // On a terminal: redraws the line every second until the phase ends.
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread ticker_;
};

}  // namespace linkcast
