#pragma once
// What kind of work a call is, by its name alone: shared by the commands that
// count or highlight calls (stats, view), so they agree on what a draw is.

#include <string_view>

namespace strata::stream {

// glDraw*, glMultiDraw* and glDispatchCompute*: calls that make the GPU
// render or compute. glDrawBuffers sets state and is not one.
inline bool IsDrawCall(std::string_view name) {
  if (name.starts_with("glDrawBuffers")) return false;
  return name.starts_with("glDraw") || name.starts_with("glMultiDraw") || name.starts_with("glDispatchCompute");
}

// Draws and clears: calls that write the bound draw framebuffer.
inline bool WritesFramebuffer(std::string_view name) {
  return (IsDrawCall(name) && !name.starts_with("glDispatchCompute")) || name == "glClear" ||
         name.starts_with("glClearBuffer");
}

// Work the GPU does for a call, which a timer query can measure: draws,
// compute dispatches, clears and blits.
inline bool IsGpuWork(std::string_view name) {
  return IsDrawCall(name) || WritesFramebuffer(name) || name.starts_with("glBlitFramebuffer");
}

// Calls that read a framebuffer's pixels back into memory, a texture or
// another framebuffer (any of which may be the surface's).
inline bool ReadsFramebuffer(std::string_view name) {
  return name.starts_with("glReadPixels") || name.starts_with("glReadnPixels") || name.starts_with("glCopyTex") ||
         name.starts_with("glBlitFramebuffer") || name == "eglCopyBuffers";
}

}  // namespace strata::stream
