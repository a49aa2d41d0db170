#include "transport/socket_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/un.h>

#include <cstddef>
#include <cstring>

namespace strata::transport {
namespace {

constexpr const char* kForms = "unix:@NAME, unix:/PATH, shm:NAME, shm:/PATH or tcp:HOST:PORT";
constexpr const char* kTcpForm = "tcp:HOST:PORT, e.g. tcp:127.0.0.1:7070 or tcp:[::1]:7070";

bool Fail(std::string* error, std::string message) {
  *error = std::move(message);
  return false;
}

bool ParseUnix(const std::string& text, Address::Kind* kind, sockaddr_storage* storage, socklen_t* length,
               std::string* error) {
  std::string name = text.substr(5);
  auto* un = reinterpret_cast<sockaddr_un*>(storage);
  if (name.empty() || name == "@")
    return Fail(error, "bad Unix socket address '" + text + "': expected unix:@NAME or unix:/PATH");
  // A path needs its terminating NUL inside sun_path; an abstract name is held to the same bound.
  if (name.size() >= sizeof un->sun_path)
    return Fail(error, "Unix socket address '" + text + "' is too long (at most " +
                           std::to_string(sizeof un->sun_path - 1) + " bytes after unix:)");
  if (name.find('\0') != std::string::npos)
    return Fail(error, "bad Unix socket address '" + text + "': it holds a NUL byte");
  un->sun_family = AF_UNIX;
  std::memcpy(un->sun_path, name.data(), name.size());
  bool abstract = name[0] == '@';
  if (abstract) un->sun_path[0] = '\0';
  *kind = abstract ? Address::Kind::kUnixAbstract : Address::Kind::kUnixPath;
  // Abstract names are exactly their bytes; paths carry their NUL.
  *length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name.size() + (abstract ? 0 : 1));
  return true;
}

bool ParsePort(const std::string& digits, uint16_t* port) {
  if (digits.empty() || digits.size() > 5) return false;
  unsigned value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<unsigned>(c - '0');
  }
  if (value > 65535) return false;
  *port = static_cast<uint16_t>(value);
  return true;
}

bool ParseTcp(const std::string& text, sockaddr_storage* storage, socklen_t* length, std::string* error) {
  std::string rest = text.substr(4), host, port_text;
  auto bad = [&](const std::string& why) { return Fail(error, "bad TCP address '" + text + "': " + why); };
  bool bracketed = !rest.empty() && rest[0] == '[';
  if (bracketed) {
    auto close = rest.find(']');
    if (close == std::string::npos) return bad(std::string("no ']' after the IPv6 host; expected ") + kTcpForm);
    host = rest.substr(1, close - 1);
    if (close + 1 >= rest.size() || rest[close + 1] != ':') return bad(std::string("no port; expected ") + kTcpForm);
    port_text = rest.substr(close + 2);
  } else {
    auto colon = rest.rfind(':');
    if (colon == std::string::npos) return bad(std::string("expected ") + kTcpForm);
    host = rest.substr(0, colon);
    port_text = rest.substr(colon + 1);
    if (host.find(':') != std::string::npos) return bad("an IPv6 host goes in brackets, e.g. tcp:[::1]:7070");
  }
  if (host.empty()) return bad(std::string("no host; expected ") + kTcpForm);
  uint16_t port = 0;
  if (!ParsePort(port_text, &port)) return bad("the port must be a number from 0 to 65535");

  if (host == "localhost") host = "127.0.0.1";
  auto* in4 = reinterpret_cast<sockaddr_in*>(storage);
  auto* in6 = reinterpret_cast<sockaddr_in6*>(storage);
  if (!bracketed && inet_pton(AF_INET, host.c_str(), &in4->sin_addr) == 1) {
    in4->sin_family = AF_INET;
    in4->sin_port = htons(port);
    *length = sizeof(sockaddr_in);
    return true;
  }
  if (bracketed && inet_pton(AF_INET6, host.c_str(), &in6->sin6_addr) == 1) {
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(port);
    *length = sizeof(sockaddr_in6);
    return true;
  }
  return bad(bracketed ? "'" + host + "' is not a numeric IPv6 address"
                       : "the host must be numeric IPv4, [IPv6] or localhost (no name lookup)");
}

}  // namespace

bool ParseAddress(const std::string& text, Address* out, std::string* error) {
  Address parsed;
  bool ok;
  if (text.rfind("unix:", 0) == 0) {
    ok = ParseUnix(text, &parsed.kind_, &parsed.storage_, &parsed.length_, error);
  } else if (text.rfind("shm:", 0) == 0) {
    // shm:NAME is unix:@NAME, shm:/PATH unix:/PATH, with the ring required.
    const std::string name = text.substr(4);
    const std::string as_unix = "unix:" + (name.empty() || name[0] == '/' ? name : "@" + name);
    ok = ParseUnix(as_unix, &parsed.kind_, &parsed.storage_, &parsed.length_, error);
    if (!ok) *error = "bad shared-memory address '" + text + "': expected shm:NAME or shm:/PATH";
    parsed.shared_memory_ = true;
  } else if (text.rfind("tcp:", 0) == 0) {
    parsed.kind_ = Address::Kind::kTcp;
    ok = ParseTcp(text, &parsed.storage_, &parsed.length_, error);
  } else {
    ok = Fail(error, "unknown address '" + text + "' (expected " + kForms + ")");
  }
  if (ok) *out = parsed;
  return ok;
}

bool Address::FromTcpEndpoint(const sockaddr_storage& storage, Address* out) {
  if (storage.ss_family != AF_INET && storage.ss_family != AF_INET6) return false;
  Address address;
  address.kind_ = Kind::kTcp;
  address.storage_ = storage;
  address.length_ = storage.ss_family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6);
  *out = address;
  return true;
}

std::string Address::HostAndPort() const {
  char host[INET6_ADDRSTRLEN] = "";
  if (family() == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&storage_)->sin_addr, host, sizeof host);
    return std::string(host) + ":" + std::to_string(port());
  }
  if (family() == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&storage_)->sin6_addr, host, sizeof host);
    return "[" + std::string(host) + "]:" + std::to_string(port());
  }
  return "";
}

std::string Address::ToString() const {
  if (kind_ == Kind::kTcp) return "tcp:" + HostAndPort();
  const auto* un = reinterpret_cast<const sockaddr_un*>(&storage_);
  size_t size = length_ - offsetof(sockaddr_un, sun_path);
  if (kind_ == Kind::kUnixAbstract) {
    const std::string name(un->sun_path + 1, size - 1);
    return shared_memory_ ? "shm:" + name : "unix:@" + name;
  }
  return (shared_memory_ ? "shm:" : "unix:") + path();
}

std::string Address::path() const {
  if (kind_ != Kind::kUnixPath) return "";
  return reinterpret_cast<const sockaddr_un*>(&storage_)->sun_path;
}

uint16_t Address::port() const {
  if (family() == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in*>(&storage_)->sin_port);
  if (family() == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&storage_)->sin6_port);
  return 0;
}

Address Address::WithPort(uint16_t port) const {
  Address copy = *this;
  if (family() == AF_INET) reinterpret_cast<sockaddr_in*>(&copy.storage_)->sin_port = htons(port);
  if (family() == AF_INET6) reinterpret_cast<sockaddr_in6*>(&copy.storage_)->sin6_port = htons(port);
  return copy;
}

}  // namespace strata::transport
