#include "glstate/object_state.h"

#include <algorithm>

#include "common/gl_queries.h"
#include "strata/api/functions.h"

namespace strata::glstate {

std::vector<Attachment> ReadAttachments(const FunctionLookup& functions, GLenum target, int version) {
  auto get_integer = reinterpret_cast<PFNGLGETINTEGERVPROC>(functions(api::glGetIntegerv));
  auto parameter = reinterpret_cast<PFNGLGETFRAMEBUFFERATTACHMENTPARAMETERIVPROC>(
      functions(api::glGetFramebufferAttachmentParameteriv));
  const GLint colors = version >= 30 ? std::min(IntegerOf(get_integer, GL_MAX_COLOR_ATTACHMENTS), 16) : 1;
  std::vector<GLenum> points;
  for (GLint i = 0; i < colors; ++i) points.push_back(GL_COLOR_ATTACHMENT0 + static_cast<GLenum>(i));
  points.push_back(GL_DEPTH_ATTACHMENT);
  points.push_back(GL_STENCIL_ATTACHMENT);
  std::vector<Attachment> attachments;
  for (GLenum point : points) {
    Attachment read;
    read.point = point;
    GLint type = GL_NONE, object = 0;
    parameter(target, point, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type == GL_NONE) continue;
    read.type = static_cast<GLenum>(type);
    parameter(target, point, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &object);
    read.object = static_cast<GLuint>(object);
    if (read.type == GL_TEXTURE) {
      parameter(target, point, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &read.level);
      parameter(target, point, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE, &read.face);
      if (version >= 30) parameter(target, point, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER, &read.layer);
    }
    attachments.push_back(read);
  }
  return attachments;
}

std::vector<SamplingValue> ReadSamplerParameters(const FunctionLookup& functions, GLuint sampler) {
  auto get_i = reinterpret_cast<PFNGLGETSAMPLERPARAMETERIVPROC>(functions(api::glGetSamplerParameteriv));
  auto get_f = reinterpret_cast<PFNGLGETSAMPLERPARAMETERFVPROC>(functions(api::glGetSamplerParameterfv));
  std::vector<SamplingValue> values;
  for (const api::SamplingParameter& parameter : api::kSamplingParameters) {
    SamplingValue value{&parameter, 0, 0};
    if (parameter.is_float) {
      get_f(sampler, parameter.pname, &value.real);
    } else {
      get_i(sampler, parameter.pname, &value.integer);
    }
    values.push_back(value);
  }
  return values;
}

}  // namespace strata::glstate
