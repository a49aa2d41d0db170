#include "export/output_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace strata::exporter {
namespace {

constexpr size_t kBufferSize = 1 << 20;  // few, large writes

}  // namespace

OutputFile::~OutputFile() {
  if (file_ && !is_stdout_) std::fclose(file_);
}

bool OutputFile::Open(const std::string& path, std::string* error) {
  path_ = path;
  if (path == "-") {
    file_ = stdout;
    is_stdout_ = true;
  } else {
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_) {
      *error = "cannot write " + path + ": " + std::strerror(errno);
      return false;
    }
  }
  std::setvbuf(file_, nullptr, _IOFBF, kBufferSize);
  return true;
}

void OutputFile::Fail(int error_number) {
  if (error_.empty()) error_ = "cannot write " + path_ + ": " + std::strerror(error_number ? error_number : EIO);
}

void OutputFile::Write(const void* data, size_t size) {
  if (!file_ || failed() || size == 0) return;
  if (std::fwrite(data, 1, size, file_) != size) Fail(errno);
}

bool OutputFile::Close(std::string* error) {
  if (file_) {
    if (std::fflush(file_) != 0) Fail(errno);
    if (!is_stdout_ && std::fclose(file_) != 0) Fail(errno);
    file_ = nullptr;
  }
  if (failed()) {
    *error = error_;
    return false;
  }
  return true;
}

void OutputFile::Discard() {
  if (file_ && !is_stdout_) std::fclose(file_);
  file_ = nullptr;
  // Only a regular file: never a device such as /dev/full, or a pipe.
  struct stat info;
  if (!is_stdout_ && !path_.empty() && stat(path_.c_str(), &info) == 0 && S_ISREG(info.st_mode)) {
    unlink(path_.c_str());
  }
}

}  // namespace strata::exporter
