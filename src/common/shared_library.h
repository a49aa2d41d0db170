#pragma once
// A dlopen'ed library that remembers why it failed to load.

#include <dlfcn.h>

#include <string>

namespace strata {

// dlopen flags for a library kept apart from same-named symbols already in the
// process (a driver under Strata's own exports): its own references bind inside
// it. The sanitizers' runtimes refuse RTLD_DEEPBIND (it would let the library
// bypass their malloc), so sanitizer builds (docs/security.md) open such
// libraries RTLD_LOCAL only and rely on symbol order instead
// (STRATA_SANITIZE_BUILD is defined for every file of such a build, also the
// ones left uninstrumented).
#if defined(STRATA_SANITIZE_BUILD)
inline constexpr int kIsolatedDlopenFlags = RTLD_LOCAL;
#else
inline constexpr int kIsolatedDlopenFlags = RTLD_LOCAL | RTLD_DEEPBIND;
#endif

class SharedLibrary {
 public:
  SharedLibrary() = default;
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;
  ~SharedLibrary() = default;  // never dlclose: a GL driver must outlive every thread

  // Loads by absolute path. `isolated` opens it with kIsolatedDlopenFlags, so that the
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
// The part of `path` after its last slash (all of it when it has none).
std::string FileNameOf(const std::string& path);
// `path` with every symbolic link resolved, or "" when it does not exist.
std::string RealPath(const std::string& path);

}  // namespace strata
