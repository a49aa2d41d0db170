#include "transport/sockets.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "transport/deadline.h"

namespace strata::transport {
namespace {

std::string DurationText(int ms) {
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

// Records and small replies must not wait for Nagle's algorithm.
void SetNoDelayIfTcp(int fd) {
  int domain = 0;
  socklen_t size = sizeof domain;
  if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &size) != 0) return;
  if (domain != AF_INET && domain != AF_INET6) return;
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// A connected socket, or -1 with `error_number` (ETIMEDOUT when nobody answered in time).
int ConnectWithin(const Address& address, int timeout_ms, int* error_number) {
  int fd = socket(address.family(), SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return *error_number = errno, -1;
  const Deadline deadline(timeout_ms);
  auto fail = [&](int number) {
    close(fd);
    *error_number = number;
    return -1;
  };
  for (;;) {
    if (connect(fd, address.socket_address(), address.length()) == 0) break;
    int number = errno;
    if (number == EINPROGRESS || (number == EINTR && !address.is_unix())) {
      // TCP: the handshake goes on without us; wait for its outcome.
      int ready = WaitFor(fd, POLLOUT, deadline.LeftMs());
      if (ready == 0) return fail(ETIMEDOUT);
      if (ready < 0) return fail(errno);
      int outcome = 0;
      socklen_t size = sizeof outcome;
      if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &outcome, &size) != 0) return fail(errno);
      if (outcome != 0) return fail(outcome);
      break;
    }
    if (number == EINTR) continue;
    if (number == EAGAIN && address.is_unix()) {
      // The server's backlog is full: it is busy, not gone. Try again until the deadline.
      int left = deadline.LeftMs();
      if (left == 0) return fail(ETIMEDOUT);
      int pause_ms = left < 0 ? 10 : std::min(left, 10);
      usleep(static_cast<useconds_t>(pause_ms) * 1000);
      continue;
    }
    return fail(number);
  }
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) return fail(errno);
  SetNoDelayIfTcp(fd);
  return fd;
}

// Makes room for a path socket: nothing there, or a socket nobody listens on
// (a server that died), which is removed. Anything else stays.
bool ClearStaleSocket(const Address& address, std::string* error) {
  std::string path = address.path();
  struct stat status{};
  if (lstat(path.c_str(), &status) != 0) {
    if (errno == ENOENT) return true;
    *error = "cannot listen on " + address.ToString() + ": " + std::strerror(errno);
    return false;
  }
  if (!S_ISSOCK(status.st_mode)) {
    *error = "cannot listen on " + address.ToString() + ": " + path + " exists and is not a socket (not replacing it)";
    return false;
  }
  int number = 0;
  int fd = ConnectWithin(address, 1000, &number);
  if (fd >= 0) {
    close(fd);
    *error = "cannot listen on " + address.ToString() + ": another server is listening there";
    return false;
  }
  if (number != ECONNREFUSED) {
    *error = "cannot listen on " + address.ToString() + ": a socket is there and cannot be checked: " +
             std::strerror(number);
    return false;
  }
  if (unlink(path.c_str()) != 0 && errno != ENOENT) {
    *error = "cannot remove the stale socket " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace

int WaitFor(int fd, short events, int timeout_ms) {
  const Deadline deadline(timeout_ms);
  for (;;) {
    pollfd request{fd, events, 0};
    int ready = poll(&request, 1, deadline.LeftMs());
    if (ready >= 0 || errno != EINTR) return ready;
  }
}

int ListenSocket(const Address& address, std::string* error) {
  std::string name = address.ToString();
  bool path_socket = address.kind() == Address::Kind::kUnixPath;
  if (path_socket && !ClearStaleSocket(address, error)) return -1;
  int fd = socket(address.family(), SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    *error = "cannot create a socket for " + name + ": " + std::strerror(errno);
    return -1;
  }
  auto fail = [&](const std::string& message) {
    *error = message + ": " + std::strerror(errno);
    close(fd);
    return -1;
  };
  int one = 1;
  if (!address.is_unix()) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  // Linux gives the socket file the mode of the socket itself, so it is never
  // reachable by others, not even between bind() and chmod().
  if (path_socket) fchmod(fd, 0600);
  if (bind(fd, address.socket_address(), address.length()) != 0) return fail("cannot listen on " + name);
  if (path_socket && chmod(address.path().c_str(), 0600) != 0) {
    int number = errno;
    unlink(address.path().c_str());
    errno = number;
    return fail("cannot make " + address.path() + " private");
  }
  if (listen(fd, 16) != 0) return fail("cannot listen on " + name);
  return fd;
}

int ConnectSocket(const Address& address, int timeout_ms, std::string* reason) {
  int number = 0;
  int fd = ConnectWithin(address, timeout_ms, &number);
  if (fd < 0) *reason = number == ETIMEDOUT ? "no answer within " + DurationText(timeout_ms) : std::strerror(number);
  return fd;
}

int AcceptWithin(int listen_fd, int timeout_ms, std::string* error) {
  error->clear();
  const Deadline deadline(timeout_ms);
  for (;;) {
    int ready = WaitFor(listen_fd, POLLIN, deadline.LeftMs());
    if (ready == 0) return -1;
    if (ready < 0) return *error = std::strerror(errno), -1;
    int fd = accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) {
      SetNoDelayIfTcp(fd);
      return fd;
    }
    // A client that gave up between poll() and accept() is no failure of ours.
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED || errno == EPROTO || errno == EINTR)
      continue;
    *error = std::strerror(errno);
    return -1;
  }
}

int ListenOn(const std::string& address, std::string* error) {
  Address parsed;
  if (!ParseAddress(address, &parsed, error)) return -1;
  return ListenSocket(parsed, error);
}

int AcceptOne(int listen_fd, int timeout_ms, const std::string& address, std::string* error) {
  int fd = AcceptWithin(listen_fd, timeout_ms, error);
  if (fd >= 0) return fd;
  if (error->empty())
    *error = "no client connected to " + address + " within " + std::to_string(timeout_ms / 1000) + " s";
  else
    *error = "cannot accept a client on " + address + ": " + *error;
  return -1;
}

int ConnectTo(const std::string& address, std::string* error) {
  Address parsed;
  if (!ParseAddress(address, &parsed, error)) return -1;
  std::string reason;
  int fd = ConnectSocket(parsed, kDefaultConnectTimeoutMs, &reason);
  if (fd < 0) *error = "cannot connect to " + address + ": " + reason;
  return fd;
}

}  // namespace strata::transport
