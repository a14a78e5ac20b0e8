// All-or-nothing output files: a command that fails half-way must not leave a half-written file,
// and must not touch any of its outputs.
//
// AtomicOutput is one output of a command. Where it writes depends on what the path names:
//  - "-" or "": standard output;
//  - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: that descriptor of this process;
//  - an existing device, FIFO or socket (/dev/null, a named pipe): that file, opened for writing
//    and never replaced;
//  - a directory: refused (InputError);
//  - otherwise a regular file, new or existing, reached through any symbolic links: the text goes
//    into a temporary `<file>.tmp-<pid>` beside the file the links lead to, which replaces that
//    file (not the link) on commit. An existing file keeps its permission bits.
// Text for the first three is held in memory and written on commit. Nothing is written or moved
// into place before commit(); commit_all() commits several outputs of one command together: every
// one is written and checked first, then moved into place, and if any fails the ones already moved
// are put back. Temporaries are removed when an output is destroyed uncommitted (an error was
// thrown) and, through a handler for SIGINT, SIGTERM and SIGHUP that only unlinks a fixed list of
// paths and then re-raises the signal, when the process is interrupted.
#pragma once

#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace linkcast {

class AtomicOutput {
 public:
  /// Throws InputError when `path` cannot be an output (a directory, a missing folder, a file
  /// that cannot be created).
  explicit AtomicOutput(std::string path);
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;
  ~AtomicOutput();

  std::ostream& stream();
  /// Flushes and moves the file into place (commit_all of this one output). Throws InputError if
  /// the file cannot be written; the target is then unchanged.
  void commit();
  /// The path as given.
  const std::string& path() const { return path_; }
  /// The temporary the text goes to before commit ("" where it is held in memory).
  const std::string& temp_path() const { return temp_path_; }

  enum class Target : unsigned char { standard_output, descriptor, special_file, regular_file };
  Target target() const { return target_; }

 private:
  friend void commit_all(std::initializer_list<AtomicOutput*> outputs);
  friend struct OutputCommit;

  std::string path_;
  Target target_ = Target::regular_file;
  std::string final_path_;  // regular_file: where the file goes (symbolic links resolved)
  std::string temp_path_;   // regular_file: the temporary beside it
  int fd_number_ = -1;      // descriptor: which one
  int temp_slot_ = -1;      // in the signal handler's list
  std::unique_ptr<std::streambuf> buffer_;
  std::unique_ptr<std::ostream> out_;
  bool committed_ = false;
};

/// Commits every output (null entries are skipped) together: all are flushed and checked, then the
/// files are moved into place and the in-memory ones written out; if any step fails, the files
/// already moved are restored to what they were, and InputError names the output that failed.
void commit_all(std::initializer_list<AtomicOutput*> outputs);

/// A scratch file of this process, made by mkstemp(3) in the temporary folder under a name starting
/// with `prefix`: removed when destroyed and, like an output's temporary, when the process is
/// interrupted (SIGINT, SIGTERM, SIGHUP). Throws InputError when none can be made.
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::string& prefix);
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile();
  /// Open for writing until close().
  int fd() const { return fd_; }
  void close();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
  int slot_ = -1;
};

namespace output_detail {
/// Temporaries the signal handler would remove now (for tests).
std::vector<std::string> registered_temporaries();
}  // namespace output_detail

}  // namespace linkcast
