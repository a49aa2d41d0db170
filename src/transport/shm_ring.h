#pragma once
// A ByteStream over two rings in shared memory, one each way, for a client and
// a server on one host: bytes are copied into the peer's memory once, and a
// side that finds the other awake never makes a system call.
//
// The memory is a sealed memfd the client makes; it and four eventfds travel
// to the server over the Unix socket the two connected with (ring_offer.h),
// which then stays open only to tell each side that the other is gone.
// Each ring has a head (written by its writer) and a tail (by its reader),
// free-running 32-bit counts of bytes, and a "sleeping" word per side: a side
// that finds nothing to do says it sleeps, looks once more, then sleeps in
// poll() on its eventfd and the socket; the other side writes the eventfd
// only when it sees that word set. A sleeping writer's word is the room it
// waits for, a stretch of messages rather than the next one's bytes.
//
// The peer may be hostile: every index read from shared memory is read once,
// checked against the ring's size, and the bytes behind it are copied out
// before anyone looks at them. A peer that scribbles over the rings gets an
// error on this stream, never a crash.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "transport/byte_stream.h"

namespace strata::transport {

// The descriptors that make a pair of rings: the memory, then the eventfds
// (client-to-server data and room, server-to-client data and room).
inline constexpr int kRingDescriptorCount = 5;
// Each way: room for a 4 MiB upload viewed in place (ViewLimit is half the
// ring) while the next one is written. Pages are touched only as the rings
// go round.
inline constexpr uint32_t kDefaultRingBytes = 16u << 20;
inline constexpr uint32_t kMinRingBytes = 64u << 10;
inline constexpr uint32_t kMaxRingBytes = 256u << 20;

class RingStream final : public ByteStream {
 public:
  // New rings of `ring_bytes` each way (a power of two), the client's end;
  // their descriptors, for the server, are descriptors(). Takes `socket_fd`.
  static std::unique_ptr<RingStream> Create(int socket_fd, std::string peer, uint32_t ring_bytes,
                                            std::string* error);
  // The server's end of rings a client made, after checking that the memory
  // is a memfd sealed against shrinking of exactly the size the rings need
  // and that the wake-ups are eventfds. Takes `socket_fd` and the descriptors
  // (also when it fails).
  static std::unique_ptr<RingStream> Adopt(int socket_fd, std::string peer, uint32_t ring_bytes,
                                           const int (&descriptors)[kRingDescriptorCount], std::string* error);
  // After Adopt, in a process that takes over an end another process
  // started (stream_handoff.h): where that end had read and written to.
  void ResumeAt(uint32_t read_position, uint32_t write_position);
  ~RingStream() override;
  RingStream(const RingStream&) = delete;
  RingStream& operator=(const RingStream&) = delete;

  const int (&descriptors() const)[kRingDescriptorCount] { return descriptors_; }

  uint8_t* Reserve(size_t n) override;
  void Commit(size_t n) override;
  // In the ring itself (its double mapping: any run up to its size is one span).
  uint8_t* ReserveIfRoom(size_t n) override;
  // Straight into the ring in pieces as the reader makes room: no staging copy.
  bool Write(const void* data, size_t n) override;
  bool Flush() override;
  bool ReadFully(void* data, size_t n) override;
  ReadResult ReadFullyWithin(void* data, size_t n, int timeout_ms) override;
  // Writes of at least an eighth of the ring start at its start or its middle.
  size_t PlacementPadding(size_t prefix, size_t n) const override;
  bool WritePadding(size_t n) override;
  bool Skip(size_t n) override;
  // In the ring's double mapping: any run up to half the ring is one span.
  const uint8_t* View(size_t n) override;
  void ReleaseViews() override;
  size_t ViewLimit() const override { return size_ / 2; }
  bool HasBufferedInput() const override;
  void SetReadSpin(int microseconds) override { read_spin_ns_ = static_cast<int64_t>(microseconds) * 1000; }
  bool ExportState(StreamState* state) const override;
  void Shutdown() override;
  const std::string& error() const override { return error_; }
  int fd() const override { return socket_fd_; }
  const char* kind() const override { return "shared-memory ring"; }

 private:
  // One ring as this end sees it.
  struct Ring {
    uint8_t* data = nullptr;  // mapped twice in a row: data[i] and data[i + size] are one byte
    uint32_t* head = nullptr;
    uint32_t* tail = nullptr;
    uint32_t* reader_sleeping = nullptr;
    uint32_t* writer_sleeping = nullptr;
    int data_ready_fd = -1;  // written when the reader sleeps and bytes came
    int room_ready_fd = -1;  // written when the writer sleeps and room was made
  };

  RingStream(int socket_fd, std::string peer, uint32_t ring_bytes);
  bool Map(int memory_fd, bool client, std::string* error);

  // Free bytes in the outgoing ring; -1 (and the stream failed) when the
  // reader's tail is impossible.
  int64_t Room();
  // Bytes in the incoming ring not yet read; -1 (and the stream failed) when
  // the writer's head is impossible.
  int64_t Available();
  // Makes committed bytes visible to the reader and wakes it if it sleeps.
  void Publish();
  // Waits until the outgoing ring has room for `n` bytes; false once the stream is broken.
  bool WaitForRoom(size_t n);
  // Copies `n` bytes into the outgoing ring (or, without data, moves past
  // them), publishing as it goes.
  void WriteInPieces(const uint8_t* data, size_t n);
  bool broken() const { return failed_ || gone_; }
  // Everything read so far is the writer's again.
  void GiveRoomBack();
  // Waits until `ready()` (spinning for `spin_ns` first), the peer is gone,
  // this end is shut down or `timeout_ms` passed; asleep, `*sleeping` holds
  // `sleeping_word`.
  template <typename Ready>
  ReadResult Wait(Ready ready, uint32_t* sleeping, int wake_fd, int timeout_ms, int64_t spin_ns,
                  uint32_t sleeping_word = 1);
  // The stream fails with one line naming the peer: `what` it broke.
  ReadResult Corrupted(const std::string& what);
  std::string ClosedText() const;

  const int socket_fd_;
  const std::string peer_;
  const uint32_t size_;
  int descriptors_[kRingDescriptorCount] = {-1, -1, -1, -1, -1};
  void* control_ = nullptr;
  void* mapping_[2] = {nullptr, nullptr};
  Ring out_, in_;
  std::string error_;
  bool failed_ = false;  // a broken ring or a failed wait: every later call fails
  bool gone_ = false;    // the peer went: reads take what it left, then say so
  std::atomic<bool> shut_down_{false};
  int64_t read_spin_ns_ = 0;

  uint32_t write_pos_ = 0;  // committed, perhaps not yet published
  uint32_t published_ = 0;
  uint32_t read_pos_ = 0;
  uint32_t released_ = 0;  // the tail this end last gave the writer
  bool holding_ = false;   // views are out: the tail stays where it was
  size_t reserved_ = 0;
  bool staged_ = false;  // the reservation lies in staging_, not in the ring
  std::vector<uint8_t> staging_;
};

}  // namespace strata::transport
