#pragma once
// State calls the client holds back instead of sending. A call that only sets
// one piece of context state (a capability, the blend factors, the array
// buffer binding, one uniform's or generic attribute's value) is kept until a
// call that might read that state; a later call that sets the same piece
// replaces it, and a value
// the renderer already has is not sent again. Every other call first sends
// what is held (Connection::SendDeferred), so the renderer sees the state
// exactly as the app left it whenever anything can observe it. The held calls
// set independent pieces of state, so the order they go out in does not matter
// (textures made and bound go out before the bindings that end up held).
//
// Nothing observable changes: only calls whose arguments the client can
// check are held (valid capabilities and factors, buffer names it saw made,
// attribute indexes below the limit), so a dropped call could not have raised
// a GL error; a uniform call replaces
// only one of the same function and location, which fails or succeeds alike
// (the current program cannot change while calls are held: glUseProgram is a
// call that sends them). STRATA_REMOTE_SHADOW=off sends every call as it comes.

#include <GLES3/gl3.h>

#include <cstdint>
#include <vector>

#include "remote/deferred_textures.h"
#include "strata/api/functions.h"

namespace strata::remote {

class Connection;
class ContextShadow;

// What the renderer's context holds, as far as the client sent it; kept per
// context (in ContextShadow), so that a value set again is dropped.
struct SentState {
  uint32_t caps_known = 0, caps_on = 0;  // bit per capability in kHeldCapabilities
  bool blend_known = false;
  GLenum blend_source = 0, blend_destination = 0;
  bool array_buffer_known = false;
  GLuint array_buffer = 0;
};

class DeferredState {
 public:
  DeferredState();

  bool empty() const { return held_ == 0; }
  // Each takes a call (true: held or dropped, nothing more to do) or leaves
  // it to be sent now (false). `c` is the calling thread's connection.
  bool Capability(Connection& c, GLenum cap, bool on);
  bool BlendFunc(Connection& c, GLenum source, GLenum destination);
  bool BindBuffer(Connection& c, GLenum target, GLuint buffer);
  // glUniform{1,2,3,4}{f,i,ui}: `values` are the call's 32-bit arguments.
  // Inline where the uniforms go as they come (set once a draw): every
  // uniform call of a draw-heavy program.
  bool Uniform(Connection& c, api::Slot slot, GLint location, int count, const uint32_t* values) {
    if (uniforms_as_they_come_ != 0) [[likely]] {
      // Nothing of the uniforms is held now (they went at the send that chose
      // this): the caller sends what else is held, then the call.
      --uniforms_as_they_come_;
      return false;
    }
    return HoldUniform(c, slot, location, count, values);
  }
  // glVertexAttrib{1,2,3,4}f, glVertexAttribI4{i,ui}: a generic attribute's
  // current value, which each of them sets whole (the last one held wins).
  bool Attribute(Connection& c, api::Slot slot, GLuint index, int count, const uint32_t* values);
  // Texture objects and bindings (deferred_textures.h): held when the
  // context holds state and `take`, one of textures()'s calls, takes the call.
  template <class Take>
  bool Hold(Connection& c, Take take) {
    if (!Enabled(c) || !take()) return false;
    ++held_;
    ++absorbed_;
    return true;
  }
  DeferredTextures& textures() { return textures_; }

  // Another context is current (nothing is held then: eglMakeCurrent sends it).
  void ContextChanged() { attribute_limit_ = 0; }
  // Encodes what is held into the connection's batch, one call record each.
  void Send(Connection& c);
  // Calls taken less calls sent since the last time asked: the calls that
  // never went over the wire.
  int64_t TakeAbsorbed();

 private:
  // A held call of up to four 32-bit values: its function and its first
  // argument (a uniform's location, an attribute's index).
  struct HeldValues {
    api::Slot slot;
    uint32_t first;
    uint32_t values[4];
  };
  // Indexes above this are sent as they come (the held ones are a bit mask).
  static constexpr GLuint kMaxHeldAttributes = 32;
  bool Enabled(Connection& c) const;

  // Holding a uniform pays only where the app sets it again before a call
  // sends it; where each goes out as it was set (a uniform or two per draw),
  // holding is bookkeeping for nothing. After this many sends in a row that
  // found no held uniform set twice, the next kUniformsSentAsTheyCome
  // uniform calls go out as they come, then holding is tried again.
  static constexpr int kUnreplacedSendsBeforeSendingAsTheyCome = 64;
  static constexpr uint32_t kUniformsSentAsTheyCome = 4096;

  const bool enabled_;
  int held_ = 0;  // pieces held
  bool uniform_replaced_ = false;  // a held uniform set again since the last send
  int unreplaced_sends_ = 0;
  bool HoldUniform(Connection& c, api::Slot slot, GLint location, int count, const uint32_t* values);
  uint32_t uniforms_as_they_come_ = 0;  // left to send without holding
  int64_t absorbed_ = 0;
  uint32_t caps_held_ = 0, caps_on_ = 0;
  bool blend_held_ = false;
  GLenum blend_source_ = 0, blend_destination_ = 0;
  bool array_buffer_held_ = false;
  GLuint array_buffer_ = 0;
  std::vector<HeldValues> uniforms_;
  std::vector<int32_t> uniform_index_;  // by location: index into uniforms_, or -1
  uint32_t attributes_held_ = 0;        // bit per index
  uint64_t attribute_limit_ = 0;  // of the current context, as far as known
  HeldValues attributes_[kMaxHeldAttributes] = {};
  DeferredTextures textures_;
};

}  // namespace strata::remote
