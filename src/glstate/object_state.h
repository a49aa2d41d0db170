#pragma once
// What some objects hold, read from a live driver into plain data, for
// `strata state` (inspect/gl_state.cpp) and snapshots
// (snapshot/context_snapshot.cpp) alike: a framebuffer's attachments and a
// sampler object's parameters. Object names are the driver's.

#include <GLES3/gl32.h>

#include <vector>

#include "glstate/context_state.h"

namespace strata::glstate {

// What is attached at one attachment point of a framebuffer.
struct Attachment {
  GLenum point = 0;
  GLenum type = GL_NONE;  // GL_TEXTURE or GL_RENDERBUFFER
  GLuint object = 0;
  GLint level = 0, face = 0, layer = 0;  // a texture's (layer: GLES 3+)
};

// The attachments of the framebuffer bound at `target`: its color
// attachments (as many as a GLES 3+ context has, else one), then depth and
// stencil; points with nothing attached left out. `version` as ContextState's.
std::vector<Attachment> ReadAttachments(const FunctionLookup& functions, GLenum target, int version);

// One sampling parameter's value (api::kSamplingParameters).
struct SamplingValue {
  const api::SamplingParameter* parameter = nullptr;
  GLint integer = 0;  // filters, wraps and comparisons: enums all
  GLfloat real = 0;   // where the parameter is_float
};

// A sampler object's parameters, each of api::kSamplingParameters.
std::vector<SamplingValue> ReadSamplerParameters(const FunctionLookup& functions, GLuint sampler);

}  // namespace strata::glstate
