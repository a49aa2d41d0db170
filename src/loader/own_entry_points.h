#pragma once
// Strata's own exported entry points, told apart from a driver's. A driver
// that looks names up in the process's global scope (dlsym(RTLD_DEFAULT), a
// dlopen of "libGLESv2.so.2" by name, a reference it does not bind itself)
// finds Strata's public libraries there first, and an entry point of theirs
// put in a dispatch table would call itself through the table for ever.

#include <cstdint>
#include <string>
#include <vector>

namespace strata::loader {

class OwnEntryPoints {
 public:
  // The objects in `own_directory` whose exports jump through the loader's
  // tables (libEGL.so.1, libGLESv2.so.2, libGLESv1_CM.so.1, libGL.so.1,
  // libstrata_loader.so), those of them loaded in this process.
  explicit OwnEntryPoints(const std::string& own_directory);

  // Whether `function` lies in one of them: a few comparisons, as the
  // loader asks for each of its table's entries.
  bool Contains(const void* function) const;

  struct Range {
    uintptr_t start, end;  // one loaded segment
  };

 private:
  std::vector<Range> ranges_;
};

}  // namespace strata::loader
