#include "layers/trace/framebuffer_capture.h"

#include <EGL/egl.h>
#include <GLES3/gl32.h>

#include <string>
#include <vector>

#include "common/log.h"
#include "layers/trace/app_errors.h"
#include "layers/trace/call_writer.h"
#include "layers/trace/capture_setting.h"
#include "layers/trace/context_state.h"
#include "layers/trace/next_functions.h"
#include "layers/trace/surface_sizes.h"
#include "layers/trace/trace_session.h"
#include "stream/framebuffer_record.h"
#include "stream/multisample_resolve.h"
#include "stream/pack_state.h"
#include "stream/record_format.h"

namespace strata::trace {

namespace {

bool g_at_swap = false, g_final = true;

// Whether glReadPixels(RGBA, UNSIGNED_BYTE) of the bound read framebuffer
// succeeds. It must never fail: the error would reach the app's glGetError.
// GLES 3: the framebuffer is complete and its read buffer is a normalized
// colour buffer (not integer, float, or none). GLES 2: it is complete.
bool ReadableAsRgba8(bool gles3) {
  GLenum target = gles3 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
  if (Next<PFNGLCHECKFRAMEBUFFERSTATUSPROC>(api::glCheckFramebufferStatus)(target) != GL_FRAMEBUFFER_COMPLETE) {
    return false;
  }
  if (!gles3) return true;
  GLint read_buffer = QueryInteger(GL_READ_BUFFER);
  if (read_buffer == GL_NONE) return false;
  auto attachment_parameter = Next<PFNGLGETFRAMEBUFFERATTACHMENTPARAMETERIVPROC>(api::glGetFramebufferAttachmentParameteriv);
  GLint type = GL_NONE, component = GL_NONE;
  attachment_parameter(target, static_cast<GLenum>(read_buffer), GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
  if (type == GL_NONE) return false;
  attachment_parameter(target, static_cast<GLenum>(read_buffer), GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &component);
  return component == GL_UNSIGNED_NORMALIZED;
}

}  // namespace

// Reads a rectangle of `read_framebuffer` with default pack state, then puts
// every binding and pack setting back as the app left it, and its pending
// GL error (TracerGlCalls).
bool ReadFramebufferPixels(GLint read_framebuffer, GLint x, GLint y, GLsizei width, GLsizei height,
                           std::vector<uint8_t>* rgba) {
  if (!stream::PlausibleFramebufferSize(width, height)) return false;
  return ReadFramebufferPixelsInto(read_framebuffer, x, y, width, height, false, [&](bool) {
    // No clearing: a read that succeeds writes every byte.
    rgba->resize(static_cast<size_t>(width) * height * 4);
    return rgba->data();
  });
}

bool ReadFramebufferPixelsInto(GLint read_framebuffer, GLint x, GLint y, GLsizei width, GLsizei height,
                               bool may_bgra, const PixelPlace& place) {
  TracerGlCalls own_calls;
  const int version = CurrentContextVersion();  // GLES 1: only the surface, only alignment
  const capture::ScopedPackState pack(g_next_functions, version, read_framebuffer);
  bool readable = version == 1 || ReadableAsRgba8(pack.gles3());
  // The surface as the driver keeps it: a copy, not a conversion per pixel.
  const bool bgra =
      readable && may_bgra && version >= 2 && read_framebuffer == 0 && capture::ReadsAsBgra(g_next_functions);
  uint8_t* pixels = readable ? place(bgra) : nullptr;
  readable = pixels != nullptr;
  if (readable) {
    readable = capture::ReadPixelsResolved(g_next_functions, pack.gles3(), read_framebuffer, x, y, width, height,
                                           bgra ? GL_BGRA_EXT : GL_RGBA, pixels);
  }
  return readable;
}

namespace {

void ReadAndRecord(GLint read_framebuffer, GLint x, GLint y, GLsizei width, GLsizei height, bool final_frame) {
  if (!stream::PlausibleFramebufferSize(width, height)) return;
  // Read straight into the record: a frame is copied once on the app's thread, by the driver.
  EmitFramebuffer(static_cast<uint32_t>(read_framebuffer), x, y, static_cast<uint32_t>(width),
                  static_cast<uint32_t>(height), final_frame, [&](const PixelPlace& place) {
                    return ReadFramebufferPixelsInto(read_framebuffer, x, y, width, height, true, place);
                  });
}

}  // namespace

bool ConfigureCapture(const char* setting) {
  const std::string value = setting ? setting : "final";
  const bool known = IsCaptureSetting(value);
  if (!known) STRATA_ERROR("capture '%s': use %s; only the final frame is captured", setting, kCaptureSettings);
  g_at_swap = known && value.find("swap") != std::string::npos;
  g_per_call.capture_after_draws = known && value.find("draw") != std::string::npos;
  g_final = !known || value != "none";
  return known;
}

bool CaptureAtSwap() { return g_at_swap; }
bool CaptureFinalFrame() { return g_final; }

bool CurrentSurfaceSize(int* width, int* height) {
  EGLDisplay dpy = Next<PFNEGLGETCURRENTDISPLAYPROC>(api::eglGetCurrentDisplay)();
  EGLSurface surface = Next<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface)(EGL_DRAW);
  if (dpy == EGL_NO_DISPLAY || surface == EGL_NO_SURFACE) return false;
  *width = *height = 0;
  // A window's size as the driver draws it, not as the window is now.
  if (RecordedSurfaceSize(surface, width, height)) return *width > 0 && *height > 0;
  Next<PFNEGLQUERYSURFACEPROC>(api::eglQuerySurface)(dpy, surface, EGL_WIDTH, width);
  Next<PFNEGLQUERYSURFACEPROC>(api::eglQuerySurface)(dpy, surface, EGL_HEIGHT, height);
  return *width > 0 && *height > 0;
}

void CaptureSurface(bool final_frame) {
  int width = 0, height = 0;
  if (CurrentSurfaceSize(&width, &height)) ReadAndRecord(0, 0, 0, width, height, final_frame);
}

void CaptureDrawFramebuffer(bool final_frame) {
  GLint viewport[4] = {};
  Next<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)(GL_VIEWPORT, viewport);
  ReadAndRecord(static_cast<GLint>(BoundDrawFramebuffer()), viewport[0], viewport[1], viewport[2], viewport[3],
                final_frame);
}

GLuint BoundDrawFramebuffer() {
  return CurrentContextVersion() >= 2 ? static_cast<GLuint>(QueryInteger(GL_FRAMEBUFFER_BINDING)) : 0;
}

}  // namespace strata::trace
