#include "transport/listener.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "transport/ring_offer.h"
#include "transport/socket_address.h"
#include "transport/socket_stream.h"
#include "transport/sockets.h"

namespace strata::transport {
namespace {

// Who is on the other end of an accepted socket.
Peer DescribePeer(int fd, bool is_unix) {
  Peer peer;
  peer.is_unix = is_unix;
  if (is_unix) {
    ucred credentials{};
    socklen_t size = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0) {
      peer.uid = credentials.uid;
      peer.pid = credentials.pid;
      peer.description = "pid " + std::to_string(peer.pid) + " (uid " + std::to_string(peer.uid) + ")";
    } else {
      peer.description = "an unknown local process";
    }
    return peer;
  }
  sockaddr_storage storage{};
  socklen_t size = sizeof storage;
  Address endpoint;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&storage), &size) == 0 &&
      Address::FromTcpEndpoint(storage, &endpoint))
    peer.description = endpoint.HostAndPort();
  else
    peer.description = "an unknown TCP peer";
  return peer;
}

}  // namespace

std::unique_ptr<Listener> Listener::Open(const std::string& address, std::string* error) {
  Address parsed;
  if (!ParseAddress(address, &parsed, error)) return nullptr;
  int fd = ListenSocket(parsed, error);
  if (fd < 0) return nullptr;
  std::unique_ptr<Listener> listener(new Listener());
  listener->fd_ = fd;
  listener->is_unix_ = parsed.is_unix();
  listener->address_ = parsed.ToString();
  if (parsed.kind() == Address::Kind::kUnixPath) {
    struct stat status{};
    if (lstat(parsed.path().c_str(), &status) == 0) {
      listener->socket_path_ = parsed.path();
      listener->socket_device_ = status.st_dev;
      listener->socket_inode_ = status.st_ino;
    }
  }
  if (!parsed.is_unix() && parsed.port() == 0) {
    sockaddr_storage bound{};
    socklen_t size = sizeof bound;
    Address actual;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &size) == 0 &&
        Address::FromTcpEndpoint(bound, &actual))
      listener->address_ = parsed.WithPort(actual.port()).ToString();
  }
  // Non-blocking, so a client that gives up between poll() and accept() cannot
  // hold Accept past its timeout.
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
    *error = "cannot listen on " + listener->address_ + ": " + std::strerror(errno);
    return nullptr;
  }
  return listener;
}

Listener::~Listener() {
  if (fd_ >= 0) close(fd_);
  struct stat status{};
  if (!socket_path_.empty() && lstat(socket_path_.c_str(), &status) == 0 && status.st_dev == socket_device_ &&
      status.st_ino == socket_inode_)
    unlink(socket_path_.c_str());
}

std::unique_ptr<ByteStream> Listener::Accept(int timeout_ms, Peer* peer, std::string* error) {
  int fd = AcceptWithin(fd_, timeout_ms, error);
  if (fd < 0) {
    if (!error->empty()) *error = "cannot accept a client on " + address_ + ": " + *error;
    return nullptr;
  }
  Peer who = DescribePeer(fd, is_unix_);
  std::string name = "client " + who.description;
  std::unique_ptr<ByteStream> stream = is_unix_ ? AcceptRingOrSocket(fd, std::move(name))
                                                : std::make_unique<SocketStream>(fd, std::move(name));
  if (peer) *peer = std::move(who);
  return stream;
}

}  // namespace strata::transport
