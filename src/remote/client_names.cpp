#include "remote/client_names.h"

#include <limits>

namespace strata::remote {

bool NameSpace::Make(GLsizei n, GLuint* names) {
  if (n < 0) return false;
  GLuint first = highest_.load(std::memory_order_relaxed);
  do {
    if (static_cast<uint64_t>(n) > std::numeric_limits<GLuint>::max() - uint64_t{first}) return false;
  } while (!highest_.compare_exchange_weak(first, first + static_cast<GLuint>(n), std::memory_order_relaxed));
  for (GLsizei i = 0; i < n; ++i) names[i] = first + 1 + static_cast<GLuint>(i);
  return true;
}

NameSpace* ClientNames::For(api::ObjectClass object) {
  using api::ObjectClass;
  switch (object) {
    case ObjectClass::kBuffer: return &shared_->buffers;
    case ObjectClass::kTexture: return &shared_->textures;
    case ObjectClass::kRenderbuffer: return &shared_->renderbuffers;
    case ObjectClass::kSampler: return &shared_->samplers;
    case ObjectClass::kProgram:
    case ObjectClass::kShader: return &shared_->programs_and_shaders;
    case ObjectClass::kFramebuffer: return &framebuffers_;
    case ObjectClass::kVertexArray: return &vertex_arrays_;
    case ObjectClass::kQuery: return &queries_;
    case ObjectClass::kTransformFeedback: return &transform_feedbacks_;
    case ObjectClass::kProgramPipeline: return &pipelines_;
    default: return nullptr;
  }
}

}  // namespace strata::remote
