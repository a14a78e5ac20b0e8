#include "core/input_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>

#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/utf8.hpp"

namespace linkcast {

bool starts_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b;
}

bool is_gzip_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::array<char, 2> magic{};
  in.read(magic.data(), magic.size());
  return starts_gzip(std::string_view(magic.data(), static_cast<std::size_t>(in.gcount())));
}

void refuse_git_lfs_pointer(const std::string& path, std::string_view head, std::string_view what) {
  // https://github.com/git-lfs/git-lfs/blob/main/docs/spec.md: "version https://git-lfs.github.com/spec/v1",
  // "oid sha256:...", "size N", one key a line.
  const std::size_t start = head.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos || head.substr(start).rfind("version https://git-lfs.github.com/spec/", 0) != 0)
    return;
  std::string size;
  if (const std::size_t at = head.find("\nsize "); at != std::string_view::npos) {
    const std::string_view rest = head.substr(at + 6);
    size = std::string(rest.substr(0, rest.find_first_of("\r\n")));
  }
  throw InputError(fmt::format("{}: a Git LFS pointer{}, not the {} itself: the repository keeps the file in Git LFS "
                               "and it was not fetched; run `git lfs pull` in the repository (or download the file)",
                               path, size.empty() ? "" : fmt::format(" to a file of {} bytes", size), what));
}

void refuse_unread_compression(const std::string& path, std::string_view head, std::string_view what) {
  // The formats' magic numbers: bzip2 "BZh" and a block size digit; xz FD 37 7A 58 5A 00; zstd
  // 28 B5 2F FD (RFC 8878); lz4 frame 04 22 4D 18; zip "PK" 03 04; 7z 37 7A BC AF 27 1C.
  struct Magic {
    std::string_view bytes, name, undo;
  };
  static constexpr std::array<Magic, 6> kMagics = {{
      {std::string_view("BZh", 3), "bzip2", "bunzip2"},
      {std::string_view("\xFD" "7zXZ\0", 6), "xz", "unxz"},
      {std::string_view("\x28\xB5\x2F\xFD", 4), "zstd", "unzstd"},
      {std::string_view("\x04\x22\x4D\x18", 4), "lz4", "unlz4"},
      {std::string_view("PK\x03\x04", 4), "a zip archive", "unzip"},
      {std::string_view("7z\xBC\xAF\x27\x1C", 6), "a 7-Zip archive", "7z x"},
  }};
  for (const Magic& m : kMagics) {
    if (!head.starts_with(m.bytes)) continue;
    if (m.name == "bzip2" && (head.size() < 4 || head[3] < '1' || head[3] > '9')) continue;
    const bool archive = m.name.starts_with("a ");
    throw InputError(fmt::format("{}: {}{}, which linkcast does not read; it reads the {} plain or gzip'd: {}",
                                 path, m.name, archive ? "" : "-compressed data", what,
                                 archive ? fmt::format("take the file out (`{} FILE`) and give that", m.undo)
                                         : fmt::format("decompress it (`{} -c FILE > PLAIN`) or gzip it instead", m.undo)));
  }
}

namespace {

/// "a pipe", "a socket" or "a device" where `path` is one; null for a file, a folder or nothing.
const char* pipe_kind(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return nullptr;
  return S_ISFIFO(st.st_mode) ? "a pipe" : S_ISSOCK(st.st_mode) ? "a socket" : "a device";
}

}  // namespace

bool is_pipe(const std::string& path) { return pipe_kind(path) != nullptr; }

bool is_device(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode));
}

void refuse_pipe(const std::string& path, std::string_view what) {
  const char* kind = pipe_kind(path);
  if (kind == nullptr) return;
  throw InputError(fmt::format("{}: {}, not a file: linkcast reads a {} more than once (its head, then the whole), "
                               "which {} does not allow; save it to a file first{}",
                               path, kind, what, kind,
                               what == "trace file" ? " (a gzip'd trace is read as it is: no need to unpack it)" : ""));
}

namespace {

gzFile as_gz(void* gz) { return static_cast<gzFile>(gz); }

/// The decompressed size a gzip file of `size_on_disk` bytes at `fd` records in its last four
/// bytes (ISIZE, little-endian, modulo 2^32), raised by 2^32 until it is at least the size on
/// disk; the size on disk for a plain file, where the trailer cannot be read, or where it claims
/// more than deflate can expand to.
std::size_t expected_content_size(int fd, std::size_t size_on_disk) {
  std::array<unsigned char, 2> magic{};
  std::array<unsigned char, 4> isize{};
  if (size_on_disk < 18 || ::pread(fd, magic.data(), magic.size(), 0) != 2 || magic[0] != 0x1f || magic[1] != 0x8b ||
      ::pread(fd, isize.data(), isize.size(), static_cast<off_t>(size_on_disk - 4)) != 4)
    return size_on_disk;
  std::uint64_t bytes = std::uint64_t{isize[0]} | std::uint64_t{isize[1]} << 8 | std::uint64_t{isize[2]} << 16 |
                        std::uint64_t{isize[3]} << 24;
  while (bytes < size_on_disk) bytes += std::uint64_t{1} << 32;
  // Deflate expands at most 1032:1 (RFC 1951's longest match in a 258-byte code): a trailer that
  // claims more is a lie, and a table sized by it would reserve gigabytes for a hostile file.
  constexpr std::uint64_t kMaxDeflateRatio = 1032;
  if (bytes / kMaxDeflateRatio > size_on_disk) return size_on_disk;
  return static_cast<std::size_t>(bytes);
}

}  // namespace

InputFile::InputFile(std::string path, InputFileNames names) : path_(std::move(path)), names_(names) {
  const int fd = ::open(path_.c_str(), O_RDONLY);
  if (fd < 0) throw InputError(fmt::format("{}: cannot open the {}", path_, names_.file));
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    size_on_disk_ = static_cast<std::size_t>(st.st_size);
    expected_size_ = expected_content_size(fd, size_on_disk_);
  }
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  gzFile gz = ::gzdopen(fd, "rb");
  if (gz == nullptr) {
    ::close(fd);
    throw InputError(fmt::format("{}: cannot open the {}", path_, names_.file));
  }
  ::gzbuffer(gz, 1u << 20);
  gz_ = gz;
  if (ProgressLine::wanted()) progress_ = std::make_unique<ProgressLine>("reading " + path_);
}

InputFile::~InputFile() {
  progress_.reset();
  ::gzclose(as_gz(gz_));
}

std::size_t InputFile::read(char* to, std::size_t max) {
  if (at_start_) {
    at_start_ = false;
    // The content's first three bytes, a UTF-8 byte-order mark or not.
    std::array<char, 3> head{};
    std::size_t got = 0;
    while (got < head.size()) {
      const std::size_t n = read(head.data() + got, head.size() - got);
      if (n == 0) break;
      got += n;
    }
    if (got == head.size() && std::string_view(head.data(), got) == kUtf8Bom) got = 0;
    pending_.assign(head.data(), got);
  }
  if (!pending_.empty()) {
    const std::size_t n = std::min(max, pending_.size());
    std::memcpy(to, pending_.data(), n);
    pending_.erase(0, n);
    return n;
  }
  const std::size_t want = std::min<std::size_t>(max, 1u << 30);
  const int got = ::gzread(as_gz(gz_), to, static_cast<unsigned>(want));
  int err = Z_OK;
  const char* msg = ::gzerror(as_gz(gz_), &err);
  // zlib decompresses ahead of what is asked: a corrupt stream beyond a read that got all it
  // asked for is the next read's error, so a peek at a file's head reads a truncated file too.
  if (got < 0 || (err != Z_OK && err != Z_STREAM_END && static_cast<std::size_t>(got) < want)) {
    std::string_view reason = msg;  // zlib prefixes "<fd:N>: " for a descriptor
    if (const auto colon = reason.find(": "); colon != std::string_view::npos) reason.remove_prefix(colon + 2);
    if (err == Z_MEM_ERROR)  // zlib could not allocate: this machine's memory, not the file
      throw InputError(fmt::format("{}: cannot read: out of memory; free memory or read fewer files at once", path_));
    throw InputError(fmt::format("{}: cannot read ({}); {} is corrupt or truncated", path_, reason, names_.corrupt));
  }
  if (progress_) {
    constexpr std::size_t kEvery = 8u << 20;
    const auto at = static_cast<std::size_t>(std::max<z_off_t>(0, ::gzoffset(as_gz(gz_))));
    if (at >= next_progress_at_ + kEvery) {
      next_progress_at_ = at;
      progress_->update_bytes(at, size_on_disk_);
    }
  }
  return static_cast<std::size_t>(got);
}

std::string InputFile::read_all(std::size_t max_bytes) {
  constexpr std::size_t kBlock = 4u << 20;
  std::string out;
  std::vector<char> buffer(max_bytes > 0 ? std::min(max_bytes, kBlock) : kBlock);
  while (max_bytes == 0 || out.size() < max_bytes) {
    const std::size_t want = max_bytes > 0 ? std::min(buffer.size(), max_bytes - out.size()) : buffer.size();
    const std::size_t got = read(buffer.data(), want);
    if (got == 0) break;
    out.append(buffer.data(), got);
  }
  return out;
}

}  // namespace linkcast
