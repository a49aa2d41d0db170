#pragma once
// A CaptureState that asks an EGL/GLES driver: the tracer's (the layer below
// it, so its questions are never traced) and the executor's (the host
// driver). Its queries are chosen so that they cannot raise a GL error the
// application did not cause (no pname the context lacks).

#include "stream/capture_sizes.h"
#include "strata/api/functions.h"

namespace strata::capture {

class DriverCaptureState final : public CaptureState {
 public:
  // `functions`: the driver's function per registry slot (null where it has
  // none): the layer below the tracer's table, the host driver's.
  explicit DriverCaptureState(void* const* functions) : functions_(functions) {}

  GLint Integer(GLenum pname, GLint fallback) override;
  PixelStoreCaps PixelStore() override;
  size_t UniformComponents(GLuint program, GLint location) override;
  size_t UniformBlockActiveUniforms(GLuint program, GLuint block) override;
  GLint PathParameter(GLuint path, GLenum pname) override;
  GLenum PerfMonitorCounterType(GLuint group, GLuint counter) override;

 private:
  template <typename Fn>
  Fn Get(api::Slot slot) const {
    return reinterpret_cast<Fn>(functions_[slot]);
  }
  void* const* functions_;
};

}  // namespace strata::capture
