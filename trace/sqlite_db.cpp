#include "trace/sqlite_db.hpp"

#include <fmt/format.h>

#include <cstring>
#include <fstream>

#include "core/error.hpp"
#include "core/input_file.hpp"

namespace linkcast::trace {

SqliteDb::SqliteDb(const std::string& path) : path_(path) {
  if (is_gzip_file(path)) {
    // A gzip'd export (as tests/data ships them): decompressed into memory and opened there.
    const std::string bytes = InputFile(path, {.file = "trace file", .corrupt = "the gzip'd database"}).read_all();
    if (!looks_like_sqlite(bytes))
      throw InputError(fmt::format("{}: cannot open as an SQLite database: the gzip'd content is not one", path));
    auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(bytes.size()));
    if (copy == nullptr) throw InputError(fmt::format("{}: cannot open as an SQLite database: out of memory", path));
    std::memcpy(copy, bytes.data(), bytes.size());
    const auto size = static_cast<sqlite3_int64>(bytes.size());
    if (sqlite3_open_v2(":memory:", &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK ||
        sqlite3_deserialize(db_, "main", copy, size, size,
                            SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY) != SQLITE_OK) {
      const std::string msg = db_ ? sqlite3_errmsg(db_) : "cannot open";
      sqlite3_close(db_);
      db_ = nullptr;
      throw InputError(fmt::format("{}: cannot open as an SQLite database: {}", path, msg));
    }
  } else if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : "cannot open";
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError(fmt::format("{}: cannot open as an SQLite database: {}", path, msg));
  }
  try {
    Statement s(*this, "SELECT name FROM sqlite_master WHERE type='table'");
    while (s.step()) tables_.insert(s.text(0));
  } catch (...) {
    // A constructor that throws runs no destructor: close the handle here.
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

SqliteDb::~SqliteDb() { sqlite3_close(db_); }

void SqliteDb::fail(const std::string& what) const {
  throw InputError(fmt::format("{}: {}: {}; the database is corrupt or truncated (was the profiler "
                               "stopped before it finished writing?)",
                               path_, what, sqlite3_errmsg(db_)));
}

bool SqliteDb::has_column(std::string_view table, std::string_view column) const {
  Statement s(*this, fmt::format("PRAGMA table_info(\"{}\")", table));
  while (s.step())
    if (s.text(1) == column) return true;
  return false;
}

SqliteDb::Statement::Statement(const SqliteDb& db, const std::string& sql) : db_(db) {
  if (sqlite3_prepare_v2(db.db_, sql.c_str(), -1, &stmt_, nullptr) != SQLITE_OK)
    db.fail(fmt::format("query failed ({})", sql.substr(0, 80)));
}

SqliteDb::Statement::~Statement() { sqlite3_finalize(stmt_); }

bool SqliteDb::Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_.fail("reading rows failed");
}

std::string SqliteDb::Statement::text(int column) const {
  const unsigned char* t = sqlite3_column_text(stmt_, column);
  return t ? std::string(reinterpret_cast<const char*>(t)) : std::string();
}

bool looks_like_sqlite(std::string_view first_bytes) {
  static constexpr std::string_view kMagic("SQLite format 3\0", 16);
  return first_bytes.substr(0, kMagic.size()) == kMagic;
}

}  // namespace linkcast::trace
