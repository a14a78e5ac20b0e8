#include "core/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "core/units.hpp"

namespace linkcast {

namespace {

std::atomic<bool> g_disabled{false};
// Lines alive now: only the innermost draws (a simulation inside a projection phase), the outer
// ones wait for it to end.
std::atomic<int> g_live{0};

/// "410k", "1.23M", "950": a rate to three significant figures.
std::string rate_count(double per_s) {
  if (per_s >= 1e9) return fmt::format("{:.3g}G", per_s / 1e9);
  if (per_s >= 1e6) return fmt::format("{:.3g}M", per_s / 1e6);
  if (per_s >= 1e3) return fmt::format("{:.3g}k", per_s / 1e3);
  return fmt::format("{:.3g}", per_s);
}

/// "about 12 s left", "about 3 min left".
std::string time_left(double s) {
  if (s < 60) return fmt::format("about {:.0f} s left", std::max(1.0, std::ceil(s)));
  if (s < 3600) return fmt::format("about {:.0f} min left", std::ceil(s / 60));
  return fmt::format("about {:.1f} h left", s / 3600);
}

/// "LINKCAST_PROGRESS": "1" forces plain lines, "0" silences, anything else (or unset) leaves the
/// terminal to decide.
const char* progress_env() { return std::getenv("LINKCAST_PROGRESS"); }

}  // namespace

void ProgressLine::disable_all() { g_disabled = true; }

bool ProgressLine::watched() {
  const char* env = progress_env();
  if (env != nullptr && std::strcmp(env, "0") == 0) return false;
  return ::isatty(2) != 0 || (env != nullptr && std::strcmp(env, "1") == 0);
}

bool ProgressLine::wanted() { return !g_disabled && watched(); }

ProgressLine::ProgressLine(std::string what) : what_(std::move(what)) {
  const char* env = progress_env();
  tty_ = ::isatty(2) != 0;
  forced_ = !tty_ && env != nullptr && std::strcmp(env, "1") == 0;
  enabled_ = wanted();
  start_ = last_ = std::chrono::steady_clock::now();
  depth_ = g_live++;
  if (enabled_ && tty_) {
    ticker_ = std::thread([this] {
      std::unique_lock<std::mutex> lock(mutex_);
      while (!wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stop_; })) {
        const auto now = std::chrono::steady_clock::now();
        if (now - start_ >= std::chrono::seconds(2) && now - last_ >= std::chrono::milliseconds(900)) draw(now);
      }
    });
  }
}

ProgressLine::~ProgressLine() {
  if (ticker_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    ticker_.join();
  }
  --g_live;
  if (!shown_ || !tty_) return;
  // The phase is over: its line says what it did in all, and the next phase starts a new line.
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::uint64_t done = std::max(last_done_, last_total_);
  std::string line = fmt::format("linkcast: {}: ", what_);
  if (last_unit_ == nullptr) line += format_bytes_compact(static_cast<double>(done)) + " in ";
  else if (done > 0) line += fmt::format("{} {} in ", format_count(done), last_unit_);
  else line += "done in ";
  std::cerr << "\r" << line << fmt::format("{:.1f} s", s) << "\x1b[K\n" << std::flush;
}

std::string ProgressLine::text(const std::string& what, std::uint64_t done, std::uint64_t total, const char* unit,
                               double seconds) {
  auto amount = [&](std::uint64_t v) {
    return unit ? format_count(v) : format_bytes_compact(static_cast<double>(v));
  };
  std::string out = fmt::format("linkcast: {}: {}", what, amount(done));
  // A total is an estimate ("about" for counts): once passed, the count stands alone.
  if (total > done) out += fmt::format(" of {}{}", unit ? "about " : "", amount(total));
  if (unit) out += fmt::format(" {}", unit);
  if (total > done) out += fmt::format(" ({:.0f}%)", 100.0 * static_cast<double>(done) / static_cast<double>(total));
  if (seconds > 0 && done > 0) {
    const double rate = static_cast<double>(done) / seconds;
    out += unit ? fmt::format(", {} {}/s", rate_count(rate), unit) : fmt::format(", {}/s", format_bytes_compact(rate));
    if (total > done) out += ", " + time_left(static_cast<double>(total - done) / rate);
  }
  return out;
}

void ProgressLine::update(std::uint64_t done, std::uint64_t total, const char* unit) {
  if (enabled_) show(done, total, unit);
}

void ProgressLine::update_bytes(std::uint64_t done, std::uint64_t total) {
  if (enabled_) show(done, total, nullptr);
}

void ProgressLine::show(std::uint64_t done, std::uint64_t total, const char* unit) {
  std::lock_guard<std::mutex> lock(mutex_);
  last_done_ = done;
  last_total_ = total;
  last_unit_ = unit;
  const auto now = std::chrono::steady_clock::now();
  if (!forced_ && (now - start_ < std::chrono::seconds(2) || now - last_ < std::chrono::seconds(1))) return;
  draw(now);
}

void ProgressLine::draw(std::chrono::steady_clock::time_point now) {
  if (depth_ != g_live - 1) return;  // an inner phase is drawing
  last_ = now;
  shown_ = true;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  std::string line = last_unit_ != nullptr && last_done_ == 0 && last_total_ == 0
                         ? fmt::format("linkcast: {}", what_)  // nothing counted (yet)
                         : text(what_, last_done_, last_total_, last_unit_, seconds);
  if (tty_) {
    line += fmt::format(" [{:.0f} s]", seconds);
    std::cerr << "\r" << line << "\x1b[K" << std::flush;
  } else {
    std::cerr << line << "\n";
  }
}

}  // namespace linkcast
