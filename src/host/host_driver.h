#pragma once
// The EGL/GLES driver an executor runs calls on: the system's libraries
// (found like the loader finds them, never Strata's own), one function
// pointer per registry slot.

#include <memory>
#include <string>
#include <vector>

#include "common/shared_library.h"
#include "strata/api/functions.h"

namespace strata::host {

class HostDriver {
 public:
  // `strata_lib_dir`: where Strata's own libraries are, so they are never
  // taken as the driver. `isolated`: opened RTLD_LOCAL, apart from
  // same-named libraries already in the process (Strata's own, in a client
  // that falls back to the local driver). Null with *error naming the
  // library that is missing.
  static std::unique_ptr<HostDriver> Load(const std::string& strata_lib_dir, std::string* error,
                                          bool isolated = false);

  // The driver's function for a slot, or null when it has none.
  void* Function(int slot) const { return functions_[slot]; }
  // Every slot's function (null where the driver has none).
  void* const* functions() const { return functions_.data(); }
  template <typename Pfn>
  Pfn Get(api::Slot slot) const {
    return reinterpret_cast<Pfn>(functions_[slot]);
  }
  const std::string& egl_path() const { return egl_.path(); }

 private:
  HostDriver() = default;
  SharedLibrary egl_, glesv2_, glesv1_;
  std::vector<void*> functions_;
};

}  // namespace strata::host
