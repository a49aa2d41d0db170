// Reading back what a replayed stream drew, the way the tracer captured it
// (src/layers/trace/framebuffer_capture.cpp): RGBA8 with default pack state,
// every binding and pack setting restored afterwards (stream/pack_state.h).
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>

#include <GLES2/gl2ext.h>

#include "host/executor.h"
#include "stream/capture_sizes.h"
#include "stream/framebuffer_record.h"
#include "stream/multisample_resolve.h"
#include "stream/pack_state.h"

namespace strata::host {
namespace {

Executor::PixelPlace IntoImage(RgbaImage* image) {
  return [image](int width, int height, bool bgra) {
    image->width = width;
    image->height = height;
    image->bgra = bgra;
    // No clearing: glReadPixels writes every byte (a reused image keeps its storage).
    image->pixels.resize(static_cast<size_t>(width) * height * 4);
    return image->pixels.data();
  };
}

}  // namespace

bool Executor::ReadFramebuffer(uint32_t thread_id, uint64_t framebuffer, int x, int y, int width, int height,
                               RgbaImage* image, std::string* error, ReadOrder order) {
  return ReadFramebufferInto(thread_id, framebuffer, x, y, width, height, IntoImage(image), error, order);
}

bool Executor::ReadFramebufferInto(uint32_t thread_id, uint64_t framebuffer, int x, int y, int width, int height,
                                   const PixelPlace& place, std::string* error, ReadOrder order) {
  Thread& thread = ThreadOf(thread_id);
  Context* context = Current(thread);
  if (context == nullptr) {
    *error = "no context is current on the thread";
    return false;
  }
  if (!stream::PlausibleFramebufferSize(width, height)) {
    *error = "implausible size " + std::to_string(width) + "x" + std::to_string(height);
    return false;
  }
  auto get_integer = driver_.Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv);
  auto query = [&](GLenum name) {
    GLint value = 0;
    get_integer(name, &value);
    return value;
  };
  if (order == ReadOrder::kBgraWhereNative && context->reads_bgra < 0) {
    auto extensions = driver_.Get<PFNGLGETSTRINGPROC>(api::glGetString)(GL_EXTENSIONS);
    context->reads_bgra =
        capture::HasExtension(reinterpret_cast<const char*>(extensions), "GL_EXT_read_format_bgra") ? 1 : 0;
  }
  const bool gles3 = context->version >= 3, gles2 = context->version == 2;
  const GLint host_framebuffer = static_cast<GLint>(ToHost(thread, api::ObjectClass::kFramebuffer, framebuffer, 0));
  bool bgra = order == ReadOrder::kBgraWhereNative && context->reads_bgra == 1;
  // The surface, bound for reading now (as at most swaps): in the order the
  // driver keeps it, a copy; the other order would convert every pixel here,
  // on the renderer's busiest thread, where the client's copy can swizzle.
  if (bgra && host_framebuffer == 0 && (gles2 || gles3) &&
      query(gles3 ? GL_READ_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING) == 0) {
    bgra = capture::ReadsAsBgra(driver_.functions());
  }
  // Placed before any state changes: a caller with no room leaves the context untouched.
  uint8_t* pixels = place(width, height, bgra);
  if (pixels == nullptr) return false;
  bool read = false;
  {
    const capture::ScopedPackState pack(driver_.functions(), context->version, host_framebuffer);
    read = capture::ReadPixelsResolved(driver_.functions(), pack.gles3(), host_framebuffer, x, y, width, height,
                                       bgra ? GL_BGRA_EXT : GL_RGBA, pixels);
  }
  if (!read) {
    *error = "framebuffer " + std::to_string(framebuffer) +
             " is multisampled and cannot be resolved for reading (its read buffer is a layer of a texture array, "
             "or the area starts off its edge)";
    return false;
  }
  return true;
}

bool Executor::ReadSurface(uint32_t thread_id, RgbaImage* image, std::string* error, ReadOrder order) {
  return ReadSurfaceInto(thread_id, IntoImage(image), error, order);
}

bool Executor::ReadSurfaceInto(uint32_t thread_id, const PixelPlace& place, std::string* error, ReadOrder order) {
  auto get_current_surface = driver_.Get<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface);
  EGLSurface surface = get_current_surface(EGL_DRAW);
  if (surface == EGL_NO_SURFACE) {
    *error = "no surface is current on the thread";
    return false;
  }
  EGLint width = 0, height = 0;
  auto query_surface = driver_.Get<PFNEGLQUERYSURFACEPROC>(api::eglQuerySurface);
  query_surface(HostDisplay(), surface, EGL_WIDTH, &width);
  query_surface(HostDisplay(), surface, EGL_HEIGHT, &height);
  return ReadFramebufferInto(thread_id, 0, 0, 0, width, height, place, error, order);
}

}  // namespace strata::host
