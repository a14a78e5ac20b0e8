// Helpers shared by the tests: paths to the repository and ../shared, running the CLI.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "core/error.hpp"

namespace linkcast::test {

inline std::string source_dir() { return LINKCAST_SOURCE_DIR; }
inline std::string config(const std::string& name) { return source_dir() + "/configs/" + name; }

/// ../shared beside the repository, where the real AHEAD traces live; "" when absent.
inline std::string shared_dir() {
  const std::filesystem::path p = std::filesystem::path(source_dir()).parent_path() / "shared";
  return std::filesystem::exists(p / "data" / "ahead") ? p.string() : std::string();
}

#define LINKCAST_REQUIRE_SHARED()                                                              \
  do {                                                                                         \
    if (::linkcast::test::shared_dir().empty())                                                \
      GTEST_SKIP() << "../shared/data/ahead is absent: the real AHEAD traces are not available"; \
  } while (0)

inline std::string ahead(const std::string& relative) { return shared_dir() + "/data/ahead/" + relative; }

struct CommandResult {
  int exit_code = -1;
  std::string out;  // standard output
  std::string err;  // standard error
};

/// Runs build/linkcast with `args` (a shell-quoted string) and captures both streams.
inline CommandResult run_linkcast(const std::string& args) {
  const std::string err_file = ::testing::TempDir() + "linkcast_stderr_" + std::to_string(::getpid());
  const std::string cmd = std::string(LINKCAST_BINARY) + " " + args + " 2>" + err_file;
  CommandResult r;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 65536> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(err_file);
  std::stringstream ss;
  ss << e.rdbuf();
  r.err = ss.str();
  std::filesystem::remove(err_file);
  return r;
}

inline std::string write_temp(const std::string& name, const std::string& content) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << content;
  return path;
}

/// The message of the InputError `f` throws, or "(no error)".
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A `topo import` skeleton with every TODO filled by a plausible value for its key, so that it
/// loads and routes: what a user does by hand, done blindly (the values are not the machine's).
/// NVLink versions become 4, link counts 1, PCIe links Gen4 x16.
inline std::string fill_todos(const std::string& yaml) {
  static const std::array<std::pair<std::string_view, std::string_view>, 12> values = {{
      {"capacity_gib", "64"},
      {"bandwidth_gbps", "100"},
      {"copy_bandwidth_gbps", "10"},
      {"warm_copy_gbps", "12"},
      {"first_touch_gbps", "1.5"},
      {"pageable_h2d_gbps", "8"},
      {"pageable_d2h_gbps", "12"},
      {"stream_gbps", "80"},
      {"gen", "4"},
      {"lanes", "16"},
      {"version", "4"},
      {"count", "1"},
  }};
  std::string out;
  std::istringstream in(yaml);
  for (std::string line; std::getline(in, line);) {
    const std::size_t at = line.find(": TODO");
    if (at != std::string::npos) {
      const std::size_t key_start = line.find_first_not_of(' ');
      const std::string key = line.substr(key_start, at - key_start);
      for (const auto& [k, v] : values)
        if (key == k) {
          line = line.substr(0, at) + ": " + std::string(v);
          break;
        }
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace linkcast::test
