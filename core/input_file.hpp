// Reading an input file that may be gzip'd: zlib reads a gzip'd file decompressed and a plain
// one as it is, the same way, whole or in blocks. Every reader of a file that users may
// compress (traces now, topology imports later) reads through this. A read that takes more
// than two seconds shows its progress (core/progress.hpp): how much of the file on disk is read.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace linkcast {

class ProgressLine;

/// How messages call an input file: "PATH: cannot open the <file>", "PATH: cannot read (<zlib's
/// reason>); <corrupt> is corrupt or truncated".
struct InputFileNames {
  std::string_view file = "file";
  std::string_view corrupt = "the gzip file";
};

/// Whether `bytes` begin with gzip's magic (1f 8b).
[[nodiscard]] bool starts_gzip(std::string_view bytes);
/// Whether the file at `path` is gzip'd (by its first two bytes); false when it cannot be read.
[[nodiscard]] bool is_gzip_file(const std::string& path);

/// Throws InputError where `head` (a file's first bytes, decompressed) is a Git LFS pointer, the
/// few lines `git clone` leaves in place of a large file when Git LFS did not fetch it: the
/// message names the file, what it stands for (`what`: "trace file") and how to fetch it.
void refuse_git_lfs_pointer(const std::string& path, std::string_view head, std::string_view what);

/// Throws InputError where `head` (a file's first bytes, after any gzip) begins as a compression
/// format linkcast does not read (bzip2, xz, zstd, lz4, zip, 7-Zip): the message names it and the
/// tool that undoes it, rather than calling the file binary data or a bad document.
void refuse_unread_compression(const std::string& path, std::string_view head, std::string_view what);

/// Whether `path` is a named pipe, a terminal, a socket or another device rather than a file or
/// a folder (a process substitution `<(zcat t.json.gz)`, `/dev/stdin` from a pipe, a FIFO): its
/// bytes come once.
[[nodiscard]] bool is_pipe(const std::string& path);
/// Whether `path` is a character or block device (/dev/zero, /dev/urandom, a disk, a terminal):
/// no trace or node file is one, and some never end.
[[nodiscard]] bool is_device(const std::string& path);

/// Throws InputError where `path` is a named pipe, a terminal, a socket or another device rather
/// than a file (a process substitution `<(zcat t.json.gz)`, `/dev/stdin` from a pipe, a FIFO):
/// readers that look at a file's head before reading it open it twice, and a pipe gives its bytes
/// once (the second open of a FIFO whose writer is gone waits forever). `what` names the input
/// ("trace file", "node file"); the message says to save it to a file first.
void refuse_pipe(const std::string& path, std::string_view what);

class InputFile {
 public:
  /// Opens `path` for reading; throws InputError when it cannot.
  explicit InputFile(std::string path, InputFileNames names = {});
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  /// Up to `max` (decompressed) bytes into `to`; 0 at the end of the file. A UTF-8 byte-order
  /// mark that starts the content (an editor's or a spreadsheet's save) is not part of it. Throws
  /// InputError for a corrupt or truncated gzip stream.
  [[nodiscard]] std::size_t read(char* to, std::size_t max);
  /// The rest of the file, or its next `max_bytes` bytes when max_bytes > 0.
  [[nodiscard]] std::string read_all(std::size_t max_bytes = 0);
  /// The file's size on disk (compressed, for a gzip'd file); 0 when unknown.
  [[nodiscard]] std::size_t size_on_disk() const { return size_on_disk_; }
  /// About how many bytes read() gives in all: the size on disk for a plain file; for a gzip'd one
  /// the size its trailer records (the last member's size modulo 4 GiB, as RFC 1952's ISIZE),
  /// taken past the size on disk by whole 4 GiB where it is below, and the size on disk where it
  /// claims more than deflate's 1032:1. A hint to size tables by, never trusted further; 0 when
  /// unknown.
  [[nodiscard]] std::size_t expected_size() const { return expected_size_; }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
  InputFileNames names_;
  void* gz_ = nullptr;  // gzFile
  std::size_t size_on_disk_ = 0;
  std::size_t expected_size_ = 0;
  // "reading PATH: 120 MiB of 800 MiB (15%), ...": where progress is shown, updated every 8 MiB
  // of the file on disk.
  std::unique_ptr<ProgressLine> progress_;
  std::size_t next_progress_at_ = 0;
  bool at_start_ = true;  // no byte read yet: a leading byte-order mark is still to drop
  std::string pending_;   // the content's first bytes, read to look for the mark, not yet given
};

}  // namespace linkcast
