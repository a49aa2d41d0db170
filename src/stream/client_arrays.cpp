#include "stream/client_arrays.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "common/vertex_formats.h"

namespace strata::capture {
namespace {

constexpr int kVertexSlot = 0, kNormalSlot = 1, kColorSlot = 2, kPointSizeSlot = 3, kMatrixIndexSlot = 4,
              kWeightSlot = 5, kTexCoordSlot0 = 6;

// Spans [begin, end) as (begin, size), overlapping ones merged (interleaved
// arrays, index arrays that share indices), so that each byte goes out once.
std::vector<std::pair<const uint8_t*, size_t>> Merged(std::vector<std::pair<const uint8_t*, const uint8_t*>> spans) {
  std::sort(spans.begin(), spans.end());
  std::vector<std::pair<const uint8_t*, size_t>> merged;
  for (size_t i = 0; i < spans.size();) {
    auto [begin, stop] = spans[i];
    for (++i; i < spans.size() && spans[i].first <= stop; ++i) stop = std::max(stop, spans[i].second);
    merged.emplace_back(begin, static_cast<size_t>(stop - begin));
  }
  return merged;
}

}  // namespace

int ClientArrays::Gles1Slot(GLenum array) const {
  switch (array) {
    case kVertexArray: return kVertexSlot;
    case kNormalArray: return kNormalSlot;
    case kColorArray: return kColorSlot;
    case kPointSizeArrayOes: return kPointSizeSlot;
    case kMatrixIndexArrayOes: return kMatrixIndexSlot;
    case kWeightArrayOes: return kWeightSlot;
    case kTexCoordArray: return kTexCoordSlot0 + static_cast<int>(client_active_texture_);
    default: return -1;
  }
}

void ClientArrays::SetGles1Pointer(GLenum array, GLint size, GLenum type, GLsizei stride, const void* pointer,
                                   bool client) {
  SetPointer(Gles1Slot(array), size, type, stride, pointer, client);
}

void ClientArrays::Apply(const ArrayCall& call, bool array_buffer_bound) {
  const int index = call.index < static_cast<GLuint>(kSlots) ? static_cast<int>(call.index) : -1;
  using Op = api::ClientArrayOp;
  switch (call.op) {
    case Op::kPointer: return SetPointer(index, call.size, call.type, call.stride, call.pointer, !array_buffer_bound);
    case Op::kEnable: return Enable(index, true);
    case Op::kDisable: return Enable(index, false);
    case Op::kDivisor: return SetDivisor(index, call.divisor);
    case Op::kGles1Pointer:
      return SetGles1Pointer(call.array, call.size, call.type, call.stride, call.pointer, !array_buffer_bound);
    case Op::kEnableState: return Enable(Gles1Slot(call.array), true);
    case Op::kDisableState: return Enable(Gles1Slot(call.array), false);
    case Op::kClientTexture: return SetClientActiveTexture(call.array);
    case Op::kNone: return;
  }
}

void ClientArrays::SetPointer(int slot, GLint size, GLenum type, GLsizei stride, const void* pointer, bool client) {
  if (slot < 0 || slot >= kSlots) return;
  ClientArray& a = arrays_[slot];
  a.client = client;
  a.size = size;
  a.type = type;
  a.stride = stride;
  a.pointer = pointer;
  Recount(slot);
}

void ClientArrays::Enable(int slot, bool enabled) {
  if (slot < 0 || slot >= kSlots) return;
  arrays_[slot].enabled = enabled;
  Recount(slot);
}

void ClientArrays::Recount(int slot) {
  const ClientArray& a = arrays_[slot];
  const uint32_t bit = uint32_t{1} << slot;
  if (a.enabled && a.client && a.pointer != nullptr) {
    in_client_memory_ |= bit;
  } else {
    in_client_memory_ &= ~bit;
  }
}

void ClientArrays::SetDivisor(int slot, GLuint divisor) {
  if (slot >= 0 && slot < kSlots) arrays_[slot].divisor = divisor;
}

void ClientArrays::SetClientActiveTexture(GLenum texture) {
  if (texture >= GL_TEXTURE0 && texture < GL_TEXTURE0 + kSlots - kTexCoordSlot0) {
    client_active_texture_ = texture - GL_TEXTURE0;
  }
}

std::vector<std::pair<const uint8_t*, size_t>> ClientArrays::Ranges(int64_t first, int64_t end,
                                                                    int64_t instances) const {
  std::vector<std::pair<const uint8_t*, const uint8_t*>> ranges;
  if (end <= first) return {};
  for (const ClientArray& a : arrays_) {
    if (!a.enabled || !a.client || a.pointer == nullptr) continue;
    const size_t element = VertexAttribBytes(a.type, a.size);
    const size_t stride = a.stride > 0 ? static_cast<size_t>(a.stride) : element;
    int64_t lo = first, hi = end;
    if (a.divisor > 0) {
      lo = 0;
      hi = (std::max<int64_t>(instances, 1) + a.divisor - 1) / a.divisor;
    }
    const uint8_t* begin = static_cast<const uint8_t*>(a.pointer) + static_cast<size_t>(lo) * stride;
    ranges.emplace_back(begin, begin + static_cast<size_t>(hi - lo - 1) * stride + element);
  }
  return Merged(std::move(ranges));
}

bool IndexBounds(const void* data, size_t count, GLenum type, uint32_t* lowest, uint32_t* highest) {
  const size_t size = type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 : type == GL_UNSIGNED_INT ? 4 : 0;
  if (size == 0 || count == 0 || data == nullptr) return false;
  uint32_t lo = UINT32_MAX, hi = 0;
  const auto* bytes = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < count; ++i) {
    uint32_t index = 0;
    std::memcpy(&index, bytes + i * size, size);  // little-endian: the low bytes
    lo = std::min(lo, index);
    hi = std::max(hi, index);
  }
  *lowest = lo;
  *highest = hi;
  return true;
}

bool VertexSpan(const DrawCall& draw, IndexReader& indices, int64_t* first, int64_t* end) {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (GLsizei i = 0; i < draw.draws; ++i) {
    const int64_t count = draw.counts[i];
    if (count <= 0) continue;
    const int64_t base = draw.base_vertices != nullptr ? draw.base_vertices[i] : 0;
    if (draw.firsts != nullptr) {
      lo = std::min<int64_t>(lo, draw.firsts[i]);
      hi = std::max<int64_t>(hi, int64_t{draw.firsts[i]} + count);
      continue;
    }
    uint32_t lowest = 0, highest = 0;
    if (!indices.Bounds(draw.indices[i], static_cast<GLsizei>(count), draw.type, &lowest, &highest)) return false;
    lo = std::min<int64_t>(lo, lowest + base);
    hi = std::max<int64_t>(hi, highest + base + 1);
  }
  if (hi <= lo) return false;
  *first = lo;
  *end = hi;
  return true;
}

std::vector<std::pair<const uint8_t*, size_t>> IndexArrays(const DrawCall& draw) {
  const size_t size = draw.type == GL_UNSIGNED_BYTE ? 1 : draw.type == GL_UNSIGNED_SHORT ? 2
                      : draw.type == GL_UNSIGNED_INT ? 4 : 0;
  std::vector<std::pair<const uint8_t*, const uint8_t*>> spans;
  for (GLsizei i = 0; size != 0 && i < draw.draws; ++i) {
    if (draw.counts[i] <= 0 || draw.indices[i] == nullptr) continue;
    const auto* begin = static_cast<const uint8_t*>(draw.indices[i]);
    spans.emplace_back(begin, begin + static_cast<size_t>(draw.counts[i]) * size);
  }
  return Merged(std::move(spans));
}

}  // namespace strata::capture
