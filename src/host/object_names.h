#pragma once
// Recorded object names and handles -> this process's. A name nobody created
// in the stream (GLES 2 lets glBind* create names; a trace started mid-run)
// stands for itself, unless that is a live object's host name (NameMap::ToHost).

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "strata/api/replay.h"

namespace strata::host {

// Values for keys below 2^24 in pages of 1,024, made when a key arrives and
// kept while they hold one: a lookup is two loads, and making or deleting an
// object allocates nothing, however high the names climb. Remote clients
// hand out names that only grow (remote/client_names.h), so a program that
// makes and deletes objects every frame walks through millions of them
// (16 million: 30,000 textures a second for nine minutes; past them, the
// hash maps). What a hostile stream can make us hold stays small, since
// every context and object class has maps of its own: the page directory
// is at most 128 KiB, and past 16 pages a new one is made only while the
// pages average 64 names (Set refuses, and the caller keeps the key
// elsewhere).
class PagedNames {
 public:
  static constexpr uint64_t kKeys = uint64_t{1} << 24;

  explicit PagedNames(uint64_t absent) : absent_(absent) {}
  // `key` < kKeys. The value, or `absent`.
  uint64_t Get(uint64_t key) const {
    const uint64_t page = key >> kPageBits;
    return page < pages_.size() && pages_[page] ? pages_[page]->values[key & kPageMask] : absent_;
  }
  // `value` is never `absent`. False, with nothing stored, when the key's
  // page would be one too many.
  bool Set(uint64_t key, uint64_t value) {
    const uint64_t index = key >> kPageBits;
    if (index >= pages_.size() || !pages_[index]) {
      if (held_ >= kFreePages && live_ < held_ * kLivePerPage) return false;
      if (index >= pages_.size()) pages_.resize(index + 1);
      if (spare_) {
        pages_[index] = std::move(spare_);
      } else {
        pages_[index] = std::make_unique<Page>();
        pages_[index]->values.fill(absent_);
      }
      ++held_;
    }
    uint64_t& slot = pages_[index]->values[key & kPageMask];
    if (slot == absent_) {
      ++pages_[index]->live;
      ++live_;
    }
    slot = value;
    return true;
  }
  // Erases the key and returns what it held (`absent`: nothing).
  uint64_t Take(uint64_t key) {
    const uint64_t index = key >> kPageBits;
    if (index >= pages_.size() || !pages_[index]) return absent_;
    uint64_t& slot = pages_[index]->values[key & kPageMask];
    const uint64_t value = slot;
    if (value == absent_) return absent_;
    slot = absent_;
    --live_;
    if (--pages_[index]->live == 0) {
      // Kept for the next page: an object made and deleted at once would
      // otherwise make and clear a page each time.
      spare_ = std::move(pages_[index]);
      --held_;
    }
    return value;
  }
  // Calls f(key, value) for every key present, in increasing order.
  template <typename F>
  void ForEach(F f) const {
    for (uint64_t index = 0; index < pages_.size(); ++index) {
      if (!pages_[index]) continue;
      for (uint64_t at = 0; at <= kPageMask; ++at) {
        const uint64_t value = pages_[index]->values[at];
        if (value != absent_) f((index << kPageBits) | at, value);
      }
    }
  }
  void Clear() {
    pages_.clear();
    spare_.reset();
    held_ = live_ = 0;
  }
  // Pages held now (for tests: deleted names give their memory back).
  size_t pages() const { return held_; }

 private:
  static constexpr int kPageBits = 10;
  static constexpr uint64_t kPageMask = (uint64_t{1} << kPageBits) - 1;
  static constexpr size_t kFreePages = 16, kLivePerPage = 64;
  struct Page {
    std::array<uint64_t, uint64_t{1} << kPageBits> values;
    uint32_t live = 0;
  };
  uint64_t absent_;
  std::vector<std::unique_ptr<Page>> pages_;
  std::unique_ptr<Page> spare_;  // empty: every value absent
  size_t held_ = 0, live_ = 0;
};

class NameMap {
 public:
  // A name the stream never made, or deleted, stands for itself unless the
  // host gave that name to an object the stream knows by another (client
  // names only grow; NVIDIA's driver hands deleted names out again): then
  // for a name no driver hands out, so that a call on a dead name (a label,
  // glIs*, a delete) never reaches a live object.
  // Inline, a name the stream made is two loads; the rest out of line.
  [[gnu::always_inline]] uint64_t ToHost(uint64_t recorded) const {
    if (recorded == 0) return 0;
    if (recorded < PagedNames::kKeys) {
      const uint64_t host = to_host_.Get(recorded);
      if (host != kNone) [[likely]] return host;
    }
    return ToHostUnpaged(recorded);
  }
  // The recorded name of a host one, or 0 (eglGetCurrentContext and the
  // like: a handle the stream never named means nothing to it).
  uint64_t ToRecorded(uint64_t host) const {
    if (host < PagedNames::kKeys) {
      const uint64_t recorded = to_recorded_.Get(host);
      if (recorded != 0 || sparse_to_recorded_.empty()) return recorded;
    }
    return Find(sparse_to_recorded_, host, 0);
  }
  // A GL name as the stream knows it, for a query's answer: a host name
  // nobody mapped stands for itself, as in ToHost.
  uint64_t ToStream(uint64_t host) const {
    if (host == 0) return 0;
    const uint64_t recorded = ToRecorded(host);
    return recorded == 0 ? host : recorded;
  }
  bool Knows(uint64_t recorded) const { return HostOf(recorded) != kNone; }
  void Add(uint64_t recorded, uint64_t host) {
    if (recorded == 0) return;
    Remove(recorded);
    if (recorded >= PagedNames::kKeys || !to_host_.Set(recorded, host)) sparse_to_host_[recorded] = host;
    if (host == 0) return;
    if (host >= PagedNames::kKeys || !to_recorded_.Set(host, recorded)) sparse_to_recorded_[host] = recorded;
  }
  void Remove(uint64_t recorded) {
    uint64_t host = recorded < PagedNames::kKeys ? to_host_.Take(recorded) : kNone;
    if (host == kNone) {
      if (sparse_to_host_.empty()) return;
      host = Take(sparse_to_host_, recorded, kNone, kNone);
      if (host == kNone) return;
    }
    // Unless another recorded name took the host one since.
    if (host < PagedNames::kKeys && to_recorded_.Get(host) == recorded) {
      to_recorded_.Take(host);
    } else if (!sparse_to_recorded_.empty()) {
      Take(sparse_to_recorded_, host, 0, recorded);
    }
  }
  // Calls f(recorded, host) for every name, in no particular order.
  template <typename F>
  void ForEach(F f) const {
    to_host_.ForEach(f);
    for (const auto& [recorded, host] : sparse_to_host_) f(recorded, host);
  }
  void Clear() {
    to_host_.Clear();
    to_recorded_.Clear();
    sparse_to_host_.clear();
    sparse_to_recorded_.clear();
  }
  // Pages the GL names hold now, and names kept in the maps (tests).
  size_t pages() const { return to_host_.pages() + to_recorded_.pages(); }
  size_t sparse() const { return sparse_to_host_.size() + sparse_to_recorded_.size(); }

 private:
  // GL names go to pages; EGL handles and GL syncs, which are addresses,
  // names past 2^24 and names too scattered for pages, to the maps.
  static constexpr uint64_t kNone = ~uint64_t{0};
  static constexpr uint64_t kUnusedName = 0xFFFFFFFF;  // drivers count their names up from 1
  uint64_t HostOf(uint64_t recorded) const {
    if (recorded < PagedNames::kKeys) {
      const uint64_t host = to_host_.Get(recorded);
      if (host != kNone || sparse_to_host_.empty()) return host;
    }
    return Find(sparse_to_host_, recorded, kNone);
  }
  // ToHost of a name not in the pages: in the maps, or one the stream never made.
  [[gnu::noinline]] uint64_t ToHostUnpaged(uint64_t recorded) const {
    const uint64_t host = HostOf(recorded);
    if (host != kNone) return host;
    return ToRecorded(recorded) == 0 ? recorded : kUnusedName;
  }
  // Out of line: inlined, the hash lookup's registers cost every caller a
  // larger prologue although the maps are rarely asked.
  [[gnu::noinline]] static uint64_t Find(const std::unordered_map<uint64_t, uint64_t>& map, uint64_t key,
                                         uint64_t absent) {
    auto it = map.find(key);
    return it == map.end() ? absent : it->second;
  }
  // Erases the key if it holds `only` (kNone: whatever it holds); returns what it held.
  [[gnu::noinline]] static uint64_t Take(std::unordered_map<uint64_t, uint64_t>& map, uint64_t key, uint64_t absent,
                                         uint64_t only) {
    auto it = map.find(key);
    if (it == map.end() || (only != kNone && it->second != only)) return absent;
    const uint64_t value = it->second;
    map.erase(it);
    return value;
  }
  PagedNames to_host_{kNone};  // recorded -> host (kNone: not mapped)
  PagedNames to_recorded_{0};  // host -> recorded (0: none)
  std::unordered_map<uint64_t, uint64_t> sparse_to_host_, sparse_to_recorded_;
};

// GLES objects that contexts of one share group see alike.
constexpr bool IsShared(api::ObjectClass object) {
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
    case ObjectClass::kEglDevice:
      return true;
    default:
      return false;
  }
}

// Bytes of one element of an array of such names (GLuint, or a handle).
// The GL object whose name an EGL image of `target` takes as its client
// buffer (eglCreateImage: EGL_GL_TEXTURE_*_KHR, EGL_GL_RENDERBUFFER_KHR), or
// kNone for an image of anything else.
inline api::ObjectClass GlImageSource(uint64_t target) {
  constexpr uint64_t kTexture2d = 0x30B1, kTextureCubeFirst = 0x30B3, kTextureCubeLast = 0x30B8, kTexture3d = 0x30B2,
                     kRenderbuffer = 0x30B9;  // EGL_GL_TEXTURE_2D_KHR, ... (eglext.h, kept out of this header)
  if (target == kRenderbuffer) return api::ObjectClass::kRenderbuffer;
  const bool texture = target == kTexture2d || target == kTexture3d || (target >= kTextureCubeFirst && target <= kTextureCubeLast);
  return texture ? api::ObjectClass::kTexture : api::ObjectClass::kNone;
}

inline size_t NameBytes(api::ObjectClass object) {
  return IsEglHandle(object) || object == api::ObjectClass::kGlSync ? sizeof(void*) : sizeof(uint32_t);
}

// A program's uniform locations, recorded -> host. Location 0 is a real
// location, so not a NameMap. Drivers number locations from 0: those below
// kDense are an array a lookup indexes, the rest a map.
class UniformLocations {
 public:
  static constexpr int64_t kDense = 4096;
  // The host's location, or the recorded one where none was mapped.
  // Inline, a dense location is a bound check and a load; the rest out of line.
  [[gnu::always_inline]] int64_t ToHost(int64_t recorded) const {
    if (static_cast<uint64_t>(recorded) < dense_.size()) {
      const int64_t host = dense_[static_cast<size_t>(recorded)];
      if (host != kUnmapped) [[likely]] return host;
    }
    return ToHostSparse(recorded);
  }
  void Add(int64_t recorded, int64_t host) {
    if (recorded >= 0 && recorded < kDense) {
      if (static_cast<size_t>(recorded) >= dense_.size()) dense_.resize(static_cast<size_t>(recorded) + 1, kUnmapped);
      dense_[static_cast<size_t>(recorded)] = host;
    } else {
      sparse_[recorded] = host;
    }
  }
  // Calls f(recorded, host) for every location.
  template <typename F>
  void ForEach(F f) const {
    for (size_t at = 0; at < dense_.size(); ++at) {
      if (dense_[at] != kUnmapped) f(static_cast<int64_t>(at), dense_[at]);
    }
    for (const auto& [recorded, host] : sparse_) f(recorded, host);
  }

 private:
  [[gnu::noinline]] int64_t ToHostSparse(int64_t recorded) const {
    if (sparse_.empty()) return recorded;
    auto it = sparse_.find(recorded);
    return it == sparse_.end() ? recorded : it->second;
  }
  static constexpr int64_t kUnmapped = INT64_MIN;
  std::vector<int64_t> dense_;
  std::unordered_map<int64_t, int64_t> sparse_;
};

struct ShareGroup {
  uint64_t serial = 0;  // unique in an executor's life: a key that is never reused
  NameMap names[static_cast<int>(api::ObjectClass::kCount)];
  // Per recorded program (node-stable: contexts keep a pointer to their program's).
  std::map<uint64_t, UniformLocations> uniform_locations;
};

}  // namespace strata::host
