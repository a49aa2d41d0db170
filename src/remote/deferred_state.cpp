#include "remote/deferred_state.h"

#include <cstring>

#include "remote/client_state.h"
#include "remote/connection.h"
#include "remote/generated_support.h"
#include "remote/query_cache.h"
#include "remote/session.h"

namespace strata::remote {
namespace {

// Locations above this are sent as they come (they are rare and the index is flat).
constexpr GLint kMaxHeldLocation = 1024;

}  // namespace

DeferredState::DeferredState() : enabled_(ClientShadowWanted()) {}

bool DeferredState::Enabled(Connection& c) const {
  // GLES 1 keeps its fixed-function state as it comes; without a context
  // there is nothing to hold state for.
  return enabled_ && c.context_id() != 0 && c.shadow().client_version() >= 2;
}

int64_t DeferredState::TakeAbsorbed() {
  const int64_t n = absorbed_;
  absorbed_ = 0;
  return n;
}

bool DeferredState::Capability(Connection& c, GLenum cap, bool on) {
  if (!Enabled(c)) return false;
  // Only capabilities valid in the context are held, so an invalid one is always sent and raises its error.
  const int bit_index = CapabilityIndex(cap, c.shadow().client_version());
  if (bit_index < 0) return false;
  const uint32_t bit = 1u << bit_index;
  if ((caps_held_ & bit) == 0) ++held_;
  caps_held_ |= bit;
  caps_on_ = on ? caps_on_ | bit : caps_on_ & ~bit;
  c.shadow().queries().LearnEnabledAt(bit_index, on);  // valid, so it takes effect
  ++absorbed_;
  return true;
}

bool DeferredState::BlendFunc(Connection& c, GLenum source, GLenum destination) {
  if (!Enabled(c)) return false;
  const int version = c.shadow().client_version();
  if (!InSet_blend_factor(source, version) || !InSet_blend_factor(destination, version)) {
    c.shadow().sent().blend_known = false;
    return false;
  }
  if (!blend_held_) ++held_;
  blend_held_ = true;
  blend_source_ = source;
  blend_destination_ = destination;
  const GLint factors[2] = {static_cast<GLint>(source), static_cast<GLint>(destination)};
  QueryCache& queries = c.shadow().queries();
  for (int index : {QueryCache::Index(GL_BLEND_SRC_RGB), QueryCache::Index(GL_BLEND_SRC_ALPHA)}) {
    queries.LearnAt(index, &factors[0]);
  }
  for (int index : {QueryCache::Index(GL_BLEND_DST_RGB), QueryCache::Index(GL_BLEND_DST_ALPHA)}) {
    queries.LearnAt(index, &factors[1]);
  }
  ++absorbed_;
  return true;
}

bool DeferredState::BindBuffer(Connection& c, GLenum target, GLuint buffer) {
  if (target != GL_ARRAY_BUFFER) return false;
  // Only names the client saw made (and not deleted): another could raise
  // GL_INVALID_OPERATION (GLES 3) or make a buffer (GLES 2).
  if (!Enabled(c) || (buffer != 0 && !c.shadow().BufferMade(buffer))) {
    c.shadow().sent().array_buffer_known = false;
    return false;
  }
  if (!array_buffer_held_) ++held_;
  array_buffer_held_ = true;
  array_buffer_ = buffer;
  const GLint bound = static_cast<GLint>(buffer);
  static constexpr int kArrayBuffer = QueryCache::Index(GL_ARRAY_BUFFER_BINDING);
  c.shadow().queries().LearnAt(kArrayBuffer, &bound);
  ++absorbed_;
  return true;
}

bool DeferredState::HoldUniform(Connection& c, api::Slot slot, GLint location, int count, const uint32_t* values) {
  if (!Enabled(c) || location < 0 || location >= kMaxHeldLocation) return false;
  if (uniform_index_.size() <= static_cast<size_t>(location)) uniform_index_.resize(location + 1, -1);
  int32_t& index = uniform_index_[location];
  if (index >= 0 && uniforms_[index].slot != slot) {
    // Another function on the same location: one of the two fails, and
    // which one must stay visible. Both go out in order.
    Send(c);
  }
  if (index < 0) {
    index = static_cast<int32_t>(uniforms_.size());
    uniforms_.push_back({slot, static_cast<uint32_t>(location), {}});
    ++held_;
  } else {
    uniform_replaced_ = true;
  }
  HeldValues& held = uniforms_[index];
  std::memcpy(held.values, values, sizeof(uint32_t) * count);
  ++absorbed_;
  return true;
}

bool DeferredState::Attribute(Connection& c, api::Slot slot, GLuint index, int count, const uint32_t* values) {
  if (!Enabled(c) || index >= kMaxHeldAttributes) return false;
  // Only valid indexes are held: another raises GL_INVALID_VALUE. The limit
  // as last found for the current context (it only grows, as the client
  // learns the driver's own).
  if (index >= attribute_limit_) {
    const uint64_t limit =
        KnownLimit(c, GL_MAX_VERTEX_ATTRIBS, SpecMinimum_GL_MAX_VERTEX_ATTRIBS(c.shadow().client_version()));
    if (index >= limit) return false;
    attribute_limit_ = limit;
  }
  const uint32_t bit = 1u << index;
  if ((attributes_held_ & bit) == 0) ++held_;
  attributes_held_ |= bit;
  HeldValues& held = attributes_[index];
  held.slot = slot;
  held.first = index;
  for (int i = 0; i < count; ++i) held.values[i] = values[i];
  ++absorbed_;
  return true;
}

void DeferredState::Send(Connection& c) {
  if (held_ == 0) return;
  held_ = 0;
  absorbed_ -= textures_.Send(c);
  // Each goes out through the function the app's own call would have used (Send_<name>, generated).
  SentState& sent = c.shadow().sent();
  for (uint32_t caps = caps_held_; caps != 0; caps &= caps - 1) {
    const int i = __builtin_ctz(caps);
    const uint32_t bit = 1u << i;
    const bool on = (caps_on_ & bit) != 0;
    if ((sent.caps_known & bit) && ((sent.caps_on & bit) != 0) == on) continue;  // the renderer has it
    (on ? Send_glEnable : Send_glDisable)(c, CapabilityAt(i));
    --absorbed_;
    sent.caps_known |= bit;
    sent.caps_on = on ? sent.caps_on | bit : sent.caps_on & ~bit;
  }
  caps_held_ = 0;
  if (blend_held_ && !(sent.blend_known && sent.blend_source == blend_source_ &&
                       sent.blend_destination == blend_destination_)) {
    Send_glBlendFunc(c, blend_source_, blend_destination_);
    --absorbed_;
    sent.blend_known = true;
    sent.blend_source = blend_source_;
    sent.blend_destination = blend_destination_;
  }
  blend_held_ = false;
  if (array_buffer_held_ && !(sent.array_buffer_known && sent.array_buffer == array_buffer_)) {
    Send_glBindBuffer(c, GL_ARRAY_BUFFER, array_buffer_);
    --absorbed_;
    sent.array_buffer_known = true;
    sent.array_buffer = array_buffer_;
  }
  array_buffer_held_ = false;
  for (const HeldValues& u : uniforms_) {
    SendHeldUniform(c, u.slot, u.first, u.values);
    --absorbed_;
    uniform_index_[u.first] = -1;
  }
  if (!uniforms_.empty()) {
    if (uniform_replaced_) {
      unreplaced_sends_ = 0;
    } else if (++unreplaced_sends_ == kUnreplacedSendsBeforeSendingAsTheyCome) {
      unreplaced_sends_ = 0;
      uniforms_as_they_come_ = kUniformsSentAsTheyCome;
    }
    uniform_replaced_ = false;
  }
  uniforms_.clear();
  for (uint32_t held = attributes_held_; held != 0; held &= held - 1) {
    const HeldValues& a = attributes_[__builtin_ctz(held)];
    SendHeldAttribute(c, a.slot, a.first, a.values);
    --absorbed_;
  }
  attributes_held_ = 0;
}

// The generated functions' entry points (remote_hand_written.inc).
bool Defer_glEnable(Connection& c, GLenum cap) { return c.deferred().Capability(c, cap, true); }
bool Defer_glDisable(Connection& c, GLenum cap) { return c.deferred().Capability(c, cap, false); }
bool Defer_glBlendFunc(Connection& c, GLenum sfactor, GLenum dfactor) {
  return c.deferred().BlendFunc(c, sfactor, dfactor);
}
bool Defer_glBindBuffer(Connection& c, GLenum target, GLuint buffer) {
  return c.deferred().BindBuffer(c, target, buffer);
}

}  // namespace strata::remote
