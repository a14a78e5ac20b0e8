#include "trace/reader.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/output.hpp"
#include "core/strings.hpp"
#include "trace/csv.hpp"
#include "trace/kineto.hpp"
#include "trace/profiler_db.hpp"

namespace linkcast::trace {

namespace {

/// The first `n` bytes of the file as stored, and of its content as the readers see it (InputFile:
/// gunzipped, without a byte-order mark).
struct Head {
  std::string raw;
  std::string content;
};

Head read_head(const std::string& path, std::size_t n) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(fmt::format("{}: is a directory, not a trace file", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (!std::filesystem::exists(path, ec) && !ec) throw InputError(fmt::format("{}: no such trace file", path));
    throw InputError(fmt::format("{}: cannot read the trace file{}", path, ec ? ": " + ec.message() : ""));
  }
  Head h;
  h.raw.assign(n, '\0');
  in.read(h.raw.data(), static_cast<std::streamsize>(n));
  h.raw.resize(static_cast<std::size_t>(in.gcount()));
  h.content = InputFile(path, {.file = "trace file"}).read_all(n);
  return h;
}

bool looks_like_json(const Head& h) {
  const std::string_view t = trim(h.content);
  return !t.empty() && (t.front() == '{' || t.front() == '[');
}

/// The readers, tried in order: the first whose `claims` accepts the file's head reads it.
struct TraceReader {
  std::string_view format;  // what detect_trace_format() says
  bool (*claims)(const std::string& path, const Head& head);
  Trace (*read)(const std::string& path);
};

Trace read_profiler_db(const std::string& path) {
  const SqliteDb db(path);
  const std::string kind = detect_profiler_db(db);
  if (kind == "nvprof") return read_nvprof(db);
  if (kind == "nsys") return read_nsys(db);
  std::vector<std::string> tables(db.tables().begin(), db.tables().end());
  if (tables.size() > 8) tables.resize(8);
  throw InputError(fmt::format("{}: an SQLite database, but not an nvprof or Nsight Systems export "
                               "(no CUPTI_ACTIVITY_KIND_* tables; tables: {})",
                               path, tables.empty() ? "none" : join(tables, ", ")));
}

const std::array<TraceReader, 3> kReaders = {{
    {"sqlite", [](const std::string&, const Head& h) { return looks_like_sqlite(h.content); }, &read_profiler_db},
    {"kineto", [](const std::string&, const Head& h) { return looks_like_json(h); }, &read_kineto},
    {"csv", [](const std::string&, const Head&) { return true; }, &read_csv_trace},
}};

/// Files people give where a trace belongs that no reader takes, with what to do instead: a node
/// or study file (YAML), an Nsight Systems report (only Nsight reads it), other binary data.
void refuse_non_traces(const std::string& path, const Head& h) {
  refuse_git_lfs_pointer(path, h.content, "trace file");
  refuse_unread_compression(path, h.content, "trace file");
  const std::string name = to_lower(std::filesystem::path(path).filename().string());
  const std::string_view text = trim(h.content);
  if (is_yaml_file_name(path) || text.starts_with("schema_version:") || text.starts_with("study_version:"))
    throw InputError(fmt::format("{}: a node or study file (YAML), not a trace; give a node as the node: {}", path,
                                 kWhereTheNodeGoes));
  if (name.ends_with(".nsys-rep") || name.ends_with(".qdrep") || name.ends_with(".qdstrm")) {
    throw InputError(fmt::format("{0}: an Nsight Systems report, which only Nsight reads; export it to SQLite and give "
                                 "that: `nsys export --type sqlite -o {1}.sqlite {0}`",
                                 path, std::filesystem::path(path).stem().string()));
  }
  if (text.starts_with("<")) {
    // NVIDIA Visual Profiler saves its session (settings, the executable, enabled metrics) as XML
    // in a .nvvp of its own; the profile data are in the files it imports, which nvprof writes.
    const bool session = text.find("<session") != std::string_view::npos;
    if (!session && text.find("<system") != std::string_view::npos)
      throw InputError(fmt::format("{}: an NCCL topology dump (XML), not a trace; it describes a node: `linkcast topo "
                                   "import --nccl-xml {}` starts a node file from it",
                                   path, path));
    if (session)
      throw InputError(fmt::format(
          "{}: an NVIDIA Visual Profiler session file (XML: its settings and executable, no profile data), not a "
          "trace; linkcast reads nvprof's profile files: record with `nvprof -o {}.nvvp ./app` (or export the "
          "session's profile from the Visual Profiler) and give that",
          path, std::filesystem::path(path).stem().string()));
    const std::string head = to_lower(std::string(text.substr(0, 64)));
    if (head.starts_with("<!doctype html") || head.starts_with("<html"))
      throw InputError(fmt::format("{}: an HTML page (a `linkcast report`?), not a trace; give the trace the page was "
                                   "made from",
                                   path));
    throw InputError(fmt::format("{}: XML, not a trace; an NCCL topology dump goes to `linkcast topo import "
                                 "--nccl-xml`, and linkcast reads traces as CSV, PyTorch profiler (Kineto) JSON and "
                                 "nvprof or Nsight Systems SQLite exports",
                                 path));
  }
  // linkcast's own timeline (`simulate --timeline`, `project --timeline`: sim/render.cpp starts it
  // so), a Chrome trace of the replay that holds no profiler's records: read as Kineto it was a
  // trace of 0 operations, and in a folder a second "rank 0".
  if (text.starts_with("{\"displayTimeUnit\": \"ns\", \"otherData\": {\"node\":"))
    throw InputError(fmt::format("{}: a linkcast timeline (`--timeline` of simulate or project), not a trace; give the "
                                 "trace it was made from (in a folder of traces, move the timeline out of it)",
                                 path));
  if (looks_like_sqlite(h.content) || looks_like_json(h)) return;
  if (starts_gzip(h.content))
    throw InputError(fmt::format("{}: gzip'd twice (what gunzip gives is gzip data again); gunzip it once and give "
                                 "that",
                                 path));
  // A .json file holding no object or list (null, a number, nothing): JSON, but no trace.
  const bool json_name = name.ends_with(".json") || name.ends_with(".json.gz");
  if (json_name && (text.empty() || text == "null" || text == "true" || text == "false" || text.front() == '"' ||
                    text.front() == '-' || (text.front() >= '0' && text.front() <= '9')))
    throw InputError(fmt::format("{}: {}, not a PyTorch profiler / Kineto Chrome trace (a JSON object holding "
                                 "\"traceEvents\", or a list of events)",
                                 path, text.empty() ? "no text (an empty file, or gzip'd empty data)" : "a JSON value other than an object or a list"));
  // Only the first line: a CSV's header is text, and a control character in a later record is
  // the CSV reader's to name with its line.
  const std::string_view first_line = std::string_view(h.content).substr(0, h.content.find('\n'));
  for (const char c : first_line) {
    const auto u = static_cast<unsigned char>(c);
    if (u == 0 || (u < 0x20 && c != '\t' && c != '\n' && c != '\r')) {
      throw InputError(fmt::format("{}: binary data, not a trace; linkcast reads its CSV, PyTorch profiler (Kineto) "
                                   "JSON and nvprof or Nsight Systems SQLite exports (`nsys export --type sqlite`), "
                                   "plain or gzip'd",
                                   path));
    }
  }
}

const TraceReader& reader_for(const std::string& path, const Head& head) {
  refuse_non_traces(path, head);
  for (const TraceReader& r : kReaders)
    if (r.claims(path, head)) return r;
  return kReaders.back();
}

}  // namespace

bool is_yaml_file_name(const std::string& path) {
  std::filesystem::path p(path);
  if (to_lower(p.extension().string()) == ".gz") p = p.stem();  // x.yaml.gz
  const std::string ext = to_lower(p.extension().string());
  return ext == ".yaml" || ext == ".yml";
}

std::string detect_trace_format(const std::string& path) {
  const Head h = read_head(path, 256);
  if (h.raw.empty()) throw InputError(fmt::format("{}: the trace file is empty", path));
  const TraceReader& r = reader_for(path, h);
  if (r.format == "sqlite") {
    const SqliteDb db(path);
    const std::string kind = detect_profiler_db(db);
    if (kind.empty()) (void)read_profiler_db(path);  // throws the message naming the tables
    return kind;
  }
  return std::string(r.format);
}

namespace {

/// Refuses a pipe whose first bytes are no trace's: text (CSV, JSON) holds no NUL byte, and the
/// binary traces open with gzip's or SQLite's magic. Checked before the pipe is copied, so that
/// `cat /dev/zero |` is refused at once rather than after 64 GiB.
void refuse_unlike_a_trace(const std::string& pipe, std::string_view head) {
  const bool gzip = head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
                    static_cast<unsigned char>(head[1]) == 0x8b;
  const bool sqlite = head.starts_with(std::string_view("SQLite format 3\0", 16));
  if (!gzip && !sqlite && head.find('\0') != std::string_view::npos)
    throw InputError(fmt::format("{}: its first bytes are neither text (CSV, JSON) nor a gzip or SQLite file: no "
                                 "trace; give a trace (linkcast CSV, Kineto JSON, Nsight Systems or nvprof SQLite)",
                                 pipe));
}

/// A pipe's bytes, copied once into a temporary file that is removed with this (or when the
/// command is interrupted). The pipe is opened first: opening a FIFO waits for its writer.
class SpooledPipe {
 public:
  explicit SpooledPipe(const std::string& pipe) : in_(pipe, std::ios::binary), file_("linkcast-pipe-") {
    std::array<char, 1 << 16> buffer{};
    std::uint64_t bytes = 0;
    while (in_.read(buffer.data(), buffer.size()) || in_.gcount() > 0) {
      const auto n = static_cast<std::size_t>(in_.gcount());
      if (bytes == 0) refuse_unlike_a_trace(pipe, std::string_view(buffer.data(), n));
      bytes += n;
      if (bytes > kMaxPipeBytes || ::write(file_.fd(), buffer.data(), n) != static_cast<ssize_t>(n))
        throw InputError(fmt::format("{}: a pipe of more than {} GiB, or no room to hold it: save it to a file first",
                                     pipe, kMaxPipeBytes >> 30));
    }
    file_.close();
  }
  const std::string& path() const { return file_.path(); }

 private:
  /// What a pipe may bring: the largest trace a user pipes in (a 10 GB Kineto file) with room.
  static constexpr std::uint64_t kMaxPipeBytes = std::uint64_t{64} << 30;
  std::ifstream in_;
  TemporaryFile file_;
};

/// `message` with the temporary file's name put back to the pipe's.
std::string renamed(std::string message, const std::string& from, const std::string& to) {
  for (std::size_t at = message.find(from); at != std::string::npos; at = message.find(from, at + to.size()))
    message.replace(at, from.size(), to);
  return message;
}

}  // namespace

Trace read_trace(const std::string& path) {
  if (is_device(path))
    throw InputError(fmt::format("{}: a device, not a trace file (some, like /dev/zero, never end); give a trace "
                                 "file, or a pipe (`zcat t.json.gz | linkcast ... /dev/stdin`)",
                                 path));
  if (is_pipe(path)) {
    // Read once into a file (opening a FIFO waits for its writer, as `cat` does), then as a file.
    const SpooledPipe spool(path);
    try {
      Trace t = read_trace(spool.path());
      t.source_file = path;
      for (std::string& w : t.warnings) w = renamed(std::move(w), spool.path(), path);
      return t;
    } catch (const InputError& e) {
      throw InputError(renamed(e.what(), spool.path(), path));
    }
  }
  const Head h = read_head(path, 256);
  if (h.raw.empty()) throw InputError(fmt::format("{}: the trace file is empty", path));
  Trace t = reader_for(path, h).read(path);
  t.check_byte_counts(path);
  t.warn_implausible_span(path);
  t.warn_work_before_launch(path);
  return t;
}

}  // namespace linkcast::trace
