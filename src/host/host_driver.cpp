#include "host/host_driver.h"

#include "loader/driver_locator.h"
#include "loader/own_entry_points.h"

namespace strata::host {

std::unique_ptr<HostDriver> HostDriver::Load(const std::string& strata_lib_dir, std::string* error, bool isolated) {
  std::unique_ptr<HostDriver> driver(new HostDriver);
  SharedLibrary* libraries[] = {&driver->egl_, &driver->glesv2_, &driver->glesv1_};
  int i = 0;
  for (loader::DriverLibrary which : loader::kAllDriverLibraries) {
    loader::DriverLocation location = loader::LocateDriver(which, strata_lib_dir);
    SharedLibrary& library = *libraries[i++];
    if (location.path.empty() || !library.Open(location.path, isolated)) {
      // GLES 1 is optional: traces of GLES 2/3 programs never need it.
      if (which == loader::DriverLibrary::kGlesV1) continue;
      *error = std::string("cannot load the host's ") + loader::SonameOf(which) + ": " +
               (location.path.empty() ? location.error : library.error());
      return nullptr;
    }
  }
  using GetProcAddress = void* (*)(const char*);
  auto get_proc = reinterpret_cast<GetProcAddress>(driver->egl_.Symbol("eglGetProcAddress"));
  // Where Strata's libraries are in the process (a remote client's fallback),
  // an entry point of theirs would lead back to the client, not to a driver.
  const loader::OwnEntryPoints own(strata_lib_dir);
  driver->functions_.assign(api::kFunctionCount, nullptr);
  for (int slot = 0; slot < api::kFunctionCount; ++slot) {
    const api::FunctionInfo& info = api::kFunctions[slot];
    void* fn = nullptr;
    if (info.is_egl) {
      fn = driver->egl_.Symbol(info.name);
    } else {
      fn = driver->glesv2_.Symbol(info.name);
      if (!fn && driver->glesv1_.loaded()) fn = driver->glesv1_.Symbol(info.name);
    }
    // Extensions are only reachable through eglGetProcAddress.
    if (!fn && get_proc) fn = get_proc(info.name);
    driver->functions_[slot] = own.Contains(fn) ? nullptr : fn;
  }
  return driver;
}

}  // namespace strata::host
