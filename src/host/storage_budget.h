#pragma once
// The GL storage one stream has asked the host driver for (buffer data,
// texture images, renderbuffers), counted per object before each call that
// sets it, against a limit: a renderer's client (or a replayed trace) that
// asks for more gets GL_OUT_OF_MEMORY from the executor instead of the host
// running out of memory. Knows no GL calls: the executor says what each call
// sets (executor_storage.cpp).

#include <cstdint>
#include <map>
#include <tuple>

namespace strata::host {

class StorageBudget {
 public:
  enum class Kind : uint8_t { kBuffer, kTexture, kRenderbuffer };
  // One image of a texture (face * 1024 + level), or the whole object.
  static constexpr uint32_t kWholeObject = UINT32_MAX;

  // `limit` bytes in all; 0: no limit (everything is still counted).
  explicit StorageBudget(uint64_t limit) : limit_(limit) {}
  StorageBudget(const StorageBudget&) = delete;  // it keeps an iterator into its own map
  StorageBudget& operator=(const StorageBudget&) = delete;

  // Sets what image `image` of object `object` (of share group `group`)
  // holds to `bytes`, replacing what it held; an immutable texture's storage
  // (`image` kWholeObject) replaces all its images. False, changing
  // nothing, when the total would pass the limit.
  bool Set(const void* group, Kind kind, uint32_t object, uint32_t image, uint64_t bytes);
  // The object was deleted.
  void Forget(const void* group, Kind kind, uint32_t object);

  uint64_t used() const { return used_; }
  uint64_t limit() const { return limit_; }

 private:
  using Key = std::tuple<const void*, Kind, uint32_t, uint32_t>;
  // Erases the entries of [first, last) from the total.
  void Erase(std::map<Key, uint64_t>::iterator first, std::map<Key, uint64_t>::iterator last);

  const uint64_t limit_;
  uint64_t used_ = 0;
  std::map<Key, uint64_t> held_;
  // The whole-object entry Set last changed or made (held_.end(): none), so
  // that a streaming app's buffer given new storage at each draw finds its
  // entry without a search. Any erase forgets it.
  std::map<Key, uint64_t>::iterator last_whole_ = held_.end();
};

}  // namespace strata::host
