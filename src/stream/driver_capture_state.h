#pragma once
// A CaptureState that asks an EGL/GLES driver: the tracer's (the layer below
// it, so its questions are never traced) and the executor's (the host
// driver). Its queries are chosen so that they cannot raise a GL error the
// application did not cause (no pname the context lacks).

#include <functional>
#include <utility>

#include "stream/capture_sizes.h"
#include "strata/api/functions.h"

namespace strata::capture {

class DriverCaptureState final : public CaptureState {
 public:
  // `function(slot)`: the driver's function for a registry slot, or null
  // (a plain function for the tracer; the executor's asks its HostDriver).
  using FunctionOf = std::function<void*(int slot)>;
  explicit DriverCaptureState(FunctionOf function) : function_(std::move(function)) {}

  GLint Integer(GLenum pname, GLint fallback) override;
  PixelStoreCaps PixelStore() override;
  size_t UniformComponents(GLuint program, GLint location) override;
  size_t UniformBlockActiveUniforms(GLuint program, GLuint block) override;

 private:
  template <typename Fn>
  Fn Get(api::Slot slot) const {
    return reinterpret_cast<Fn>(function_(slot));
  }
  FunctionOf function_;
};

}  // namespace strata::capture
