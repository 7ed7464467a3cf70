#include "core/base/file_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "core/base/error.h"

namespace d2s {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& why, std::string hint = {}) {
  if (hint.empty()) hint = "check that the directory exists and is writable";
  throw Error("cannot write '" + path + "': " + why, SourceRange(), std::move(hint));
}

// Closes the descriptor and removes the temporary unless commit() was called, so
// that every early exit (an exception included) leaves no stray file behind.
class TempFile {
 public:
  TempFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(path_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  // Closes the descriptor; close() can report a deferred write error (NFS, quota).
  int close() {
    int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }
  void commit() { committed_ = true; }

 private:
  int fd_;
  std::string path_;
  bool committed_ = false;
};

}  // namespace

void write_file_atomic(const std::string& path, std::string_view contents) {
  if (path.empty()) fail(path, "empty file name");
  std::error_code ec;
  fs::path target(path);
  // Write through a symlink to the file it names, as a plain write would; renaming
  // over the link itself would silently turn it into a regular file.
  if (fs::is_symlink(target, ec)) {
    fs::path resolved = fs::weakly_canonical(target, ec);
    if (!ec) target = resolved;
  }
  if (fs::is_directory(target, ec)) fail(path, "it is a directory", "give a file name");
  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec)) {
    fail(path, "directory '" + dir.string() + "' does not exist", "create the directory first");
  }

  // The temporary lives next to the target so that rename() stays within one file
  // system. O_EXCL with a pid+counter name avoids clashing with another writer;
  // mode 0666 lets the process umask decide the permissions, as for any new file.
  static std::atomic<unsigned> counter{0};
  int fd = -1;
  std::string tmp;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    // Built by append: GCC 12 warns falsely (-Wrestrict) on `"." + std::string&&`.
    std::string name = ".";
    name += target.filename().string();
    name += ".d2s-tmp." + std::to_string(::getpid());
    name += "." + std::to_string(counter++);
    tmp = (dir / name).string();
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) fail(path, std::strerror(errno));
  }
  if (fd < 0) fail(path, "could not create a temporary file next to it");
  TempFile file(fd, tmp);

  const char* p = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    ssize_t n = ::write(file.fd(), p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(path, std::strerror(errno));
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  // fsync before rename: otherwise a crash could leave the new name pointing at
  // an empty file on some file systems.
  if (::fsync(file.fd()) != 0 && errno != EINVAL) fail(path, std::strerror(errno));
  if (file.close() != 0) fail(path, std::strerror(errno));
  if (::rename(file.path().c_str(), target.c_str()) != 0) fail(path, std::strerror(errno));
  file.commit();
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  bool same = fs::equivalent(a, b, ec);
  return !ec && same;
}

}  // namespace d2s
