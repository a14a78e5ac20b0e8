#include "core/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iostream>

namespace linkcast {

namespace {

std::atomic<bool> g_disabled{false};

std::string thousands(std::uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

void ProgressLine::disable_all() { g_disabled = true; }

ProgressLine::ProgressLine(std::string what) : what_(std::move(what)) {
  const char* env = std::getenv("LINKCAST_PROGRESS");
  tty_ = ::isatty(2) != 0;
  enabled_ = tty_ || (env != nullptr && std::strcmp(env, "1") == 0);
  if ((env != nullptr && std::strcmp(env, "0") == 0) || g_disabled) enabled_ = false;
  start_ = last_ = std::chrono::steady_clock::now();
}

ProgressLine::~ProgressLine() {
  if (shown_ && tty_) std::cerr << "\n" << std::flush;
}

void ProgressLine::update(std::uint64_t done, std::uint64_t total, const char* unit) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  const bool forced = std::getenv("LINKCAST_PROGRESS") != nullptr && !tty_;
  if (!forced && (now - start_ < std::chrono::seconds(2) || now - last_ < std::chrono::seconds(1))) return;
  last_ = now;
  shown_ = true;
  const std::string text =
      total > 0 ? fmt::format("linkcast: {}: {} {} of about {}", what_, thousands(done), unit, thousands(total))
                : fmt::format("linkcast: {}: {} {}", what_, thousands(done), unit);
  if (tty_) std::cerr << "\r" << text << "\x1b[K" << std::flush;
  else std::cerr << text << "\n";
}

}  // namespace linkcast
