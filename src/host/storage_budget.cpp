#include "host/storage_budget.h"

#include <iterator>

namespace strata::host {

void StorageBudget::Erase(std::map<Key, uint64_t>::iterator first, std::map<Key, uint64_t>::iterator last) {
  for (auto it = first; it != last; ++it) used_ -= it->second;
  held_.erase(first, last);
  last_whole_ = held_.end();
}

bool StorageBudget::Set(const void* group, Kind kind, uint32_t object, uint32_t image, uint64_t bytes) {
  // A buffer given new storage again (a streaming app orphans one per draw):
  // its one entry, the whole object's (the last key of an object, so the
  // first one found when it is its only one), changes in place.
  const Key whole{group, kind, object, kWholeObject};
  const bool known = last_whole_ != held_.end() && last_whole_->first == whole;
  const auto first = known ? last_whole_ : held_.lower_bound({group, kind, object, 0});
  if (image == kWholeObject && bytes > 0 && first != held_.end() && first->first == whole) {
    const uint64_t others = used_ - first->second;
    if (limit_ != 0 && (bytes > limit_ || others > limit_ - bytes)) return false;
    used_ = others + bytes;
    first->second = bytes;
    last_whole_ = first;
    return true;
  }
  const auto last = held_.upper_bound({group, kind, object, kWholeObject});
  const auto same = held_.find({group, kind, object, image});
  // A new image of an immutable texture fails in the driver: its storage stays what it was.
  if (image != kWholeObject && held_.count({group, kind, object, kWholeObject}) != 0) return true;
  uint64_t replaced = 0;
  if (image == kWholeObject) {
    for (auto it = first; it != last; ++it) replaced += it->second;
  } else if (same != held_.end()) {
    replaced = same->second;
  }
  const uint64_t others = used_ - replaced;
  if (limit_ != 0 && (bytes > limit_ || others > limit_ - bytes)) return false;
  if (image == kWholeObject) {
    Erase(first, last);
  } else if (same != held_.end()) {
    Erase(same, std::next(same));
  }
  if (bytes > 0) {
    const auto made = held_.insert_or_assign({group, kind, object, image}, bytes).first;
    if (image == kWholeObject) last_whole_ = made;
    used_ += bytes;
  }
  return true;
}

void StorageBudget::Forget(const void* group, Kind kind, uint32_t object) {
  Erase(held_.lower_bound({group, kind, object, 0}), held_.upper_bound({group, kind, object, kWholeObject}));
}

}  // namespace strata::host
