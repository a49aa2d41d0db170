#include "transport/socket_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace strata::transport {
namespace {

struct Address {
  sockaddr_storage storage{};
  socklen_t length = 0;
  int family = 0;
};

bool Parse(const std::string& text, Address* out, std::string* error) {
  if (text.rfind("unix:", 0) == 0) {
    std::string path = text.substr(5);
    auto* un = reinterpret_cast<sockaddr_un*>(&out->storage);
    un->sun_family = AF_UNIX;
    if (path.empty() || path.size() >= sizeof un->sun_path) {
      *error = "bad Unix socket address '" + text + "' (unix:@NAME or unix:/PATH)";
      return false;
    }
    std::memcpy(un->sun_path, path.data(), path.size());
    if (path[0] == '@') un->sun_path[0] = '\0';  // abstract namespace
    out->length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + path.size());
    out->family = AF_UNIX;
    return true;
  }
  if (text.rfind("tcp:", 0) == 0) {
    std::string rest = text.substr(4);
    auto colon = rest.rfind(':');
    auto* in = reinterpret_cast<sockaddr_in*>(&out->storage);
    in->sin_family = AF_INET;
    char* end = nullptr;
    long port = colon == std::string::npos ? -1 : std::strtol(rest.c_str() + colon + 1, &end, 10);
    if (colon == std::string::npos || port <= 0 || port > 65535 || *end != '\0' ||
        inet_pton(AF_INET, rest.substr(0, colon).c_str(), &in->sin_addr) != 1) {
      *error = "bad TCP address '" + text + "' (tcp:IPV4:PORT, e.g. tcp:127.0.0.1:7070)";
      return false;
    }
    in->sin_port = htons(static_cast<uint16_t>(port));
    out->length = sizeof(sockaddr_in);
    out->family = AF_INET;
    return true;
  }
  *error = "unknown address '" + text + "' (unix:@NAME, unix:/PATH or tcp:HOST:PORT)";
  return false;
}

std::string Errno(const std::string& what, const std::string& address) {
  return what + " " + address + ": " + std::strerror(errno);
}

}  // namespace

int ListenOn(const std::string& address, std::string* error) {
  Address a;
  if (!Parse(address, &a, error)) return -1;
  int fd = socket(a.family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return *error = Errno("cannot create a socket for", address), -1;
  int one = 1;
  if (a.family == AF_INET) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd, reinterpret_cast<sockaddr*>(&a.storage), a.length) != 0 || listen(fd, 1) != 0) {
    *error = Errno("cannot listen on", address);
    close(fd);
    return -1;
  }
  return fd;
}

int AcceptOne(int listen_fd, int timeout_ms, const std::string& address, std::string* error) {
  pollfd p{listen_fd, POLLIN, 0};
  int ready;
  do {
    ready = poll(&p, 1, timeout_ms);
  } while (ready < 0 && errno == EINTR);
  if (ready == 0) {
    *error = "no client connected to " + address + " within " + std::to_string(timeout_ms / 1000) + " s";
    return -1;
  }
  int fd = ready > 0 ? accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC) : -1;
  if (fd < 0) *error = Errno("cannot accept a client on", address);
  return fd;
}

int ConnectTo(const std::string& address, std::string* error) {
  Address a;
  if (!Parse(address, &a, error)) return -1;
  int fd = socket(a.family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return *error = Errno("cannot create a socket for", address), -1;
  if (connect(fd, reinterpret_cast<sockaddr*>(&a.storage), a.length) != 0) {
    *error = Errno("cannot connect to", address);
    close(fd);
    return -1;
  }
  if (a.family == AF_INET) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  return fd;
}

}  // namespace strata::transport
