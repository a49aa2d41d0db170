#pragma once
// Reads values from untrusted bytes: every read is bounds-checked, and a
// failed read leaves the reader failed (ok() == false) for good.

#include <cstdint>
#include <cstring>
#include <span>
#include <string>

namespace strata::stream {

// A signed value from its zigzag varint (docs/trace-format.md).
inline int64_t FromZigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

// A varint that ends within the 8 bytes at `p` (all readable), in one load:
// its length, or 0 when it goes on past them. Pointers and handles take 6
// or 7 bytes, GL enums 3, and a byte-at-a-time loop of varying length
// mispredicts its exit.
[[gnu::always_inline]] inline size_t VarintInWord(const uint8_t* p, uint64_t* value) {
  uint64_t word;
  std::memcpy(&word, p, sizeof word);
  const uint64_t stops = ~word & 0x8080808080808080ull;  // the high bit of each byte that ends it
  if (stops == 0) return 0;
  const int length = (__builtin_ctzll(stops) >> 3) + 1;
  uint64_t v = length == 8 ? word : word & ((uint64_t{1} << (length * 8)) - 1);
  // Squeeze out the continuation bits: 7-bit groups to 14, 28, then 56 bits.
  v = ((v & 0x7f007f007f007f00ull) >> 1) | (v & 0x007f007f007f007full);
  v = ((v & 0x3fff00003fff0000ull) >> 2) | (v & 0x00003fff00003fffull);
  v = ((v & 0x0fffffff00000000ull) >> 4) | (v & 0x000000000fffffffull);
  *value = v;
  return static_cast<size_t>(length);
}

class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

  bool ok() const { return ok_; }
  size_t offset() const { return at_; }
  size_t remaining() const { return bytes_.size() - at_; }
  bool done() const { return at_ == bytes_.size(); }
  // What is left, as a reader of its own (a failed reader stays failed).
  ByteReader Rest() const { return ok_ ? ByteReader(bytes_.subspan(at_)) : *this; }

  uint8_t U8() {
    if (!Need(1)) return 0;
    return bytes_[at_++];
  }
  uint32_t U32() { return Fixed<uint32_t>(); }
  // Inline for the one- and two-byte varints most of a call record is made
  // of (GL enums, function ids, names, deltas); the rest out of line, so
  // that every read of a generated handler stays a handful of instructions.
  [[gnu::always_inline]] uint64_t Varint() {
    const uint8_t* const p = bytes_.data() + at_;
    const size_t left = bytes_.size() - at_;
    if (left != 0 && ok_) {
      if (p[0] < 0x80) {
        at_ += 1;
        return p[0];
      }
      if (left >= 2 && p[1] < 0x80) {
        at_ += 2;
        return static_cast<uint64_t>(p[0] & 0x7f) | static_cast<uint64_t>(p[1]) << 7;
      }
    }
    if (!ok_) return 0;
    uint64_t v;
    const size_t length = VarintTail(p, left, &v);
    if (length == 0) {
      ok_ = false;
      return 0;
    }
    at_ += length;
    return v;
  }
  int64_t Zigzag() { return FromZigzag(Varint()); }
  float Float() { return Fixed<float>(); }
  double Double() { return Fixed<double>(); }
  std::span<const uint8_t> Bytes(uint64_t size) {
    if (size > remaining()) {
      ok_ = false;
      return {};
    }
    auto span = bytes_.subspan(at_, size);
    at_ += size;
    return span;
  }
  // A blob: present with its bytes, or absent.
  bool Blob(std::span<const uint8_t>* data) {
    uint64_t tag = Varint();
    if (tag == 0) return false;
    *data = Bytes(tag - 1);
    return ok_;
  }
  std::string String() {
    auto bytes = Bytes(Varint());
    return std::string(bytes.begin(), bytes.end());
  }

 private:
  // The varints Varint() leaves: those of three bytes or more, and any cut
  // short; their length (0: cut short, or more than 10 bytes: not a varint).
  // Static: a reader that no call takes by address stays in registers.
  [[gnu::noinline]] static size_t VarintTail(const uint8_t* const begin, const size_t left, uint64_t* value) {
    // Up to 8 bytes at once where 8 remain.
    if (left >= 8) {
      if (const size_t length = VarintInWord(begin, value)) return length;
    }
    const uint8_t* p = begin;
    const uint8_t* const end = begin + left;
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && p != end; shift += 7) {
      const uint8_t b = *p++;
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) {
        *value = v;
        return static_cast<size_t>(p - begin);
      }
    }
    return 0;
  }
  // A little-endian value of fixed size (the host is little-endian).
  template <typename T>
  T Fixed() {
    T v{};
    if (Need(sizeof v)) {
      std::memcpy(&v, bytes_.data() + at_, sizeof v);
      at_ += sizeof v;
    }
    return v;
  }
  bool Need(size_t n) {
    if (!ok_ || n > remaining()) ok_ = false;
    return ok_;
  }
  std::span<const uint8_t> bytes_;
  size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace strata::stream
