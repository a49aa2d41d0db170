#pragma once
// Recorded object names and handles -> this process's. A name nobody created
// in the stream (GLES 2 lets glBind* create names; a trace started mid-run)
// stands for itself.

#include <cstdint>
#include <map>
#include <unordered_map>

#include "strata/api/replay.h"

namespace strata::host {

class NameMap {
 public:
  uint64_t ToHost(uint64_t recorded) const {
    if (recorded == 0) return 0;
    auto it = names_.find(recorded);
    return it == names_.end() ? recorded : it->second;
  }
  // The recorded name of a host one, or 0 (eglGetCurrentContext and the
  // like: a handle the stream never named means nothing to it).
  uint64_t ToRecorded(uint64_t host) const {
    auto it = recorded_.find(host);
    return it == recorded_.end() ? 0 : it->second;
  }
  // A GL name as the stream knows it, for a query's answer: a host name
  // nobody mapped stands for itself, as in ToHost.
  uint64_t ToStream(uint64_t host) const {
    if (host == 0) return 0;
    auto it = recorded_.find(host);
    return it == recorded_.end() ? host : it->second;
  }
  bool Knows(uint64_t recorded) const { return names_.count(recorded) != 0; }
  void Add(uint64_t recorded, uint64_t host) {
    if (recorded == 0) return;
    Remove(recorded);
    names_[recorded] = host;
    if (host != 0) recorded_[host] = recorded;
  }
  void Remove(uint64_t recorded) {
    auto it = names_.find(recorded);
    if (it == names_.end()) return;
    auto back = recorded_.find(it->second);
    if (back != recorded_.end() && back->second == recorded) recorded_.erase(back);
    names_.erase(it);
  }
  // Calls f(recorded, host) for every name, in no particular order.
  template <typename F>
  void ForEach(F f) const {
    for (const auto& [recorded, host] : names_) f(recorded, host);
  }
  void Clear() {
    names_.clear();
    recorded_.clear();
  }

 private:
  std::unordered_map<uint64_t, uint64_t> names_;     // recorded -> host
  std::unordered_map<uint64_t, uint64_t> recorded_;  // host -> recorded
};

// GLES objects that contexts of one share group see alike.
inline bool IsShared(api::ObjectClass object) {
  using api::ObjectClass;
  switch (object) {
    case ObjectClass::kBuffer:
    case ObjectClass::kTexture:
    case ObjectClass::kRenderbuffer:
    case ObjectClass::kProgram:
    case ObjectClass::kShader:
    case ObjectClass::kSampler:
    case ObjectClass::kGlSync:
      return true;
    default:
      return false;
  }
}

// EGL handles belong to the display connection, not to a context.
inline bool IsEglHandle(api::ObjectClass object) {
  using api::ObjectClass;
  switch (object) {
    case ObjectClass::kEglDisplay:
    case ObjectClass::kEglConfig:
    case ObjectClass::kEglContext:
    case ObjectClass::kEglSurface:
    case ObjectClass::kEglImage:
    case ObjectClass::kEglSync:
      return true;
    default:
      return false;
  }
}

// Bytes of one element of an array of such names (GLuint, or a handle).
inline size_t NameBytes(api::ObjectClass object) {
  return IsEglHandle(object) || object == api::ObjectClass::kGlSync ? sizeof(void*) : sizeof(uint32_t);
}

struct ShareGroup {
  NameMap names[static_cast<int>(api::ObjectClass::kCount)];
  // Per recorded program; location 0 is a real location, so not a NameMap.
  std::map<uint64_t, std::unordered_map<int64_t, int64_t>> uniform_locations;
};

}  // namespace strata::host
