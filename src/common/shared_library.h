#pragma once
// A dlopen'ed library that remembers why it failed to load.

#include <string>

namespace strata {

class SharedLibrary {
 public:
  SharedLibrary() = default;
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;
  ~SharedLibrary() = default;  // never dlclose: a GL driver must outlive every thread

  // Loads by absolute path. `isolated` uses RTLD_LOCAL|RTLD_DEEPBIND so that the
  // library's own references bind inside it, never to same-named symbols of ours.
  bool Open(const std::string& path, bool isolated);

  void* Symbol(const char* name) const;
  bool loaded() const { return handle_ != nullptr; }
  const std::string& path() const { return path_; }
  const std::string& error() const { return error_; }

 private:
  void* handle_ = nullptr;
  std::string path_;
  std::string error_;
};

// Absolute path of the loaded object that contains `address`, or "" if unknown.
std::string PathOfObjectContaining(const void* address);
// The directory part of `path` ("." when it has none).
std::string DirectoryOf(const std::string& path);

}  // namespace strata
