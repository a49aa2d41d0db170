#pragma once
// A ByteStream over a connected stream socket (Unix or TCP). Writes collect in
// a buffer that grows to the largest single Reserve and go out on Flush (or
// when the buffer is full); reads come through a buffer so that many small
// reads cost few system calls. Writing to a vanished peer never raises SIGPIPE.

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "transport/byte_stream.h"

namespace strata::transport {

class SocketStream final : public ByteStream {
 public:
  // Takes `fd`, a connected blocking socket, and closes it when destroyed
  // (without flushing). `peer` names the other end in errors: "renderer at unix:@x".
  SocketStream(int fd, std::string peer);
  // The same, going on from another process's end (stream_handoff.h):
  // `read_ahead` is what it had read from the socket and not yet consumed.
  SocketStream(int fd, std::string peer, std::vector<uint8_t> read_ahead);
  ~SocketStream() override;
  SocketStream(const SocketStream&) = delete;
  SocketStream& operator=(const SocketStream&) = delete;

  uint8_t* Reserve(size_t n) override;
  void Commit(size_t n) override;
  bool Flush() override;
  // A large write goes to the socket from where it lies, after what is committed.
  bool Write(const void* data, size_t n) override;
  bool ReadFully(void* data, size_t n) override;
  ReadResult ReadFullyWithin(void* data, size_t n, int timeout_ms) override;
  bool HasBufferedInput() const override { return input_begin_ < input_end_; }
  bool ExportState(StreamState* state) const override;
  void Shutdown() override;
  void SetReadSpin(int microseconds) override { spin_ns_ = static_cast<int64_t>(microseconds) * 1000; }
  const std::string& error() const override { return error_; }
  int fd() const override { return fd_; }
  const char* kind() const override { return "socket"; }

  const std::string& peer() const { return peer_; }

 private:
  bool SendAll(const uint8_t* data, size_t n);
  // Fills `data` from the input buffer and the socket within timeout_ms (< 0:
  // no limit); kOk, kTimeout, kClosed or kError.
  ReadResult Receive(uint8_t* data, size_t n, int timeout_ms);
  // recv(), looking without sleeping for spin_ns_ first.
  ssize_t ReceiveSome(void* data, size_t n);
  // The reason when the peer is gone: an orderly close or our own Shutdown().
  std::string ClosedText() const;

  const int fd_;
  const std::string peer_;
  std::string error_;
  bool send_failed_ = false;
  std::atomic<bool> shut_down_{false};
  int64_t spin_ns_ = 0;

  std::unique_ptr<uint8_t[]> output_;
  size_t output_capacity_ = 0;
  size_t output_committed_ = 0;
  size_t output_reserved_ = 0;

  std::unique_ptr<uint8_t[]> input_;
  size_t input_begin_ = 0;
  size_t input_end_ = 0;
};

}  // namespace strata::transport
