#include "transport/ring_offer.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <vector>

#include "transport/deadline.h"
#include "transport/shm_ring.h"
#include "transport/socket_stream.h"
#include "transport/sockets.h"
#include "transport/stream_handoff.h"

namespace strata::transport {
namespace {

constexpr char kOfferMagic[9] = "STRATAS\n";
constexpr size_t kMagicBytes = 8;
constexpr size_t kOfferBytes = 16;
constexpr uint32_t kOfferVersion = 1;
constexpr size_t kMaxReasonBytes = 512;

void PutU32(uint8_t* at, uint32_t value) {
  for (int i = 0; i < 4; ++i) at[i] = static_cast<uint8_t>(value >> (8 * i));
}
uint32_t GetU32(const uint8_t* at) {
  uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value |= static_cast<uint32_t>(at[i]) << (8 * i);
  return value;
}

bool SendAllBytes(int fd, const void* data, size_t n) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  while (n > 0) {
    const ssize_t sent = send(fd, bytes, n, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    bytes += sent;
    n -= static_cast<size_t>(sent);
  }
  return true;
}

// Reads exactly n bytes within `timeout_ms`; false on end, error or time out.
bool ReceiveExactly(int fd, void* data, size_t n, int timeout_ms) {
  auto* bytes = static_cast<uint8_t*>(data);
  while (n > 0) {
    if (WaitFor(fd, POLLIN, timeout_ms) <= 0) return false;
    const ssize_t got = recv(fd, bytes, n, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    bytes += got;
    n -= static_cast<size_t>(got);
  }
  return true;
}

// The server's answer: 'Y', or 'N' with the reason.
void Answer(int fd, const std::string& refusal) {
  if (refusal.empty()) {
    SendAllBytes(fd, "Y", 1);
    return;
  }
  const std::string reason = refusal.substr(0, kMaxReasonBytes);
  uint8_t header[3] = {'N', static_cast<uint8_t>(reason.size() & 0xff), static_cast<uint8_t>(reason.size() >> 8)};
  SendAllBytes(fd, header, sizeof header);
  SendAllBytes(fd, reason.data(), reason.size());
}

// The server's end until its first read says what the client wants; then a
// forwarder to the ring or the socket.
class AcceptedUnixStream final : public ByteStream {
 public:
  AcceptedUnixStream(int fd, std::string peer) : fd_(fd), peer_(std::move(peer)) {}
  ~AcceptedUnixStream() override {
    if (!inner_) close(fd_);
  }

  uint8_t* Reserve(size_t n) override { return Decided().Reserve(n); }
  void Commit(size_t n) override { Decided().Commit(n); }
  uint8_t* ReserveIfRoom(size_t n) override { return inner_ ? inner_->ReserveIfRoom(n) : nullptr; }
  bool Write(const void* data, size_t n) override { return Decided().Write(data, n); }
  bool Flush() override { return Decided().Flush(); }
  bool ReadFully(void* data, size_t n) override { return ReadFullyWithin(data, n, -1) == ReadResult::kOk; }
  ReadResult ReadFullyWithin(void* data, size_t n, int timeout_ms) override {
    const Deadline deadline(timeout_ms);  // the deciding counts against it too
    if (!inner_) {
      const ReadResult decided = Decide(timeout_ms);
      if (decided != ReadResult::kOk) return decided;
    }
    return inner_->ReadFullyWithin(data, n, deadline.LeftMs());
  }
  size_t PlacementPadding(size_t prefix, size_t n) const override {
    return inner_ ? inner_->PlacementPadding(prefix, n) : 0;
  }
  bool WritePadding(size_t n) override { return Decided().WritePadding(n); }
  bool Skip(size_t n) override { return inner_ ? inner_->Skip(n) : ByteStream::Skip(n); }
  const uint8_t* View(size_t n) override { return inner_ ? inner_->View(n) : nullptr; }
  void ReleaseViews() override {
    if (inner_) inner_->ReleaseViews();
  }
  size_t ViewLimit() const override { return inner_ ? inner_->ViewLimit() : 0; }
  bool HasBufferedInput() const override { return inner_ && inner_->HasBufferedInput(); }
  void SetReadSpin(int microseconds) override {
    spin_us_ = microseconds;
    if (inner_) inner_->SetReadSpin(microseconds);
  }
  void Shutdown() override {
    std::lock_guard lock(mu_);
    shut_down_ = true;
    if (inner_)
      inner_->Shutdown();
    else
      shutdown(fd_, SHUT_RDWR);
  }
  const std::string& error() const override { return inner_ ? inner_->error() : error_; }
  int fd() const override { return inner_ ? inner_->fd() : fd_; }
  const char* kind() const override { return inner_ ? inner_->kind() : "socket"; }
  // Only once decided: before its first read nobody knows what it is.
  bool ExportState(StreamState* state) const override { return inner_ && inner_->ExportState(state); }

 private:
  ByteStream& Decided() {
    if (!inner_) Install(std::make_unique<SocketStream>(fd_, peer_));
    return *inner_;
  }
  void Install(std::unique_ptr<ByteStream> stream) {
    std::lock_guard lock(mu_);
    inner_ = std::move(stream);
    inner_->SetReadSpin(spin_us_);
    if (shut_down_) inner_->Shutdown();
  }

  // Looks at the client's first bytes without taking them.
  ReadResult Decide(int timeout_ms) {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
      const int ready = WaitFor(fd_, POLLIN, timeout_ms);
      if (ready == 0) return ReadResult::kTimeout;
      if (ready < 0) {
        error_ = "cannot wait for " + peer_ + ": " + std::strerror(errno);
        return ReadResult::kError;
      }
      uint8_t first[kOfferBytes];
      const ssize_t got = recv(fd_, first, sizeof first, MSG_PEEK | MSG_DONTWAIT);
      if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      const size_t compared = got > 0 ? std::min<size_t>(static_cast<size_t>(got), kMagicBytes) : 0;
      if (got <= 0 || std::memcmp(first, kOfferMagic, compared) != 0) break;  // a plain client (or gone)
      if (static_cast<size_t>(got) == kOfferBytes) {
        TakeOffer();
        return ReadResult::kOk;
      }
      // The start of an offer: the rest is on its way.
      const auto spent = std::chrono::steady_clock::now() - start;
      if (timeout_ms >= 0 && spent > std::chrono::milliseconds(timeout_ms)) return ReadResult::kTimeout;
      usleep(1000);
    }
    Install(std::make_unique<SocketStream>(fd_, peer_));
    return ReadResult::kOk;
  }

  void TakeOffer() {
    uint8_t offer[kOfferBytes];
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kRingDescriptorCount)] = {};
    iovec io{offer, sizeof offer};
    msghdr message{};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    ssize_t got;
    do {
      got = recvmsg(fd_, &message, MSG_CMSG_CLOEXEC);
    } while (got < 0 && errno == EINTR);
    int descriptors[kRingDescriptorCount] = {-1, -1, -1, -1, -1};
    int count = 0;
    for (cmsghdr* c = CMSG_FIRSTHDR(&message); c != nullptr; c = CMSG_NXTHDR(&message, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      const size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (size_t i = 0; i < n; ++i) {
        int fd;
        std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
        if (count < kRingDescriptorCount)
          descriptors[count] = fd;
        else
          close(fd);
        ++count;
      }
    }
    std::string refusal;
    if (got != static_cast<ssize_t>(kOfferBytes)) {
      refusal = "the offer was cut short";
    } else if (GetU32(offer + 8) != kOfferVersion) {
      refusal = "ring offer version " + std::to_string(GetU32(offer + 8)) + ", this server takes " +
                std::to_string(kOfferVersion);
    } else if (count != kRingDescriptorCount || (message.msg_flags & MSG_CTRUNC) != 0) {
      refusal = "the offer carries " + std::to_string(count) + " descriptors, not " +
                std::to_string(kRingDescriptorCount);
    }
    if (!refusal.empty()) {
      for (int fd : descriptors) {
        if (fd >= 0) close(fd);
      }
    } else {
      const int ring_socket = fcntl(fd_, F_DUPFD_CLOEXEC, 0);
      auto ring = ring_socket >= 0 ? RingStream::Adopt(ring_socket, peer_, GetU32(offer + 12), descriptors, &refusal)
                                   : nullptr;
      if (ring_socket < 0) refusal = std::string("cannot duplicate the socket: ") + std::strerror(errno);
      if (ring) {
        Answer(fd_, "");
        close(fd_);  // the ring holds its own descriptor for the socket
        Install(std::move(ring));
        return;
      }
    }
    // Declined: the client goes on over the socket.
    Answer(fd_, refusal);
    Install(std::make_unique<SocketStream>(fd_, peer_));
  }

  const int fd_;
  const std::string peer_;
  std::unique_ptr<ByteStream> inner_;
  std::string error_;
  int spin_us_ = 0;
  std::mutex mu_;
  bool shut_down_ = false;
};

}  // namespace

std::unique_ptr<ByteStream> OfferRing(int fd, const std::string& peer, RingUse use, int timeout_ms,
                                      std::string* error) {
  if (use == RingUse::kNever) return std::make_unique<SocketStream>(fd, peer);
  const int ring_socket = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  std::string why;
  auto ring = ring_socket >= 0 ? RingStream::Create(ring_socket, peer, kDefaultRingBytes, &why) : nullptr;
  if (ring_socket < 0) why = std::string("cannot duplicate the socket: ") + std::strerror(errno);
  if (!ring) {
    if (use == RingUse::kRequired) {
      close(fd);
      *error = why;
      return nullptr;
    }
    return std::make_unique<SocketStream>(fd, peer);
  }

  uint8_t offer[kOfferBytes];
  std::memcpy(offer, kOfferMagic, kMagicBytes);
  PutU32(offer + 8, kOfferVersion);
  PutU32(offer + 12, kDefaultRingBytes);
  const bool sent = SendOffer(fd, offer, std::span<const int>(ring->descriptors(), kRingDescriptorCount));
  uint8_t answer = 0;
  if (!sent || !ReceiveExactly(fd, &answer, 1, timeout_ms)) {
    close(fd);
    *error = peer + " did not answer the shared-memory ring offer";
    return nullptr;
  }
  if (answer == 'Y') {
    close(fd);  // the ring holds its own descriptor for the socket
    return ring;
  }
  uint8_t length[2] = {};
  std::string reason = "no reason given";
  if (answer == 'N' && ReceiveExactly(fd, length, sizeof length, timeout_ms)) {
    reason.assign(static_cast<size_t>(length[0] | (length[1] << 8)), '\0');
    if (!ReceiveExactly(fd, reason.data(), reason.size(), timeout_ms)) reason = "no reason given";
  }
  if (answer != 'N' || use == RingUse::kRequired) {
    close(fd);
    *error = answer != 'N' ? peer + " answered the shared-memory ring offer with something else"
                           : peer + " refused the shared-memory ring: " + reason;
    return nullptr;
  }
  return std::make_unique<SocketStream>(fd, peer);
}

bool SendOffer(int fd, std::span<const uint8_t> offer, std::span<const int> descriptors) {
  return SendWithDescriptors(fd, offer, descriptors);
}

std::unique_ptr<ByteStream> AcceptRingOrSocket(int fd, std::string peer) {
  return std::make_unique<AcceptedUnixStream>(fd, std::move(peer));
}

}  // namespace strata::transport
