#pragma once
// The one byte-stream interface the remote renderer and its clients use (the
// seed's IOStream): write by reserving room, filling it and committing it;
// read whole messages. Implementations: sockets (socket_stream.h) and rings in
// shared memory (shm_ring.h); users cannot tell them apart.
//
// A stream is used by one thread at a time, except Shutdown(), which any
// thread may call to wake the one blocked in it.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace strata::transport {

struct StreamState;  // stream_handoff.h

// Why a read with a limit gave up in the middle of a message.
inline std::string PartialMessageText(const std::string& peer, size_t came, size_t n, int timeout_ms) {
  return peer + " sent " + std::to_string(came) + " of a message's " + std::to_string(n) +
         " bytes and then nothing for " + std::to_string(timeout_ms) + " ms";
}

class ByteStream {
 public:
  enum class ReadResult { kOk, kTimeout, kClosed, kError };

  virtual ~ByteStream() = default;

  // Room for at least n bytes after what is already committed; valid until the
  // next call. May send what is committed already to make that room.
  virtual uint8_t* Reserve(size_t n) = 0;
  // The first n bytes of the reserved room are written.
  virtual void Commit(size_t n) = 0;
  // Like Reserve, but only where n bytes fit in the stream's own memory now,
  // without waiting for the peer: a writer that holds a lock others wait on
  // fills them in place (a renderer reads a frame back straight into them).
  // Null where they do not fit or the stream has no such memory (a socket).
  virtual uint8_t* ReserveIfRoom(size_t n) {
    (void)n;
    return nullptr;
  }
  // Reserve + copy + Commit; false once the stream has failed. A stream may
  // do it with fewer copies.
  virtual bool Write(const void* data, size_t n) {
    if (n > 0) {
      std::memcpy(Reserve(n), data, n);
      Commit(n);
    }
    return error().empty();
  }
  // Sends everything committed; false (and error()) when the peer is gone.
  virtual bool Flush() = 0;

  // Blocks until n bytes have arrived; false (and error()) on end of stream or failure.
  virtual bool ReadFully(void* data, size_t n) = 0;
  // Like ReadFully, but gives up when the n bytes have not all come within
  // timeout_ms (< 0: never): kTimeout. When not a byte came, nothing is
  // consumed and error() stays empty; when part came, error() says how much,
  // and the part is lost (the stream is then only good for closing).
  virtual ReadResult ReadFullyWithin(void* data, size_t n, int timeout_ms) = 0;
  // Reading without a copy: the next n bytes where they lie, valid until
  // ReleaseViews(), which gives their room back to the writer. Null when
  // this stream cannot show them in place (a socket, or more than
  // ViewLimit() held at once): read them with ReadFully. The bytes lie in
  // memory the peer can still write: what is read twice must be copied.
  // Until ReleaseViews the writer has the rest of the stream only, so a
  // reader holding views must not wait for more than
  // (ViewLimit() - what it holds) other bytes before releasing them.
  virtual const uint8_t* View(size_t n) {
    (void)n;
    return nullptr;
  }
  virtual void ReleaseViews() {}
  // The most bytes views may hold at once; 0 where there are none.
  virtual size_t ViewLimit() const { return 0; }

  // Where large writes land. A ring gives a large write one of two places
  // (its start or its middle), so that frame after frame the same memory
  // carries the uploads and stays in the caches: this many bytes of padding
  // after `prefix` more bytes put the `n` bytes after them there. 0 where
  // placement means nothing (a socket).
  virtual size_t PlacementPadding(size_t prefix, size_t n) const {
    (void)prefix;
    (void)n;
    return 0;
  }
  // Writes n bytes of padding: a ring only moves past them.
  virtual bool WritePadding(size_t n) {
    static constexpr uint8_t kZeros[4096] = {};
    for (size_t left = n; left > 0;) {
      const size_t piece = left < sizeof kZeros ? left : sizeof kZeros;
      if (!Write(kZeros, piece)) return false;
      left -= piece;
    }
    return error().empty();
  }
  // Reads past n bytes of padding without looking at them.
  virtual bool Skip(size_t n) {
    uint8_t scratch[4096];
    for (size_t left = n; left > 0;) {
      const size_t piece = left < sizeof scratch ? left : sizeof scratch;
      if (!ReadFully(scratch, piece)) return false;
      left -= piece;
    }
    return true;
  }

  // Bytes already read from fd() but not yet handed out: poll() on fd() cannot
  // see them, so a server that polls must ask this first.
  virtual bool HasBufferedInput() const = 0;

  // Before a read sleeps for input, look for it for up to `microseconds`
  // first: a sleeping reader is woken across CPUs, which costs 100-500 us on
  // some virtual machines, while a call's answer often comes in a few us.
  // Spends CPU to save latency; 0 (the default) never spins.
  virtual void SetReadSpin(int microseconds) { (void)microseconds; }

  // For handing this end to another process (stream_handoff.h): duplicates
  // of the descriptors that carry it and where it stands, so that the other
  // process goes on exactly here. False where it cannot: bytes committed but
  // not flushed, views held, a failed stream, or a kind that cannot move.
  virtual bool ExportState(StreamState* state) const {
    (void)state;
    return false;
  }

  // Ends the connection both ways and wakes a reader or writer blocked in another thread.
  virtual void Shutdown() = 0;
  // Empty while all is well; else one line naming the peer and the problem,
  // e.g. "renderer at unix:@x closed the connection".
  virtual const std::string& error() const = 0;
  // For poll(); -1 if none.
  virtual int fd() const = 0;
  // What carries the bytes, for people: "socket" or "shared-memory ring".
  virtual const char* kind() const = 0;
};

}  // namespace strata::transport
