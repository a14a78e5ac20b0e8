// A small RAII wrapper over the SQLite C API for the profiler-database readers.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

namespace linkcast::trace {

class SqliteDb {
 public:
  /// Opens read-only; a gzip'd database is decompressed into memory first. Throws InputError if
  /// the file is not a readable SQLite database.
  explicit SqliteDb(const std::string& path);
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;
  ~SqliteDb();

  bool has_table(std::string_view table) const { return tables_.count(std::string(table)) > 0; }
  bool has_column(std::string_view table, std::string_view column) const;
  const std::set<std::string>& tables() const { return tables_; }
  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }

  /// A prepared statement; step() returns false at the end. Errors throw InputError naming the
  /// database (a truncated file surfaces here as "database disk image is malformed").
  class Statement {
   public:
    Statement(const SqliteDb& db, const std::string& sql);
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();
    bool step();
    std::int64_t i64(int column) const { return sqlite3_column_int64(stmt_, column); }
    double f64(int column) const { return sqlite3_column_double(stmt_, column); }
    /// The column's SQLite storage class (SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, ...).
    int type(int column) const { return sqlite3_column_type(stmt_, column); }
    std::string text(int column) const;
    bool is_null(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

   private:
    const SqliteDb& db_;
    sqlite3_stmt* stmt_ = nullptr;
  };

  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
  std::set<std::string> tables_;
};

/// True when the file starts with the SQLite header "SQLite format 3\0".
bool looks_like_sqlite(std::string_view first_bytes);

}  // namespace linkcast::trace
