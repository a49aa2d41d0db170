#pragma once
// A dlopen'ed library that remembers why it failed to load.

#include <dlfcn.h>

#include <string>

namespace strata {

// dlopen flags for a library kept apart from same-named symbols already in the
// process (a driver under Strata's own exports): its symbols stay out of the
// global scope, so later lookups by name never find them. Not RTLD_DEEPBIND:
// a deep-bound library and its dependencies bind malloc, free and realloc to
// libc's even where the program brings its own allocator (Chromium's
// PartitionAlloc, jemalloc, tcmalloc, the sanitizers' runtimes), while libc's
// own allocations (strdup, vasprintf, scandir) use the program's, so memory
// crosses between two allocators (glvnd's eglQueryString reallocs a string
// strdup made: "realloc(): invalid pointer"); it bypasses every other symbol
// the program interposes as well. A driver's own references to names Strata
// also exports bind as the program's would (the system's EGL/GLES libraries
// make none); an entry point a driver hands out that is Strata's own is
// refused where tables are filled (loader.cpp).
inline constexpr int kIsolatedDlopenFlags = RTLD_LOCAL;

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
