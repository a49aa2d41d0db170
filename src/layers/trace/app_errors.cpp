#include "layers/trace/app_errors.h"

#include <atomic>

#include "common/log.h"
#include "layers/trace/call_writer.h"
#include "layers/trace/context_state.h"
#include "layers/trace/next_functions.h"

namespace strata::trace {
namespace {

// Per thread rather than per context: the error is given back before the app
// can switch contexts in all but contrived programs (swap, then glGetError).
__thread GLenum t_taken_error __attribute__((tls_model("initial-exec"))) = GL_NO_ERROR;

}  // namespace

void RecordErrorAtFrameEnd(bool give_back) {
  if (CurrentContextState() == nullptr || !Tracing()) return;
  // An error taken at an earlier frame's end that the app has not asked for
  // yet is still its pending error: recorded again, the driver left alone.
  if (t_taken_error != GL_NO_ERROR) return EmitGlError(t_taken_error);
  GLenum error = Next<PFNGLGETERRORPROC>(api::glGetError)();
  EmitGlError(error);
  if (give_back) t_taken_error = error;
}

TracerGlCalls::TracerGlCalls() {
  if (t_taken_error == GL_NO_ERROR) t_taken_error = Next<PFNGLGETERRORPROC>(api::glGetError)();
}

TracerGlCalls::~TracerGlCalls() {
  // Each error flag holds one error; a driver may keep several flags.
  auto get_error = Next<PFNGLGETERRORPROC>(api::glGetError);
  for (int i = 0; i < 8; ++i) {
    GLenum own = get_error();
    if (own == GL_NO_ERROR) break;
    static std::atomic<bool> warned{false};
    if (!warned.exchange(true)) {
      STRATA_WARN("trace: the tracer's own GL calls raised GL error 0x%x (cleared; the app does not see it)", own);
    }
  }
}

GLenum GiveBackError(GLenum from_driver) {
  GLenum taken = t_taken_error;
  if (taken == GL_NO_ERROR) return from_driver;
  t_taken_error = from_driver;
  return taken;
}

}  // namespace strata::trace
