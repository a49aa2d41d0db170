#include "loader/status.h"

#include <string>

#include "loader/loader.h"

using strata::loader::ContextApi;
using strata::loader::DriverLibrary;
using strata::loader::Loader;

const StrataLoaderStatus* strata_loader_status(void) {
  static const StrataLoaderStatus status = [] {
    const Loader& loader = Loader::Get();
    StrataLoaderStatus s{};
    s.loader_directory = loader.own_directory().c_str();
    for (DriverLibrary library : strata::loader::kAllDriverLibraries) {
      StrataDriverStatus& d = s.drivers[static_cast<int>(library)];
      d.soname = strata::loader::SonameOf(library);
      d.path = loader.location(library).path.c_str();
      d.error = loader.location(library).error.c_str();
      d.loaded = loader.driver(library).loaded();
      d.from_override = loader.location(library).from_override;
    }
    s.function_count = strata::api::kFunctionCount;
    s.resolved_gles1 = loader.ResolvedCount(ContextApi::kGles1);
    s.resolved_gles2 = loader.ResolvedCount(ContextApi::kGles2);
    s.gl_dispatch_direct = loader.gl_dispatch_direct() ? 1 : 0;
    return s;
  }();
  return &status;
}

int strata_loader_current_table(void) {
  const Loader& loader = Loader::Get();
  for (ContextApi api : {ContextApi::kNone, ContextApi::kGles1, ContextApi::kGles2}) {
    if (strata::loader::strata_current_dispatch == &loader.table(api)) return static_cast<int>(api);
  }
  return -1;
}

void* strata_loader_table_entry(int table, const char* name) {
  int slot = strata::api::FindFunction(name);
  if (slot < 0 || table < 0 || table > 2) return nullptr;
  return Loader::Get().table(static_cast<ContextApi>(table)).entries[slot];
}
