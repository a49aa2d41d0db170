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

std::vector<StateValue> ReadTextureParameters(const FunctionLookup& functions, GLenum target, int version) {
  auto get_i = reinterpret_cast<PFNGLGETTEXPARAMETERIVPROC>(functions(api::glGetTexParameteriv));
  auto get_f = reinterpret_cast<PFNGLGETTEXPARAMETERFVPROC>(functions(api::glGetTexParameterfv));
  auto get_error = reinterpret_cast<PFNGLGETERRORPROC>(functions(api::glGetError));
  std::vector<StateValue> values;
  for (const api::Parameter& p : api::kParameters) {
    if (!(p.flags & api::kState) || !(p.getters & api::kGetTexture) || p.since == 0 || p.since > version) continue;
    StateValue value{&p, {}, {}};
    const size_t count = p.count != 0 ? p.count : 1;
    DrainGlErrors(get_error);
    if (p.type == api::ValueType::kFloat) {
      value.floats.assign(count + 4, 0);
      get_f(target, p.pname, value.floats.data());
      value.floats.resize(count);
    } else {
      value.ints.assign(count + 4, 0);
      get_i(target, p.pname, value.ints.data());
      value.ints.resize(count);
    }
    if (get_error() == GL_NO_ERROR) values.push_back(std::move(value));
  }
  return values;
}

std::vector<TextureLevel> ReadTextureLevels(const FunctionLookup& functions, GLenum target, GLint max_levels) {
  auto parameter = reinterpret_cast<PFNGLGETTEXLEVELPARAMETERIVPROC>(functions(api::glGetTexLevelParameteriv));
  std::vector<TextureLevel> levels;
  if (parameter == nullptr) return levels;
  const GLenum face = target == GL_TEXTURE_CUBE_MAP ? GL_TEXTURE_CUBE_MAP_POSITIVE_X : target;
  const bool multisampled = target == GL_TEXTURE_2D_MULTISAMPLE || target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
  for (GLint level = 0; level < max_levels; ++level) {
    auto get = [&](GLenum pname) {
      GLint value = 0;
      parameter(face, level, pname, &value);
      return value;
    };
    TextureLevel read;
    read.level = level;
    read.width = get(GL_TEXTURE_WIDTH);
    read.height = get(GL_TEXTURE_HEIGHT);
    if (read.width == 0 || read.height == 0) break;
    read.depth = get(GL_TEXTURE_DEPTH);
    read.internal_format = static_cast<GLenum>(get(GL_TEXTURE_INTERNAL_FORMAT));
    read.compressed = get(GL_TEXTURE_COMPRESSED) != 0;
    if (multisampled) {
      read.samples = get(GL_TEXTURE_SAMPLES);
      read.fixed_sample_locations = get(GL_TEXTURE_FIXED_SAMPLE_LOCATIONS) != 0;
    }
    levels.push_back(read);
  }
  return levels;
}

ImageRead ReadTextureImage(const FunctionLookup& functions, GLenum target, GLuint texture, GLint level,
                           GLenum image_target, GLint layer, GLint width, GLint height, GLenum type, void* rgba) {
  auto texture_layer = reinterpret_cast<PFNGLFRAMEBUFFERTEXTURELAYERPROC>(functions(api::glFramebufferTextureLayer));
  auto texture_2d = reinterpret_cast<PFNGLFRAMEBUFFERTEXTURE2DPROC>(functions(api::glFramebufferTexture2D));
  auto status = reinterpret_cast<PFNGLCHECKFRAMEBUFFERSTATUSPROC>(functions(api::glCheckFramebufferStatus));
  auto read_pixels = reinterpret_cast<PFNGLREADPIXELSPROC>(functions(api::glReadPixels));
  auto get_error = reinterpret_cast<PFNGLGETERRORPROC>(functions(api::glGetError));
  if (api::IsLayeredTarget(target)) {
    texture_layer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, texture, level, layer);
  } else {
    texture_2d(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, image_target, texture, level);
  }
  ImageRead result;
  result.status = status(GL_READ_FRAMEBUFFER);
  if (result.status != GL_FRAMEBUFFER_COMPLETE) return result;
  DrainGlErrors(get_error);
  read_pixels(0, 0, width, height, GL_RGBA, type, rgba);
  result.error = get_error();
  result.read = result.error == GL_NO_ERROR;
  return result;
}

BufferInfo ReadBufferInfo(const FunctionLookup& functions, GLenum target, int version) {
  auto parameter = reinterpret_cast<PFNGLGETBUFFERPARAMETERIVPROC>(functions(api::glGetBufferParameteriv));
  BufferInfo info;
  parameter(target, GL_BUFFER_SIZE, &info.size);
  parameter(target, GL_BUFFER_USAGE, &info.usage);
  if (version >= 30) {
    GLint mapped = 0;
    parameter(target, GL_BUFFER_MAPPED, &mapped);
    info.mapped = mapped != 0;
  }
  return info;
}

bool ReadBufferBytes(const FunctionLookup& functions, GLenum target, int version, GLint size,
                     const std::function<void(const void* bytes)>& read) {
  auto map = reinterpret_cast<PFNGLMAPBUFFERRANGEPROC>(functions(api::glMapBufferRange));
  auto unmap = reinterpret_cast<PFNGLUNMAPBUFFERPROC>(functions(api::glUnmapBuffer));
  if (version < 30 || map == nullptr || size <= 0) return false;
  const void* bytes = map(target, 0, size, GL_MAP_READ_BIT);
  if (bytes == nullptr) return false;
  read(bytes);
  unmap(target);
  return true;
}

}  // namespace strata::glstate
