#pragma once
// What a read of pixels into memory depends on besides its arguments, put to
// the defaults for the read and back as the app left it when the scope ends:
// the one save and restore of pack state for the tracer's framebuffer
// capture (layers/trace/framebuffer_capture.cpp) and the replayer's readback
// (host/framebuffer_readback.cpp), over the driver's function table.

#include <GLES3/gl32.h>

#include "stream/driver_table.h"

namespace strata::capture {

// Pack alignment 4; from GLES 3, no pixel pack buffer, row length and skips
// 0 and `read_framebuffer` bound for reading; in GLES 2, `read_framebuffer`
// bound (drawing and reading share its one binding); GLES 1.1 has the
// alignment alone. Only what differs is set, and set back.
class ScopedPackState {
 public:
  // `functions`: the driver's function per dispatch slot; `version`: the
  // context's GLES major version.
  ScopedPackState(void* const* functions, int version, GLint read_framebuffer)
      : gl_(functions), gles3_(version >= 3), gles2_(version == 2), framebuffer_(read_framebuffer) {
    alignment_ = Query(GL_PACK_ALIGNMENT);
    if (gles3_) {
      row_length_ = Query(GL_PACK_ROW_LENGTH);
      skip_rows_ = Query(GL_PACK_SKIP_ROWS);
      skip_pixels_ = Query(GL_PACK_SKIP_PIXELS);
      pack_buffer_ = Query(GL_PIXEL_PACK_BUFFER_BINDING);
      old_framebuffer_ = Query(GL_READ_FRAMEBUFFER_BINDING);
      if (pack_buffer_) BindBuffer(0);
      if (row_length_) PixelStore(GL_PACK_ROW_LENGTH, 0);
      if (skip_rows_) PixelStore(GL_PACK_SKIP_ROWS, 0);
      if (skip_pixels_) PixelStore(GL_PACK_SKIP_PIXELS, 0);
      if (old_framebuffer_ != framebuffer_) BindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_);
    } else if (gles2_) {
      old_framebuffer_ = Query(GL_FRAMEBUFFER_BINDING);
      if (old_framebuffer_ != framebuffer_) BindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    }
    if (alignment_ != 4) PixelStore(GL_PACK_ALIGNMENT, 4);
  }

  ~ScopedPackState() {
    if (alignment_ != 4) PixelStore(GL_PACK_ALIGNMENT, alignment_);
    if (gles2_ && old_framebuffer_ != framebuffer_) BindFramebuffer(GL_FRAMEBUFFER, old_framebuffer_);
    if (!gles3_) return;
    if (old_framebuffer_ != framebuffer_) BindFramebuffer(GL_READ_FRAMEBUFFER, old_framebuffer_);
    if (skip_pixels_) PixelStore(GL_PACK_SKIP_PIXELS, skip_pixels_);
    if (skip_rows_) PixelStore(GL_PACK_SKIP_ROWS, skip_rows_);
    if (row_length_) PixelStore(GL_PACK_ROW_LENGTH, row_length_);
    if (pack_buffer_) BindBuffer(pack_buffer_);
  }

  ScopedPackState(const ScopedPackState&) = delete;
  ScopedPackState& operator=(const ScopedPackState&) = delete;

  bool gles3() const { return gles3_; }

 private:
  GLint Query(GLenum name) const { return gl_.Integer(name); }
  void PixelStore(GLenum pname, GLint value) const { gl_.Get<PFNGLPIXELSTOREIPROC>(api::glPixelStorei)(pname, value); }
  void BindBuffer(GLint buffer) const {
    gl_.Get<PFNGLBINDBUFFERPROC>(api::glBindBuffer)(GL_PIXEL_PACK_BUFFER, static_cast<GLuint>(buffer));
  }
  void BindFramebuffer(GLenum target, GLint framebuffer) const {
    gl_.Get<PFNGLBINDFRAMEBUFFERPROC>(api::glBindFramebuffer)(target, static_cast<GLuint>(framebuffer));
  }

  DriverTable gl_;
  bool gles3_, gles2_;
  GLint framebuffer_;
  GLint alignment_ = 4, row_length_ = 0, skip_rows_ = 0, skip_pixels_ = 0, pack_buffer_ = 0, old_framebuffer_ = 0;
};

}  // namespace strata::capture
