// Queries the client answers without a round trip (docs/remote.md, "Answers
// on the client"): limits and strings, which do not change within a context,
// asked of the renderer once per context; and glGetError when nothing has
// gone to the renderer since a glGetError that said GL_NO_ERROR (a call held
// back on the client is valid, or it is sent).
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

}  // namespace

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
  ContextShadow& shadow = c.shadow();
  if (!Answering(c) || data == nullptr || !IsContextConstant(pname, shadow.client_version())) return false;
  if (!shadow.Known(pname, data)) return false;
  c.Answered();
  return true;
}
void Learn_glGetIntegerv(Connection& c, GLenum pname, GLint* data) {
  if (Answering(c) && data != nullptr && IsContextConstant(pname, c.shadow().client_version())) {
    c.shadow().Keep(pname, *data);
  }
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

}  // namespace strata::remote
