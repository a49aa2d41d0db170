// Queries the client answers without a round trip (docs/remote.md, "Answers
// on the client"): limits and strings, which do not change within a context,
// asked of the renderer once per context; state the context's query cache
// holds (query_cache.h: bindings, viewport, blend, capabilities ...); and glGetError when nothing has
// gone to the renderer since a glGetError that said GL_NO_ERROR but calls
// whose errors the client decides (their errors= traits, api/error_checks.py)
// and found none (a call held back on the client is valid, or it is sent).
#include <initializer_list>
#include <utility>

#include "remote/generated_support.h"

namespace strata::remote {
namespace {

// Single values fixed for a context's life, by the GLES version that has
// them (3.1's and extensions' go to the renderer: a context's minor version
// is the driver's choice, and a pname the context lacks leaves no value).
bool IsContextConstant(GLenum pname, int version) {
  switch (pname) {
    case GL_MAX_TEXTURE_SIZE:
    case GL_SUBPIXEL_BITS:
    case GL_NUM_COMPRESSED_TEXTURE_FORMATS:
      return true;
    case GL_MAX_CUBE_MAP_TEXTURE_SIZE:
    case GL_MAX_RENDERBUFFER_SIZE:
    case GL_MAX_TEXTURE_IMAGE_UNITS:
    case GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS:
    case GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS:
    case GL_MAX_VERTEX_ATTRIBS:
    case GL_MAX_VERTEX_UNIFORM_VECTORS:
    case GL_MAX_FRAGMENT_UNIFORM_VECTORS:
    case GL_MAX_VARYING_VECTORS:
    case GL_NUM_SHADER_BINARY_FORMATS:
    case GL_SHADER_COMPILER:
      return version >= 2;
    case GL_MAX_3D_TEXTURE_SIZE:
    case GL_MAX_ARRAY_TEXTURE_LAYERS:
    case GL_MAX_VARYING_COMPONENTS:
    case GL_MAX_VERTEX_UNIFORM_COMPONENTS:
    case GL_MAX_FRAGMENT_UNIFORM_COMPONENTS:
    case GL_MAX_VERTEX_OUTPUT_COMPONENTS:
    case GL_MAX_FRAGMENT_INPUT_COMPONENTS:
    case GL_MAX_VERTEX_UNIFORM_BLOCKS:
    case GL_MAX_FRAGMENT_UNIFORM_BLOCKS:
    case GL_MAX_COMBINED_UNIFORM_BLOCKS:
    case GL_MAX_UNIFORM_BUFFER_BINDINGS:
    case GL_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS:
    case GL_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS:
    case GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT:
    case GL_MAX_COLOR_ATTACHMENTS:
    case GL_MAX_DRAW_BUFFERS:
    case GL_MAX_SAMPLES:
    case GL_MAX_ELEMENTS_INDICES:
    case GL_MAX_ELEMENTS_VERTICES:
    case GL_MAX_PROGRAM_TEXEL_OFFSET:
    case GL_MIN_PROGRAM_TEXEL_OFFSET:
    case GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS:
    case GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS:
    case GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS:
    case GL_NUM_EXTENSIONS:
    case GL_MAJOR_VERSION:
    case GL_MINOR_VERSION:
    case GL_NUM_PROGRAM_BINARY_FORMATS:
      return version >= 3;
    default:
      return false;
  }
}

// Answers are the current context's: none without one, or with the shadow off.
bool Answering(const Connection& c) { return c.context_id() != 0 && ClientShadowWanted(); }

// What the client knows of `pname` as integers, for any glGet*v: a limit,
// cached state, or a capability (0 or 1). The count of values (up to 4), 0
// when it does not know them.
int KnownIntegers(Connection& c, GLenum pname, GLint* values) {
  ContextShadow& shadow = c.shadow();
  if (IsContextConstant(pname, shadow.client_version())) return shadow.Known(pname, values) ? 1 : 0;
  if (GLboolean on = GL_FALSE; shadow.queries().Enabled(pname, &on)) {
    values[0] = on;
    return 1;
  }
  return shadow.queries().Integer(pname, values);
}

// A query of integer state answered as another type, converted as GLES
// converts it (3.0, 6.1.2): nonzero is GL_TRUE; an integer is its float.
template <typename Value, typename Convert>
bool AnswerConverted(Connection& c, GLenum pname, Value* data, Convert convert) {
  if (!Answering(c) || data == nullptr) return false;
  GLint values[4];
  const int count = KnownIntegers(c, pname, values);
  if (count == 0) return false;
  for (int i = 0; i < count; ++i) data[i] = convert(values[i]);
  c.Answered();
  return true;
}

// A capability's state, from any glGet*v's answer of it.
template <typename Value>
void LearnCapability(Connection& c, GLenum pname, const Value* data) {
  if (Answering(c) && data != nullptr && CapabilityIndex(pname, c.shadow().client_version()) >= 0) {
    c.shadow().queries().LearnEnabled(pname, *data != 0);
  }
}

}  // namespace

uint64_t KnownLimit(Connection& c, GLenum pname, int64_t spec_minimum) {
  GLint value = 0;
  const int64_t known = c.shadow().Known(pname, &value) ? value : spec_minimum;
  return known > 0 ? static_cast<uint64_t>(known) : 0;
}

bool IsCapability(uint64_t value, int version) {
  return value <= UINT32_MAX && CapabilityIndex(static_cast<GLenum>(value), version) >= 0;
}

bool IsHintTarget(uint64_t value, int version) {
  for (const api::VersionedEnum& hint : api::kHints) {
    if (hint.value == value) return version * 10 >= hint.min_version && hint.min_version <= 30;
  }
  return false;
}

bool Answer_glGetError(Connection& c, GLenum* answer) {
  if (!Answering(c) || !c.NothingSentSinceCleanError()) return false;
  *answer = GL_NO_ERROR;
  c.Answered();
  return true;
}
void Learn_glGetError(Connection& c, GLenum result) {
  if (Answering(c) && result == GL_NO_ERROR) c.ErrorsClean();
}

bool Answer_glGetIntegerv(Connection& c, GLenum pname, GLint* data) {
  return AnswerConverted(c, pname, data, [](GLint value) { return value; });
}
void Learn_glGetIntegerv(Connection& c, GLenum pname, GLint* data) {
  if (!Answering(c) || data == nullptr) return;
  if (IsContextConstant(pname, c.shadow().client_version())) {
    c.shadow().Keep(pname, *data);
  } else {
    c.shadow().queries().LearnAnswer(pname, data);
    LearnCapability(c, pname, data);
  }
}

// Learned from only where the answer is exact: capabilities (booleans and
// floats lose the integers of other state, which glGetIntegerv learns).
bool Answer_glGetBooleanv(Connection& c, GLenum pname, GLboolean* data) {
  return AnswerConverted(c, pname, data, [](GLint value) -> GLboolean { return value != 0 ? GL_TRUE : GL_FALSE; });
}
void Learn_glGetBooleanv(Connection& c, GLenum pname, GLboolean* data) { LearnCapability(c, pname, data); }

bool Answer_glGetFloatv(Connection& c, GLenum pname, GLfloat* data) {
  return AnswerConverted(c, pname, data, [](GLint value) { return static_cast<GLfloat>(value); });
}
void Learn_glGetFloatv(Connection& c, GLenum pname, GLfloat* data) { LearnCapability(c, pname, data); }

bool Answer_glIsEnabled(Connection& c, GLenum cap, GLboolean* answer) {
  if (!Answering(c) || !c.shadow().queries().Enabled(cap, answer)) return false;
  c.Answered();
  return true;
}
void Learn_glIsEnabled(Connection& c, GLenum cap, GLboolean result) {
  if (Answering(c)) c.shadow().queries().LearnEnabled(cap, result != GL_FALSE);
}

bool Answer_glGetString(Connection& c, GLenum name, const GLubyte** answer) {
  if (!Answering(c) || !c.shadow().KnownString(name, 0, answer)) return false;
  c.Answered();
  return true;
}
void Learn_glGetString(Connection& c, GLenum name, const GLubyte* result) {
  if (Answering(c) && result != nullptr) c.shadow().KeepString(name, 0, result);
}

bool Answer_glGetStringi(Connection& c, GLenum name, GLuint index, const GLubyte** answer) {
  if (!Answering(c) || !c.shadow().KnownString(name, uint64_t{index} + 1, answer)) return false;
  c.Answered();
  return true;
}
void Learn_glGetStringi(Connection& c, GLenum name, GLuint index, const GLubyte* result) {
  if (Answering(c) && result != nullptr) c.shadow().KeepString(name, uint64_t{index} + 1, result);
}

// Setters the query cache learns from (after they went out, having made it
// forget their group): a value the client sees is valid takes effect as given.
namespace {

QueryCache* Cache() {
  Connection* c = ThreadConnectionHolding();
  return c != nullptr && Answering(*c) ? &c->shadow().queries() : nullptr;
}

void Learn(QueryCache* cache, std::initializer_list<std::pair<GLenum, GLint>> values) {
  for (const auto& [pname, value] : values) cache->LearnInteger(pname, &value);
}

}  // namespace

void After_glScissor(GLint x, GLint y, GLsizei width, GLsizei height) {
  const GLint box[4] = {x, y, width, height};
  if (QueryCache* cache = Cache(); cache != nullptr && width >= 0 && height >= 0) cache->LearnInteger(GL_SCISSOR_BOX, box);
}
void After_glDepthFunc(GLenum func) {
  if (QueryCache* cache = Cache(); cache != nullptr && InSet_compare_function(func, cache->client_version())) {
    Learn(cache, {{GL_DEPTH_FUNC, static_cast<GLint>(func)}});
  }
}
void After_glCullFace(GLenum mode) {
  if (QueryCache* cache = Cache(); cache != nullptr && InSet_face(mode, cache->client_version())) {
    Learn(cache, {{GL_CULL_FACE_MODE, static_cast<GLint>(mode)}});
  }
}
void After_glFrontFace(GLenum mode) {
  if (QueryCache* cache = Cache(); cache != nullptr && InSet_front_face(mode, cache->client_version())) {
    Learn(cache, {{GL_FRONT_FACE, static_cast<GLint>(mode)}});
  }
}
void After_glViewport(GLint x, GLint y, GLsizei width, GLsizei height) {
  if (QueryCache* cache = Cache()) cache->LearnViewport(x, y, width, height);
}
void After_glUseProgram(GLuint program) {
  if (QueryCache* cache = Cache()) cache->LearnProgram(program);
}
void After_glBindTexture(GLenum target, GLuint texture) {
  if (QueryCache* cache = Cache()) cache->LearnTexture(target, texture);
}
void After_glActiveTexture(GLenum texture) {
  // Units every conformant driver has (api/error_checks.txt); past them the
  // limit decides, which the client may not hold.
  QueryCache* cache = Cache();
  if (cache == nullptr || texture < GL_TEXTURE0) return;
  const bool known = texture - GL_TEXTURE0 <
                     SpecMinimum_GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS(cache->client_version());
  if (known) Learn(cache, {{GL_ACTIVE_TEXTURE, static_cast<GLint>(texture)}});
  // The unit whose texture bindings the held ones are (deferred_textures.h).
  ThreadConnectionHolding()->shadow().textures().active_unit = known ? static_cast<int>(texture - GL_TEXTURE0) : -1;
}
void After_glBlendEquationSeparate(GLenum rgb, GLenum alpha) {
  QueryCache* cache = Cache();
  if (cache == nullptr) return;
  const int version = cache->client_version();
  if (InSet_blend_equation(rgb, version) && InSet_blend_equation(alpha, version)) {
    Learn(cache, {{GL_BLEND_EQUATION_RGB, static_cast<GLint>(rgb)}, {GL_BLEND_EQUATION_ALPHA, static_cast<GLint>(alpha)}});
  }
}
void After_glBlendEquation(GLenum mode) { After_glBlendEquationSeparate(mode, mode); }
void After_glBlendFuncSeparate(GLenum src_rgb, GLenum dst_rgb, GLenum src_alpha, GLenum dst_alpha) {
  QueryCache* cache = Cache();
  if (cache == nullptr) return;
  const int version = cache->client_version();
  if (!InSet_blend_factor(src_rgb, version) || !InSet_blend_factor(dst_rgb, version) ||
      !InSet_blend_factor(src_alpha, version) || !InSet_blend_factor(dst_alpha, version)) {
    return;
  }
  Learn(cache, {{GL_BLEND_SRC_RGB, static_cast<GLint>(src_rgb)}, {GL_BLEND_DST_RGB, static_cast<GLint>(dst_rgb)},
                {GL_BLEND_SRC_ALPHA, static_cast<GLint>(src_alpha)}, {GL_BLEND_DST_ALPHA, static_cast<GLint>(dst_alpha)}});
}

}  // namespace strata::remote
