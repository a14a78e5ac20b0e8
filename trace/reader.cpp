#include "trace/reader.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/strings.hpp"
#include "trace/csv.hpp"
#include "trace/kineto.hpp"
#include "trace/profiler_db.hpp"

namespace linkcast::trace {

namespace {

std::string head(const std::string& path, std::size_t n) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec) && !ec) throw InputError(fmt::format("{}: no such trace file", path));
    throw InputError(fmt::format("{}: cannot read the trace file{}", path, ec ? ": " + ec.message() : ""));
  }
  std::string buf(n, '\0');
  in.read(buf.data(), static_cast<std::streamsize>(n));
  buf.resize(static_cast<std::size_t>(in.gcount()));
  return buf;
}

bool is_gzip(std::string_view h) {
  return h.size() >= 2 && static_cast<unsigned char>(h[0]) == 0x1f && static_cast<unsigned char>(h[1]) == 0x8b;
}

}  // namespace

std::string detect_trace_format(const std::string& path) {
  const std::string h = head(path, 64);
  if (h.empty()) throw InputError(fmt::format("{}: the trace file is empty", path));
  // Look inside a gzip'd file: Kineto JSON, linkcast CSV and profiler databases are all shipped gzip'd.
  const std::string inner = is_gzip(h) ? InputFile(path, {.file = "trace file"}).read_all(64) : h;
  if (looks_like_sqlite(inner)) {
    const SqliteDb db(path);
    const std::string kind = detect_profiler_db(db);
    if (kind.empty()) {
      std::vector<std::string> tables(db.tables().begin(), db.tables().end());
      if (tables.size() > 8) tables.resize(8);
      throw InputError(fmt::format("{}: an SQLite database, but not an nvprof or Nsight Systems export "
                                   "(no CUPTI_ACTIVITY_KIND_* tables; tables: {})",
                                   path, tables.empty() ? "none" : join(tables, ", ")));
    }
    return kind;
  }
  const std::string_view t = trim(h);
  if (is_gzip(h)) {
    const std::string_view it = trim(inner);
    return !it.empty() && (it.front() == '{' || it.front() == '[') ? "kineto" : "csv";
  }
  if (!t.empty() && (t.front() == '{' || t.front() == '[')) return "kineto";
  return "csv";
}

Trace read_trace(const std::string& path) {
  const std::string format = detect_trace_format(path);
  if (format == "nvprof" || format == "nsys") {
    const SqliteDb db(path);
    return format == "nvprof" ? read_nvprof(db) : read_nsys(db);
  }
  if (format == "kineto") return read_kineto(path);
  return read_csv_trace(path);  // plain or gzip'd
}

}  // namespace linkcast::trace
