#include "core/output.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "core/error.hpp"

namespace linkcast {

AtomicOutput::AtomicOutput(std::string path) : path_(std::move(path)) {
  if (path_.empty() || path_ == "-") {
    to_stdout_ = true;
    out_ = std::make_unique<std::ostringstream>();
    return;
  }
  temp_path_ = fmt::format("{}.tmp-{}", path_, ::getpid());
  auto file = std::make_unique<std::ofstream>(temp_path_, std::ios::binary | std::ios::trunc);
  if (!*file) {
    throw InputError(fmt::format(
        "cannot write '{}': the folder does not exist or is not writable", path_));
  }
  out_ = std::move(file);
}

AtomicOutput::~AtomicOutput() {
  if (!committed_ && !to_stdout_ && !temp_path_.empty()) {
    out_.reset();
    std::error_code ec;
    std::filesystem::remove(temp_path_, ec);
  }
}

std::ostream& AtomicOutput::stream() { return *out_; }

void AtomicOutput::commit() {
  if (committed_) return;
  if (to_stdout_) {
    std::cout << static_cast<std::ostringstream&>(*out_).str();
    std::cout.flush();
    committed_ = true;
    return;
  }
  auto& file = static_cast<std::ofstream&>(*out_);
  file.flush();
  const bool ok = static_cast<bool>(file);
  file.close();
  if (!ok) throw InputError(fmt::format("cannot write '{}': write failed (disk full?)", path_));
  std::error_code ec;
  std::filesystem::rename(temp_path_, path_, ec);
  if (ec) {
    throw InputError(fmt::format("cannot write '{}': {}", path_, ec.message()));
  }
  committed_ = true;
}

}  // namespace linkcast
