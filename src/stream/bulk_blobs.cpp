#include "stream/bulk_blobs.h"

#include <cstring>

#include "strata/api/functions.h"
#include "strata/api/traits.h"

namespace strata::stream {

bool DriverCopiesBlobOnce(int slot) { return api::HasTrait(slot, api::kCopiesDataOnce); }

uint8_t* BulkBlobs::Room(size_t size) {
  if (owned_used_ == owned_.size()) owned_.emplace_back();
  std::vector<uint8_t>& room = owned_[owned_used_++];
  // Grown, never shrunk: resizing down and up would zero-fill each upload.
  if (room.size() < size) room.resize(size);
  return room.data();
}

uint8_t* BulkBlobs::Copy(std::span<const uint8_t> bytes) {
  uint8_t* copy = Room(bytes.size());
  if (!bytes.empty()) std::memcpy(copy, bytes.data(), bytes.size());
  return copy;
}

void BulkBlobs::Add(std::span<const uint8_t> bytes, bool shared) { segments_.push_back({bytes, shared}); }

bool BulkBlobs::Take(int slot, size_t size, std::span<const uint8_t>* bytes, std::string* error) {
  if (skips_) {
    *bytes = {};
    return true;
  }
  if (next_ == segments_.size()) {
    *error = "a blob of " + std::to_string(size) + " bytes left out of its record, with no bulk segment for it";
    return false;
  }
  Segment& segment = segments_[next_++];
  if (segment.bytes.size() != size) {
    *error = "a blob of " + std::to_string(size) + " bytes left out of its record, but the bulk segment holds " +
             std::to_string(segment.bytes.size());
    return false;
  }
  if (segment.shared && !DriverCopiesBlobOnce(slot)) segment = {{Copy(segment.bytes), size}, false};
  *bytes = segment.bytes;
  return true;
}

void BulkBlobs::Own() {
  for (Segment& segment : segments_) {
    if (segment.shared) segment = {{Copy(segment.bytes), segment.bytes.size()}, false};
  }
}

void BulkBlobs::Clear() {
  segments_.clear();
  next_ = 0;
  owned_used_ = 0;
}

}  // namespace strata::stream
