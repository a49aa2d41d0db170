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

// The pnames kept, with how many values each has, the groups whose calls
// change it and the GLES version that has it (a pname the context lacks is
// an error, whose unwritten output must not be kept).
struct CachedPname {
  GLenum pname;
  int count;
  uint32_t groups;
  int since_version;
};
inline constexpr CachedPname kCachedPnames[] = {
    {GL_CURRENT_PROGRAM, 1, kQueryProgram, 2},
    {GL_ARRAY_BUFFER_BINDING, 1, kQueryBufferBindings, 2},
    {GL_ELEMENT_ARRAY_BUFFER_BINDING, 1, kQueryBufferBindings | kQueryVertexArray, 2},
    {GL_VERTEX_ARRAY_BINDING, 1, kQueryVertexArray, 3},
    {GL_ACTIVE_TEXTURE, 1, kQueryTextureUnit, 2},
    {GL_TEXTURE_BINDING_2D, 1, kQueryTextureUnit | kQueryTextureBindings, 2},
    {GL_TEXTURE_BINDING_CUBE_MAP, 1, kQueryTextureUnit | kQueryTextureBindings, 2},
    {GL_TEXTURE_BINDING_3D, 1, kQueryTextureUnit | kQueryTextureBindings, 3},
    {GL_TEXTURE_BINDING_2D_ARRAY, 1, kQueryTextureUnit | kQueryTextureBindings, 3},
    {GL_FRAMEBUFFER_BINDING, 1, kQueryFramebuffers, 2},
    {GL_READ_FRAMEBUFFER_BINDING, 1, kQueryFramebuffers, 3},
    {GL_RENDERBUFFER_BINDING, 1, kQueryRenderbuffer, 2},
    {GL_VIEWPORT, 4, kQueryViewport, 2},
    {GL_SCISSOR_BOX, 4, kQueryScissor, 2},
    {GL_BLEND_SRC_RGB, 1, kQueryBlend, 2},
    {GL_BLEND_DST_RGB, 1, kQueryBlend, 2},
    {GL_BLEND_SRC_ALPHA, 1, kQueryBlend, 2},
    {GL_BLEND_DST_ALPHA, 1, kQueryBlend, 2},
    {GL_BLEND_EQUATION_RGB, 1, kQueryBlend, 2},
    {GL_BLEND_EQUATION_ALPHA, 1, kQueryBlend, 2},
    {GL_DEPTH_FUNC, 1, kQueryDepthFunc, 2},
    {GL_CULL_FACE_MODE, 1, kQueryFaces, 2},
    {GL_FRONT_FACE, 1, kQueryFaces, 2},
};
static_assert(std::size(kCachedPnames) <= 32);

// The texture targets whose bindings the client follows, with their
// binding pname and the GLES version that has them; the query cache and
// the held textures (deferred_textures.h) index them alike.
struct TextureTarget {
  GLenum target;
  GLenum binding;
  int since_version;
};
inline constexpr TextureTarget kTextureTargets[] = {
    {GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D, 2},
    {GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP, 2},
    {GL_TEXTURE_3D, GL_TEXTURE_BINDING_3D, 3},
    {GL_TEXTURE_2D_ARRAY, GL_TEXTURE_BINDING_2D_ARRAY, 3},
};
// The index in kTextureTargets of a target the context's version has, or -1.
int TextureTargetIndex(GLenum target, int client_version);

// The GLES 2.0 and 3.0 capabilities (of common/gl_state_lists.h) a context
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
