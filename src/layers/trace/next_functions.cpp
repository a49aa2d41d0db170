#include "layers/trace/next_functions.h"

#include "stream/driver_capture_state.h"

namespace strata::trace {

// Line-aligned, as the loader's tables: the hot functions' slots share few lines.
alignas(64) void* g_next_functions[api::kFunctionCount];

capture::CaptureState& TraceCaptureState() {
  static capture::DriverCaptureState state(g_next_functions);
  return state;
}

}  // namespace strata::trace
