#pragma once
// Recorded object names and handles -> this process's. A name nobody created
// in the stream (GLES 2 lets glBind* create names; a trace started mid-run)
// stands for itself.

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "strata/api/replay.h"

namespace strata::host {

class NameMap {
 public:
  uint64_t ToHost(uint64_t recorded) const {
    if (recorded == 0) return 0;
    if (recorded < kDenseNames) {
      const uint64_t host = recorded < to_host_.size() ? to_host_[recorded] : kNone;
      return host == kNone ? recorded : host;
    }
    auto it = sparse_to_host_.find(recorded);
    return it == sparse_to_host_.end() ? recorded : it->second;
  }
  // The recorded name of a host one, or 0 (eglGetCurrentContext and the
  // like: a handle the stream never named means nothing to it).
  uint64_t ToRecorded(uint64_t host) const {
    if (host < kDenseNames) return host < to_recorded_.size() ? to_recorded_[host] : 0;
    auto it = sparse_to_recorded_.find(host);
    return it == sparse_to_recorded_.end() ? 0 : it->second;
  }
  // A GL name as the stream knows it, for a query's answer: a host name
  // nobody mapped stands for itself, as in ToHost.
  uint64_t ToStream(uint64_t host) const {
    if (host == 0) return 0;
    const uint64_t recorded = ToRecorded(host);
    return recorded == 0 ? host : recorded;
  }
  bool Knows(uint64_t recorded) const {
    if (recorded < kDenseNames) return recorded < to_host_.size() && to_host_[recorded] != kNone;
    return sparse_to_host_.count(recorded) != 0;
  }
  void Add(uint64_t recorded, uint64_t host) {
    if (recorded == 0) return;
    Remove(recorded);
    if (recorded < kDenseNames) {
      Grow(to_host_, recorded, kNone)[recorded] = host;
    } else {
      sparse_to_host_[recorded] = host;
    }
    if (host == 0) return;
    if (host < kDenseNames) {
      Grow(to_recorded_, host, 0)[host] = recorded;
    } else {
      sparse_to_recorded_[host] = recorded;
    }
  }
  void Remove(uint64_t recorded) {
    uint64_t host = kNone;
    if (recorded < kDenseNames) {
      if (recorded >= to_host_.size() || to_host_[recorded] == kNone) return;
      host = std::exchange(to_host_[recorded], kNone);
    } else {
      auto it = sparse_to_host_.find(recorded);
      if (it == sparse_to_host_.end()) return;
      host = it->second;
      sparse_to_host_.erase(it);
    }
    if (host < kDenseNames) {
      if (host < to_recorded_.size() && to_recorded_[host] == recorded) to_recorded_[host] = 0;
    } else if (auto back = sparse_to_recorded_.find(host); back != sparse_to_recorded_.end() && back->second == recorded) {
      sparse_to_recorded_.erase(back);
    }
  }
  // Calls f(recorded, host) for every name, in no particular order.
  template <typename F>
  void ForEach(F f) const {
    for (uint64_t recorded = 1; recorded < to_host_.size(); ++recorded) {
      if (to_host_[recorded] != kNone) f(recorded, to_host_[recorded]);
    }
    for (const auto& [recorded, host] : sparse_to_host_) f(recorded, host);
  }
  void Clear() {
    to_host_.clear();
    to_recorded_.clear();
    sparse_to_host_.clear();
    sparse_to_recorded_.clear();
  }

 private:
  // GL names are small integers handed out in order: below this they index
  // flat arrays (a lookup is a load; making and deleting objects allocates
  // nothing); EGL handles and GL syncs, which are addresses, go to the maps.
  static constexpr uint64_t kDenseNames = 1u << 16;
  static constexpr uint64_t kNone = ~uint64_t{0};
  static std::vector<uint64_t>& Grow(std::vector<uint64_t>& names, uint64_t index, uint64_t fill) {
    if (index >= names.size()) names.resize(std::min<uint64_t>(kDenseNames, std::max<uint64_t>(index + 1, names.size() * 2)), fill);
    return names;
  }
  std::vector<uint64_t> to_host_;      // recorded -> host (kNone: not mapped)
  std::vector<uint64_t> to_recorded_;  // host -> recorded (0: none)
  std::unordered_map<uint64_t, uint64_t> sparse_to_host_, sparse_to_recorded_;
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
  uint64_t serial = 0;  // unique in an executor's life: a key that is never reused
  NameMap names[static_cast<int>(api::ObjectClass::kCount)];
  // Per recorded program; location 0 is a real location, so not a NameMap.
  std::map<uint64_t, std::unordered_map<int64_t, int64_t>> uniform_locations;
};

}  // namespace strata::host
