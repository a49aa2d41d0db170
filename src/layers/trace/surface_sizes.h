#pragma once
// Window and pixmap surfaces' sizes (trace event `surface`): a replayer makes
// a surface of its own of each recorded size, and makes it again when a later
// event gives another. A window's back buffer does not follow the window at
// once: the driver takes the window's size when it checks the drawable, the
// first time the surface is made current and at the first draw into it after
// each swap (Mesa: reads, and a swap with nothing drawn, keep the old size).
// So the size is recorded when the surface is made, at its first
// eglMakeCurrent, and before the first draw, clear or blit into it after a
// swap when it changed: the event comes before that call, where a replayer
// must resize.

#include <EGL/egl.h>

#include "layers/trace/thread_locals.h"

namespace strata::trace {

// A window or pixmap surface was made, or a made-up eglMakeCurrent uses it:
// its size, whatever was recorded before.
void DescribeSurface(EGLDisplay dpy, EGLSurface surface);
// The surface is gone: its handle may come back as another surface.
void ForgetSurface(EGLSurface surface);
// A context was made current with these surfaces: the size of each made
// current for the first time, if it changed since it was made.
void NoteSurfacesCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read);
// The current surface was swapped: its size is asked again before the next
// call that writes it.
inline void NoteSurfaceSwapped() { t_locals.surface_size_due = true; }
// The size last recorded for `surface`, which is the size the driver draws
// it at (eglQuerySurface may answer the window's size before the driver
// takes it); false for surfaces the trace does not describe (pbuffers).
bool RecordedSurfaceSize(EGLSurface surface, EGLint* width, EGLint* height);
// Out of line: the current draw surface's size, recorded if it changed.
void RecordSurfaceResize();
// Inline, before every draw, clear and blit: one thread-local test, and the
// size asked at the first into the surface after a swap.
inline void BeforeSurfaceWrite() {
  if (t_locals.surface_size_due && t_locals.draw_framebuffer == 0) [[unlikely]] RecordSurfaceResize();
}

}  // namespace strata::trace
