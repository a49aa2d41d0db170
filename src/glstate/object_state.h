#pragma once
// What some objects hold, read from a live driver into plain data, for
// `strata state` (inspect/gl_state.cpp) and snapshots
// (snapshot/context_snapshot.cpp) alike: a framebuffer's attachments, a
// sampler object's parameters, a texture's levels. Object names are the
// driver's.

#include <GLES3/gl32.h>

#include <functional>
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

// The parameters of the texture bound at `target` (of the active unit): the
// table's state rows taken by glGetTexParameter*v that a context of
// `version` has, in the table's order (sampling parameters first); one the
// driver refuses is left out.
std::vector<StateValue> ReadTextureParameters(const FunctionLookup& functions, GLenum target, int version);

// One level of a texture as glGetTexLevelParameteriv (GLES 3.1) gives it;
// for a cube map, its first face's.
struct TextureLevel {
  GLint level = 0, width = 0, height = 0, depth = 0;
  GLenum internal_format = 0;
  bool compressed = false;
  GLint samples = 0;                // multisampled targets only
  bool fixed_sample_locations = false;
};

// The levels of the texture bound at `target` (of the active unit), from 0
// up to the first without an image or `max_levels`.
std::vector<TextureLevel> ReadTextureLevels(const FunctionLookup& functions, GLenum target, GLint max_levels = 16);

// One image of a texture level read as RGBA through the framebuffer bound
// at GL_READ_FRAMEBUFFER (the caller's own, with the pack state a read into
// memory expects: stream/pack_state.h): `image_target` is the level's
// target, or the cube map face; `layer` the layer of a layered `target`.
// `type` GL_UNSIGNED_BYTE or GL_FLOAT; `rgba` holds width * height texels.
struct ImageRead {
  bool read = false;
  GLenum status = GL_FRAMEBUFFER_COMPLETE;  // not complete: the format cannot be rendered to, so not read
  GLenum error = GL_NO_ERROR;               // glReadPixels refused the format
};
ImageRead ReadTextureImage(const FunctionLookup& functions, GLenum target, GLuint texture, GLint level,
                           GLenum image_target, GLint layer, GLint width, GLint height, GLenum type, void* rgba);

// The buffer bound at `target`: its size, usage, and whether the app has it
// mapped (asked of GLES 3+ only).
struct BufferInfo {
  GLint size = 0;
  GLint usage = GL_STATIC_DRAW;
  bool mapped = false;
};
BufferInfo ReadBufferInfo(const FunctionLookup& functions, GLenum target, int version);

// Hands `read` the `size` bytes of the buffer bound at `target`, mapped for
// reading (glMapBufferRange: GLES 3+), and unmaps it; false, without calling
// it, when the buffer cannot be mapped (GLES 2, mapped by the app, refused).
bool ReadBufferBytes(const FunctionLookup& functions, GLenum target, int version, GLint size,
                     const std::function<void(const void* bytes)>& read);

}  // namespace strata::glstate
