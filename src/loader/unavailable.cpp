#include "loader/unavailable.h"

#include <unistd.h>

#include <atomic>

#include "common/log.h"
#include "loader/loader.h"

namespace strata::loader {

void ReportUnavailableCall(int slot) {
  const Loader& loader = Loader::Get();
  if (!loader.driver_loaded()) return;  // the load failure was reported once already
  const api::FunctionInfo& info = api::kFunctions[slot];
  if (!info.is_egl && loader.IsNoContextTable(strata_current_dispatch)) {
    thread_local bool reported = false;
    if (!reported) {
      reported = true;
      STRATA_WARN("%s called on thread %d with no current EGL context; GL calls are ignored until "
                  "eglMakeCurrent (reported once per thread)",
                  info.name, static_cast<int>(gettid()));
    }
    return;
  }
  static std::atomic<bool> reported[api::kFunctionCount];
  if (!reported[slot].exchange(true)) {
    STRATA_WARN("%s is not provided by the driver; the call is ignored", info.name);
  }
}

}  // namespace strata::loader
