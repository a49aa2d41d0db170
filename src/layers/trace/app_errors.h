#pragma once
// The app's GL errors at frame ends. Before each eglSwapBuffers the tracer
// asks glGetError itself and records the answer (a `gl-error` trace event),
// so that replay knows whether the app met a GL error even where it never
// asked. The error it took is given back to the app's next glGetError on that
// thread, so the app sees what it would have seen untraced.

#include <GLES2/gl2.h>

namespace strata::trace {

// Records the app's pending error (asking the current context, unless an
// error taken earlier still waits); no-op without a current context. With
// `give_back`, a taken error waits for the app's next glGetError (at exit
// nobody asks again). The record says what is pending, it takes nothing: the
// app's own glGetError still answers for it.
void RecordErrorAtFrameEnd(bool give_back);

// The app's glGetError: a taken error first; `from_driver` (what the driver
// just answered) then waits its turn.
GLenum GiveBackError(GLenum from_driver);

// Around GL calls the tracer makes for itself (framebuffer capture): the
// app's pending error is taken first and waits for the app's next
// glGetError; an error the tracer's own calls raise is cleared, never seen
// by the app. Needs a current context.
class TracerGlCalls {
 public:
  TracerGlCalls();
  ~TracerGlCalls();
  TracerGlCalls(const TracerGlCalls&) = delete;
  TracerGlCalls& operator=(const TracerGlCalls&) = delete;
};

}  // namespace strata::trace
