#pragma once
// Blobs that travel out of line on the wire (wire.h, bulk-v1). The client's
// encoder hands each large blob of a call record to a BulkSink, which sends
// it at once as a bulk segment (the app may reuse its memory as soon as the
// call returns) and so never copies it into the batch. The renderer keeps the
// segments that came before a message in BulkBlobs; its call decoder takes
// them, in order, for the blobs the message's records leave out.
//
// Over a shared-memory ring a segment is viewed where it lies, and the
// driver reads a texture image or buffer data straight from the ring: the
// copy into the renderer's memory is gone. The peer can still write there,
// so only calls that hand the bytes to the driver, which reads them once,
// keep a view; the others get a copy first (no double fetch).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace strata::stream {

class BulkSink {
 public:
  explicit BulkSink(size_t threshold) : threshold_(threshold) {}
  virtual ~BulkSink() = default;
  // Blobs of at least this many bytes go out of line.
  size_t threshold() const { return threshold_; }
  // Sends `size` bytes at `data` as the next bulk segment, before returning.
  virtual void PutBulk(const void* data, size_t size) = 0;

 private:
  size_t threshold_;
};

// Whether the executor hands the blob of a call of `slot` to the host driver
// as it is, and the driver copies it once: texture images and buffer data
// (their copies-data-once trait, api/function_traits.txt).
bool DriverCopiesBlobOnce(int slot);

class BulkBlobs {
 public:
  BulkBlobs() = default;
  // One that holds no segment and hands every blob asked of it out empty:
  // for a decoder that only follows a stream's calls (CallPreparer) while
  // another takes the segments.
  static BulkBlobs Skipping() {
    BulkBlobs skipping;
    skipping.skips_ = true;
    return skipping;
  }
  // Room of its own for a segment of `size` bytes read with a copy; then Add it.
  uint8_t* Room(size_t size);
  // A segment that came, in order. `shared`: it lies where the peer can
  // still write (a ring's view), and stays there until Own or Clear.
  void Add(std::span<const uint8_t> bytes, bool shared);
  // The next segment, for a blob of `size` bytes of a call of `slot`; false
  // with *error when there is none or it is of another size. Shared bytes of
  // a call that does not hand them straight to the driver are copied first.
  bool Take(int slot, size_t size, std::span<const uint8_t>* bytes, std::string* error);
  // Copies the shared segments into memory of their own, so that their
  // views can be given back before the message comes.
  void Own();

  size_t count() const { return segments_.size(); }
  size_t untaken() const { return segments_.size() - next_; }
  // Every segment forgotten; the memory of its own is kept for the next.
  void Clear();

 private:
  struct Segment {
    std::span<const uint8_t> bytes;
    bool shared;
  };
  uint8_t* Copy(std::span<const uint8_t> bytes);

  std::vector<Segment> segments_;
  size_t next_ = 0;
  // Copies: the outer vector may move its elements, their bytes stay put.
  std::vector<std::vector<uint8_t>> owned_;
  size_t owned_used_ = 0;
  bool skips_ = false;
};

}  // namespace strata::stream
