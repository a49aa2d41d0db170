#include "common/shared_library.h"

#include <dlfcn.h>

#include <climits>
#include <cstdlib>

namespace strata {

bool SharedLibrary::Open(const std::string& path, bool isolated) {
  path_ = path;
  int flags = RTLD_NOW | (isolated ? kIsolatedDlopenFlags : RTLD_GLOBAL);
  handle_ = dlopen(path.c_str(), flags);
  if (handle_ == nullptr) {
    const char* why = dlerror();
    error_ = why ? why : "unknown dlopen error";
  }
  return handle_ != nullptr;
}

void* SharedLibrary::Symbol(const char* name) const {
  return handle_ ? dlsym(handle_, name) : nullptr;
}

std::string PathOfObjectContaining(const void* address) {
  Dl_info info{};
  if (dladdr(address, &info) == 0 || info.dli_fname == nullptr) return "";
  return info.dli_fname;
}

std::string DirectoryOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::string FileNameOf(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string RealPath(const std::string& path) {
  char buffer[PATH_MAX];
  return realpath(path.c_str(), buffer) ? std::string(buffer) : std::string();
}

}  // namespace strata
