// The transport layer over real loopback and Unix sockets: bytes arrive as
// sent, errors name the peer, nothing waits longer than it was told to.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#include <fcntl.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "transport/byte_stream.h"
#include "transport/connect.h"
#include "transport/listener.h"
#include "transport/ring_offer.h"
#include "transport/shm_ring.h"
#include "transport/socket_address.h"
#include "transport/sockets.h"
#include "transport/token.h"

namespace {

using strata::transport::Address;
using strata::transport::ByteStream;
using strata::transport::Connect;
using strata::transport::ConnectOptions;
using strata::transport::Listener;
using strata::transport::ParseAddress;
using strata::transport::Peer;
using strata::transport::kDefaultRingBytes;
using strata::transport::RingStream;
using strata::transport::RingUse;
using ReadResult = ByteStream::ReadResult;
using Clock = std::chrono::steady_clock;

std::string AbstractAddress(const std::string& name) {
  return "unix:@strata-transport-test-" + std::to_string(getpid()) + "-" + name;
}

// A listener and one connection to it, both ends.
struct Ends {
  std::unique_ptr<Listener> listener;
  std::unique_ptr<strata::transport::ByteStream> client, server;
  Peer peer;
};

// Connects the two ends. Over a Unix socket the client brings a ring unless
// `ring` says not to; the server's first read takes it, so the client sends
// one byte for that read.
void OpenAndConnect(const std::string& address, Ends* ends, RingUse ring = RingUse::kPreferred) {
  std::string error;
  ends->listener = Listener::Open(address, &error);
  ASSERT_TRUE(ends->listener) << error;
  auto connecting = std::async(std::launch::async, [&] {
    std::string connect_error;
    auto client = Connect(ends->listener->address(), &connect_error, ConnectOptions{.unix_ring = ring});
    if (client && !(client->Write("!", 1) && client->Flush())) client.reset();
    return std::make_pair(std::move(client), connect_error);
  });
  ends->server = ends->listener->Accept(5000, &ends->peer, &error);
  ASSERT_TRUE(ends->server) << error;
  char first = 0;
  const bool got_first = ends->server->ReadFully(&first, 1);
  auto [client, connect_error] = connecting.get();
  ends->client = std::move(client);
  ASSERT_TRUE(ends->client) << connect_error;
  ASSERT_TRUE(got_first && first == '!') << ends->server->error();
}

long long MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

// A private directory, removed with what is in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = testing::TempDir() + "strata-transport-XXXXXX";
    path_ = mkdtemp(pattern.data()) ? pattern : "";
  }
  ~TempDir() {
    if (!path_.empty()) std::system(("rm -rf '" + path_ + "'").c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::vector<uint8_t> Pattern(size_t size, uint32_t seed) {
  std::vector<uint8_t> bytes(size);
  uint32_t state = seed * 2654435761u + 1;
  for (auto& byte : bytes) {
    state = state * 1664525u + 1013904223u;
    byte = static_cast<uint8_t>(state >> 24);
  }
  return bytes;
}

// Accepts one client and sends back each length-prefixed message until it leaves.
std::jthread EchoServer(Listener* listener) {
  return std::jthread([listener] {
    std::string error;
    auto stream = listener->Accept(5000, nullptr, &error);
    if (!stream) return;
    for (;;) {
      uint32_t size = 0;
      if (!stream->ReadFully(&size, sizeof size)) return;
      std::vector<uint8_t> data(size);
      if (!stream->ReadFully(data.data(), size)) return;
      stream->Write(&size, sizeof size);
      stream->Write(data.data(), size);
      if (!stream->Flush()) return;
    }
  });
}

// `connect_to` is the listener's address when empty; `ring` says whether the
// client's stream must be a shared-memory ring or must not.
void ExpectEchoes(const std::string& address, std::string connect_to = "",
                  RingUse ring = RingUse::kNever) {
  std::string error;
  auto listener = Listener::Open(address, &error);
  ASSERT_TRUE(listener) << error;
  std::jthread server = EchoServer(listener.get());
  if (connect_to.empty()) connect_to = listener->address();
  auto client = Connect(connect_to, &error, ConnectOptions{.unix_ring = ring});
  ASSERT_TRUE(client) << error;
  EXPECT_EQ(client->error(), "");
  EXPECT_EQ(dynamic_cast<RingStream*>(client.get()) != nullptr, ring == RingUse::kRequired);
  uint32_t seed = 0;
  // Around the socket's buffer and the ring's size: the ring wraps and a
  // message larger than it streams through it.
  for (uint32_t size : {0u, 1u, 7u, 100u, 65535u, 65536u, 65537u, 300000u, kDefaultRingBytes - 4,
                        kDefaultRingBytes + 1, 3 * kDefaultRingBytes + 5, 1000u}) {
    std::vector<uint8_t> sent = Pattern(size, ++seed);
    // The header through Reserve/Commit, the body through Write.
    std::memcpy(client->Reserve(sizeof size), &size, sizeof size);
    client->Commit(sizeof size);
    ASSERT_TRUE(client->Write(sent.data(), sent.size()));
    ASSERT_TRUE(client->Flush()) << client->error();
    uint32_t echoed_size = 0;
    ASSERT_TRUE(client->ReadFully(&echoed_size, sizeof echoed_size)) << client->error();
    ASSERT_EQ(echoed_size, size);
    std::vector<uint8_t> echoed(size);
    ASSERT_TRUE(client->ReadFully(echoed.data(), size)) << client->error();
    EXPECT_EQ(echoed, sent) << "message of " << size << " bytes over " << address;
  }
}

TEST(Address, ParsesEachForm) {
  Address address;
  std::string error;
  ASSERT_TRUE(ParseAddress("unix:@renderer", &address, &error)) << error;
  EXPECT_EQ(address.kind(), Address::Kind::kUnixAbstract);
  EXPECT_EQ(address.ToString(), "unix:@renderer");

  ASSERT_TRUE(ParseAddress("unix:/run/user/1000/strata", &address, &error)) << error;
  EXPECT_EQ(address.kind(), Address::Kind::kUnixPath);
  EXPECT_EQ(address.path(), "/run/user/1000/strata");
  EXPECT_EQ(address.ToString(), "unix:/run/user/1000/strata");

  ASSERT_TRUE(ParseAddress("tcp:127.0.0.1:7070", &address, &error)) << error;
  EXPECT_EQ(address.kind(), Address::Kind::kTcp);
  EXPECT_EQ(address.family(), AF_INET);
  EXPECT_EQ(address.port(), 7070);
  EXPECT_EQ(address.ToString(), "tcp:127.0.0.1:7070");

  ASSERT_TRUE(ParseAddress("tcp:localhost:7071", &address, &error)) << error;
  EXPECT_EQ(address.ToString(), "tcp:127.0.0.1:7071");

  ASSERT_TRUE(ParseAddress("tcp:[::1]:7072", &address, &error)) << error;
  EXPECT_EQ(address.family(), AF_INET6);
  EXPECT_EQ(address.ToString(), "tcp:[::1]:7072");
  EXPECT_EQ(address.WithPort(9).ToString(), "tcp:[::1]:9");

  // shm: is a Unix socket over which the client must bring a ring.
  ASSERT_TRUE(ParseAddress("shm:renderer", &address, &error)) << error;
  EXPECT_EQ(address.kind(), Address::Kind::kUnixAbstract);
  EXPECT_TRUE(address.shared_memory());
  EXPECT_EQ(address.ToString(), "shm:renderer");
  ASSERT_TRUE(ParseAddress("shm:/run/strata", &address, &error)) << error;
  EXPECT_EQ(address.kind(), Address::Kind::kUnixPath);
  EXPECT_EQ(address.ToString(), "shm:/run/strata");
  ASSERT_TRUE(ParseAddress("unix:@renderer", &address, &error)) << error;
  EXPECT_FALSE(address.shared_memory());

  ASSERT_TRUE(ParseAddress("tcp:0.0.0.0:0", &address, &error)) << error;
  EXPECT_EQ(address.port(), 0);
}

TEST(Address, RejectsMalformedAddressesNamingTheExpectedForm) {
  struct Case {
    const char* text;
    const char* says;
  };
  for (const Case& c : {
           Case{"tcp:7070", "bad TCP address 'tcp:7070': expected tcp:HOST:PORT"},
           Case{"tcp:127.0.0.1", "expected tcp:HOST:PORT"},
           Case{"tcp:127.0.0.1:", "the port must be a number from 0 to 65535"},
           Case{"tcp:127.0.0.1:65536", "the port must be a number from 0 to 65535"},
           Case{"tcp:127.0.0.1:+80", "the port must be a number"},
           Case{"tcp::7070", "no host"},
           Case{"tcp:example.com:7070", "numeric IPv4, [IPv6] or localhost"},
           Case{"tcp:::1:7070", "an IPv6 host goes in brackets"},
           Case{"tcp:[::1:7070", "no ']'"},
           Case{"tcp:[::1]7070", "no port"},
           Case{"tcp:[127.0.0.1]:7070", "not a numeric IPv6 address"},
           Case{"unix:", "expected unix:@NAME or unix:/PATH"},
           Case{"unix:@", "expected unix:@NAME or unix:/PATH"},
           Case{"pipe:x",
                "unknown address 'pipe:x' (expected unix:@NAME, unix:/PATH, shm:NAME, shm:/PATH or tcp:HOST:PORT)"},
           Case{"shm:", "bad shared-memory address 'shm:': expected shm:NAME or shm:/PATH"},
           Case{"", "unknown address ''"},
       }) {
    Address address;
    std::string error;
    EXPECT_FALSE(ParseAddress(c.text, &address, &error)) << c.text;
    EXPECT_NE(error.find(c.says), std::string::npos) << c.text << " gave: " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos);
  }
  Address address;
  std::string error;
  EXPECT_FALSE(ParseAddress("unix:/" + std::string(200, 'x'), &address, &error));
  EXPECT_NE(error.find("is too long"), std::string::npos) << error;
}

TEST(RoundTrip, UnixAbstract) { ExpectEchoes(AbstractAddress("echo")); }

TEST(RoundTrip, SharedMemoryRingByShmAddress) {
  const std::string name = "strata-transport-test-" + std::to_string(getpid()) + "-ring";
  ExpectEchoes("shm:" + name, "shm:" + name, RingUse::kRequired);
}

TEST(RoundTrip, SharedMemoryRingOverAUnixAddress) {
  ExpectEchoes(AbstractAddress("unix-ring"), "", RingUse::kRequired);
}

TEST(RoundTrip, UnixPath) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  ExpectEchoes("unix:" + dir.path() + "/echo.sock");
}

TEST(RoundTrip, TcpLoopbackOnAFreePort) { ExpectEchoes("tcp:127.0.0.1:0"); }

TEST(RoundTrip, ListenerReportsThePortItGot) {
  std::string error;
  auto listener = Listener::Open("tcp:localhost:0", &error);
  ASSERT_TRUE(listener) << error;
  EXPECT_EQ(listener->address().rfind("tcp:127.0.0.1:", 0), 0u) << listener->address();
  EXPECT_NE(listener->address(), "tcp:127.0.0.1:0");
  EXPECT_GE(listener->fd(), 0);
}

// Catches: large messages cut or reordered by a transport.
TEST(RoundTrip, SixtyFourMebibyteMessage) {
  std::string error;
  auto listener = Listener::Open(AbstractAddress("large"), &error);
  ASSERT_TRUE(listener) << error;
  constexpr size_t kSize = 64u << 20;
  const std::vector<uint8_t> sent = Pattern(kSize, 64);
  std::jthread sender([&] {
    std::string connect_error;
    auto client = Connect(listener->address(), &connect_error);
    if (!client) return;
    uint8_t* room = client->Reserve(kSize);
    std::memcpy(room, sent.data(), kSize);
    client->Commit(kSize);
    client->Flush();
  });
  auto server = listener->Accept(5000, nullptr, &error);
  ASSERT_TRUE(server) << error;
  std::vector<uint8_t> received(kSize);
  ASSERT_TRUE(server->ReadFully(received.data(), kSize)) << server->error();
  EXPECT_TRUE(received == sent);
}

TEST(RoundTrip, ManySmallWritesAndReadsWithoutFlushingInBetween) {
  std::string error;
  auto listener = Listener::Open(AbstractAddress("small"), &error);
  ASSERT_TRUE(listener) << error;
  constexpr size_t kWrites = 20000;  // about 1 MB: the write buffer fills and is sent on its own
  std::jthread sender([&] {
    std::string connect_error;
    auto client = Connect(listener->address(), &connect_error);
    if (!client) return;
    for (size_t i = 0; i < kWrites; ++i) {
      uint8_t* room = client->Reserve(64);
      size_t size = i % 50 + 1;
      for (size_t j = 0; j < size; ++j) room[j] = static_cast<uint8_t>(i + j);
      client->Commit(size);
    }
    client->Flush();
  });
  auto server = listener->Accept(5000, nullptr, &error);
  ASSERT_TRUE(server) << error;
  for (size_t i = 0; i < kWrites; ++i) {
    size_t size = i % 50 + 1;
    uint8_t bytes[50];
    ASSERT_TRUE(server->ReadFully(bytes, size)) << server->error();
    for (size_t j = 0; j < size; ++j) ASSERT_EQ(bytes[j], static_cast<uint8_t>(i + j)) << "write " << i;
  }
}

// The tests that hold for a Unix socket and for a ring over one alike.
class SocketOrRing : public testing::TestWithParam<RingUse> {};
INSTANTIATE_TEST_SUITE_P(Unix, SocketOrRing, testing::Values(RingUse::kNever, RingUse::kRequired),
                         [](const testing::TestParamInfo<RingUse>& info) {
                           return info.param == RingUse::kNever ? std::string("Socket") : std::string("Ring");
                         });

TEST_P(SocketOrRing, UnixPeerIsKnownByItsCredentials) {
  std::string error;
  Ends ends;
  ASSERT_NO_FATAL_FAILURE(OpenAndConnect(AbstractAddress("credentials"), &ends, GetParam()));
  auto& [listener, client, server, peer] = ends;
  EXPECT_TRUE(peer.is_unix);
  EXPECT_EQ(peer.uid, geteuid());
  EXPECT_EQ(peer.pid, getpid());
  EXPECT_EQ(peer.description, "pid " + std::to_string(getpid()) + " (uid " + std::to_string(geteuid()) + ")");
}

TEST(Peers, TcpPeerIsKnownByItsAddress) {
  std::string error;
  Ends ends;
  ASSERT_NO_FATAL_FAILURE(OpenAndConnect("tcp:127.0.0.1:0", &ends));
  auto& [listener, client, server, peer] = ends;
  EXPECT_FALSE(peer.is_unix);
  EXPECT_EQ(peer.description.rfind("127.0.0.1:", 0), 0u) << peer.description;
  EXPECT_NE(peer.description, "127.0.0.1:0");
}

TEST(Errors, ConnectingToNothingFailsQuicklyAndSaysWhere) {
  std::string address = AbstractAddress("nobody"), error;
  auto start = Clock::now();
  EXPECT_FALSE(Connect(address, &error));
  EXPECT_EQ(error, "cannot connect to renderer at " + address + ": Connection refused");
  EXPECT_LT(MillisecondsSince(start), 1000);

  std::string closed_port;
  {
    auto listener = Listener::Open("tcp:127.0.0.1:0", &error);
    ASSERT_TRUE(listener) << error;
    closed_port = listener->address();
  }
  start = Clock::now();
  EXPECT_FALSE(Connect(closed_port, &error, ConnectOptions{.peer_role = "trace receiver"}));
  EXPECT_EQ(error, "cannot connect to trace receiver at " + closed_port + ": Connection refused");
  EXPECT_LT(MillisecondsSince(start), 1000);

  EXPECT_FALSE(Connect("tcp:7070", &error));
  EXPECT_NE(error.find("expected tcp:HOST:PORT"), std::string::npos) << error;
  EXPECT_FALSE(Connect("tcp:127.0.0.1:0", &error));
  EXPECT_NE(error.find("port 0 is only for listening"), std::string::npos) << error;
}

TEST(Errors, ConnectGivesUpOnABusyServerAfterItsTimeout) {
  std::string error;
  auto listener = Listener::Open(AbstractAddress("busy"), &error);
  ASSERT_TRUE(listener) << error;
  // Nobody accepts: once the backlog is full, a connect waits until its time runs out.
  std::vector<std::unique_ptr<ByteStream>> waiting;
  bool gave_up = false;
  for (int i = 0; i < 64 && !gave_up; ++i) {
    auto start = Clock::now();
    auto client =
        Connect(listener->address(), &error, ConnectOptions{.timeout_ms = 200, .unix_ring = RingUse::kNever});
    if (client) {
      waiting.push_back(std::move(client));
      continue;
    }
    gave_up = true;
    EXPECT_EQ(error, "cannot connect to renderer at " + listener->address() + ": no answer within 200 ms");
    EXPECT_GE(MillisecondsSince(start), 150);
    EXPECT_LT(MillisecondsSince(start), 2000);
  }
  EXPECT_TRUE(gave_up) << waiting.size() << " connections and none refused";
}

TEST(Errors, ServerThatNeverReadsLeavesTheRingOfferUnanswered) {
  std::string error;
  auto listener = Listener::Open(AbstractAddress("deaf"), &error);
  ASSERT_TRUE(listener) << error;
  const auto start = Clock::now();
  EXPECT_FALSE(Connect("shm:" + listener->address().substr(6), &error, ConnectOptions{.timeout_ms = 200}));
  EXPECT_EQ(error, "cannot connect to renderer at shm:" + listener->address().substr(6) + ": renderer at shm:" +
                       listener->address().substr(6) + " did not answer the shared-memory ring offer");
  EXPECT_GE(MillisecondsSince(start), 150);
  EXPECT_LT(MillisecondsSince(start), 2000);
}

// Catches: a vanished peer taken for a short message, or a hang.
TEST_P(SocketOrRing, PeerThatLeavesMidMessageIsNamed) {
  Ends ends;
  ASSERT_NO_FATAL_FAILURE(OpenAndConnect(AbstractAddress("leaver"), &ends, GetParam()));
  auto& [listener, client, server, peer] = ends;
  ASSERT_TRUE(server->Write("0123456789", 10));
  ASSERT_TRUE(server->Flush()) << server->error();
  server.reset();
  char buffer[20];
  EXPECT_EQ(client->ReadFullyWithin(buffer, sizeof buffer, 5000), ReadResult::kClosed);
  EXPECT_EQ(client->error(), "renderer at " + listener->address() +
                                 " closed the connection in the middle of a message (10 of 20 bytes came)");
  EXPECT_FALSE(client->ReadFully(buffer, 1));
  EXPECT_EQ(client->error(), "renderer at " + listener->address() + " closed the connection");
}

TEST_P(SocketOrRing, WritingToAPeerThatLeftFailsWithoutSigpipe) {
  std::string error;
  Ends ends;
  ASSERT_NO_FATAL_FAILURE(OpenAndConnect(AbstractAddress("gone"), &ends, GetParam()));
  auto& [listener, client, server, peer] = ends;
  client.reset();
  std::vector<uint8_t> data(1 << 20, 7);
  bool flushed = true;
  // More than a ring holds, so that a write must wait for a reader who is gone.
  const size_t writes = 2 * strata::transport::kDefaultRingBytes / data.size() + 8;
  for (size_t i = 0; i < writes && flushed; ++i) flushed = server->Write(data.data(), data.size()) && server->Flush();
  EXPECT_FALSE(flushed);  // and the process is still here: no SIGPIPE
  EXPECT_EQ(server->error(), "client " + peer.description + " closed the connection");
  EXPECT_FALSE(server->Flush());
}

TEST_P(SocketOrRing, ReadFullyWithinLimitsTheWholeMessage) {
  Ends ends;
  ASSERT_NO_FATAL_FAILURE(OpenAndConnect(AbstractAddress("timeout"), &ends, GetParam()));
  auto& [listener, client, server, peer] = ends;

  char buffer[4];
  auto start = Clock::now();
  EXPECT_EQ(client->ReadFullyWithin(buffer, sizeof buffer, 100), ReadResult::kTimeout);
  EXPECT_GE(MillisecondsSince(start), 90);
  EXPECT_LT(MillisecondsSince(start), 2000);
  EXPECT_EQ(client->error(), "");  // nothing came, nothing lost

  // Half a message, the rest within the limit: the read waits for it.
  ASSERT_TRUE(server->Write("ab", 2) && server->Flush());
  {
    std::jthread soon([&, server = server.get()] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      server->Write("cd", 2);
      server->Flush();
    });
    EXPECT_EQ(client->ReadFullyWithin(buffer, sizeof buffer, 2000), ReadResult::kOk) << client->error();
    EXPECT_EQ(std::string(buffer, 4), "abcd");
  }

  // Half a message and then nothing: the limit holds for the rest too (a
  // peer that goes quiet mid-handshake must not hold its reader).
  ASSERT_TRUE(server->Write("ef", 2) && server->Flush());
  start = Clock::now();
  EXPECT_EQ(client->ReadFullyWithin(buffer, sizeof buffer, 200), ReadResult::kTimeout);
  EXPECT_GE(MillisecondsSince(start), 190);
  EXPECT_LT(MillisecondsSince(start), 2000);
  EXPECT_NE(client->error().find("sent 2 of a message's 4 bytes and then nothing for 200 ms"), std::string::npos)
      << client->error();
}

TEST(Timeouts, AcceptReturnsNothingWhenNobodyCame) {
  std::string error = "stale";
  auto listener = Listener::Open(AbstractAddress("lonely"), &error);
  ASSERT_TRUE(listener) << error;
  auto start = Clock::now();
  EXPECT_FALSE(listener->Accept(50, nullptr, &error));
  EXPECT_EQ(error, "");
  EXPECT_GE(MillisecondsSince(start), 40);
  EXPECT_LT(MillisecondsSince(start), 2000);
}

TEST_P(SocketOrRing, ShutdownWakesAReaderInAnotherThread) {
  Ends ends;
  ASSERT_NO_FATAL_FAILURE(OpenAndConnect(AbstractAddress("shutdown"), &ends, GetParam()));
  auto& [listener, client, server, peer] = ends;

  auto read = std::async(std::launch::async, [&, client = client.get()] {
    char buffer[4];
    return client->ReadFully(buffer, sizeof buffer);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_EQ(read.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout) << "the read did not block";
  client->Shutdown();
  bool woke = read.wait_for(std::chrono::seconds(5)) == std::future_status::ready;
  if (!woke) server.reset();  // free the reader anyway, so the test ends
  ASSERT_TRUE(woke) << "Shutdown did not wake the reader";
  EXPECT_FALSE(read.get());
  EXPECT_EQ(client->error(), "the connection to renderer at " + listener->address() + " was shut down");
}

// The ring's memory is shared with a process that may be hostile.
TEST(Ring, ServerRefusesMemoryItCannotTrustAndGoesOnOverTheSocket) {
  std::string error;
  auto listener = Listener::Open(AbstractAddress("untrusted"), &error);
  ASSERT_TRUE(listener) << error;
  for (const bool sealed : {false, true}) {
    // An offer by hand: memory without seals (it could shrink under the
    // server's mapping), or sealed memory with pipes for eventfds.
    const int fd = strata::transport::ConnectTo(listener->address(), &error);
    ASSERT_GE(fd, 0) << error;
    const int memory = memfd_create("test-ring", MFD_ALLOW_SEALING);
    ASSERT_EQ(ftruncate(memory, 4096 + 2 * (64 << 10)), 0);
    if (sealed) {
      ASSERT_EQ(fcntl(memory, F_ADD_SEALS, F_SEAL_SHRINK), 0);
    }
    int pipes[2][2];
    ASSERT_EQ(pipe(pipes[0]), 0);
    ASSERT_EQ(pipe(pipes[1]), 0);
    int descriptors[5] = {memory, pipes[0][0], pipes[0][1], pipes[1][0], pipes[1][1]};
    uint8_t offer[16] = {'S', 'T', 'R', 'A', 'T', 'A', 'S', '\n', 1, 0, 0, 0, 0, 0, 1, 0};  // version 1, 64 KiB
    ASSERT_TRUE(strata::transport::SendOffer(fd, offer, descriptors));
    for (int d : descriptors) close(d);

    auto server = listener->Accept(5000, nullptr, &error);
    ASSERT_TRUE(server) << error;
    auto reading = std::async(std::launch::async, [&] {
      char text[3] = {};
      return server->ReadFully(text, 2) ? std::string(text) : "read failed: " + server->error();
    });
    char answer[3] = {};
    ASSERT_EQ(recv(fd, answer, 3, MSG_WAITALL), 3);
    EXPECT_EQ(answer[0], 'N');
    std::string reason(static_cast<size_t>(static_cast<uint8_t>(answer[1]) | (static_cast<uint8_t>(answer[2]) << 8)),
                       '\0');
    ASSERT_EQ(recv(fd, reason.data(), reason.size(), MSG_WAITALL), static_cast<ssize_t>(reason.size()));
    EXPECT_NE(reason.find(sealed ? "descriptor 1 is not an eventfd" : "not a memfd sealed against shrinking"),
              std::string::npos)
        << reason;
    ASSERT_EQ(send(fd, "ok", 2, 0), 2);  // declined: the socket carries on
    EXPECT_EQ(reading.get(), "ok");
    close(fd);
  }
}

TEST(Ring, ServerSurvivesAClientThatScribblesOverItsIndices) {
  for (const bool over_write_position : {true, false}) {
    Ends ends;
    ASSERT_NO_FATAL_FAILURE(OpenAndConnect(AbstractAddress("scribbler"), &ends, RingUse::kRequired));
    auto& [listener, client, server, peer] = ends;
    auto* ring = dynamic_cast<RingStream*>(client.get());
    ASSERT_NE(ring, nullptr);
    // The control page as a hostile client sees it: ring 0's head (what the
    // server may read), ring 1's tail (where the server may write).
    void* control = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, ring->descriptors()[0], 0);
    ASSERT_NE(control, MAP_FAILED);
    auto* words = static_cast<uint32_t*>(control);
    if (over_write_position) {
      words[0] = 0x7fff0000u;  // claims 2 GiB written
      char buffer[16];
      EXPECT_EQ(server->ReadFullyWithin(buffer, sizeof buffer, 1000), ReadResult::kError);
      EXPECT_EQ(server->error(), "client " + peer.description +
                                     " corrupted the shared-memory ring (its write position is 2147418111 bytes "
                                     "ahead in a ring of " +
                                     std::to_string(kDefaultRingBytes) + ")");
    } else {
      words[(256 + 64) / 4] = 0x40000000u;  // claims to have read what was never written
      EXPECT_FALSE(server->Write("answer", 6) && server->Flush());
      EXPECT_NE(server->error().find("corrupted the shared-memory ring (its read position is"), std::string::npos)
          << server->error();
    }
    munmap(control, 4096);
  }
}

// A view (byte_stream.h) is the ring's own memory: the writer may not write
// over it until the reader gives it back, however far ahead it wants to go;
// at most half the ring is viewed at once, and a socket has no views. Breaks
// when the tail moves while a view is out (the writer would overwrite bytes
// the driver is still to read) or when a release loses the room.
TEST(Ring, ViewsKeepTheirBytesUntilGivenBack) {
  Ends ends;
  ASSERT_NO_FATAL_FAILURE(OpenAndConnect(AbstractAddress("viewer"), &ends, RingUse::kRequired));
  auto& [listener, client, server, peer] = ends;
  ASSERT_EQ(server->ViewLimit(), kDefaultRingBytes / 2);
  const size_t viewed = server->ViewLimit() - 4096;
  std::vector<uint8_t> first(viewed), second(kDefaultRingBytes);
  for (size_t i = 0; i < first.size(); ++i) first[i] = static_cast<uint8_t>(i * 7);
  for (size_t i = 0; i < second.size(); ++i) second[i] = static_cast<uint8_t>(i * 13 + 1);
  std::atomic<bool> second_written{false};
  auto writing = std::async(std::launch::async, [&, client = client.get()] {
    const bool ok = client->Write(first.data(), first.size()) && client->Write(second.data(), second.size()) &&
                    client->Flush();
    second_written = true;
    return ok;
  });
  const uint8_t* view = server->View(viewed);
  ASSERT_NE(view, nullptr) << server->error();
  EXPECT_EQ(server->View(8192), nullptr) << "past half the ring";
  // The writer fills what the view leaves and waits; the view keeps its bytes.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(second_written.load());
  EXPECT_EQ(std::memcmp(view, first.data(), first.size()), 0);
  // Reading on while holding it, as the contract allows.
  std::vector<uint8_t> got(second.size());
  const size_t before_release = server->ViewLimit() - viewed;
  ASSERT_TRUE(server->ReadFully(got.data(), before_release)) << server->error();
  EXPECT_EQ(std::memcmp(view, first.data(), first.size()), 0);
  server->ReleaseViews();
  ASSERT_TRUE(server->ReadFully(got.data() + before_release, got.size() - before_release)) << server->error();
  EXPECT_TRUE(writing.get()) << client->error();
  EXPECT_EQ(got, second);
}

// Large writes are placed at the ring's start or middle: the padding the
// ring asks for puts the bytes after it there, the writer moves past it
// without writing and the reader skips it unread. Breaks when padding is
// miscounted on either side (the bytes after it would come shifted).
TEST(Ring, PaddingPlacesLargeWritesAndIsSkipped) {
  Ends ends;
  ASSERT_NO_FATAL_FAILURE(OpenAndConnect(AbstractAddress("placer"), &ends, RingUse::kRequired));
  auto& [listener, client, server, peer] = ends;
  const size_t large = kDefaultRingBytes / 4, half = kDefaultRingBytes / 2;
  EXPECT_EQ(client->PlacementPadding(0, kDefaultRingBytes / 16), 0u) << "small writes go where they fall";
  EXPECT_EQ(client->PlacementPadding(0, half + 1), 0u) << "more than a view can hold";
  std::vector<uint8_t> data(large);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 5 + 3);
  // The opening byte went already; three more and a 4-byte prefix.
  ASSERT_TRUE(client->Write("abc", 3));
  const size_t padding = client->PlacementPadding(4, large);
  EXPECT_EQ(padding, half - 8);
  ASSERT_TRUE(client->Write("pad:", 4) && client->WritePadding(padding) && client->Write(data.data(), data.size()) &&
              client->Flush());
  EXPECT_EQ(client->PlacementPadding(0, large), half - large) << "the next large write goes to the start";
  char head[7];
  ASSERT_TRUE(server->ReadFully(head, sizeof head));
  EXPECT_EQ(std::string(head, sizeof head), "abcpad:");
  ASSERT_TRUE(server->Skip(padding)) << server->error();
  const uint8_t* view = server->View(large);
  ASSERT_NE(view, nullptr) << server->error();
  EXPECT_EQ(std::memcmp(view, data.data(), large), 0);
  server->ReleaseViews();
}

// Room reserved without waiting (a renderer reads a frame back into it while
// holding its client's lock): given where the bytes fit now, refused where
// the reader has not made room, and what is committed arrives in order after
// what was written before. Breaks if a refusal waits or a grant overlaps
// bytes the reader has not taken.
TEST(Ring, RoomReservedInPlaceOnlyWhereItFitsNow) {
  Ends ends;
  ASSERT_NO_FATAL_FAILURE(OpenAndConnect(AbstractAddress("inplace"), &ends, RingUse::kRequired));
  auto& [listener, client, server, peer] = ends;
  // The server's end writes (the renderer's direction), through the stream
  // the listener handed out.
  const size_t big = kDefaultRingBytes / 2 + 4096;
  ASSERT_TRUE(server->Write("head", 4));
  uint8_t* room = server->ReserveIfRoom(big);
  ASSERT_NE(room, nullptr) << "an empty ring has room";
  for (size_t i = 0; i < big; ++i) room[i] = static_cast<uint8_t>(i * 11 + 5);
  server->Commit(big);
  ASSERT_TRUE(server->Flush());
  // Nothing read yet: another such run cannot fit, and asking does not wait.
  const auto asked = Clock::now();
  EXPECT_EQ(server->ReserveIfRoom(big), nullptr);
  EXPECT_LT(MillisecondsSince(asked), 100);
  EXPECT_EQ(server->ReserveIfRoom(kDefaultRingBytes + 1), nullptr) << "larger than the ring";
  char head[4];
  ASSERT_TRUE(client->ReadFully(head, sizeof head));
  EXPECT_EQ(std::string(head, 4), "head");
  std::vector<uint8_t> got(big);
  ASSERT_TRUE(client->ReadFully(got.data(), got.size())) << client->error();
  for (size_t i = 0; i < big; ++i) {
    ASSERT_EQ(got[i], static_cast<uint8_t>(i * 11 + 5)) << "byte " << i;
  }
  // Read: the room is there again, across the ring's end in one span.
  room = server->ReserveIfRoom(big);
  ASSERT_NE(room, nullptr);
  std::memset(room, 0x5a, big);
  server->Commit(big);
  ASSERT_TRUE(server->Write("tail", 4) && server->Flush());
  ASSERT_TRUE(client->ReadFully(got.data(), got.size()));
  EXPECT_EQ(std::count(got.begin(), got.end(), 0x5a), static_cast<long>(big));
  ASSERT_TRUE(client->ReadFully(head, sizeof head));
  EXPECT_EQ(std::string(head, 4), "tail");
}

// A writer that sleeps on a full ring is woken once a quarter of it is
// free, not at the first bytes the reader takes: a reader draining message
// by message would otherwise wake it for each. Breaks if the reader wakes it
// early (the write would land at the first eighth) or never (no wake-up).
TEST(Ring, SleepingWriterIsWokenOnceAQuarterOfTheRingIsFree) {
  Ends ends;
  ASSERT_NO_FATAL_FAILURE(OpenAndConnect(AbstractAddress("wakeup"), &ends, RingUse::kRequired));
  auto& [listener, client, server, peer] = ends;
  std::vector<uint8_t> fill(kDefaultRingBytes);
  for (size_t i = 0; i < fill.size(); ++i) fill[i] = static_cast<uint8_t>(i * 3 + 1);
  ASSERT_TRUE(client->Write(fill.data(), fill.size()) && client->Flush()) << client->error();
  std::atomic<bool> written{false};
  auto writing = std::async(std::launch::async, [&, client = client.get()] {
    const bool ok = client->Write("next", 4) && client->Flush();
    written = true;
    return ok;
  });
  // Long enough for the writer to stop looking and sleep.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::vector<uint8_t> got(fill.size());
  const size_t eighth = kDefaultRingBytes / 8;
  ASSERT_TRUE(server->ReadFully(got.data(), eighth)) << server->error();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(written.load()) << "woken with only an eighth of the ring free";
  ASSERT_TRUE(server->ReadFully(got.data() + eighth, eighth)) << server->error();
  const auto freed = Clock::now();
  while (!written.load() && MillisecondsSince(freed) < 5000) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(written.load()) << "not woken with a quarter of the ring free";
  ASSERT_TRUE(server->ReadFully(got.data() + 2 * eighth, got.size() - 2 * eighth)) << server->error();
  EXPECT_TRUE(std::equal(got.begin(), got.end(), fill.begin())) << "the ring's bytes came out of order";
  char next[4];
  ASSERT_TRUE(server->ReadFully(next, sizeof next)) << server->error();
  EXPECT_EQ(std::string(next, 4), "next");
  EXPECT_TRUE(writing.get()) << client->error();
}

TEST(Ring, SocketsHaveNoViews) {
  Ends ends;
  ASSERT_NO_FATAL_FAILURE(OpenAndConnect(AbstractAddress("noviews"), &ends, RingUse::kNever));
  EXPECT_EQ(ends.server->ViewLimit(), 0u);
  EXPECT_EQ(ends.server->ReserveIfRoom(4), nullptr) << "a socket has no memory to write in place";
  ASSERT_TRUE(ends.client->Write("abcd", 4) && ends.client->Flush());
  EXPECT_EQ(ends.server->View(4), nullptr);
  char got[4];
  ASSERT_TRUE(ends.server->ReadFully(got, 4));
  EXPECT_EQ(std::string(got, 4), "abcd");
}

TEST(Ring, ReaderInAnotherThreadSeesTheWriterDie) {
  // A renderer killed while its client waits for an answer, as a process.
  std::string error;
  auto listener = Listener::Open(AbstractAddress("killed"), &error);
  ASSERT_TRUE(listener) << error;
  const pid_t child = fork();
  if (child == 0) {
    auto stream = Connect("shm:" + listener->address().substr(6), &error);
    if (!stream || !stream->Write("!", 1) || !stream->Flush()) _exit(1);
    char c;
    stream->ReadFully(&c, 1);  // waits for an answer that never comes
    _exit(0);
  }
  auto server = listener->Accept(5000, nullptr, &error);
  ASSERT_TRUE(server) << error;
  char first = 0;
  ASSERT_TRUE(server->ReadFully(&first, 1)) << server->error();
  ASSERT_TRUE(server->Write("partial", 7) && server->Flush());
  char rest[16];
  // The client dies while this end waits for it to say more.
  auto waiting = std::async(std::launch::async, [&] { return server->ReadFullyWithin(rest, sizeof rest, 10000); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  const auto start = Clock::now();
  EXPECT_EQ(waiting.get(), ReadResult::kClosed);
  EXPECT_LT(MillisecondsSince(start), 2000);
  EXPECT_NE(server->error().find("closed the connection"), std::string::npos) << server->error();
}

TEST(UnixPathSockets, PrivateReplacedWhenStaleRemovedWhenDone) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  std::string path = dir.path() + "/renderer.sock", address = "unix:" + path, error;
  {
    auto listener = Listener::Open(address, &error);
    ASSERT_TRUE(listener) << error;
    EXPECT_EQ(listener->address(), address);
    struct stat status{};
    ASSERT_EQ(lstat(path.c_str(), &status), 0);
    EXPECT_TRUE(S_ISSOCK(status.st_mode));
    EXPECT_EQ(status.st_mode & 0777, 0600u);
    // A live socket is never taken over.
    EXPECT_FALSE(Listener::Open(address, &error));
    EXPECT_EQ(error, "cannot listen on " + address + ": another server is listening there");
  }
  struct stat status{};
  EXPECT_NE(lstat(path.c_str(), &status), 0) << "the socket file outlived its listener";

  // A socket left by a server that died.
  int stale = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un un{};
  un.sun_family = AF_UNIX;
  std::strncpy(un.sun_path, path.c_str(), sizeof un.sun_path - 1);
  ASSERT_EQ(bind(stale, reinterpret_cast<sockaddr*>(&un), sizeof un), 0);
  close(stale);
  auto listener = Listener::Open(address, &error);
  EXPECT_TRUE(listener) << error;
}

TEST(UnixPathSockets, NeverReplacesAFileThatIsNotASocket) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  std::string path = dir.path() + "/precious", error;
  std::ofstream(path) << "data";
  EXPECT_FALSE(Listener::Open("unix:" + path, &error));
  EXPECT_EQ(error, "cannot listen on unix:" + path + ": " + path + " exists and is not a socket (not replacing it)");
  std::ifstream kept(path);
  std::string content;
  kept >> content;
  EXPECT_EQ(content, "data");
}

TEST(Token, WrittenPrivatelyAndReadBack) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  std::string path = dir.path() + "/token", token, again, read, error;
  ASSERT_TRUE(strata::transport::WriteNewToken(path, &token, &error)) << error;
  EXPECT_EQ(token.size(), 64u);
  EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos) << token;
  struct stat status{};
  ASSERT_EQ(stat(path.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0600u);
  ASSERT_TRUE(strata::transport::ReadToken(path, &read, &error)) << error;
  EXPECT_EQ(read, token);

  // A new token replaces ours.
  ASSERT_TRUE(strata::transport::WriteNewToken(path, &again, &error)) << error;
  EXPECT_NE(again, token);
  ASSERT_TRUE(strata::transport::ReadToken(path, &read, &error)) << error;
  EXPECT_EQ(read, again);
}

TEST(Token, RefusesFilesOthersCanReadAndLinks) {
  TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  std::string path = dir.path() + "/token", token, error;
  ASSERT_TRUE(strata::transport::WriteNewToken(path, &token, &error)) << error;
  ASSERT_EQ(chmod(path.c_str(), 0644), 0);
  EXPECT_FALSE(strata::transport::ReadToken(path, &token, &error));
  EXPECT_EQ(error, "token file " + path + " is readable by others (mode 0644); chmod 600 " + path);
  ASSERT_EQ(chmod(path.c_str(), 0620), 0);
  EXPECT_FALSE(strata::transport::ReadToken(path, &token, &error));
  EXPECT_NE(error.find("is writable by others (mode 0620)"), std::string::npos) << error;

  std::string link = dir.path() + "/link";
  ASSERT_EQ(symlink(path.c_str(), link.c_str()), 0);
  EXPECT_FALSE(strata::transport::ReadToken(link, &token, &error));
  EXPECT_FALSE(strata::transport::WriteNewToken(link, &token, &error));
  EXPECT_NE(error.find("not a file of ours"), std::string::npos) << error;

  std::string garbage = dir.path() + "/garbage";
  std::ofstream(garbage) << "not a token\n";
  ASSERT_EQ(chmod(garbage.c_str(), 0600), 0);
  EXPECT_FALSE(strata::transport::ReadToken(garbage, &token, &error));
  EXPECT_EQ(error, "token file " + garbage + " does not hold a token (64 hex digits)");
}

TEST(Token, ComparesWholeTokens) {
  using strata::transport::TokensEqual;
  std::string token(64, 'a');
  EXPECT_TRUE(TokensEqual(token, std::string(64, 'a')));
  std::string first = token, last = token;
  first.front() = 'b';
  last.back() = 'b';
  EXPECT_FALSE(TokensEqual(token, first));
  EXPECT_FALSE(TokensEqual(token, last));
  EXPECT_FALSE(TokensEqual(token, token.substr(0, 63)));
  EXPECT_FALSE(TokensEqual(token, token + "a"));
  EXPECT_FALSE(TokensEqual(token, ""));
  EXPECT_TRUE(TokensEqual("", ""));
}

}  // namespace
