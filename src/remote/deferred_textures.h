#pragma once
// Texture objects and bindings the client holds back, beside the other held
// state (deferred_state.h). A texture glGenTextures makes stays on the
// client, with the target it is bound to and the sampling parameters set on
// it, until a call that might see it; one deleted before then never reaches
// the renderer, as in a client that keeps GL state itself (virgl's Mesa): an
// app that makes, binds, sets up and drops textures sends nothing for them.
// glBindTexture of 0, or of a texture the renderer has already bound to that
// target, is held like the other bindings, and not sent when the renderer's
// unit already has it.
//
// Nothing observable changes: any other call first realizes what is held
// (the textures made, each bound and set up as the app did, then each held
// binding), so the renderer holds every texture that anything can see, with
// the app's bindings. Only calls the client can check are held: names it
// made, a target each texture is bound to consistently, parameters and
// values every GLES 2/3 driver takes; so a held call could not have failed.
// Only while the context shares objects with no other (another context could
// see a texture's name before it reaches the renderer), on a texture unit
// every driver has.

#include <GLES3/gl3.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <unordered_map>
#include <vector>

#include "strata/api/functions.h"

namespace strata::remote {

class Connection;

// What the client knows of one context's textures (kept in its ContextShadow).
struct TextureKnowledge {
  static constexpr int kUnits = 32;   // GLES 3's guaranteed texture units
  static constexpr int kTargets = 4;  // query_cache.h's followed texture targets: 2D, cube map; 3D and 2D array from GLES 3

  // Textures that went through the held path and reached the renderer, by
  // name: the target each is bound to there (0: none yet).
  std::unordered_map<GLuint, GLenum> targets;
  int active_unit = 0;  // -1: one past the units every driver has (may not exist)
  // The renderer's binding of each target on each unit, where known.
  GLuint sent[kUnits][kTargets] = {};
  uint8_t sent_known[kUnits] = {};  // bit per target

  bool SentIs(int target, GLuint texture) const {
    return (sent_known[active_unit] >> target & 1) != 0 && sent[active_unit][target] == texture;
  }
  void SetSent(int target, GLuint texture) {
    sent[active_unit][target] = texture;
    sent_known[active_unit] |= 1u << target;
  }
  void ForgetSent() { std::fill(std::begin(sent_known), std::end(sent_known), uint8_t{0}); }
  // The renderer deleted it: unbound from every unit, and no longer known.
  void Deleted(GLuint texture);
};

class DeferredTextures {
 public:
  static constexpr int kMaxPending = 64;  // textures held at once; more go out first

  // Each takes the app's call (true) or leaves it to be sent now (false,
  // after what is held went out and what the call changes was noted). The
  // caller has checked that the context holds state at all.
  bool Gen(Connection& c, GLsizei n, GLuint* textures);
  bool Bind(Connection& c, GLenum target, GLuint texture);
  // glTexParameteri/f: `value` as the call's 32-bit argument, `as_enum` the value it names.
  bool Parameter(Connection& c, api::Slot slot, GLenum target, GLenum pname, uint32_t value, GLint as_enum);
  bool Delete(Connection& c, GLsizei n, const GLuint* textures);

  // Encodes what is held into the connection's batch; the records sent.
  int Send(Connection& c);

 private:
  static constexpr int kMaxParameters = 5;  // min and mag filters, three wraps
  struct HeldParameter {
    api::Slot slot;
    GLenum pname;
    uint32_t value;
  };
  struct Pending {
    GLuint name;
    int target;  // index, -1: not bound yet
    int parameter_count;
    HeldParameter parameters[kMaxParameters];
  };
  // Whether this context may hold textures now (shares nothing, a known
  // unit); forgets what another context could change once it shares.
  bool Usable(Connection& c);
  Pending* FindPending(GLuint name);

  std::vector<Pending> pending_;  // in the order made
  GLuint bound_[TextureKnowledge::kTargets] = {};  // held bindings of the active unit
  uint8_t bound_held_ = 0;                         // bit per target
};

}  // namespace strata::remote
