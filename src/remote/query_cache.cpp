#include "remote/query_cache.h"

#include <algorithm>
#include <iterator>


namespace strata::remote {
namespace {

static_assert(std::size(api::kCapabilities) <= 32);

int CachedIndex(GLenum pname, int version) {
  const int index = QueryCache::Index(pname);
  return index >= 0 && version >= 2 && version >= kCachedPnames[index].since_version ? index : -1;
}

}  // namespace

int CapabilityIndex(GLenum cap, int client_version) {
  if (client_version < 2) return -1;
  for (size_t i = 0; i < std::size(api::kCapabilities); ++i) {
    if (api::kCapabilities[i].value != cap) continue;
    const int since = api::kCapabilities[i].min_version;
    return since <= 30 && client_version * 10 >= since ? static_cast<int>(i) : -1;
  }
  return -1;
}

GLenum CapabilityAt(int index) { return api::kCapabilities[index].value; }

int QueryCache::Integer(GLenum pname, GLint* data) const {
  const int index = CachedIndex(pname, version_);
  if (index < 0 || (known_ & (1u << index)) == 0) return 0;
  std::copy_n(values_[index], kCachedPnames[index].count, data);
  return kCachedPnames[index].count;
}

void QueryCache::LearnInteger(GLenum pname, const GLint* data) {
  if (const int index = CachedIndex(pname, version_); index >= 0) LearnAt(index, data);
}

bool QueryCache::Enabled(GLenum cap, GLboolean* on) const {
  const int index = CapabilityIndex(cap, version_);
  if (index < 0 || (caps_known_ & (1u << index)) == 0) return false;
  *on = (caps_on_ & (1u << index)) != 0 ? GL_TRUE : GL_FALSE;
  return true;
}

int TextureTargetIndex(GLenum target, int client_version) {
  for (int i = 0; i < kFollowedTextureTargets; ++i) {
    if (api::kTextureTargets[i].target == target) {
      return client_version * 10 >= api::kTextureTargets[i].min_version ? i : -1;
    }
  }
  return -1;
}

void QueryCache::LearnAnswer(GLenum pname, const GLint* data) {
  const int index = CachedIndex(pname, version_);
  if (index < 0) return;
  LearnAt(index, data);
  switch (pname) {
    case GL_VIEWPORT:
      widest_viewport_ = std::max(widest_viewport_, data[2]);
      tallest_viewport_ = std::max(tallest_viewport_, data[3]);
      return;
    case GL_CURRENT_PROGRAM:
      if (data[0] != 0 && std::find(std::begin(proven_programs_), std::end(proven_programs_),
                                    static_cast<GLuint>(data[0])) == std::end(proven_programs_)) {
        proven_programs_[next_program_++ % std::size(proven_programs_)] = static_cast<GLuint>(data[0]);
      }
      return;
    case GL_TEXTURE_BINDING_2D: case GL_TEXTURE_BINDING_CUBE_MAP: case GL_TEXTURE_BINDING_3D:
    case GL_TEXTURE_BINDING_2D_ARRAY:
      if (data[0] != 0) proven_textures_[next_texture_++ % std::size(proven_textures_)] = {pname, static_cast<GLuint>(data[0])};
      return;
    default:
      return;
  }
}

// A width or height the driver reported is within its GL_MAX_VIEWPORT_DIMS,
// so a viewport no larger is taken as given (no clamping).
bool QueryCache::LearnViewport(GLint x, GLint y, GLsizei width, GLsizei height) {
  if (width < 0 || height < 0 || width > widest_viewport_ || height > tallest_viewport_) return false;
  const GLint box[4] = {x, y, width, height};
  LearnAt(Index(GL_VIEWPORT), box);
  return true;
}

// 0, or a program the driver reported current (so linked) with no link or
// deletion since.
bool QueryCache::LearnProgram(GLuint program) {
  if (program != 0 && std::find(std::begin(proven_programs_), std::end(proven_programs_), program) ==
                          std::end(proven_programs_)) {
    return false;
  }
  const GLint value = static_cast<GLint>(program);
  LearnAt(Index(GL_CURRENT_PROGRAM), &value);
  return true;
}

// 0, or a texture the driver reported bound to this target, with no deletion since.
bool QueryCache::LearnTexture(GLenum target, GLuint texture) {
  const int target_index = TextureTargetIndex(target, version_);
  if (target_index < 0) return false;
  const GLenum binding = api::kTextureTargets[target_index].binding;
  if (texture != 0 && std::none_of(std::begin(proven_textures_), std::end(proven_textures_),
                                   [&](const ProvenTexture& p) { return p.binding == binding && p.texture == texture; })) {
    return false;
  }
  const GLint value = static_cast<GLint>(texture);
  LearnAt(Index(binding), &value);
  return true;
}

void QueryCache::ForgetKnown(uint32_t groups) {
  if (groups & kQueryCapabilities) caps_known_ = 0;
  if (groups & kQueryProvenObjects) {
    std::fill(std::begin(proven_programs_), std::end(proven_programs_), 0u);
    std::fill(std::begin(proven_textures_), std::end(proven_textures_), ProvenTexture{});
  }
  for (size_t i = 0; i < std::size(kCachedPnames); ++i) {
    if (kCachedPnames[i].groups & groups) known_ &= ~(1u << i);
  }
}

}  // namespace strata::remote
