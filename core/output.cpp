#include "core/output.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <sstream>

#include "core/error.hpp"

namespace linkcast {

namespace {

// ---- Temporaries the signal handler removes ---------------------------------------------------
// A fixed table, so the handler only reads memory that never moves and calls unlink(2), sigaction(2)
// and raise(3), all async-signal-safe. A slot is 0 free, 1 being filled, 2 a path to remove.

constexpr int kSlots = 64;
constexpr std::size_t kSlotPathMax = 4096;
struct Slot {
  std::atomic<int> state{0};
  char path[kSlotPathMax];
};
Slot g_slots[kSlots];

constexpr std::array<int, 3> kCleanupSignals = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[kCleanupSignals.size()];
std::atomic<bool> g_installed[kCleanupSignals.size()];

extern "C" void remove_temporaries_and_reraise(int sig) {
  for (Slot& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == 2) ::unlink(s.path);
  // Put back what was there before (the default action, or another program's handler) and raise
  // the signal again: it is delivered when this handler returns.
  for (std::size_t i = 0; i < kCleanupSignals.size(); ++i)
    if (kCleanupSignals[i] == sig && g_installed[i].load()) ::sigaction(sig, &g_previous[i], nullptr);
  ::raise(sig);
}

void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (std::size_t i = 0; i < kCleanupSignals.size(); ++i) {
      struct sigaction previous {};
      if (::sigaction(kCleanupSignals[i], nullptr, &previous) != 0) continue;
      if (previous.sa_handler == SIG_IGN) continue;  // ignored (nohup): leave it so
      struct sigaction action {};
      action.sa_handler = remove_temporaries_and_reraise;
      sigemptyset(&action.sa_mask);
      for (int s : kCleanupSignals) sigaddset(&action.sa_mask, s);
      action.sa_flags = 0;
      g_previous[i] = previous;
      if (::sigaction(kCleanupSignals[i], &action, nullptr) == 0) g_installed[i].store(true);
    }
  });
}

/// Puts `path` on the list; -1 when it does not fit (the file is then only removed by the
/// destructor).
int register_temporary(const std::string& path) {
  if (path.size() >= kSlotPathMax) return -1;
  install_handlers();
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (g_slots[i].state.compare_exchange_strong(expected, 1)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
      g_slots[i].state.store(2, std::memory_order_release);
      return i;
    }
  }
  return -1;
}

void unregister_temporary(int& slot) {
  if (slot >= 0) g_slots[slot].state.store(0, std::memory_order_release);
  slot = -1;
}

bool is_registered(const std::string& path) {
  for (const Slot& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == 2 && path == s.path) return true;
  return false;
}

// ---- Writing --------------------------------------------------------------------------------

std::string error_text(int err) { return std::strerror(err); }

/// Writes all of `data` to `fd`; 0 or the errno of the failure.
int write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return 0;
}

/// A stream buffer that hands its text on in 64 KiB chunks (take()) and remembers the first
/// failure to take one (an errno), after which it takes nothing more.
class ChunkBuffer : public std::streambuf {
 public:
  ChunkBuffer() : chunk_(std::size_t{1} << 16) { setp(chunk_.data(), chunk_.data() + chunk_.size()); }
  /// The errno of the first failure (0: none).
  int error() const { return error_; }

 protected:
  /// Takes `n` bytes of text; 0 or an errno.
  virtual int take(const char* data, std::size_t n) = 0;
  /// Hands the chunk on; false once anything failed.
  bool drain() {
    const auto n = static_cast<std::size_t>(pptr() - pbase());
    if (n > 0 && error_ == 0) error_ = take(pbase(), n);
    setp(chunk_.data(), chunk_.data() + chunk_.size());
    return error_ == 0;
  }
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return drain() ? 0 : -1; }
  int error_ = 0;

 private:
  std::vector<char> chunk_;
};

/// A buffered stream buffer over a file descriptor it owns.
class FdBuffer : public ChunkBuffer {
 public:
  explicit FdBuffer(int fd) : fd_(fd) {}
  ~FdBuffer() override {
    if (fd_ >= 0) ::close(fd_);
  }
  /// Flushes and closes; 0 or the errno of the first failure.
  int close() {
    drain();
    if (fd_ >= 0 && ::close(fd_) != 0 && error_ == 0) error_ = errno;
    fd_ = -1;
    return error_;
  }
  int fd() const { return fd_; }

 protected:
  int take(const char* data, std::size_t n) override { return fd_ >= 0 ? write_all(fd_, data, n) : 0; }

 private:
  int fd_;
};

/// The text of an output written on commit (standard output, a descriptor, a device): held in
/// memory up to kSpillBytes, then in an unnamed temporary file (O_TMPFILE in the temporary folder,
/// gone when closed), so that a large output (a 1,024-GPU node's `topo --format json`, 302 MB)
/// does not hold its size, and more, in memory until commit.
class SpillBuffer : public ChunkBuffer {
 public:
  static constexpr std::size_t kSpillBytes = std::size_t{64} << 20;

  ~SpillBuffer() override {
    if (spill_fd_ >= 0) ::close(spill_fd_);
  }
  /// Writes everything to `fd` (or std::cout where fd < 0); 0 or the errno of the first failure.
  int write_to(int fd) {
    if (!drain()) return error_;
    const auto put = [&](const char* data, std::size_t n) -> int {
      if (fd >= 0) return write_all(fd, data, n);
      std::cout.write(data, static_cast<std::streamsize>(n));
      return std::cout ? 0 : EIO;
    };
    if (spill_fd_ < 0) {
      if (const int err = put(memory_.data(), memory_.size()); err != 0) return err;
    } else {
      if (::lseek(spill_fd_, 0, SEEK_SET) < 0) return errno;
      std::vector<char> block(std::size_t{1} << 20);
      while (true) {
        const ssize_t n = ::read(spill_fd_, block.data(), block.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        if (n == 0) break;
        if (const int err = put(block.data(), static_cast<std::size_t>(n)); err != 0) return err;
      }
    }
    if (fd < 0) {
      std::cout.flush();
      if (!std::cout) return EIO;
    }
    return 0;
  }

 protected:
  /// Into memory, or into the spill file once memory would pass kSpillBytes.
  int take(const char* data, std::size_t n) override {
    if (spill_fd_ < 0 && !in_memory_only_ && memory_.size() + n > kSpillBytes) {
      const char* dir = std::getenv("TMPDIR");
      const std::string folder = dir && *dir ? dir : "/tmp";
      spill_fd_ = unnamed_file(folder.c_str());
      if (spill_fd_ < 0) {
        // No file there (a read-only or missing folder): the text stays in memory, as it did.
        const int err = errno;
        in_memory_only_ = true;
        std::cerr << fmt::format("linkcast: warning: no temporary file can be made in {} ({}): an output of more "
                                 "than {} MiB is held in memory until the command ends; set TMPDIR to a writable "
                                 "folder\n",
                                 folder, error_text(err), kSpillBytes >> 20);
      } else {
        if (const int err = write_all(spill_fd_, memory_.data(), memory_.size()); err != 0) return err;
        std::string().swap(memory_);
      }
    }
    if (spill_fd_ >= 0) return write_all(spill_fd_, data, n);
    memory_.append(data, n);
    return 0;
  }

 private:
  /// An unnamed file in `dir` for the spilled text: O_TMPFILE, else a mkstemp(3) file unlinked at
  /// once (file systems without O_TMPFILE); -1 with errno set where neither can be made.
  static int unnamed_file(const char* dir) {
    const int fd = ::open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return fd;
    std::string name = std::string(dir) + "/linkcast-output-XXXXXX";
    const int named = ::mkstemp(name.data());
    if (named >= 0) ::unlink(name.c_str());
    return named;
  }

  std::string memory_;
  int spill_fd_ = -1;
  bool in_memory_only_ = false;  // no spill file could be made
};

/// The descriptor a path names directly (/dev/stdout, /dev/fd/3, ...), or -1.
int descriptor_path(const std::string& path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const std::string_view prefix : {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/")}) {
    if (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0) {
      int fd = 0;
      for (std::size_t i = prefix.size(); i < path.size(); ++i) {
        if (path[i] < '0' || path[i] > '9' || fd > 1'000'000) return -1;
        fd = fd * 10 + (path[i] - '0');
      }
      return fd;
    }
  }
  return -1;
}

/// `path` with symbolic links at its last component followed to the file they lead to (the
/// folders on the way need no resolving: a rename works through them).
std::string follow_links(const std::string& path) {
  std::string current = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(current.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return current;
    std::string target(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 255) + 1, '\0');
    const ssize_t n = ::readlink(current.c_str(), target.data(), target.size());
    if (n < 0) throw InputError(fmt::format("cannot write '{}': {}", path, error_text(errno)));
    target.resize(static_cast<std::size_t>(n));
    const std::filesystem::path link(current);
    current = target.front() == '/' ? target : (link.parent_path() / target).string();
  }
  throw InputError(fmt::format("cannot write '{}': too many levels of symbolic links", path));
}

/// `final_path` with ".TAG-PID" appended to its file name: a file beside it in the same folder
/// (so that rename() and link() stay in one file system). A name that would then pass the 255
/// bytes a Linux file system allows in one name (NAME_MAX) is cut and given a hash of the whole
/// name instead, so that two long names sharing a prefix still get different files.
std::string sibling_path(const std::string& final_path, std::string_view tag) {
  constexpr std::size_t kNameMax = 255;
  const std::string suffix = fmt::format(".{}-{}", tag, ::getpid());
  const std::size_t slash = final_path.rfind('/');
  const std::size_t name_start = slash == std::string::npos ? 0 : slash + 1;
  const std::string_view name = std::string_view(final_path).substr(name_start);
  if (name.size() + suffix.size() <= kNameMax) return final_path + suffix;
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a, 64 bits
  for (const char ch : name) hash = (hash ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  const std::string mark = fmt::format("~{:016x}", hash);
  const std::size_t keep = kNameMax - suffix.size() - mark.size();
  return final_path.substr(0, name_start + keep) + mark + suffix;
}

std::string backup_path_of(const std::string& final_path) { return sibling_path(final_path, "bak"); }

}  // namespace

namespace output_detail {
std::vector<std::string> registered_temporaries() {
  std::vector<std::string> out;
  for (const Slot& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == 2) out.emplace_back(s.path);
  return out;
}
}  // namespace output_detail

TemporaryFile::TemporaryFile(const std::string& prefix) {
  std::error_code ec;
  const std::filesystem::path folder = std::filesystem::temp_directory_path(ec);
  std::string name = ((ec ? std::filesystem::path("/tmp") : folder) / (prefix + "XXXXXX")).string();
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0)
    throw InputError(fmt::format("no temporary file could be made in {} ({}): set TMPDIR to a folder with room",
                                 std::filesystem::path(name).parent_path().string(), error_text(errno)));
  path_ = std::move(name);
  slot_ = register_temporary(path_);
}

TemporaryFile::~TemporaryFile() {
  close();
  ::unlink(path_.c_str());
  unregister_temporary(slot_);
}

void TemporaryFile::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

AtomicOutput::AtomicOutput(std::string path) : path_(std::move(path)) {
  auto in_memory = [this](Target t) {
    target_ = t;
    auto buffer = std::make_unique<SpillBuffer>();
    out_ = std::make_unique<std::ostream>(buffer.get());
    buffer_ = std::move(buffer);
  };
  if (path_.empty() || path_ == "-") {
    in_memory(Target::standard_output);
    return;
  }
  if (const int fd = descriptor_path(path_); fd >= 0 && ::fcntl(fd, F_GETFD) != -1) {
    fd_number_ = fd;
    in_memory(Target::descriptor);
    return;
  }
  final_path_ = follow_links(path_);
  struct stat st {};
  mode_t mode = 0666;
  if (::stat(final_path_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      throw InputError(fmt::format("cannot write '{}': it is a directory; give a file name", path_));
    if (!S_ISREG(st.st_mode)) {
      // A device, FIFO or socket: written on commit, never replaced.
      in_memory(Target::special_file);
      return;
    }
    mode = st.st_mode & 07777;
  } else if (errno != ENOENT) {
    throw InputError(fmt::format("cannot write '{}': {}", path_, error_text(errno)));
  }
  target_ = Target::regular_file;
  temp_path_ = sibling_path(final_path_, "tmp");
  if (is_registered(temp_path_))
    throw InputError(fmt::format("cannot write '{}' twice: two outputs of this command name the same file", path_));
  temp_slot_ = register_temporary(temp_path_);
  int fd = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0 && errno == EEXIST) {
    // Left by an earlier process that had this process id and was killed outright.
    ::unlink(temp_path_.c_str());
    fd = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  }
  if (fd < 0) {
    const int err = errno;
    unregister_temporary(temp_slot_);
    temp_path_.clear();
    if (err == ENOENT || err == EACCES || err == EROFS || err == ENOTDIR)
      throw InputError(fmt::format("cannot write '{}': the folder does not exist or is not writable", path_));
    throw InputError(fmt::format("cannot write '{}': {}", path_, error_text(err)));
  }
  if (mode != 0666) (void)::fchmod(fd, mode);  // an existing file keeps its permission bits
  auto buffer = std::make_unique<FdBuffer>(fd);
  out_ = std::make_unique<std::ostream>(buffer.get());
  buffer_ = std::move(buffer);
}

AtomicOutput::~AtomicOutput() {
  out_.reset();
  buffer_.reset();  // closes the temporary
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
  unregister_temporary(temp_slot_);
}

std::ostream& AtomicOutput::stream() { return *out_; }

void AtomicOutput::commit() { commit_all({this}); }

/// One output's part of a commit: what was there before, so that it can be put back.
struct OutputCommit {
  explicit OutputCommit(AtomicOutput* o) : output(o) {}
  AtomicOutput* output;
  std::string backup;     // a hard link to the file it replaces, "" when none
  int backup_slot = -1;
  bool existed = false;
  bool moved = false;

  /// Puts back what was there before the move.
  void restore() {
    if (!moved) return;
    const std::string& target = output->final_path_;
    if (!backup.empty()) ::rename(backup.c_str(), target.c_str());
    else if (!existed) ::unlink(target.c_str());
    moved = false;
  }
  void drop_backup() {
    if (!backup.empty()) ::unlink(backup.c_str());
    unregister_temporary(backup_slot);
    backup.clear();
  }
};

void commit_all(std::initializer_list<AtomicOutput*> outputs) {
  std::vector<OutputCommit> todo;
  for (AtomicOutput* o : outputs)
    if (o != nullptr && !o->committed_) todo.emplace_back(o);
  using Target = AtomicOutput::Target;

  // 1. Every output written completely, or nothing moves.
  for (OutputCommit& c : todo) {
    AtomicOutput& o = *c.output;
    o.out_->flush();
    if (o.target_ != Target::regular_file) {
      if (const int err = static_cast<SpillBuffer&>(*o.buffer_).error(); err != 0)
        throw InputError(fmt::format("cannot write '{}': {} (its text past {} MiB waits in an unnamed file in the "
                                     "temporary folder, TMPDIR or /tmp, until the command ends)",
                                     o.path_, error_text(err), SpillBuffer::kSpillBytes >> 20));
      if (!*o.out_) throw InputError(fmt::format("cannot write '{}': out of memory", o.path_));
      continue;
    }
    auto& buffer = static_cast<FdBuffer&>(*o.buffer_);
    const int err = buffer.close();
    if (err != 0 || !*o.out_) {
      throw InputError(fmt::format("cannot write '{}': {}", o.path_,
                                   err == ENOSPC || err == 0 ? "write failed (disk full?)" : error_text(err)));
    }
  }
  for (std::size_t i = 0; i < todo.size(); ++i)
    for (std::size_t j = i + 1; j < todo.size(); ++j)
      if (todo[i].output->target_ == Target::regular_file && todo[j].output->target_ == Target::regular_file &&
          todo[i].output->final_path_ == todo[j].output->final_path_)
        throw InputError(fmt::format("cannot write '{}' and '{}': they are the same file", todo[i].output->path_,
                                     todo[j].output->path_));

  auto undo = [&todo] {
    for (auto it = todo.rbegin(); it != todo.rend(); ++it) it->restore();
    for (OutputCommit& c : todo) c.drop_backup();
  };

  // 2. Files into place, each keeping a link to what it replaces until all are done.
  for (OutputCommit& c : todo) {
    AtomicOutput& o = *c.output;
    if (o.target_ != Target::regular_file) continue;
    struct stat st {};
    if (::lstat(o.final_path_.c_str(), &st) == 0) {
      if (!S_ISREG(st.st_mode)) {
        undo();
        throw InputError(fmt::format("cannot write '{}': it is no longer a regular file", o.path_));
      }
      c.existed = true;
      const std::string backup = backup_path_of(o.final_path_);
      c.backup_slot = register_temporary(backup);
      ::unlink(backup.c_str());
      if (::link(o.final_path_.c_str(), backup.c_str()) == 0) c.backup = backup;
      else unregister_temporary(c.backup_slot);
    }
    if (::rename(o.temp_path_.c_str(), o.final_path_.c_str()) != 0) {
      const int err = errno;
      undo();
      throw InputError(fmt::format("cannot write '{}': {}", o.path_, error_text(err)));
    }
    c.moved = true;
  }

  // 3. Standard output, descriptors and devices: written now, after every file is in place.
  for (OutputCommit& c : todo) {
    AtomicOutput& o = *c.output;
    if (o.target_ == Target::regular_file) continue;
    auto& text = static_cast<SpillBuffer&>(*o.buffer_);
    int err = 0;
    if (o.target_ == Target::standard_output) {
      err = text.write_to(-1);
    } else {
      std::cout.flush();
      std::cerr.flush();
      int fd = o.fd_number_;
      if (o.target_ == Target::special_file) {
        fd = ::open(o.final_path_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) err = errno;
      }
      if (fd >= 0) {
        err = text.write_to(fd);
        if (o.target_ == Target::special_file) ::close(fd);
      }
    }
    if (err != 0) {
      undo();
      throw InputError(fmt::format("cannot write '{}': {}", o.path_, error_text(err)));
    }
  }

  // 4. Done: drop the links to the replaced files.
  for (OutputCommit& c : todo) {
    c.drop_backup();
    c.output->committed_ = true;
    unregister_temporary(c.output->temp_slot_);
  }
}

}  // namespace linkcast
