#include "transport/socket_stream.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "transport/deadline.h"
#include "transport/spin_wait.h"
#include "transport/sockets.h"
#include "transport/stream_handoff.h"

namespace strata::transport {
namespace {

constexpr size_t kInitialOutputSize = 64 * 1024;
// Reads at least this large skip the input buffer and land in place.
constexpr size_t kInputBufferSize = 64 * 1024;

}  // namespace

SocketStream::SocketStream(int fd, std::string peer) : fd_(fd), peer_(std::move(peer)) {}

SocketStream::SocketStream(int fd, std::string peer, std::vector<uint8_t> read_ahead)
    : fd_(fd), peer_(std::move(peer)) {
  if (read_ahead.empty()) return;
  input_ = std::make_unique_for_overwrite<uint8_t[]>(std::max(read_ahead.size(), kInputBufferSize));
  std::memcpy(input_.get(), read_ahead.data(), read_ahead.size());
  input_end_ = read_ahead.size();
}

SocketStream::~SocketStream() { close(fd_); }

bool SocketStream::ExportState(StreamState* state) const {
  if (send_failed_ || output_committed_ != 0 || output_reserved_ != 0 || shut_down_.load()) return false;
  StreamState out;
  out.kind = StreamState::Kind::kSocket;
  out.peer = peer_;
  out.descriptors.push_back(fcntl(fd_, F_DUPFD_CLOEXEC, 0));
  if (out.descriptors[0] < 0) return false;
  out.read_ahead.assign(input_.get() + input_begin_, input_.get() + input_end_);
  *state = std::move(out);
  return true;
}

uint8_t* SocketStream::Reserve(size_t n) {
  if (output_committed_ + n > output_capacity_) {
    // Send what is committed to make room; a failure shows at the next Flush.
    if (output_committed_ > 0) Flush();
    if (n > output_capacity_) {
      output_capacity_ = std::max({n, output_capacity_ * 2, kInitialOutputSize});
      output_ = std::make_unique_for_overwrite<uint8_t[]>(output_capacity_);
    }
  }
  output_reserved_ = n;
  return output_.get() + output_committed_;
}

void SocketStream::Commit(size_t n) {
  if (n > output_reserved_) {
    // Bytes past the reservation may lie past the buffer: a bug in the caller, not a condition to survive.
    std::fprintf(stderr, "strata: committing %zu bytes to %s with only %zu reserved\n", n, peer_.c_str(),
                 output_reserved_);
    std::abort();
  }
  output_committed_ += n;
  output_reserved_ = 0;
}

bool SocketStream::Write(const void* data, size_t n) {
  constexpr size_t kDirectBytes = 64 * 1024;
  if (n < kDirectBytes) return ByteStream::Write(data, n);
  if (!Flush()) return false;
  return SendAll(static_cast<const uint8_t*>(data), n);
}

bool SocketStream::Flush() {
  size_t size = output_committed_;
  output_committed_ = 0;
  if (send_failed_) return false;
  return SendAll(output_.get(), size);
}

bool SocketStream::SendAll(const uint8_t* data, size_t n) {
  while (n > 0) {
    ssize_t sent = send(fd_, data, n, MSG_NOSIGNAL);
    if (sent > 0) {
      data += sent;
      n -= static_cast<size_t>(sent);
      continue;
    }
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {  // someone made the socket non-blocking
      WaitFor(fd_, POLLOUT, -1);
      continue;
    }
    send_failed_ = true;
    if (sent == 0 || errno == EPIPE || errno == ECONNRESET)
      error_ = ClosedText();
    else
      error_ = "cannot send to " + peer_ + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool SocketStream::ReadFully(void* data, size_t n) { return Receive(static_cast<uint8_t*>(data), n, -1) == ReadResult::kOk; }

ByteStream::ReadResult SocketStream::ReadFullyWithin(void* data, size_t n, int timeout_ms) {
  return Receive(static_cast<uint8_t*>(data), n, timeout_ms);
}

ssize_t SocketStream::ReceiveSome(void* data, size_t n) {
  ssize_t got = -1;
  const auto received = [&] {
    got = recv(fd_, data, n, MSG_DONTWAIT);
    return got >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
  };
  if (SpinWhileUseful(received, spin_ns_)) return got;
  return recv(fd_, data, n, 0);
}

ByteStream::ReadResult SocketStream::Receive(uint8_t* data, size_t n, int timeout_ms) {
  // The limit covers all n bytes: a peer that sends part of a message and
  // then nothing must not hold its reader past it.
  const Deadline deadline(timeout_ms);
  size_t done = std::min(n, input_end_ - input_begin_);
  if (done > 0) std::memcpy(data, input_.get() + input_begin_, done);
  input_begin_ += done;
  while (done < n) {
    // Here the input buffer is empty.
    if (deadline.limited()) {
      const int ready = WaitFor(fd_, POLLIN, deadline.LeftMs());
      if (ready == 0) {
        if (done > 0) error_ = PartialMessageText(peer_, done, n, timeout_ms);
        return ReadResult::kTimeout;
      }
      if (ready < 0) {
        error_ = "cannot wait for " + peer_ + ": " + std::strerror(errno);
        return ReadResult::kError;
      }
    }
    size_t left = n - done;
    bool in_place = left >= kInputBufferSize;
    if (!in_place && !input_) input_ = std::make_unique_for_overwrite<uint8_t[]>(kInputBufferSize);
    ssize_t got = in_place ? ReceiveSome(data + done, left) : ReceiveSome(input_.get(), kInputBufferSize);
    if (got > 0) {
      size_t size = static_cast<size_t>(got);
      if (in_place) {
        done += size;
      } else {
        size_t take = std::min(left, size);
        std::memcpy(data + done, input_.get(), take);
        input_begin_ = take;
        input_end_ = size;
        done += take;
      }
      continue;
    }
    // Readiness can be spurious (poll's word on a socket is a hint); with a limit, wait again.
    if (got < 0 && (errno == EINTR || (deadline.limited() && (errno == EAGAIN || errno == EWOULDBLOCK)))) continue;
    if (got == 0 || errno == ECONNRESET) {
      error_ = ClosedText();
      if (done > 0)
        error_ += " in the middle of a message (" + std::to_string(done) + " of " + std::to_string(n) + " bytes came)";
      return ReadResult::kClosed;
    }
    error_ = "cannot read from " + peer_ + ": " + std::strerror(errno);
    return ReadResult::kError;
  }
  return ReadResult::kOk;
}

void SocketStream::Shutdown() {
  shut_down_.store(true);
  shutdown(fd_, SHUT_RDWR);
}

std::string SocketStream::ClosedText() const {
  return shut_down_.load() ? "the connection to " + peer_ + " was shut down" : peer_ + " closed the connection";
}

}  // namespace strata::transport
