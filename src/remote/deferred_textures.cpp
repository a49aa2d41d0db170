#include "remote/deferred_textures.h"

#include <array>
#include <bit>
#include <cmath>

#include "remote/client_state.h"
#include "remote/connection.h"
#include "remote/generated_support.h"
#include "remote/query_cache.h"

namespace strata::remote {
namespace {

static_assert(kFollowedTextureTargets == TextureKnowledge::kTargets);

GLenum TargetAt(int target) { return api::kTextureTargets[target].target; }

// Sampling parameters and values every GLES 2/3 driver takes for the
// followed targets, so that setting them cannot fail.
bool IsHeldParameter(GLenum pname, GLint value, int version) {
  switch (pname) {
    case GL_TEXTURE_MIN_FILTER:
      return value == GL_NEAREST || value == GL_LINEAR || value == GL_NEAREST_MIPMAP_NEAREST ||
             value == GL_LINEAR_MIPMAP_NEAREST || value == GL_NEAREST_MIPMAP_LINEAR || value == GL_LINEAR_MIPMAP_LINEAR;
    case GL_TEXTURE_MAG_FILTER:
      return value == GL_NEAREST || value == GL_LINEAR;
    case GL_TEXTURE_WRAP_R:
      if (version < 3) return false;
      [[fallthrough]];
    case GL_TEXTURE_WRAP_S: case GL_TEXTURE_WRAP_T:
      return value == GL_REPEAT || value == GL_CLAMP_TO_EDGE || value == GL_MIRRORED_REPEAT;
    default:
      return false;
  }
}

// The query cache's entries for the targets' bindings, found when compiling.
constexpr auto kBindingEntries = [] {
  std::array<int, TextureKnowledge::kTargets> entries{};
  for (int i = 0; i < TextureKnowledge::kTargets; ++i) entries[i] = QueryCache::Index(api::kTextureTargets[i].binding);
  return entries;
}();

void LearnBinding(Connection& c, int target, GLuint texture) {
  const GLint value = static_cast<GLint>(texture);
  c.shadow().queries().LearnAt(kBindingEntries[target], &value);
}

}  // namespace

void TextureKnowledge::Deleted(GLuint texture) {
  if (texture == 0) return;
  targets.erase(texture);
  for (int unit = 0; unit < kUnits; ++unit) {
    for (int target = 0; target < kTargets; ++target) {
      if (sent[unit][target] == texture) sent[unit][target] = 0;
    }
  }
}

bool DeferredTextures::Usable(Connection& c) {
  ContextShadow& shadow = c.shadow();
  const ClientNames* names = shadow.names();
  if (names == nullptr) return false;
  TextureKnowledge& known = shadow.textures();
  if (names->SharedWithAnother()) {
    // Another context may delete a texture, or bind a name before it reaches the renderer.
    if (!known.targets.empty()) known.targets.clear();
    known.ForgetSent();
    return false;
  }
  return known.active_unit >= 0;
}

DeferredTextures::Pending* DeferredTextures::FindPending(GLuint name) {
  for (Pending& p : pending_) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

bool DeferredTextures::Gen(Connection& c, GLsizei n, GLuint* textures) {
  if (n <= 0 || n > kMaxPending || textures == nullptr || !Usable(c)) return false;
  if (pending_.size() + n > kMaxPending) c.SendDeferred();
  if (!c.shadow().names()->For(api::ObjectClass::kTexture)->Make(n, textures)) return false;
  for (GLsizei i = 0; i < n; ++i) pending_.push_back({textures[i], -1, 0, {}});
  return true;
}

bool DeferredTextures::Bind(Connection& c, GLenum target, GLuint texture) {
  const int t = TextureTargetIndex(target, c.shadow().client_version());
  TextureKnowledge& known = c.shadow().textures();
  if (t >= 0 && Usable(c)) {
    bool valid = texture == 0;
    if (Pending* p = valid ? nullptr : FindPending(texture); p != nullptr && (p->target < 0 || p->target == t)) {
      p->target = t;
      valid = true;
    } else if (!valid) {
      const auto it = known.targets.find(texture);
      valid = it != known.targets.end() && it->second == target;
    }
    if (valid) {
      bound_[t] = texture;
      bound_held_ |= 1u << t;
      LearnBinding(c, t, texture);
      return true;
    }
  }
  // Sent as it comes, after what is held: what the renderer then binds.
  c.SendDeferred();
  if (t < 0) {
    // A target not followed (an external image, a multisample array ...):
    // no followed binding changes, but a texture never bound may take this
    // target, so the client no longer knows its target.
    if (texture != 0) known.targets.erase(texture);
    return false;
  }
  const auto it = texture == 0 ? known.targets.end() : known.targets.find(texture);
  const bool takes_effect = texture == 0 || (it != known.targets.end() && (it->second == 0 || it->second == target));
  if (takes_effect && it != known.targets.end()) it->second = target;  // a texture's first binding sets its target
  if (known.active_unit < 0) {
    known.ForgetSent();  // some unit's binding changed
  } else if (takes_effect) {
    known.SetSent(t, texture);
  } else {
    known.sent_known[known.active_unit] &= ~(1u << t);  // may fail on the renderer
  }
  return false;
}

bool DeferredTextures::Parameter(Connection& c, api::Slot slot, GLenum target, GLenum pname, uint32_t value,
                                 GLint as_enum) {
  const int t = TextureTargetIndex(target, c.shadow().client_version());
  if (t < 0 || (bound_held_ >> t & 1) == 0 || bound_[t] == 0) return false;  // only a held texture's
  Pending* p = FindPending(bound_[t]);
  if (p == nullptr || !IsHeldParameter(pname, as_enum, c.shadow().client_version())) return false;
  for (int i = 0; i < p->parameter_count; ++i) {
    if (p->parameters[i].pname == pname) {
      p->parameters[i] = {slot, pname, value};
      return true;
    }
  }
  p->parameters[p->parameter_count++] = {slot, pname, value};  // at most one per held pname
  return true;
}

bool DeferredTextures::Delete(Connection& c, GLsizei n, const GLuint* textures) {
  if (n <= 0 || textures == nullptr) return false;
  bool all_held = Usable(c);
  for (GLsizei i = 0; all_held && i < n; ++i) all_held = textures[i] == 0 || FindPending(textures[i]) != nullptr;
  if (!all_held) {
    c.SendDeferred();
    for (GLsizei i = 0; i < n; ++i) c.shadow().textures().Deleted(textures[i]);
    return false;
  }
  // Never sent: nothing of them reaches the renderer. A bound one leaves its target's binding 0.
  for (GLsizei i = 0; i < n; ++i) {
    Pending* p = textures[i] != 0 ? FindPending(textures[i]) : nullptr;
    if (p == nullptr) continue;  // 0, or named twice
    for (uint32_t held = bound_held_; held != 0; held &= held - 1) {
      const int t = std::countr_zero(held);
      if (bound_[t] != p->name) continue;
      bound_[t] = 0;
      LearnBinding(c, t, 0);
    }
    pending_.erase(pending_.begin() + (p - pending_.data()));
  }
  return true;
}

int DeferredTextures::Send(Connection& c) {
  if (pending_.empty() && bound_held_ == 0) return 0;
  TextureKnowledge& known = c.shadow().textures();
  int sent = 0;
  // The textures made, one glGenTextures for each run of consecutive names.
  GLuint run[kMaxPending];
  for (size_t i = 0; i < pending_.size();) {
    GLsizei count = 0;
    do {
      run[count++] = pending_[i++].name;
    } while (i < pending_.size() && pending_[i].name == run[count - 1] + 1);
    Send_glGenTextures(c, count, run);
    ++sent;
  }
  // Each one bound as the app bound it, and set up.
  for (const Pending& p : pending_) {
    known.targets[p.name] = p.target >= 0 ? TargetAt(p.target) : 0;
    if (p.target < 0) continue;
    const GLenum target = TargetAt(p.target);
    Send_glBindTexture(c, target, p.name);
    known.SetSent(p.target, p.name);
    ++sent;
    for (int i = 0; i < p.parameter_count; ++i) {
      const HeldParameter& held = p.parameters[i];
      if (held.slot == api::glTexParameterf) {
        Send_glTexParameterf(c, target, held.pname, std::bit_cast<GLfloat>(held.value));
      } else {
        Send_glTexParameteri(c, target, held.pname, std::bit_cast<GLint>(held.value));
      }
      ++sent;
    }
  }
  pending_.clear();
  // Then the bindings the app left.
  for (uint32_t held = bound_held_; held != 0; held &= held - 1) {
    const int t = std::countr_zero(held);
    if (known.SentIs(t, bound_[t])) continue;  // the renderer has it
    Send_glBindTexture(c, TargetAt(t), bound_[t]);
    known.SetSent(t, bound_[t]);
    ++sent;
  }
  bound_held_ = 0;
  return sent;
}

// The generated functions' entry points (remote_hand_written.inc).
bool Defer_glGenTextures(Connection& c, GLsizei n, GLuint* textures) {
  return c.deferred().Hold(c, [&] { return c.deferred().textures().Gen(c, n, textures); });
}
bool Defer_glBindTexture(Connection& c, GLenum target, GLuint texture) {
  return c.deferred().Hold(c, [&] { return c.deferred().textures().Bind(c, target, texture); });
}
bool Defer_glTexParameteri(Connection& c, GLenum target, GLenum pname, GLint param) {
  return c.deferred().Hold(c, [&] {
    return c.deferred().textures().Parameter(c, api::glTexParameteri, target, pname, std::bit_cast<uint32_t>(param),
                                             param);
  });
}
bool Defer_glTexParameterf(Connection& c, GLenum target, GLenum pname, GLfloat param) {
  // A value that names an enum exactly (GL_LINEAR as 9729.0f), else it goes out.
  const GLint as_enum = param >= 0 && param < 65536 && param == std::floor(param) ? static_cast<GLint>(param) : -1;
  return c.deferred().Hold(c, [&] {
    return c.deferred().textures().Parameter(c, api::glTexParameterf, target, pname, std::bit_cast<uint32_t>(param),
                                             as_enum);
  });
}
bool Defer_glDeleteTextures(Connection& c, GLsizei n, const GLuint* textures) {
  return c.deferred().Hold(c, [&] { return c.deferred().textures().Delete(c, n, textures); });
}

}  // namespace strata::remote
