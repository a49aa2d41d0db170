#pragma once
// The final frame: what the app drew last, captured once, unless
// STRATA_TRACE_CAPTURE=none, so that `strata replay --verify` has a frame to
// compare in every trace that draws. It is taken when a thread gives its
// context up (makes no context current, releases the thread, destroys the
// current context, terminates the current display) and at exit: the bound
// draw framebuffer, if it is the one drawn last and still exists; the
// surface, if it was drawn since. After a swap a window's back buffer is
// undefined, so a frame that ended with a swap of a window (not preserved) is
// only in a --capture swap trace.

#include <GLES2/gl2.h>

#include "layers/trace/thread_locals.h"

namespace strata::trace {

// Kept by the hooks with thread-local stores (t_locals), never a call: the
// draw framebuffer as the app bound it, whether the surface was drawn since
// the last swap and since the last final capture, and the framebuffer object
// drawn since that capture (0: none).
// A draw, clear or blit changed the bound draw framebuffer. Inline: it runs
// after every draw.
inline void NoteDrawn() {
  if (t_locals.draw_framebuffer != 0) {
    t_locals.framebuffer_drawn = t_locals.draw_framebuffer;
  } else {
    t_locals.surface_drawn_since_swap = t_locals.surface_drawn_since_capture = true;
  }
}
// Which framebuffer draws go to, as the app binds and deletes them.
void NoteFramebufferBound(GLenum target, GLuint framebuffer);
void NoteFramebuffersDeleted(GLsizei n, const GLuint* framebuffers);
// A context became current on this thread (its own binding comes with it).
void NoteContextCurrent();
// The current surface was swapped.
void NoteSwapped();
// The calling thread is about to give its current context up.
void CaptureFinalFrameIfDue();
// A context became current while tracing: the capture at exit is armed (once).
void ArmFinalFrameAtExit();

}  // namespace strata::trace
