#pragma once
// Appends encoded values to a growable byte buffer.

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace strata::stream {

class ByteWriter {
 public:
  explicit ByteWriter(std::vector<uint8_t>* out) : out_(out) {}

  void U8(uint8_t v) { out_->push_back(v); }
  void Varint(uint64_t v) {
    uint8_t bytes[10];
    size_t n = 0;
    do {
      bytes[n++] = static_cast<uint8_t>((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
      v >>= 7;
    } while (v != 0);
    out_->insert(out_->end(), bytes, bytes + n);
  }
  void Zigzag(int64_t v) { Varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void Float(float v) { Raw(&v, sizeof v); }
  void Double(double v) { Raw(&v, sizeof v); }
  void Raw(const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    out_->insert(out_->end(), p, p + size);
  }
  // A blob: varint (size + 1) then the bytes; Absent() writes 0.
  void Blob(const void* data, size_t size) {
    Varint(static_cast<uint64_t>(size) + 1);
    Raw(data, size);
  }
  void Absent() { Varint(0); }
  void String(std::string_view s) {
    Varint(s.size());
    Raw(s.data(), s.size());
  }
  // Starts a record; returns the offset to pass to EndRecord.
  size_t BeginRecord(uint8_t type) {
    size_t at = out_->size();
    uint8_t header[5] = {type, 0, 0, 0, 0};
    Raw(header, sizeof header);
    return at;
  }
  void EndRecord(size_t at) {
    uint32_t length = static_cast<uint32_t>(out_->size() - at - 5);
    std::memcpy(out_->data() + at + 1, &length, sizeof length);
  }
  size_t size() const { return out_->size(); }

 private:
  std::vector<uint8_t>* out_;
};

}  // namespace strata::stream
