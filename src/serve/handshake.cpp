#include "serve/handshake.h"

#include <vector>

#include "serve/log.h"
#include "transport/deadline.h"

namespace strata::serve {
namespace {

namespace wire = stream::wire;

// A client that connects and says nothing must not hold a thread for long.
constexpr int kHandshakeTimeoutMs = 10000;

}  // namespace

bool SendHelloAnswer(transport::ByteStream& stream, const wire::Hello& answer) {
  std::vector<uint8_t> bytes = wire::EncodeHello(wire::kRendererMagic, answer);
  stream.Write(bytes.data(), bytes.size());
  return stream.Flush();
}

std::string ClientAddress(const transport::Peer& peer) {
  if (peer.is_unix && peer.uid != static_cast<uid_t>(-1)) return "uid " + std::to_string(peer.uid);
  return peer.description;
}

std::string NameClient(const std::string& program, const std::string& pid, const std::string& address) {
  return program + " (pid " + pid + ", " + address + ")";
}

void RefuseClient(transport::ByteStream& stream, const transport::Peer& peer, const ClientHello& client,
                  const std::string& why) {
  wire::Hello answer;
  answer.values["status"] = "refused";
  answer.values["message"] = why;
  SendHelloAnswer(stream, answer);
  Log("refused " + NameClient(client.program, client.pid, ClientAddress(peer)) + ": " + why);
}

bool ReadClientHello(transport::ByteStream& stream, const transport::Peer& peer, const AuthPolicy& auth,
                     ClientHello* out) {
  // The whole handshake, header and body, within the limit: a peer that
  // sends part of one and goes quiet must not hold this thread.
  const transport::Deadline deadline(kHandshakeTimeoutMs);
  // `header`: a peer closing before the first byte is a probe (a port scan,
  // a client that gave up), dropped without a word.
  auto read_within_limit = [&](void* data, size_t n, bool header) {
    const auto got = stream.ReadFullyWithin(data, n, deadline.LeftMs());
    if (got == transport::ByteStream::ReadResult::kTimeout) {
      Log("dropped " + peer.description + ": no handshake within " + std::to_string(kHandshakeTimeoutMs / 1000) +
          " s" + (stream.error().empty() ? "" : " (" + stream.error() + ")"));
    } else if (got != transport::ByteStream::ReadResult::kOk &&
               !(header && got == transport::ByteStream::ReadResult::kClosed)) {
      Log("dropped " + peer.description + ": " + stream.error());
    }
    return got == transport::ByteStream::ReadResult::kOk;
  };
  uint8_t header[wire::kHelloHeaderBytes];
  if (!read_within_limit(header, sizeof header, true)) return false;
  uint32_t version = 0, body_size = 0;
  std::string problem;
  if (!wire::DecodeHelloHeader(header, wire::kClientMagic, &version, &body_size, &problem)) {
    Log("dropped " + peer.description + ": " + problem);
    return false;
  }
  std::vector<uint8_t> body(body_size);
  if (!read_within_limit(body.data(), body.size(), false)) return false;
  const bool decoded = wire::DecodeHelloBody(body, &out->hello, &problem);
  const std::string* program = out->hello.Find("program");
  out->program = program ? program->substr(0, 200) : "unnamed client";
  const std::string* pid = out->hello.Find("pid");
  out->pid = peer.is_unix ? std::to_string(peer.pid) : pid ? pid->substr(0, 20) : "?";
  const std::string* role = out->hello.Find("role");
  out->role = role ? role->substr(0, 40) : "";
  if (!decoded) {
    RefuseClient(stream, peer, *out, problem);
    return false;
  }
  if (version != wire::kProtocolVersion) {
    RefuseClient(stream, peer, *out,
                 "the client speaks protocol version " + std::to_string(version) + ", this renderer version " +
                     std::to_string(wire::kProtocolVersion));
    return false;
  }
  if (std::string why = CheckClient(peer, out->hello, auth); !why.empty()) {
    RefuseClient(stream, peer, *out, why);
    return false;
  }
  if (out->role != "process" && out->role != "thread" && out->role != "fate") {
    RefuseClient(stream, peer, *out, "unknown role '" + out->role + "' (process or thread)");
    return false;
  }
  if (out->role == "process") {
    const std::string* functions = out->hello.Find("functions");
    if (functions == nullptr || functions->empty()) {
      RefuseClient(stream, peer, *out, "the handshake names no function table");
      return false;
    }
  } else if (out->hello.Find("session") == nullptr || out->hello.Find("session_key") == nullptr) {
    RefuseClient(stream, peer, *out, "a " + out->role + " connection must name its session and session_key");
    return false;
  }
  return true;
}

}  // namespace strata::serve
