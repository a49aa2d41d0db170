#pragma once
// Framebuffer images in the trace (STRATA_TRACE_CAPTURE=swap, draw or
// swap,draw): the back buffer before each eglSwapBuffers and/or the bound
// framebuffer's viewport after each draw, as framebuffer records (RGBA8, or
// BGRA8 where the driver stores the surface so, bottom row first, as
// glReadPixels gives them; compressed with the chunk).
// Unless STRATA_TRACE_CAPTURE=none, also the final frame: what the app drew
// last, once (final_frame.cpp says when). Replay compares them with what it renders.

#include <GLES3/gl32.h>

#include <cstdint>
#include <vector>

#include "layers/trace/call_writer.h"

namespace strata::trace {

// Sets what is captured (a STRATA_TRACE_CAPTURE value; null: the default,
// final); false with a message for a bad value, which captures the final frame.
bool ConfigureCapture(const char* setting);
bool CaptureAtSwap();
// Asked after every draw: read inline, no call, on the line of the settings every call reads.
inline bool CaptureAfterDraws() { return g_per_call.capture_after_draws; }
bool CaptureFinalFrame();

// Captures the default framebuffer of the current surface (before a swap).
void CaptureSurface(bool final_frame = false);
// Captures the viewport of the current draw framebuffer (after a draw).
void CaptureDrawFramebuffer(bool final_frame = false);
// The framebuffer bound for drawing, asked below the tracer (the same enum in
// GLES 3); 0, the surface, in GLES 1, which has no framebuffer objects.
GLuint BoundDrawFramebuffer();

// What the captures read with, for the tracer's other readers (a snapshot at
// attach): a rectangle of a framebuffer (0: the surface) as RGBA8, bottom row
// first, multisampled ones resolved, every binding, pack setting and the
// app's GL error left as they were; false when it cannot be read as RGBA8.
bool ReadFramebufferPixels(GLint read_framebuffer, GLint x, GLint y, GLsizei width, GLsizei height,
                           std::vector<uint8_t>* rgba);
// The same into the room `place` gives, of a size the caller checked with
// stream::PlausibleFramebufferSize; with `may_bgra`, as BGRA8 where the
// driver reads the framebuffer that way without converting (a window surface
// of most X11 visuals), else as RGBA8.
bool ReadFramebufferPixelsInto(GLint read_framebuffer, GLint x, GLint y, GLsizei width, GLsizei height,
                               bool may_bgra, const PixelPlace& place);
// The size of the current draw surface as the driver draws it (a window
// surface's as the trace recorded it: surface_sizes.h); false without one.
bool CurrentSurfaceSize(int* width, int* height);

}  // namespace strata::trace
