#include "transport/stream_handoff.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "transport/shm_ring.h"
#include "transport/socket_stream.h"
#include "transport/sockets.h"

namespace strata::transport {
namespace {

// Far more than a hello's worth of read-ahead; a bound for decoding.
constexpr uint32_t kMaxReadAhead = 1u << 20;
constexpr uint32_t kMaxPeerBytes = 4096;

void PutU32(std::vector<uint8_t>& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

bool GetU32(std::span<const uint8_t> bytes, size_t* at, uint32_t* value) {
  if (bytes.size() - *at < 4 || *at > bytes.size()) return false;
  *value = 0;
  for (int i = 0; i < 4; ++i) *value |= static_cast<uint32_t>(bytes[*at + i]) << (8 * i);
  *at += 4;
  return true;
}

void CloseAll(std::vector<int>& descriptors) {
  for (int fd : descriptors) {
    if (fd >= 0) close(fd);
  }
  descriptors.clear();
}

}  // namespace

StreamState::StreamState(StreamState&& other) noexcept { *this = std::move(other); }

StreamState& StreamState::operator=(StreamState&& other) noexcept {
  if (this == &other) return *this;
  CloseAll(descriptors);
  kind = other.kind;
  peer = std::move(other.peer);
  descriptors = std::move(other.descriptors);
  other.descriptors.clear();
  ring_bytes = other.ring_bytes;
  read_position = other.read_position;
  write_position = other.write_position;
  read_ahead = std::move(other.read_ahead);
  return *this;
}

StreamState::~StreamState() { CloseAll(descriptors); }

std::vector<uint8_t> StreamState::Encode() const {
  std::vector<uint8_t> out;
  out.push_back(static_cast<uint8_t>(kind));
  PutU32(out, ring_bytes);
  PutU32(out, read_position);
  PutU32(out, write_position);
  PutU32(out, static_cast<uint32_t>(peer.size()));
  out.insert(out.end(), peer.begin(), peer.end());
  PutU32(out, static_cast<uint32_t>(read_ahead.size()));
  out.insert(out.end(), read_ahead.begin(), read_ahead.end());
  return out;
}

bool StreamState::Decode(std::span<const uint8_t> bytes, StreamState* state, std::string* error) {
  size_t at = 1;
  uint32_t peer_size = 0, read_ahead_size = 0;
  const bool ok = !bytes.empty() && (bytes[0] == static_cast<uint8_t>(Kind::kSocket) ||
                                     bytes[0] == static_cast<uint8_t>(Kind::kRing)) &&
                  GetU32(bytes, &at, &state->ring_bytes) && GetU32(bytes, &at, &state->read_position) &&
                  GetU32(bytes, &at, &state->write_position) && GetU32(bytes, &at, &peer_size) &&
                  peer_size <= kMaxPeerBytes && bytes.size() - at >= peer_size;
  if (!ok) {
    *error = "a malformed connection hand-over";
    return false;
  }
  state->kind = static_cast<Kind>(bytes[0]);
  state->peer.assign(reinterpret_cast<const char*>(bytes.data() + at), peer_size);
  at += peer_size;
  if (!GetU32(bytes, &at, &read_ahead_size) || read_ahead_size > kMaxReadAhead || bytes.size() - at != read_ahead_size) {
    *error = "a malformed connection hand-over (its read-ahead)";
    return false;
  }
  state->read_ahead.assign(bytes.begin() + static_cast<ptrdiff_t>(at), bytes.end());
  return true;
}

std::unique_ptr<ByteStream> ResumeStream(StreamState&& state, std::string* error) {
  StreamState taken = std::move(state);
  std::vector<int>& fds = taken.descriptors;
  if (taken.kind == StreamState::Kind::kSocket) {
    if (fds.size() != 1) {
      *error = "a socket hand-over with " + std::to_string(fds.size()) + " descriptors";
      return nullptr;
    }
    auto stream = std::make_unique<SocketStream>(fds[0], taken.peer, std::move(taken.read_ahead));
    fds.clear();
    return stream;
  }
  if (fds.size() != 1 + kRingDescriptorCount) {
    *error = "a ring hand-over with " + std::to_string(fds.size()) + " descriptors";
    return nullptr;
  }
  int ring[kRingDescriptorCount];
  std::copy(fds.begin() + 1, fds.end(), ring);
  const int socket_fd = fds[0];
  fds.clear();  // Adopt takes them, also when it fails
  auto stream = RingStream::Adopt(socket_fd, taken.peer, taken.ring_bytes, ring, error);
  if (!stream) return nullptr;
  stream->ResumeAt(taken.read_position, taken.write_position);
  return stream;
}

bool SendWithDescriptors(int fd, std::span<const uint8_t> bytes, std::span<const int> descriptors) {
  iovec io{const_cast<uint8_t*>(bytes.data()), bytes.size()};
  std::vector<char> control(descriptors.empty() ? 0 : CMSG_SPACE(descriptors.size_bytes()));
  msghdr message{};
  message.msg_iov = &io;
  message.msg_iovlen = 1;
  if (!descriptors.empty()) {
    message.msg_control = control.data();
    message.msg_controllen = control.size();
    cmsghdr* c = CMSG_FIRSTHDR(&message);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(descriptors.size_bytes());
    std::memcpy(CMSG_DATA(c), descriptors.data(), descriptors.size_bytes());
  }
  ssize_t sent;
  do {
    sent = sendmsg(fd, &message, MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  return sent == static_cast<ssize_t>(bytes.size());
}

ssize_t ReceiveWithDescriptors(int fd, std::vector<uint8_t>* bytes, size_t max_bytes, std::vector<int>* descriptors,
                               size_t max_descriptors, int timeout_ms) {
  descriptors->clear();
  const int ready = WaitFor(fd, POLLIN, timeout_ms);
  if (ready == 0) errno = ETIMEDOUT;
  if (ready <= 0) return -1;
  bytes->resize(max_bytes);
  std::vector<char> control(CMSG_SPACE(sizeof(int) * (max_descriptors + 1)));
  iovec io{bytes->data(), bytes->size()};
  msghdr message{};
  message.msg_iov = &io;
  message.msg_iovlen = 1;
  message.msg_control = control.data();
  message.msg_controllen = control.size();
  ssize_t got;
  do {
    got = recvmsg(fd, &message, MSG_CMSG_CLOEXEC);
  } while (got < 0 && errno == EINTR);
  if (got < 0) return got;
  for (cmsghdr* c = CMSG_FIRSTHDR(&message); c != nullptr; c = CMSG_NXTHDR(&message, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < n; ++i) {
      int received;
      std::memcpy(&received, CMSG_DATA(c) + i * sizeof(int), sizeof received);
      if (descriptors->size() < max_descriptors) {
        descriptors->push_back(received);
      } else {
        close(received);
      }
    }
  }
  if ((message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0) {
    for (int d : *descriptors) close(d);
    descriptors->clear();
    errno = EMSGSIZE;
    return -1;
  }
  bytes->resize(static_cast<size_t>(got));
  return got;
}

}  // namespace strata::transport
