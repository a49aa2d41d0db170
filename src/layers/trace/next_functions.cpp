#include "layers/trace/next_functions.h"

#include "stream/driver_capture_state.h"

namespace strata::trace {

void* g_next_functions[api::kFunctionCount];

capture::CaptureState& TraceCaptureState() {
  static capture::DriverCaptureState state(g_next_functions);
  return state;
}

}  // namespace strata::trace
