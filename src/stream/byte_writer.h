#pragma once
// Appends encoded values to a growable byte buffer. On the tracer's per-call
// path: each write is a capacity check and plain stores, no allocation.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace strata::stream {

// Bytes [0, size) are written; the vector's own size is the capacity.
class BulkSink;

struct ByteBuffer {
  std::vector<uint8_t> storage;
  size_t size = 0;
  // Where the call encoder sends large blobs instead (a remote client's
  // batch: bulk_blobs.h); null for everything else.
  BulkSink* bulk = nullptr;

  uint8_t* Reserve(size_t n) {
    if (size + n > storage.size()) storage.resize(std::max(storage.size() * 2, size + n + 4096));
    return storage.data() + size;
  }
  std::span<const uint8_t> bytes() const { return {storage.data(), size}; }
  void Clear() { size = 0; }
};

class ByteWriter {
 public:
  explicit ByteWriter(ByteBuffer* out) : out_(out) {}

  void U8(uint8_t v) {
    *out_->Reserve(1) = v;
    ++out_->size;
  }
  void Varint(uint64_t v) {
    if (v < 0x80) return U8(static_cast<uint8_t>(v));  // most values on the per-call path
    uint8_t* p = out_->Reserve(10);
    size_t n = 0;
    while (v > 0x7f) {
      p[n++] = static_cast<uint8_t>(v | 0x80);
      v >>= 7;
    }
    p[n++] = static_cast<uint8_t>(v);
    out_->size += n;
  }
  void Zigzag(int64_t v) { Varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void Float(float v) { Raw(&v, sizeof v); }
  void Double(double v) { Raw(&v, sizeof v); }
  void Raw(const void* data, size_t size) {
    std::memcpy(out_->Reserve(size), data, size);
    out_->size += size;
  }
  // A blob: varint (size + 1) then the bytes; Absent() writes 0.
  void Blob(const void* data, size_t size) {
    Varint(static_cast<uint64_t>(size) + 1);
    Raw(data, size);
  }
  void Absent() { U8(0); }
  void String(std::string_view s) {
    Varint(s.size());
    Raw(s.data(), s.size());
  }
  // Starts a record; returns the offset to pass to EndRecord. One byte is
  // kept for the length: most records are short.
  size_t BeginRecord(uint8_t type) {
    size_t at = out_->size;
    uint8_t* p = out_->Reserve(2);
    p[0] = type;
    p[1] = 0;
    out_->size += 2;
    return at;
  }
  void EndRecord(size_t at) {
    uint64_t length = out_->size - at - 2;
    if (length < 0x80) {
      out_->storage[at + 1] = static_cast<uint8_t>(length);
      return;
    }
    uint8_t bytes[10];
    size_t n = 0;
    for (uint64_t v = length;; v >>= 7) {
      bytes[n++] = static_cast<uint8_t>((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
      if (v <= 0x7f) break;
    }
    // A long record: widen the length field (cost proportional to its payload anyway).
    out_->Reserve(n - 1);
    uint8_t* payload = out_->storage.data() + at + 2;
    std::memmove(payload + n - 1, payload, length);
    std::memcpy(payload - 1, bytes, n);
    out_->size += n - 1;
  }
  size_t size() const { return out_->size; }

 private:
  ByteBuffer* out_;
};

}  // namespace strata::stream
