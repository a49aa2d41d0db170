#pragma once
// Reads one call record's scalars without a bound check per read: the
// generated handlers' path (host/fast_call.h), where a record's five to ten
// reads each checked were a third of what the call cost. The record must lie
// with kSlackBytes readable bytes after its end, so that the reads of a
// malformed record that run past its end stay in readable memory; whether
// they did shows at the end of the record (ok() and done()), before anything
// read is used. A blob's bytes (Bytes), whose length is the record's own
// word, are checked.

#include <cstdint>
#include <cstring>
#include <span>

#include "stream/byte_reader.h"

namespace strata::stream {

class SlackReader {
 public:
  // A varint takes at most 10 bytes and a fixed value 8, so a record read
  // with at most kMostReads of them reads at most kSlackBytes past its end.
  // (api/emit_executor.py checks each handler's reads against kMostReads.)
  static constexpr int kMostReads = 48;
  static constexpr size_t kSlackBytes = kMostReads * 10;
  // Whether a record with `readable_after` readable bytes after it may be read in place.
  static bool Fits(size_t readable_after) { return readable_after >= kSlackBytes; }

  SlackReader() = default;
  // `record` must be followed by kSlackBytes readable bytes.
  explicit SlackReader(std::span<const uint8_t> record) : at_(record.data()), end_(record.data() + record.size()) {}

  // False once a read ran past the record's end or read no varint.
  bool ok() const { return ok_ && at_ <= end_; }
  bool done() const { return at_ == end_; }

  [[gnu::always_inline]] uint8_t U8() { return *at_++; }
  [[gnu::always_inline]] uint64_t Varint() {
    bool bad = false;
    const uint64_t v = VarintAt(at_, bad);
    if (bad) [[unlikely]] ok_ = false;
    return v;
  }
  // Varint on a pointer of the caller's (a generated word reader's,
  // stream/word_readers.h, with position() and MoveTo() around it): `p`
  // moved past it, `bad` set for one longer than 10 bytes.
  [[gnu::always_inline]] static uint64_t VarintAt(const uint8_t*& p, bool& bad) {
    if (p[0] < 0x80) return *p++;
    if (p[1] < 0x80) {
      const uint64_t v = static_cast<uint64_t>(p[0] & 0x7f) | static_cast<uint64_t>(p[1]) << 7;
      p += 2;
      return v;
    }
    size_t length;
    const uint64_t v = VarintTail(p, &length);
    if (length == 0) [[unlikely]] {
      bad = true;
      return 0;
    }
    p += length;
    return v;
  }
  const uint8_t* position() const { return at_; }
  void MoveTo(const uint8_t* p) { at_ = p; }
  // A caller's own read found the record malformed.
  void Fail() { ok_ = false; }
  // A fixed-size value at a caller's pointer, `p` moved past it.
  template <typename T>
  [[gnu::always_inline]] static T FixedAt(const uint8_t*& p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
  }
  int64_t Zigzag() { return FromZigzag(Varint()); }
  float Float() { return FixedAt<float>(at_); }
  double Double() { return FixedAt<double>(at_); }
  // `size` bytes of the record, checked: empty (and ok() false) where the record has fewer left.
  std::span<const uint8_t> Bytes(uint64_t size) {
    if (at_ > end_ || size > static_cast<uint64_t>(end_ - at_)) {
      ok_ = false;
      return {};
    }
    const std::span<const uint8_t> bytes(at_, size);
    at_ += size;
    return bytes;
  }
  // The rest of the record as a reader that checks every read (empty once a read ran past the end).
  ByteReader Rest() const { return ByteReader(ok() ? std::span<const uint8_t>(at_, end_) : std::span<const uint8_t>()); }

 private:
  // Varints of three bytes or more, read from the 10 bytes at `p` (the
  // slack makes them readable); `*length` 0 for one longer than 10 bytes.
  // Static: a reader that no call takes by address stays in registers.
  [[gnu::noinline]] static uint64_t VarintTail(const uint8_t* p, size_t* length) {
    // Three bytes: most GL enums (0x4000 and up).
    if (p[2] < 0x80) {
      *length = 3;
      return static_cast<uint64_t>(p[0] & 0x7f) | static_cast<uint64_t>(p[1] & 0x7f) << 7 |
             static_cast<uint64_t>(p[2]) << 14;
    }
    uint64_t v = 0;
    if ((*length = VarintInWord(p, &v)) != 0) return v;
    for (int i = 0; i < 10; ++i) {
      v |= static_cast<uint64_t>(p[i] & 0x7f) << (7 * i);
      if (!(p[i] & 0x80)) {
        *length = static_cast<size_t>(i) + 1;
        return v;
      }
    }
    *length = 0;
    return 0;
  }
  const uint8_t* at_ = nullptr;   // the next byte to read (past end_ once a read ran past the record),
  const uint8_t* end_ = nullptr;  // and the byte after the record
  bool ok_ = true;
};

}  // namespace strata::stream
