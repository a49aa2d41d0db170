#include "layers/trace/final_frame.h"

#include <EGL/egl.h>
#include <GLES3/gl32.h>

#include <cstdlib>
#include <mutex>

#include "layers/trace/app_errors.h"
#include "layers/trace/call_writer.h"
#include "layers/trace/context_state.h"
#include "layers/trace/framebuffer_capture.h"
#include "layers/trace/next_functions.h"

namespace strata::trace {

namespace {

// Whether the current surface still holds what was drawn before its last
// swap: a pbuffer (a swap does nothing to it) or a surface that preserves its
// buffer. Querying EGL_LARGEST_PBUFFER leaves the value alone on anything
// but a pbuffer.
bool SurfaceKeepsItsPixelsAfterSwap() {
  EGLDisplay dpy = Next<PFNEGLGETCURRENTDISPLAYPROC>(api::eglGetCurrentDisplay)();
  EGLSurface surface = Next<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface)(EGL_DRAW);
  if (dpy == EGL_NO_DISPLAY || surface == EGL_NO_SURFACE) return false;
  auto query = Next<PFNEGLQUERYSURFACEPROC>(api::eglQuerySurface);
  EGLint largest = -1, behavior = EGL_BUFFER_DESTROYED;
  query(dpy, surface, EGL_LARGEST_PBUFFER, &largest);
  if (largest != -1) return true;
  return query(dpy, surface, EGL_SWAP_BEHAVIOR, &behavior) && behavior == EGL_BUFFER_PRESERVED;
}

void AtExit() {
  if (!Tracing() || CurrentContextState() == nullptr) return;
  RecordErrorAtFrameEnd(false);
  CaptureFinalFrameIfDue();
}

}  // namespace

void NoteFramebufferBound(GLenum target, GLuint framebuffer) {
  if (target == GL_FRAMEBUFFER || target == GL_DRAW_FRAMEBUFFER) t_locals.draw_framebuffer = framebuffer;
}

void NoteFramebuffersDeleted(GLsizei n, const GLuint* framebuffers) {
  for (GLsizei i = 0; framebuffers != nullptr && i < n; ++i) {
    // Deleting the bound framebuffer binds 0; a deleted one holds nothing to capture.
    if (framebuffers[i] == 0) continue;
    if (framebuffers[i] == t_locals.draw_framebuffer) t_locals.draw_framebuffer = 0;
    if (framebuffers[i] == t_locals.framebuffer_drawn) t_locals.framebuffer_drawn = 0;
  }
}

void NoteContextCurrent() {
  t_locals.draw_framebuffer = BoundDrawFramebuffer();
}

void NoteSwapped() { t_locals.surface_drawn_since_swap = false; }

void CaptureFinalFrameIfDue() {
  if (!t_locals.surface_drawn_since_capture && t_locals.framebuffer_drawn == 0) return;
  if (!CaptureFinalFrame() || CurrentContextState() == nullptr || !Tracing()) return;
  const GLuint bound = BoundDrawFramebuffer();
  if (bound != 0) {
    if (bound == t_locals.framebuffer_drawn) CaptureDrawFramebuffer(true);
  } else if (t_locals.surface_drawn_since_swap ||
             (t_locals.surface_drawn_since_capture && SurfaceKeepsItsPixelsAfterSwap())) {
    CaptureSurface(true);
  }
  t_locals.framebuffer_drawn = 0;
  t_locals.surface_drawn_since_swap = t_locals.surface_drawn_since_capture = false;
}

void ArmFinalFrameAtExit() {
  // Registered after the driver's own exit handlers (it loaded before any
  // context existed), so it runs before them, while the context still works;
  // and after the session's Finish handler, so it runs before the trace ends.
  static std::once_flag armed;
  std::call_once(armed, [] { std::atexit(AtExit); });
}

}  // namespace strata::trace
