#pragma once
// Reading a multisampled framebuffer the way the tracer captures it and the
// replayer reads it back (layers/trace/framebuffer_capture.cpp,
// host/framebuffer_readback.cpp): one place for what GLES asks of a resolve,
// and for the order a surface is read in.

#include <GLES3/gl32.h>
// After gl32.h, which it extends.
#include <GLES2/gl2ext.h>

#include <cstdint>

#include "stream/driver_table.h"

namespace strata::capture {

// A multisampled framebuffer object cannot be read (glReadPixels raises
// GL_INVALID_OPERATION): its read buffer is resolved by a blit into a
// single-sampled renderbuffer of the same format, in a framebuffer of its
// own, deleted after the read. GLES 3 only (GLES 2 has no
// multisampled framebuffer objects); the app's bindings and scissor test are
// put back, and the framebuffer to read stays bound for reading.
class MultisampleResolve {
 public:
  enum Outcome { kNotMultisampled, kResolved, kCannotResolve };

  // `functions`: the driver's function per dispatch slot.
  explicit MultisampleResolve(void* const* functions) : gl_(functions) {}
  MultisampleResolve(const MultisampleResolve&) = delete;
  MultisampleResolve& operator=(const MultisampleResolve&) = delete;

  // With `read_framebuffer` bound for reading.
  Outcome Resolve(GLint read_framebuffer, GLint x, GLint y, GLsizei width, GLsizei height) {
    auto bind_framebuffer = Get<PFNGLBINDFRAMEBUFFERPROC>(api::glBindFramebuffer);
    auto bind_renderbuffer = Get<PFNGLBINDRENDERBUFFERPROC>(api::glBindRenderbuffer);
    read_binding_ = read_framebuffer;
    draw_binding_ = Query(GL_DRAW_FRAMEBUFFER_BINDING);
    renderbuffer_binding_ = Query(GL_RENDERBUFFER_BINDING);
    // GL_SAMPLES answers for the draw framebuffer.
    if (draw_binding_ != read_framebuffer) bind_framebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(read_framebuffer));
    bound_ = true;
    if (Query(GL_SAMPLES) == 0) return kNotMultisampled;
    auto attachment_parameter =
        Get<PFNGLGETFRAMEBUFFERATTACHMENTPARAMETERIVPROC>(api::glGetFramebufferAttachmentParameteriv);
    const GLenum read_buffer = static_cast<GLenum>(Query(GL_READ_BUFFER));
    GLint type = GL_NONE, name = 0, format = GL_NONE;
    attachment_parameter(GL_READ_FRAMEBUFFER, read_buffer, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    attachment_parameter(GL_READ_FRAMEBUFFER, read_buffer, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
    if (x < 0 || y < 0) return kCannotResolve;
    if (type == GL_RENDERBUFFER) {
      bind_renderbuffer(GL_RENDERBUFFER, static_cast<GLuint>(name));
      Get<PFNGLGETRENDERBUFFERPARAMETERIVPROC>(api::glGetRenderbufferParameteriv)(
          GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, &format);
    } else if (type == GL_TEXTURE) {
      // GLES 3.1's multisampled textures: the format is a level parameter of the bound texture.
      auto level_parameter = Get<PFNGLGETTEXLEVELPARAMETERIVPROC>(api::glGetTexLevelParameteriv);
      if (level_parameter == nullptr) return kCannotResolve;
      texture_binding_ = Query(GL_TEXTURE_BINDING_2D_MULTISAMPLE);
      rebind_texture_ = true;
      Get<PFNGLBINDTEXTUREPROC>(api::glBindTexture)(GL_TEXTURE_2D_MULTISAMPLE, static_cast<GLuint>(name));
      // Not a 2D multisampled texture (an array layer): the bind failed, and the error is the caller's to clear.
      if (Query(GL_TEXTURE_BINDING_2D_MULTISAMPLE) != name) return kCannotResolve;
      level_parameter(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
    }
    if (format == GL_NONE) return kCannotResolve;
    // A resolve blit keeps its rectangle: the copy is as large as the rectangle's far corner.
    Get<PFNGLGENRENDERBUFFERSPROC>(api::glGenRenderbuffers)(1, &renderbuffer_);
    bind_renderbuffer(GL_RENDERBUFFER, renderbuffer_);
    Get<PFNGLRENDERBUFFERSTORAGEPROC>(api::glRenderbufferStorage)(GL_RENDERBUFFER, static_cast<GLenum>(format),
                                                                   x + width, y + height);
    Get<PFNGLGENFRAMEBUFFERSPROC>(api::glGenFramebuffers)(1, &framebuffer_);
    bind_framebuffer(GL_DRAW_FRAMEBUFFER, framebuffer_);
    Get<PFNGLFRAMEBUFFERRENDERBUFFERPROC>(api::glFramebufferRenderbuffer)(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
                                                                           GL_RENDERBUFFER, renderbuffer_);
    if (Get<PFNGLCHECKFRAMEBUFFERSTATUSPROC>(api::glCheckFramebufferStatus)(GL_DRAW_FRAMEBUFFER) !=
        GL_FRAMEBUFFER_COMPLETE) {
      return kCannotResolve;
    }
    // The scissor test is the one fragment operation a blit obeys.
    scissor_ = Get<PFNGLISENABLEDPROC>(api::glIsEnabled)(GL_SCISSOR_TEST);
    if (scissor_) Get<PFNGLDISABLEPROC>(api::glDisable)(GL_SCISSOR_TEST);
    Get<PFNGLBLITFRAMEBUFFERPROC>(api::glBlitFramebuffer)(x, y, x + width, y + height, x, y, x + width, y + height,
                                                           GL_COLOR_BUFFER_BIT, GL_NEAREST);
    bind_framebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
    return kResolved;
  }

  // Puts back what Resolve changed: the bindings before the tracer's
  // objects are deleted (deleting a bound framebuffer unbinds it).
  ~MultisampleResolve() {
    if (!bound_) return;
    if (scissor_) Get<PFNGLENABLEPROC>(api::glEnable)(GL_SCISSOR_TEST);
    if (rebind_texture_) {
      Get<PFNGLBINDTEXTUREPROC>(api::glBindTexture)(GL_TEXTURE_2D_MULTISAMPLE, static_cast<GLuint>(texture_binding_));
    }
    auto bind_framebuffer = Get<PFNGLBINDFRAMEBUFFERPROC>(api::glBindFramebuffer);
    if (framebuffer_) bind_framebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_binding_));
    bind_framebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_binding_));
    Get<PFNGLBINDRENDERBUFFERPROC>(api::glBindRenderbuffer)(GL_RENDERBUFFER,
                                                             static_cast<GLuint>(renderbuffer_binding_));
    if (framebuffer_) Get<PFNGLDELETEFRAMEBUFFERSPROC>(api::glDeleteFramebuffers)(1, &framebuffer_);
    if (renderbuffer_) Get<PFNGLDELETERENDERBUFFERSPROC>(api::glDeleteRenderbuffers)(1, &renderbuffer_);
  }

 private:
  template <typename Pfn>
  Pfn Get(api::Slot slot) const {
    return gl_.Get<Pfn>(slot);
  }
  GLint Query(GLenum name) const { return gl_.Integer(name); }

  DriverTable gl_;
  bool bound_ = false;
  GLboolean scissor_ = GL_FALSE;
  bool rebind_texture_ = false;
  GLint read_binding_ = 0, draw_binding_ = 0, renderbuffer_binding_ = 0, texture_binding_ = 0;
  GLuint framebuffer_ = 0, renderbuffer_ = 0;
};

// Whether the driver keeps the complete framebuffer bound for reading as
// BGRA8 (GL_IMPLEMENTATION_COLOR_READ_FORMAT, EXT_read_format_bgra): read in
// that order it is a copy, in RGBA8 a conversion of every pixel.
inline bool ReadsAsBgra(void* const* functions) {
  auto get_integer = reinterpret_cast<PFNGLGETINTEGERVPROC>(functions[api::glGetIntegerv]);
  GLint format = 0, type = 0;
  get_integer(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &format);
  get_integer(GL_IMPLEMENTATION_COLOR_READ_TYPE, &type);
  return format == GL_BGRA_EXT && type == GL_UNSIGNED_BYTE;
}

// glReadPixels of `framebuffer` (bound for reading; 0: the surface), resolved
// first where it is a multisampled object of a GLES 3 context. False, with
// nothing read, where it cannot be resolved.
inline bool ReadPixelsResolved(void* const* functions, bool gles3, GLint framebuffer, GLint x, GLint y,
                               GLsizei width, GLsizei height, GLenum format, uint8_t* pixels) {
  MultisampleResolve resolve(functions);
  if (gles3 && framebuffer != 0 &&
      resolve.Resolve(framebuffer, x, y, width, height) == MultisampleResolve::kCannotResolve) {
    return false;
  }
  reinterpret_cast<PFNGLREADPIXELSPROC>(functions[api::glReadPixels])(x, y, width, height, format, GL_UNSIGNED_BYTE,
                                                                     pixels);
  return true;
}

}  // namespace strata::capture
