#pragma once
// The file an export writes: buffered, remembers the first write error, and
// removes what it wrote when the export fails (never a half file that looks whole).

#include <cstdio>
#include <string>
#include <string_view>

namespace strata::exporter {

class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  // "-" is standard output. False with `error` naming the path and the reason.
  bool Open(const std::string& path, std::string* error);
  void Write(const void* data, size_t size);
  void Write(std::string_view text) { Write(text.data(), text.size()); }
  bool failed() const { return !error_.empty(); }
  // Flushes and closes; false with the first write error.
  bool Close(std::string* error);
  // Closes and deletes the file if it is a regular one (not standard output, not a device).
  void Discard();
  const std::string& path() const { return path_; }

 private:
  void Fail(int error_number);
  FILE* file_ = nullptr;
  bool is_stdout_ = false;
  std::string path_, error_;
};

}  // namespace strata::exporter
