// The transport layer over real loopback and Unix sockets: bytes arrive as
// sent, errors name the peer, nothing waits longer than it was told to.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "transport/byte_stream.h"
#include "transport/connect.h"
#include "transport/listener.h"
#include "transport/socket_address.h"
#include "transport/token.h"

namespace {

using strata::transport::Address;
using strata::transport::ByteStream;
using strata::transport::Connect;
using strata::transport::ConnectOptions;
using strata::transport::Listener;
using strata::transport::ParseAddress;
using strata::transport::Peer;
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

void OpenAndConnect(const std::string& address, Ends* ends) {
  std::string error;
  ends->listener = Listener::Open(address, &error);
  ASSERT_TRUE(ends->listener) << error;
  ends->client = Connect(ends->listener->address(), &error);
  ASSERT_TRUE(ends->client) << error;
  ends->server = ends->listener->Accept(5000, &ends->peer, &error);
  ASSERT_TRUE(ends->server) << error;
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

void ExpectEchoes(const std::string& address) {
  std::string error;
  auto listener = Listener::Open(address, &error);
  ASSERT_TRUE(listener) << error;
  std::jthread server = EchoServer(listener.get());
  auto client = Connect(listener->address(), &error);
  ASSERT_TRUE(client) << error;
  EXPECT_EQ(client->error(), "");
  uint32_t seed = 0;
  for (uint32_t size : {0u, 1u, 7u, 100u, 65535u, 65536u, 65537u, 300000u}) {
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
           Case{"pipe:x", "unknown address 'pipe:x' (expected unix:@NAME, unix:/PATH or tcp:HOST:PORT)"},
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

TEST(Peers, UnixPeerIsKnownByItsCredentials) {
  std::string error;
  Ends ends;
  ASSERT_NO_FATAL_FAILURE(OpenAndConnect(AbstractAddress("credentials"), &ends));
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
    auto client = Connect(listener->address(), &error, ConnectOptions{.timeout_ms = 200});
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

TEST(Errors, PeerThatLeavesMidMessageIsNamed) {
  std::string error;
  auto listener = Listener::Open(AbstractAddress("leaver"), &error);
  ASSERT_TRUE(listener) << error;
  auto client = Connect(listener->address(), &error);
  ASSERT_TRUE(client) << error;
  {
    auto server = listener->Accept(5000, nullptr, &error);
    ASSERT_TRUE(server) << error;
    ASSERT_TRUE(server->Write("0123456789", 10));
    ASSERT_TRUE(server->Flush()) << server->error();
  }
  char buffer[20];
  EXPECT_EQ(client->ReadFullyWithin(buffer, sizeof buffer, 5000), ReadResult::kClosed);
  EXPECT_EQ(client->error(), "renderer at " + listener->address() +
                                 " closed the connection in the middle of a message (10 of 20 bytes came)");
  EXPECT_FALSE(client->ReadFully(buffer, 1));
  EXPECT_EQ(client->error(), "renderer at " + listener->address() + " closed the connection");
}

TEST(Errors, WritingToAPeerThatLeftFailsWithoutSigpipe) {
  std::string error;
  Ends ends;
  ASSERT_NO_FATAL_FAILURE(OpenAndConnect(AbstractAddress("gone"), &ends));
  auto& [listener, client, server, peer] = ends;
  client.reset();
  std::vector<uint8_t> data(1 << 20, 7);
  bool flushed = true;
  for (int i = 0; i < 8 && flushed; ++i) flushed = server->Write(data.data(), data.size()) && server->Flush();
  EXPECT_FALSE(flushed);  // and the process is still here: no SIGPIPE
  EXPECT_EQ(server->error(), "client " + peer.description + " closed the connection");
  EXPECT_FALSE(server->Flush());
}

TEST(Timeouts, ReadFullyWithinGivesUpOnlyWhenNothingCame) {
  std::string error;
  auto listener = Listener::Open(AbstractAddress("timeout"), &error);
  ASSERT_TRUE(listener) << error;
  auto client = Connect(listener->address(), &error);
  ASSERT_TRUE(client) << error;
  auto server = listener->Accept(5000, nullptr, &error);
  ASSERT_TRUE(server) << error;

  char buffer[4];
  auto start = Clock::now();
  EXPECT_EQ(client->ReadFullyWithin(buffer, sizeof buffer, 100), ReadResult::kTimeout);
  EXPECT_GE(MillisecondsSince(start), 90);
  EXPECT_LT(MillisecondsSince(start), 2000);
  EXPECT_EQ(client->error(), "");

  // Half a message, the rest later than the timeout: the read waits for it.
  ASSERT_TRUE(server->Write("ab", 2) && server->Flush());
  std::jthread late([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    server->Write("cd", 2);
    server->Flush();
  });
  EXPECT_EQ(client->ReadFullyWithin(buffer, sizeof buffer, 100), ReadResult::kOk) << client->error();
  EXPECT_EQ(std::string(buffer, 4), "abcd");
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

TEST(Timeouts, ShutdownWakesAReaderInAnotherThread) {
  std::string error;
  auto listener = Listener::Open(AbstractAddress("shutdown"), &error);
  ASSERT_TRUE(listener) << error;
  auto client = Connect(listener->address(), &error);
  ASSERT_TRUE(client) << error;
  auto server = listener->Accept(5000, nullptr, &error);
  ASSERT_TRUE(server) << error;

  auto read = std::async(std::launch::async, [&] {
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
