#pragma once
// Answers to state queries the client keeps, per context (docs/remote.md,
// "Answers on the client"): bindings, viewport, scissor, blend, depth and
// face state by glGetIntegerv, and capabilities by glIsEnabled. A value is
// known from the renderer's answer to an earlier query, or from a call the
// client held back (deferred_state.h: valid, so it took effect); each
// generated client function that may change a group of them forgets that
// group before it goes out (api/emit_remote.py, QUERY_EFFECTS), and a call
// the generator does not know to leave them alone forgets them all. Only
// the app's calls change a context's state, so a kept answer is the
// renderer's own.

#include <GLES3/gl3.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>

#include "strata/api/parameters.h"

namespace strata::remote {

// Groups of cached state, by what changes them.
enum QueryGroup : uint32_t {
  kQueryProgram = 1u << 0,          // glUseProgram
  kQueryBufferBindings = 1u << 1,   // glBindBuffer
  kQueryVertexArray = 1u << 2,      // glBindVertexArray (and the element buffer it holds)
  kQueryTextureUnit = 1u << 3,      // glActiveTexture (and the unit's bindings)
  kQueryTextureBindings = 1u << 4,  // glBindTexture
  kQueryFramebuffers = 1u << 5,     // glBindFramebuffer
  kQueryRenderbuffer = 1u << 6,     // glBindRenderbuffer
  kQueryViewport = 1u << 7,
  kQueryScissor = 1u << 8,
  kQueryBlend = 1u << 9,            // factors and equations
  kQueryDepthFunc = 1u << 10,
  kQueryFaces = 1u << 11,           // cull face mode, front face
  kQueryCapabilities = 1u << 12,    // glEnable/glDisable
  kQueryProvenObjects = 1u << 13,   // relinking or deleting: what answers proved valid
  kQueryAll = ~0u,
};

// The pnames kept, with the groups whose calls change it; how many values
// each has and the GLES version that has it (a pname the context lacks is
// an error, whose unwritten output must not be kept) are the parameter
// table's (strata/api/parameters.h).
struct CachedPname {
  GLenum pname;
  uint32_t groups;
  int count;
  int since_version;  // GLES major version
};
constexpr CachedPname Cached(GLenum pname, uint32_t groups) {
  const api::Parameter* parameter = api::FindParameter(pname);
  return {pname, groups, parameter->count, parameter->since / 10};
}
inline constexpr CachedPname kCachedPnames[] = {
    Cached(GL_CURRENT_PROGRAM, kQueryProgram),
    Cached(GL_ARRAY_BUFFER_BINDING, kQueryBufferBindings),
    Cached(GL_ELEMENT_ARRAY_BUFFER_BINDING, kQueryBufferBindings | kQueryVertexArray),
    Cached(GL_VERTEX_ARRAY_BINDING, kQueryVertexArray),
    Cached(GL_ACTIVE_TEXTURE, kQueryTextureUnit),
    Cached(GL_TEXTURE_BINDING_2D, kQueryTextureUnit | kQueryTextureBindings),
    Cached(GL_TEXTURE_BINDING_CUBE_MAP, kQueryTextureUnit | kQueryTextureBindings),
    Cached(GL_TEXTURE_BINDING_3D, kQueryTextureUnit | kQueryTextureBindings),
    Cached(GL_TEXTURE_BINDING_2D_ARRAY, kQueryTextureUnit | kQueryTextureBindings),
    Cached(GL_FRAMEBUFFER_BINDING, kQueryFramebuffers),
    Cached(GL_READ_FRAMEBUFFER_BINDING, kQueryFramebuffers),
    Cached(GL_RENDERBUFFER_BINDING, kQueryRenderbuffer),
    Cached(GL_VIEWPORT, kQueryViewport),
    Cached(GL_SCISSOR_BOX, kQueryScissor),
    Cached(GL_BLEND_SRC_RGB, kQueryBlend),
    Cached(GL_BLEND_DST_RGB, kQueryBlend),
    Cached(GL_BLEND_SRC_ALPHA, kQueryBlend),
    Cached(GL_BLEND_DST_ALPHA, kQueryBlend),
    Cached(GL_BLEND_EQUATION_RGB, kQueryBlend),
    Cached(GL_BLEND_EQUATION_ALPHA, kQueryBlend),
    Cached(GL_DEPTH_FUNC, kQueryDepthFunc),
    Cached(GL_CULL_FACE_MODE, kQueryFaces),
    Cached(GL_FRONT_FACE, kQueryFaces),
};
static_assert(std::size(kCachedPnames) <= 32);

// The texture targets whose bindings the client follows: the parameter
// table's of GLES 2.0 and 3.0 (2D, cube map, 3D, 2D array), which the query
// cache and the held textures (deferred_textures.h) index alike.
inline constexpr int kFollowedTextureTargets = 4;
static_assert(api::kTextureTargets[kFollowedTextureTargets - 1].min_version <= 30 &&
              api::kTextureTargets[kFollowedTextureTargets].min_version > 30);
// The index among those of a target the context's version has, or -1.
int TextureTargetIndex(GLenum target, int client_version);

// The GLES 2.0 and 3.0 capabilities (of the parameter table) a context
// made for GLES `client_version` has, by index (at most 32); -1 for another
// (3.1's and 3.2's too: a context's minor version is the driver's choice).
// The query cache and the held calls (deferred_state.h) share the index.
int CapabilityIndex(GLenum cap, int client_version);
GLenum CapabilityAt(int index);

class QueryCache {
 public:
  // `client_version`: the GLES major version the context was made for
  // (GLES 1 contexts cache nothing).
  explicit QueryCache(int client_version = 0) : version_(client_version) {}
  int client_version() const { return version_; }

  // glGetIntegerv: the count of values (up to 4) filled into `data` when the
  // answer is known, else 0.
  int Integer(GLenum pname, GLint* data) const;
  void LearnInteger(GLenum pname, const GLint* data);
  // The same where the pname is known when compiling: LearnAt(Index(GL_...), data).
  static constexpr int Index(GLenum pname) {
    for (size_t i = 0; i < std::size(kCachedPnames); ++i) {
      if (kCachedPnames[i].pname == pname) return static_cast<int>(i);
    }
    return -1;
  }
  void LearnAt(int index, const GLint* data) {
    if (version_ < kCachedPnames[index].since_version) return;
    std::copy_n(data, kCachedPnames[index].count, values_[index]);
    known_ |= 1u << index;
  }
  // glIsEnabled.
  bool Enabled(GLenum cap, GLboolean* on) const;
  void LearnEnabled(GLenum cap, bool on) {
    if (const int index = CapabilityIndex(cap, version_); index >= 0) LearnEnabledAt(index, on);
  }
  void LearnEnabledAt(int index, bool on) {
    const uint32_t bit = 1u << index;
    caps_known_ |= bit;
    caps_on_ = on ? caps_on_ | bit : caps_on_ & ~bit;
  }

  // The renderer answered a query: kept, and what it proves remembered (a
  // viewport size the driver accepts, a program that is linked, a texture
  // of a target), so that a later setter of those values is known to take
  // effect (SetterTakesEffect).
  void LearnAnswer(GLenum pname, const GLint* data);
  // Whether glViewport, glUseProgram or glBindTexture with these arguments
  // takes effect for sure; then it is learned as well.
  bool LearnViewport(GLint x, GLint y, GLsizei width, GLsizei height);
  bool LearnProgram(GLuint program);
  bool LearnTexture(GLenum target, GLuint texture);

  // A call that changes a group of cached state goes out.
  void Forget(uint32_t groups) {
    if ((known_ | caps_known_) != 0 || (groups & kQueryProvenObjects)) [[unlikely]] ForgetKnown(groups);
  }

 private:
  void ForgetKnown(uint32_t groups);
  static constexpr int kMaxValues = 4;
  int version_;
  uint32_t known_ = 0;  // bit per entry of the cached pnames
  uint32_t caps_known_ = 0, caps_on_ = 0;  // bit per capability
  GLint values_[32][kMaxValues] = {};
  GLint widest_viewport_ = -1, tallest_viewport_ = -1;  // the largest the driver reported
  GLuint proven_programs_[4] = {};                       // reported current: linked (0: none)
  struct ProvenTexture {
    GLenum binding;
    GLuint texture;
  };
  ProvenTexture proven_textures_[8] = {};                // reported bound to a target
  int next_program_ = 0, next_texture_ = 0;
};

}  // namespace strata::remote
