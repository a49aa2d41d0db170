// strata serve as a real process, driven by a small client that speaks the
// wire protocol (transport + stream::CallEncoder), rendering with Mesa.
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "stream/byte_reader.h"
#include "stream/call_encoder.h"
#include "stream/record_format.h"
#include "stream/wire.h"
#include "stream/word_run.h"
#include "support/process.h"
#include "support/scratch.h"
#include "transport/connect.h"
#include "transport/token.h"

namespace {

namespace wire = strata::stream::wire;
namespace api = strata::api;
using strata::stream::ByteBuffer;
using strata::stream::CallEncoder;
using strata::stream::CallRun;
using Clock = std::chrono::steady_clock;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `strata serve` in the background, its log in a file.
class Renderer {
 public:
  explicit Renderer(std::vector<std::string> extra = {}) {
    static int counter = 0;
    address_ = "unix:@strata-test-" + std::to_string(getpid()) + "-" + std::to_string(++counter);
    dir_ = strata::test::ScratchPath("renderer-" + std::to_string(counter));
    std::filesystem::create_directories(dir_);
    log_ = dir_ + "/serve.log";
    std::vector<std::string> args = {STRATA_CLI, "serve", "--listen", address_, "--token-file", dir_ + "/token"};
    args.insert(args.end(), extra.begin(), extra.end());
    for (auto& arg : args) {
      if (arg == "@DIR") arg = dir_;
    }
    pid_ = fork();
    if (pid_ == 0) {
      FILE* f = std::fopen(log_.c_str(), "w");
      dup2(fileno(f), 1);
      dup2(fileno(f), 2);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    ready_ = WaitForLog("listening on", 20);
  }
  ~Renderer() { Stop(); }  // its directory, log included, goes with the test's (kept if a test failed)
  // SIGTERM, and its exit status (-1 if it had to be killed).
  int Stop() {
    if (pid_ <= 0) return status_;
    kill(pid_, SIGTERM);
    for (int i = 0; i < 200; ++i) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = 0;
        return status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = 0;
    return status_ = -1;
  }
  bool WaitForLog(const std::string& text, int seconds) {
    auto end = Clock::now() + std::chrono::seconds(seconds);
    while (Clock::now() < end) {
      if (log().find(text) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
  std::string log() const { return ReadFile(log_); }
  // The first address the ready line names.
  std::string listening() const {
    std::string l = log();
    size_t at = l.find("listening on ");
    if (at == std::string::npos) return "";
    at += 13;
    size_t end = l.find_first_of(" ,\n", at);
    return l.substr(at, end - at);
  }
  bool ready() const { return ready_; }
  const std::string& address() const { return address_; }
  const std::string& dir() const { return dir_; }

 private:
  std::string address_, dir_, log_;
  pid_t pid_ = 0;
  int status_ = -1;
  bool ready_ = false;
};

struct Arg {
  Arg(uint64_t w = 0) : word(w) {}  // NOLINT: a scalar reads as itself in call lists
  Arg(uint64_t w, std::vector<uint8_t> bytes) : word(w), blob(std::move(bytes)) {}
  uint64_t word = 0;
  std::optional<std::vector<uint8_t>> blob;  // bytes behind a data pointer (input)
};

Arg Blob(const std::vector<EGLint>& values) {
  std::vector<uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return Arg(0x1000, bytes);
}
Arg Out() { return Arg(0x2000); }
Arg Float(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return Arg(bits);
}

// A client of the protocol: one process session over one connection.
class Client {
 public:
  bool Connect(const std::string& address, std::string* error, uint32_t version = wire::kProtocolVersion,
               const std::string& token = "", const std::string& features = "records-v1,replies-v1,frames-v1") {
    wire::Hello hello;
    hello.version = version;
    hello.values["role"] = "process";
    hello.values["features"] = features;
    hello.values["functions"] = strata::stream::FunctionTable::OwnNames();
    if (!token.empty()) hello.values["token"] = token;
    return Handshake(address, hello, error);
  }
  // Another thread of a process whose session is `session`, as the client library's threads join.
  bool Join(const std::string& address, const std::string& session, const std::string& key, std::string* error) {
    wire::Hello hello;
    hello.version = wire::kProtocolVersion;
    hello.values["role"] = "thread";
    hello.values["session"] = session;
    hello.values["session_key"] = key;
    return Handshake(address, hello, error);
  }
  bool Handshake(const std::string& address, wire::Hello hello, std::string* error) {
    stream_ = strata::transport::Connect(address, error);
    if (!stream_) return false;
    hello.values["program"] = "serve_test";
    hello.values["pid"] = std::to_string(getpid());
    auto bytes = wire::EncodeHello(wire::kClientMagic, hello);
    stream_->Write(bytes.data(), bytes.size());
    if (!stream_->Flush()) return *error = stream_->error(), false;
    uint8_t header[wire::kHelloHeaderBytes];
    if (stream_->ReadFullyWithin(header, sizeof header, 10000) != strata::transport::ByteStream::ReadResult::kOk) {
      return *error = "no answer: " + stream_->error(), false;
    }
    uint32_t their_version = 0, size = 0;
    if (!wire::DecodeHelloHeader(header, wire::kRendererMagic, &their_version, &size, error)) return false;
    std::vector<uint8_t> body(size);
    if (!stream_->ReadFully(body.data(), size) || !wire::DecodeHelloBody(body, &answer_, error)) return false;
    const std::string* status = answer_.Find("status");
    if (status == nullptr || *status != "ok") {
      const std::string* message = answer_.Find("message");
      *error = "refused: " + (message ? *message : std::string("?"));
      return false;
    }
    return true;
  }
  const wire::Hello& answer() const { return answer_; }

  // Adds a call to the batch; `proposed`: a handle the client names itself.
  uint64_t Call(int slot, const std::vector<Arg>& args, bool wants_reply, std::optional<uint64_t> proposed = {}) {
    const api::FunctionInfo& info = api::kFunctions[slot];
    uint8_t flags = wants_reply ? wire::kCallWantsReply : 0;
    if (proposed) flags |= strata::stream::kCallHasReply;
    const uint64_t sequence = ++sequence_;
    CallEncoder e(batch_, run_, slot, sequence, 0, flags);
    for (int i = 0; i < info.param_count; ++i) {
      const Arg a = i < static_cast<int>(args.size()) ? args[i] : Arg();
      e.Scalar(info.params[i].kind, a.word);
      if (strata::stream::IsDataPointer(info.params[i].kind)) {
        if (a.blob) {
          e.Blob(a.blob->data(), a.blob->size());
        } else {
          e.Absent();
        }
      }
    }
    e.Times(sequence * 1000, sequence * 1000 + 10);
    if (proposed) {
      e.Unsigned(*proposed);
      for (int i = 0; i < info.param_count; ++i) {
        if (strata::stream::IsDataPointer(info.params[i].kind)) e.Absent();
      }
    }
    e.End();
    return sequence;
  }
  // A word run of `calls` (slot, argument words) in context 0, as the client library writes one.
  // `cut_words`: words taken off its end; `misplace`: its padding one byte short, so its words lie off 8.
  // A call of a word run: its function, its arguments' words, and the bytes
  // of an array after them (words-v2).
  struct WordCall {
    int slot;
    std::vector<uint64_t> words;
    std::vector<uint8_t> array = {};
  };
  void WordRun(const std::vector<WordCall>& calls, size_t cut_words = 0, bool misplace = false) {
    const size_t at = batch_.size;
    strata::stream::WordRunWriter run;
    run.Open(batch_, sequence_ + 1, 0, sequence_ * 1000);
    for (const auto& [slot, words, array] : calls) {
      std::vector<strata::stream::PreparedWord> arguments(words.size());
      for (size_t i = 0; i < words.size(); ++i) arguments[i].u = words[i];
      run.Add(batch_, run_, static_cast<uint64_t>(slot), arguments.data(), static_cast<uint32_t>(words.size()),
              array.data(), array.size());
      ++sequence_;
    }
    batch_.size -= cut_words * sizeof(strata::stream::PreparedWord);
    if (misplace) {
      uint8_t* padding = batch_.storage.data() + at + 1 + strata::stream::kWordRunLengthBytes;
      ASSERT_GE(*padding, 1);
      --*padding;
      std::memmove(padding + 1 + *padding, padding + 2 + *padding, batch_.size - (padding + 2 + *padding - batch_.storage.data()));
      --batch_.size;
    }
    run.Close(batch_);
  }
  // Sends the batch and, if `slot` >= 0, waits for the reply to call `sequence`.
  bool Send(int slot, uint64_t sequence, wire::Reply* reply, std::string* error) {
    if (!SendRaw(batch_.bytes())) return *error = stream_->error(), false;
    batch_.Clear();
    run_.Restart();
    if (slot < 0) return true;
    uint8_t header[4];
    if (stream_->ReadFullyWithin(header, 4, 20000) != strata::transport::ByteStream::ReadResult::kOk) {
      return *error = "no reply: " + stream_->error(), false;
    }
    incoming_.resize(wire::MessageSize(header));
    if (!stream_->ReadFully(incoming_.data(), incoming_.size())) return *error = stream_->error(), false;
    strata::stream::ByteReader r(incoming_);
    while (!r.done() && r.ok()) {
      const uint8_t type = r.U8();
      auto payload = r.Bytes(r.Varint());
      if (type == static_cast<uint8_t>(strata::stream::RecordType::kReply)) {
        if (!wire::DecodeReply(payload, slot, reply, error)) return false;
        if (reply->sequence != sequence) return *error = "reply to another call", false;
        return true;
      }
      if (type == static_cast<uint8_t>(strata::stream::RecordType::kTraceEvent)) {
        strata::stream::ByteReader event(payload);
        std::string kind = event.String();
        return *error = kind + ": " + event.String(), false;
      }
    }
    return *error = "no reply record", false;
  }
  // Large blobs of the calls that follow go to `sink` (stream/bulk_blobs.h).
  void SetBulkSink(strata::stream::BulkSink* sink) { batch_.bulk = sink; }
  // A bulk segment as it goes on the wire, before the message it belongs to.
  bool SendBulk(std::span<const uint8_t> bytes) {
    uint8_t header[4];
    wire::PutMessageHeader(header, static_cast<uint32_t>(bytes.size()) | wire::kBulkSegmentBit);
    stream_->Write(header, 4);
    stream_->Write(bytes.data(), bytes.size());
    return stream_->Flush();
  }
  bool SendRaw(std::span<const uint8_t> records) {
    uint8_t header[4];
    wire::PutMessageHeader(header, static_cast<uint32_t>(records.size()));
    stream_->Write(header, 4);
    stream_->Write(records.data(), records.size());
    return stream_->Flush();
  }
  // The next message's first record, as (kind, message) of an error event.
  std::string ReadErrorEvent() {
    uint8_t header[4];
    if (stream_->ReadFullyWithin(header, 4, 20000) != strata::transport::ByteStream::ReadResult::kOk) return "";
    incoming_.resize(wire::MessageSize(header));
    if (!stream_->ReadFully(incoming_.data(), incoming_.size())) return "";
    strata::stream::ByteReader r(incoming_);
    if (r.U8() != static_cast<uint8_t>(strata::stream::RecordType::kTraceEvent)) return "";
    strata::stream::ByteReader event(r.Bytes(r.Varint()));
    std::string kind = event.String();
    return kind + ": " + event.String();
  }
  strata::transport::ByteStream& stream() { return *stream_; }

  // eglInitialize .. glReadPixels of a 16x16 pbuffer cleared to `rgba`; the pixels read back.
  bool Render(const float rgba[4], std::vector<uint8_t>* pixels, std::string* error) {
    wire::Reply reply;
    uint64_t s = Call(api::eglInitialize, {{1}, Out(), Out()}, true);
    if (!Send(api::eglInitialize, s, &reply, error)) return false;
    if (reply.result.u != EGL_TRUE) return *error = "eglInitialize failed", false;
    s = Call(api::eglChooseConfig,
             {{1}, Blob({EGL_RED_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                         EGL_OPENGL_ES2_BIT, EGL_NONE}),
              Out(), {1}, Out()},
             true);
    if (!Send(api::eglChooseConfig, s, &reply, error)) return false;
    if (reply.outputs.size() < 5 || !reply.outputs[2].has_out || reply.outputs[2].out.size() < 4) {
      return *error = "eglChooseConfig gave no config", false;
    }
    uint64_t config = 0;
    std::memcpy(&config, reply.outputs[2].out.data(), std::min<size_t>(8, reply.outputs[2].out.size()));
    if (reply.outputs[2].out.size() == 4) config &= 0xffffffffu;
    Call(api::eglCreateContext, {{1}, {config}, {0}, Blob({EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE})}, false, 0x100);
    Call(api::eglCreatePbufferSurface, {{1}, {config}, Blob({EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE})}, false, 0x200);
    s = Call(api::eglMakeCurrent, {{1}, {0x200}, {0x200}, {0x100}}, true);
    if (!Send(api::eglMakeCurrent, s, &reply, error)) return false;
    if (reply.result.u != EGL_TRUE) return *error = "eglMakeCurrent failed", false;
    Call(api::glClearColor, {Float(rgba[0]), Float(rgba[1]), Float(rgba[2]), Float(rgba[3])}, false);
    Call(api::glClear, {{GL_COLOR_BUFFER_BIT}}, false);
    s = Call(api::glReadPixels, {{0}, {0}, {16}, {16}, {GL_RGBA}, {GL_UNSIGNED_BYTE}, Out()}, true);
    if (!Send(api::glReadPixels, s, &reply, error)) return false;
    if (reply.outputs.size() < 7 || !reply.outputs[6].has_out) return *error = "glReadPixels gave no pixels", false;
    pixels->assign(reply.outputs[6].out.begin(), reply.outputs[6].out.end());
    return true;
  }

 private:
  std::unique_ptr<strata::transport::ByteStream> stream_;
  wire::Hello answer_;
  ByteBuffer batch_;
  CallRun run_;
  uint64_t sequence_ = 0;
  std::vector<uint8_t> incoming_;
};

void ExpectRed(const std::vector<uint8_t>& pixels) {
  ASSERT_EQ(pixels.size(), 16u * 16u * 4u);
  for (size_t i = 0; i < pixels.size(); i += 4) {
    ASSERT_EQ(pixels[i], 255) << "pixel " << i / 4;
    ASSERT_EQ(pixels[i + 1], 0);
    ASSERT_EQ(pixels[i + 2], 0);
    ASSERT_EQ(pixels[i + 3], 255);
  }
}

constexpr float kRed[4] = {1, 0, 0, 1};

TEST(Serve, RendersAClientsCallsAndAnswersWithPixels) {
  Renderer renderer;
  ASSERT_TRUE(renderer.ready()) << renderer.log();
  Client client;
  std::string error;
  ASSERT_TRUE(client.Connect(renderer.address(), &error)) << error << "\n" << renderer.log();
  EXPECT_NE(client.answer().Find("session"), nullptr);
  EXPECT_EQ(client.answer().Find("session_key")->size(), 64u);
  std::vector<uint8_t> pixels;
  ASSERT_TRUE(client.Render(kRed, &pixels, &error)) << error << "\n" << renderer.log();
  ExpectRed(pixels);
  // The kernel's peer credentials name the same pid: said once, with the uid.
  EXPECT_NE(renderer.log().find("client joined: serve_test (pid " + std::to_string(getpid()) + ", uid " +
                                std::to_string(geteuid()) + "), session "),
            std::string::npos)
      << renderer.log();
  client.stream().Shutdown();
  EXPECT_TRUE(renderer.WaitForLog("client left: serve_test", 10)) << renderer.log();
  EXPECT_EQ(renderer.Stop(), 0) << renderer.log();
}

TEST(Serve, RefusesAnotherProtocolVersionNamingBoth) {
  Renderer renderer;
  ASSERT_TRUE(renderer.ready()) << renderer.log();
  Client client;
  std::string error;
  EXPECT_FALSE(client.Connect(renderer.address(), &error, 99));
  EXPECT_NE(error.find("version 99"), std::string::npos) << error;
  EXPECT_NE(error.find("version " + std::to_string(wire::kProtocolVersion)), std::string::npos) << error;
  EXPECT_TRUE(renderer.WaitForLog("refused serve_test", 10)) << renderer.log();
  EXPECT_NE(renderer.log().find("version 99"), std::string::npos) << renderer.log();
}

// --display with no X display to show on: one line saying so, and no renderer.
TEST(Serve, DisplayWithoutAnXServerIsOneClearError) {
  strata::test::ProcessOptions options;
  options.unset_env = {"DISPLAY"};
  options.timeout_seconds = 30;
  auto r = strata::test::RunProcess(
      {STRATA_CLI, "serve", "--display", "--listen", "unix:@strata-test-nodisplay-" + std::to_string(getpid())},
      options);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("strata serve: error: --display: cannot open the X display (DISPLAY is not set)"),
            std::string::npos)
      << r.err;
}

// --decode-ahead takes on, off or auto: anything else is a usage error naming
// the value, and no renderer starts.
TEST(Serve, ADecodeAheadOtherThanOnOffOrAutoIsAUsageError) {
  strata::test::ProcessOptions options;
  options.timeout_seconds = 30;
  auto r = strata::test::RunProcess({STRATA_CLI, "serve", "--decode-ahead", "maybe", "--listen",
                                     "unix:@strata-test-decode-ahead-" + std::to_string(getpid())},
                                    options);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("strata serve: error: --decode-ahead takes on, off or auto, not 'maybe'"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("strata serve: listening on"), std::string::npos) << r.err;
}

TEST(Serve, TcpClientsNeedTheToken) {
  Renderer renderer({"--listen", "tcp:127.0.0.1:0"});
  ASSERT_TRUE(renderer.ready()) << renderer.log();
  std::string log = renderer.log();
  size_t at = log.find("tcp:127.0.0.1:");
  ASSERT_NE(at, std::string::npos) << log;
  std::string tcp = log.substr(at, log.find_first_of(" ,\n(", at) - at);
  Client wrong;
  std::string error;
  EXPECT_FALSE(wrong.Connect(tcp, &error, wire::kProtocolVersion, "0123"));
  EXPECT_NE(error.find("wrong token"), std::string::npos) << error;
  Client none;
  EXPECT_FALSE(none.Connect(tcp, &error));
  EXPECT_NE(error.find("token"), std::string::npos) << error;
  std::string token;
  ASSERT_TRUE(strata::transport::ReadToken(renderer.dir() + "/token", &token, &error)) << error;
  Client right;
  ASSERT_TRUE(right.Connect(tcp, &error, wire::kProtocolVersion, token)) << error << "\n" << renderer.log();
  std::vector<uint8_t> pixels;
  ASSERT_TRUE(right.Render(kRed, &pixels, &error)) << error;
  ExpectRed(pixels);
  EXPECT_NE(renderer.log().find("wrong token"), std::string::npos) << renderer.log();
}

// A client process's other threads join its session by the session's key
// (the listener's routing, serve/server.cpp): a thread that names a session with another
// session's key, or a made-up one, is refused; with the key it joins and
// reaches the session's context and surface, whatever another session made
// under the same handles.
// Catches: a session joined without its key (another process's contexts and
// objects reachable by guessing its small session number), and sessions
// that share their objects.
TEST(Serve, AThreadJoinsOnlyTheSessionWhoseKeyItHolds) {
  Renderer renderer;
  ASSERT_TRUE(renderer.ready()) << renderer.log();
  std::string error;
  Client first, second;
  ASSERT_TRUE(first.Connect(renderer.address(), &error)) << error;
  ASSERT_TRUE(second.Connect(renderer.address(), &error)) << error;
  const std::string session = *first.answer().Find("session"), key = *first.answer().Find("session_key");
  std::vector<uint8_t> pixels;
  ASSERT_TRUE(first.Render(kRed, &pixels, &error)) << error << "\n" << renderer.log();
  wire::Reply reply;
  uint64_t s = first.Call(api::eglMakeCurrent, {{1}, {0}, {0}, {0}}, true);  // the context, free for another thread
  ASSERT_TRUE(first.Send(api::eglMakeCurrent, s, &reply, &error)) << error;
  // The second process names its context and surface as the first did, and clears them green.
  const float green[4] = {0, 1, 0, 1};
  ASSERT_TRUE(second.Render(green, &pixels, &error)) << error << "\n" << renderer.log();
  ASSERT_EQ(pixels.size(), 16u * 16u * 4u);
  EXPECT_EQ(pixels[1], 255);

  Client with_other_key, with_made_up_key;
  EXPECT_FALSE(with_other_key.Join(renderer.address(), session, *second.answer().Find("session_key"), &error));
  EXPECT_NE(error.find("wrong session key for session " + session), std::string::npos) << error;
  EXPECT_FALSE(with_made_up_key.Join(renderer.address(), session, std::string(64, '0'), &error));
  EXPECT_NE(error.find("wrong session key"), std::string::npos) << error;

  Client thread;
  ASSERT_TRUE(thread.Join(renderer.address(), session, key, &error)) << error << "\n" << renderer.log();
  s = thread.Call(api::eglMakeCurrent, {{1}, {0x200}, {0x200}, {0x100}}, true);
  ASSERT_TRUE(thread.Send(api::eglMakeCurrent, s, &reply, &error)) << error;
  EXPECT_EQ(reply.result.u, static_cast<uint64_t>(EGL_TRUE));
  s = thread.Call(api::glReadPixels, {{0}, {0}, {16}, {16}, {GL_RGBA}, {GL_UNSIGNED_BYTE}, Out()}, true);
  ASSERT_TRUE(thread.Send(api::glReadPixels, s, &reply, &error)) << error;
  ASSERT_GE(reply.outputs.size(), 7u);
  ExpectRed(std::vector<uint8_t>(reply.outputs[6].out.begin(), reply.outputs[6].out.end()));
  EXPECT_NE(renderer.log().find("wrong session key for session " + session), std::string::npos) << renderer.log();
}

// Bulk segments (stream/bulk_blobs.h) that do not match the blobs their
// message leaves out close only that client, with a line saying which: a
// segment no call used, a blob with no segment, a segment of another size,
// and a segment from a client that never agreed to bulk-v1. Breaks when the
// renderer takes a segment for the wrong blob or trusts the sizes.
class BulkSegments final : public strata::stream::BulkSink {
 public:
  // Sends each blob's first `keep` bytes (all: -1) as its segment; none at all with `send` false.
  BulkSegments(Client& client, bool send, long keep = -1)
      : BulkSink(wire::kBulkBlobBytes), client_(client), send_(send), keep_(keep) {}
  void PutBulk(const void* data, size_t size) override {
    const size_t kept = keep_ < 0 ? size : std::min(size, static_cast<size_t>(keep_));
    if (send_) client_.SendBulk({static_cast<const uint8_t*>(data), kept});
  }

 private:
  Client& client_;
  bool send_;
  long keep_;
};

// `client` connected asking for `features`, and the renderer agreed to `feature`.
void ConnectAgreeing(Renderer& renderer, const std::string& features, const std::string& feature, Client* client) {
  std::string error;
  ASSERT_TRUE(client->Connect(renderer.address(), &error, wire::kProtocolVersion, "", features)) << error;
  EXPECT_TRUE(wire::HasFeature(*client->answer().Find("features"), feature)) << *client->answer().Find("features");
}

// A client of `features` that sends what `send` writes (and Sends) is closed
// with `expected`: the error event it reads says so, and the renderer's log.
void ExpectClosedWith(Renderer& renderer, const std::string& features, const std::function<void(Client&)>& send,
                      const char* expected, const char* what) {
  Client bad;
  std::string error;
  ASSERT_TRUE(bad.Connect(renderer.address(), &error, wire::kProtocolVersion, "", features)) << error;
  send(bad);
  const std::string event = bad.ReadErrorEvent();
  EXPECT_NE(event.find(expected), std::string::npos) << what << ": " << event;
  EXPECT_TRUE(renderer.WaitForLog(expected, 10)) << what << "\n" << renderer.log();
}

TEST(Serve, BulkSegmentsThatDoNotMatchTheirBlobsCloseOnlyThatClient) {
  Renderer renderer;
  ASSERT_TRUE(renderer.ready()) << renderer.log();
  const std::string bulk_features = "records-v1,replies-v1,frames-v1,bulk-v1";
  std::string error;
  Client good;
  ASSERT_NO_FATAL_FAILURE(ConnectAgreeing(renderer, bulk_features, "bulk-v1", &good));
  // A 128x128 RGBA image: 64 KiB, the size that goes out of line.
  const Arg image(0x3000, std::vector<uint8_t>(128 * 128 * 4, 0x5a));
  const std::vector<Arg> tex_image = {{GL_TEXTURE_2D}, {0}, {GL_RGBA}, {128}, {128}, {0}, {GL_RGBA}, {GL_UNSIGNED_BYTE},
                                      image};
  struct Case {
    const char* what;
    bool send;
    long keep;
    bool unused_segment;
    const char* expected;
  };
  const Case cases[] = {
      {"a segment no call used", true, -1, true, "1 bulk segment(s) no call of the message used"},
      {"a blob with no segment", false, -1, false,
       "glTexImage2D: a blob of 65536 bytes left out of its record, with no bulk segment for it"},
      {"a segment of another size", true, 1000, false,
       "glTexImage2D: a blob of 65536 bytes left out of its record, but the bulk segment holds 1000"},
  };
  for (const Case& c : cases) {
    const auto send = [&](Client& bad) {
      BulkSegments sink(bad, c.send, c.keep);
      bad.SetBulkSink(&sink);
      if (c.unused_segment) {
        ASSERT_TRUE(bad.SendBulk(std::vector<uint8_t>(70000, 1)));
        bad.Call(api::glClear, {{GL_COLOR_BUFFER_BIT}}, false);
      } else {
        bad.Call(api::glTexImage2D, tex_image, false);
      }
      wire::Reply reply;
      std::string send_error;
      ASSERT_TRUE(bad.Send(-1, 0, &reply, &send_error)) << send_error;
    };
    ExpectClosedWith(renderer, bulk_features, send, c.expected, c.what);
  }
  // One that never agreed to bulk-v1 may not send a segment.
  Client unagreed;
  ASSERT_TRUE(unagreed.Connect(renderer.address(), &error)) << error;
  ASSERT_TRUE(unagreed.SendBulk(std::vector<uint8_t>(70000, 1)));
  EXPECT_NE(unagreed.ReadErrorEvent().find("a bulk segment, but bulk-v1 was not agreed in the handshake"),
            std::string::npos);
  // The good client's segments are matched to its blobs, and it renders on.
  BulkSegments sink(good, true);
  good.SetBulkSink(&sink);
  std::vector<uint8_t> pixels;
  ASSERT_TRUE(good.Render(kRed, &pixels, &error)) << error << "\n" << renderer.log();
  ExpectRed(pixels);
  good.Call(api::glTexImage2D, tex_image, false);
  const uint64_t s = good.Call(api::glGetError, {}, true);
  wire::Reply reply;
  ASSERT_TRUE(good.Send(api::glGetError, s, &reply, &error)) << error << "\n" << renderer.log();
  EXPECT_EQ(reply.result.u, static_cast<uint64_t>(GL_NO_ERROR));
}

// Catches: one bad client taking the renderer (or its other clients) down.
TEST(Serve, AMalformedMessageClosesOnlyThatClient) {
  Renderer renderer;
  ASSERT_TRUE(renderer.ready()) << renderer.log();
  Client good, bad;
  std::string error;
  ASSERT_TRUE(good.Connect(renderer.address(), &error)) << error;
  ASSERT_TRUE(bad.Connect(renderer.address(), &error)) << error;
  // A call record whose function id is far past the table, then a record running past its message.
  const std::vector<uint8_t> garbage = {2, 3, 0xff, 0xff, 0x7f, 2, 50, 1};
  ASSERT_TRUE(bad.SendRaw(garbage));
  std::string event = bad.ReadErrorEvent();
  EXPECT_EQ(event.rfind("error: ", 0), 0u) << event;
  EXPECT_TRUE(renderer.WaitForLog("closing serve_test", 10)) << renderer.log();
  std::vector<uint8_t> pixels;
  ASSERT_TRUE(good.Render(kRed, &pixels, &error)) << error << "\n" << renderer.log();
  ExpectRed(pixels);
  // An absurd length is refused before anything is allocated.
  Client huge;
  ASSERT_TRUE(huge.Connect(renderer.address(), &error)) << error;
  uint8_t header[4];
  wire::PutMessageHeader(header, 0x7ffffff0u);
  huge.stream().Write(header, 4);
  huge.stream().Flush();
  EXPECT_NE(huge.ReadErrorEvent().find("at most"), std::string::npos);
}

uint64_t FloatWord(float f) { return Float(f).word; }
constexpr uint64_t kGlColor = 0x1800;  // GL_COLOR, glClearBufferfv's buffer (GLES 3.0)

// Catches: word runs (stream/word_run.h) not run as the calls they hold (an
// array in the run read from the wrong place, or not checked against its
// call), a call record after one numbered wrongly, or a malformed run taking
// down more than its own client.
TEST(Serve, WordRunsRunTheirCallsAndMalformedOnesCloseOnlyThatClient) {
  Renderer renderer;
  ASSERT_TRUE(renderer.ready()) << renderer.log();
  const std::string features = "records-v1,replies-v1,frames-v1,words-v1,words-v2";
  std::string error;
  Client good;
  ASSERT_NO_FATAL_FAILURE(ConnectAgreeing(renderer, features, "words-v2", &good));
  std::vector<uint8_t> pixels;
  ASSERT_TRUE(good.Render(kRed, &pixels, &error)) << error << "\n" << renderer.log();
  ExpectRed(pixels);
  // Green, cleared by calls of a word run; the glReadPixels record after it
  // is answered under the number that follows the run's last call.
  good.WordRun({{api::glClearColor, {FloatWord(0), FloatWord(1), FloatWord(0), FloatWord(1)}},
                {api::glScissor, {0, 0, 8, 16}},
                {api::glEnable, {GL_SCISSOR_TEST}},
                {api::glClear, {GL_COLOR_BUFFER_BIT}}});
  const uint64_t s = good.Call(api::glReadPixels, {{0}, {0}, {16}, {16}, {GL_RGBA}, {GL_UNSIGNED_BYTE}, Out()}, true);
  wire::Reply reply;
  ASSERT_TRUE(good.Send(api::glReadPixels, s, &reply, &error)) << error << "\n" << renderer.log();
  ASSERT_EQ(reply.outputs.size(), 7u);
  ASSERT_EQ(reply.outputs[6].out.size(), 16u * 16u * 4u);
  const uint8_t* row = reply.outputs[6].out.data();
  EXPECT_EQ(std::vector<uint8_t>(row, row + 4), (std::vector<uint8_t>{0, 255, 0, 255}));  // left half: cleared
  EXPECT_EQ(std::vector<uint8_t>(row + 15 * 4, row + 16 * 4), (std::vector<uint8_t>{255, 0, 0, 255}));  // right: not

  // words-v2: blue, cleared by a call whose array lies in the run, between
  // calls of scalars; an array shorter than its call needs is refused alone.
  const float blue[4] = {0, 0, 1, 1};
  const std::vector<uint8_t> blue_bytes(reinterpret_cast<const uint8_t*>(blue),
                                        reinterpret_cast<const uint8_t*>(blue) + sizeof blue);
  good.WordRun({{api::glDisable, {GL_SCISSOR_TEST}},
                {api::glClearBufferfv, {kGlColor, 0, 0x1000}, std::vector<uint8_t>(blue_bytes.begin(), blue_bytes.begin() + 8)},
                {api::glClearBufferfv, {kGlColor, 0, 0x1000}, blue_bytes},
                {api::glFlush, {}}});
  const uint64_t blue_read =
      good.Call(api::glReadPixels, {{0}, {0}, {16}, {16}, {GL_RGBA}, {GL_UNSIGNED_BYTE}, Out()}, true);
  ASSERT_TRUE(good.Send(api::glReadPixels, blue_read, &reply, &error)) << error << "\n" << renderer.log();
  ASSERT_EQ(reply.outputs.size(), 7u);
  ASSERT_EQ(reply.outputs[6].out.size(), 16u * 16u * 4u);
  row = reply.outputs[6].out.data();
  EXPECT_EQ(std::vector<uint8_t>(row, row + 4), (std::vector<uint8_t>{0, 0, 255, 255})) << renderer.log();
  EXPECT_EQ(std::vector<uint8_t>(row + 15 * 4, row + 16 * 4), (std::vector<uint8_t>{0, 0, 255, 255}));

  struct Case {
    const char* what;
    std::vector<Client::WordCall> calls;
    size_t cut_words;
    bool misplace;
    const char* expected;
  };
  const Case cases[] = {
      {"an unknown function", {{0xfffff, {1}}}, 0, false,
       "word run, call 0 (thread 1): a call to function id 1048575, which the client's table does not name"},
      {"a function that gives something back", {{api::glClear, {GL_COLOR_BUFFER_BIT}}, {api::glGetError, {}}}, 0,
       false, "word run, call 1 (thread 1): a call to glGetError, whose calls must travel as call records"},
      {"an argument short", {{api::glScissor, {0, 0, 8}}}, 0, false,
       "a call to glScissor with 3 arguments (it takes 4)"},
      {"cut short", {{api::glScissor, {0, 0, 8, 16}}}, 1, false,
       "cut short in a call to glScissor (3 of its 4 arguments there)"},
      {"an array where the function takes none", {{api::glScissor, {0, 0, 8, 16}, blue_bytes}}, 0, false,
       "a call to glScissor with 16 bytes of an array (it takes none)"},
      {"an array cut short", {{api::glClearBufferfv, {kGlColor, 0, 0x1000}, blue_bytes}}, 1, false,
       "cut short in a call to glClearBufferfv (4 of its 5 words of arguments and array there)"},
      {"words off their place", {{api::glClear, {GL_COLOR_BUFFER_BIT}}}, 0, true,
       "a word run whose words do not lie at a multiple of 8 bytes from its message's start"},
  };
  for (const Case& c : cases) {
    const auto send = [&](Client& bad) {
      bad.WordRun(c.calls, c.cut_words, c.misplace);
      std::string send_error;
      ASSERT_TRUE(bad.Send(-1, 0, &reply, &send_error)) << send_error;
    };
    ExpectClosedWith(renderer, features, send, c.expected, c.what);
  }
  // One that agreed to words-v1 alone may not send a call with an array in a run.
  ExpectClosedWith(
      renderer, "records-v1,replies-v1,frames-v1,words-v1",
      [&](Client& bad) {
        bad.WordRun({{api::glClearBufferfv, {kGlColor, 0, 0x1000}, blue_bytes}});
        std::string send_error;
        ASSERT_TRUE(bad.Send(-1, 0, &reply, &send_error)) << send_error;
      },
      "a call to glClearBufferfv, whose calls travel in word runs only with words-v2 (not agreed)",
      "an array without words-v2");
  // One that never agreed to words-v1 may not send a run.
  Client unagreed;
  ASSERT_TRUE(unagreed.Connect(renderer.address(), &error)) << error;
  unagreed.WordRun({{api::glClear, {GL_COLOR_BUFFER_BIT}}});
  ASSERT_TRUE(unagreed.Send(-1, 0, &reply, &error)) << error;
  EXPECT_NE(unagreed.ReadErrorEvent().find("a record of type 8, which clients do not send (words-v1 was not agreed"),
            std::string::npos);
  // The good client renders on; the calls it had refused are named when it leaves.
  ASSERT_TRUE(good.Render(kRed, &pixels, &error)) << error << "\n" << renderer.log();
  ExpectRed(pixels);
  good = Client();
  EXPECT_TRUE(renderer.WaitForLog("glClearBufferfv: 1 call not run ('value' holds 8 bytes, its arguments need 16)", 10))
      << renderer.log();
}

// Catches: a connection thread held forever by a peer that sends part of a
// handshake and then nothing (the limit once covered only its first byte).
TEST(Serve, AHalfSentHandshakeIsDroppedAfterTheLimit) {
  Renderer renderer;
  ASSERT_TRUE(renderer.ready()) << renderer.log();
  std::string error;
  auto quiet = strata::transport::Connect(renderer.address(), &error);
  ASSERT_TRUE(quiet) << error;
  wire::Hello hello;
  hello.values["role"] = "process";
  const std::vector<uint8_t> bytes = wire::EncodeHello(wire::kClientMagic, hello);
  ASSERT_GT(bytes.size(), 6u);
  ASSERT_TRUE(quiet->Write(bytes.data(), 6) && quiet->Flush());
  // Others are served meanwhile.
  Client good;
  ASSERT_TRUE(good.Connect(renderer.address(), &error)) << error;
  std::vector<uint8_t> pixels;
  ASSERT_TRUE(good.Render(kRed, &pixels, &error)) << error << "\n" << renderer.log();
  ExpectRed(pixels);
  EXPECT_TRUE(renderer.WaitForLog("no handshake within 10 s", 20)) << renderer.log();
  EXPECT_NE(renderer.log().find("sent 6 of a message's"), std::string::npos) << renderer.log();
  // The renderer closed its end: the quiet peer reads the end of the stream.
  uint8_t answer[1];
  EXPECT_EQ(quiet->ReadFullyWithin(answer, 1, 5000), strata::transport::ByteStream::ReadResult::kClosed);
}

// Catches: a renderer that hangs or dies when a client vanishes mid-call.
TEST(Serve, AClientKilledMidStreamLeavesTheRendererServing) {
  Renderer renderer;
  ASSERT_TRUE(renderer.ready()) << renderer.log();
  pid_t child = fork();
  if (child == 0) {
    Client client;
    std::string error;
    std::vector<uint8_t> pixels;
    if (!client.Connect(renderer.address(), &error) || !client.Render(kRed, &pixels, &error)) _exit(1);
    // Half a message, then killed.
    uint8_t header[4];
    wire::PutMessageHeader(header, 1000);
    client.stream().Write(header, 4);
    client.stream().Write("\x02\x10", 2);
    client.stream().Flush();
    kill(getpid(), SIGKILL);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the client failed before it was killed\n" << renderer.log();
  EXPECT_TRUE(renderer.WaitForLog("client left: serve_test (pid " + std::to_string(child), 10)) << renderer.log();
  Client next;
  std::string error;
  ASSERT_TRUE(next.Connect(renderer.address(), &error)) << error;
  std::vector<uint8_t> pixels;
  ASSERT_TRUE(next.Render(kRed, &pixels, &error)) << error << "\n" << renderer.log();
  ExpectRed(pixels);
}

TEST(Serve, RecordWritesATraceThatDumpReads) {
  Renderer renderer({"--record", "@DIR"});
  ASSERT_TRUE(renderer.ready()) << renderer.log();
  {
    Client client;
    std::string error;
    ASSERT_TRUE(client.Connect(renderer.address(), &error)) << error;
    std::vector<uint8_t> pixels;
    ASSERT_TRUE(client.Render(kRed, &pixels, &error)) << error;
  }
  ASSERT_TRUE(renderer.WaitForLog("client left", 10)) << renderer.log();
  std::string log = renderer.log();
  size_t at = log.find("recording to ");
  ASSERT_NE(at, std::string::npos) << log;
  std::string path = log.substr(at + 13, log.find('\n', at) - at - 13);
  auto dump = strata::test::RunProcess({STRATA_CLI, "dump", path});
  EXPECT_EQ(dump.exit_code, 0) << dump.err;
  EXPECT_NE(dump.out.find("glClear"), std::string::npos) << dump.out;
  EXPECT_NE(dump.out.find("glReadPixels"), std::string::npos) << dump.out;
}

// Catches: --record storing a word run as it came (a record type only the
// wire has) or losing its calls or an array of one, instead of call records
// a replay runs.
TEST(Serve, RecordStoresTheCallsOfWordRunsAsCallRecords) {
  Renderer renderer({"--record", "@DIR"});
  ASSERT_TRUE(renderer.ready()) << renderer.log();
  {
    Client client;
    std::string error;
    ASSERT_TRUE(client.Connect(renderer.address(), &error, wire::kProtocolVersion, "",
                               "records-v1,replies-v1,frames-v1,words-v1,words-v2"))
        << error;
    std::vector<uint8_t> pixels;
    ASSERT_TRUE(client.Render(kRed, &pixels, &error)) << error;
    const float green[4] = {0, 1, 0, 1};
    const auto* green_bytes = reinterpret_cast<const uint8_t*>(green);
    client.WordRun({{api::glScissor, {1, 2, 3, 4}},
                    {api::glClearBufferfv, {kGlColor, 0, 0x1000}, {green_bytes, green_bytes + sizeof green}},
                    {api::glClear, {GL_COLOR_BUFFER_BIT}}});
    const uint64_t s = client.Call(api::glGetError, {}, true);
    wire::Reply reply;
    ASSERT_TRUE(client.Send(api::glGetError, s, &reply, &error)) << error;
    EXPECT_EQ(reply.result.u, static_cast<uint64_t>(GL_NO_ERROR));
  }
  ASSERT_TRUE(renderer.WaitForLog("client left", 10)) << renderer.log();
  std::string log = renderer.log();
  size_t at = log.find("recording to ");
  ASSERT_NE(at, std::string::npos) << log;
  std::string path = log.substr(at + 13, log.find('\n', at) - at - 13);
  auto dump = strata::test::RunProcess({STRATA_CLI, "dump", path});
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  const size_t scissor = dump.out.find("9 [1] glScissor(x=1, y=2, width=3, height=4)");
  ASSERT_NE(scissor, std::string::npos) << dump.out;
  const size_t array = dump.out.find("10 [1] glClearBufferfv(buffer=GL_COLOR, drawbuffer=0, value={0, 1, 0, 1})", scissor);
  ASSERT_NE(array, std::string::npos) << dump.out;
  const size_t clear = dump.out.find("11 [1] glClear(mask=GL_COLOR_BUFFER_BIT)", array);
  ASSERT_NE(clear, std::string::npos) << dump.out;
  EXPECT_NE(dump.out.find("12 [1] glGetError() = GL_NO_ERROR", clear), std::string::npos) << dump.out;
}

}  // namespace
