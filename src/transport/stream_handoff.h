#pragma once
// Moving one end of a connection to another process: the renderer's
// listener accepts a client, sets up its ring and reads its hello, then
// hands the connection to the worker process that serves the client. What
// moves is the descriptors (as SCM_RIGHTS over a Unix socket) and the little
// the receiving side must know to go on where the sender stopped: a ring's
// positions, the bytes a socket stream had read ahead.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "transport/byte_stream.h"

namespace strata::transport {

struct StreamState {
  enum class Kind : uint8_t { kSocket = 1, kRing = 2 };
  Kind kind = Kind::kSocket;
  std::string peer;              // names the other end in errors
  std::vector<int> descriptors;  // owned: the socket first, then a ring's memory and eventfds
  // A ring's size each way and this end's positions in it.
  uint32_t ring_bytes = 0;
  uint32_t read_position = 0;
  uint32_t write_position = 0;
  // A socket stream's input read from the socket but not yet consumed.
  std::vector<uint8_t> read_ahead;

  StreamState() = default;
  StreamState(StreamState&& other) noexcept;
  StreamState& operator=(StreamState&& other) noexcept;
  ~StreamState();  // closes the descriptors it still owns
  // Serialised without the descriptors, which travel beside it.
  std::vector<uint8_t> Encode() const;
  // Null-safe decoding of Encode's bytes; the descriptors are set apart.
  static bool Decode(std::span<const uint8_t> bytes, StreamState* state, std::string* error);
};

// The stream the state describes, this end now, or null with one line in
// *error. Takes the state's descriptors (also when it fails).
std::unique_ptr<ByteStream> ResumeStream(StreamState&& state, std::string* error);

// One message and descriptors over a Unix socket (SOCK_SEQPACKET keeps the
// message whole). False when not all of it went.
bool SendWithDescriptors(int fd, std::span<const uint8_t> bytes, std::span<const int> descriptors);
// One message of at most `max_bytes` and the descriptors it carries
// (close-on-exec), waiting up to `timeout_ms` (< 0: forever). > 0: the
// message's size; 0: the peer closed; < 0: failed (errno) or timed out
// (errno ETIMEDOUT). Descriptors past `max_descriptors` are closed.
ssize_t ReceiveWithDescriptors(int fd, std::vector<uint8_t>* bytes, size_t max_bytes, std::vector<int>* descriptors,
                               size_t max_descriptors, int timeout_ms);

}  // namespace strata::transport
