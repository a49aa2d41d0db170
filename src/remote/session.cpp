#include "remote/session.h"

#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

#include "common/env.h"
#include "common/log.h"
#include "common/process_info.h"
#include "common/shared_library.h"
#include "host/host_driver.h"
#include "remote/connection.h"
#include "remote/glvnd_vendor.h"
#include "stream/call_decoder.h"
#include "stream/wire.h"
#include "transport/connect.h"
#include "transport/deadline.h"
#include "transport/token.h"

namespace strata::remote {
namespace {

constexpr char kOurFeatures[] = "records-v1,replies-v1,frames-v1,bulk-v1,words-v1,words-v2";
// STRATA_REMOTE_WORD_RUNS=off: every call as a call record (stream/word_run.h).
constexpr char kOurFeaturesWithoutWordRuns[] = "records-v1,replies-v1,frames-v1,bulk-v1";

// The process is running its exit handlers: nothing may call exit again.
std::atomic<bool> g_exiting{false};

std::string ProgramName() {
  std::string path = ExecutablePath();
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// At exit, after every thread's connection has sent what it held (thread
// exit runs before static destructors).
struct TrafficAtExit {
  ~TrafficAtExit() {
    const char* stats = GetEnv("STRATA_REMOTE_STATS");
    if (stats != nullptr && std::string(stats) == "1") Session::Get().PrintTraffic();
  }
} g_traffic_at_exit;

}  // namespace

void Session::PrintTraffic() {
  if (!started()) return;
  const TrafficCounts& t = traffic_;
  const uint64_t frames = t.frames.load(), calls = t.calls.load(), sent = t.bytes_sent.load();
  const uint64_t received = t.bytes_received.load(), round_trips = t.round_trips.load(), flushes = t.flushes.load();
  const double per = frames > 0 ? 1.0 / static_cast<double>(frames) : 0.0;
  std::fprintf(stderr,
               "strata remote: %llu frames, %llu calls sent (%llu in word runs), %.1f KiB sent, %.1f KiB received, "
               "%llu round trips, "
               "%llu flushes, %lld calls absorbed on the client; per frame: %.1f calls, %.1f KiB sent, %.2f round "
               "trips, %.2f flushes; %.1f KiB sent out of line; over a %s; calls numbered %s\n",
               static_cast<unsigned long long>(frames), static_cast<unsigned long long>(calls),
               static_cast<unsigned long long>(t.word_calls.load()), sent / 1024.0,
               received / 1024.0, static_cast<unsigned long long>(round_trips),
               static_cast<unsigned long long>(flushes), static_cast<long long>(t.absorbed.load()), calls * per,
               sent / 1024.0 * per, round_trips * per, flushes * per, t.bulk_bytes.load() / 1024.0, transport_kind_,
               sequence_numbers_.numbering_alone() ? "by one thread alone" : "by a count the threads share");
}

namespace {

// Never destroyed: threads may still call at exit. A forked child's is
// replaced (Session::AfterForkInChild).
Session* g_session = nullptr;
std::once_flag g_session_made;

}  // namespace

Session& Session::Get() {
  std::call_once(g_session_made, [] {
    g_session = new Session;
    pthread_atfork(&Session::BeforeFork, &Session::AfterForkInParent, &Session::AfterForkInChild);
  });
  return *g_session;
}

void Session::AddConnection(Connection* connection) {
  std::lock_guard lock(connections_mu_);
  connections_.push_back(connection);
}

void Session::RemoveConnection(Connection* connection) {
  std::lock_guard lock(connections_mu_);
  std::erase(connections_, connection);
}

void Session::BeforeFork() { g_session->connections_mu_.lock(); }

void Session::AfterForkInParent() { g_session->connections_mu_.unlock(); }

void Session::AfterForkInChild() {
  Session* parent = g_session;
  // The parent's connections (its process stream, its threads' rings and
  // sockets) are the parent's: the child never writes to them. It closes its
  // copies of their descriptors without a word, so that the renderer sees
  // the parent's end when the parent goes, however long the child lives.
  for (Connection* connection : parent->connections_) connection->LetGoInForkedChild();
  parent->connections_.clear();
  parent->process_stream_.reset();
  parent->connections_mu_.unlock();
  ForgetInheritedConnections();
  if (!parent->started() || parent->lost()) return;
  // The child's first call opens a session of its own. Handles go on from
  // the parent's, so that the objects the child inherited keep theirs.
  auto* child = new Session;  // glibc's malloc is usable in a forked child
  child->next_handle_.store(parent->next_handle_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  child->exit_handlers_ = true;  // the parent's, inherited, run for this one
  g_session = child;
}

Session::Session() {
  const char* address = GetEnv("STRATA_REMOTE");
  address_ = address != nullptr ? address : "";
}

std::unique_ptr<transport::ByteStream> Session::Handshake(const std::string& role, std::string* error,
                                                          stream::wire::Hello* answer_out) {
  // Over a Unix socket the calls travel in a shared-memory ring unless the
  // user asks for the socket itself (STRATA_REMOTE_RING=off); a question
  // about the session's end needs none.
  transport::ConnectOptions options;
  const char* ring = GetEnv("STRATA_REMOTE_RING");
  // A question about the session's end, and the process connection (it
  // carries no calls: it holds the session), need no ring.
  if ((ring != nullptr && std::string(ring) == "off") || role == "fate" || role == "process") {
    options.unix_ring = transport::RingUse::kNever;
  }
  auto stream = transport::Connect(address_, error, options);
  if (!stream) return nullptr;
  stream::wire::Hello hello;
  hello.values["role"] = role;
  hello.values["program"] = ProgramName();
  hello.values["pid"] = std::to_string(getpid());
  const char* word_runs = GetEnv("STRATA_REMOTE_WORD_RUNS");
  hello.values["features"] =
      word_runs != nullptr && std::string(word_runs) == "off" ? kOurFeaturesWithoutWordRuns : kOurFeatures;
  if (role == "process") {
    hello.values["functions"] = stream::FunctionTable::OwnNames();
  } else {  // "thread", "fate"
    hello.values["session"] = session_id_;
    hello.values["session_key"] = session_key_;
  }
  if (!token_.empty()) hello.values["token"] = token_;
  std::vector<uint8_t> bytes = stream::wire::EncodeHello(stream::wire::kClientMagic, hello);
  stream->Write(bytes.data(), bytes.size());
  if (!stream->Flush()) {
    *error = stream->error();
    return nullptr;
  }
  // The renderer's whole answer within the limit, its body too: a renderer
  // that stalls mid-answer must not hang the app forever.
  constexpr int kAnswerTimeoutMs = 30000;
  const transport::Deadline deadline(kAnswerTimeoutMs);
  uint8_t header[stream::wire::kHelloHeaderBytes];
  if (stream->ReadFullyWithin(header, sizeof header, kAnswerTimeoutMs) != transport::ByteStream::ReadResult::kOk) {
    *error = stream->error().empty() ? "the renderer at " + address_ + " did not answer the handshake"
                                     : stream->error();
    return nullptr;
  }
  uint32_t version = 0, body_size = 0;
  std::string problem;
  if (!stream::wire::DecodeHelloHeader(header, stream::wire::kRendererMagic, &version, &body_size, &problem)) {
    *error = address_ + ": " + problem;
    return nullptr;
  }
  std::vector<uint8_t> body(body_size);
  stream::wire::Hello answer;
  const auto got = stream->ReadFullyWithin(body.data(), body.size(), deadline.LeftMs());
  if (got != transport::ByteStream::ReadResult::kOk || !stream::wire::DecodeHelloBody(body, &answer, &problem)) {
    if (got == transport::ByteStream::ReadResult::kTimeout && stream->error().empty()) {
      problem = "the renderer did not finish its handshake answer within " + std::to_string(kAnswerTimeoutMs / 1000) + " s";
    }
    *error = stream->error().empty() ? address_ + ": " + problem : stream->error();
    return nullptr;
  }
  const std::string* status = answer.Find("status");
  const std::string* message = answer.Find("message");
  if (version != stream::wire::kProtocolVersion) {
    *error = "the renderer at " + address_ + " speaks protocol version " + std::to_string(version) +
             ", this client version " + std::to_string(stream::wire::kProtocolVersion) +
             (message != nullptr ? " (" + *message + ")" : "");
    return nullptr;
  }
  if (status == nullptr || *status != "ok") {
    *error = "the renderer at " + address_ + " refused this client: " + (message ? *message : "no reason given");
    return nullptr;
  }
  if (answer_out != nullptr) *answer_out = answer;
  if (role == "process") {
    const std::string* id = answer.Find("session");
    const std::string* key = answer.Find("session_key");
    const std::string* features = answer.Find("features");
    session_id_ = id ? *id : "";
    session_key_ = key ? *key : "";
    features_ = stream::wire::CommonFeatures(kOurFeatures, features ? *features : "");
    if (!stream::wire::HasFeature(features_, stream::wire::kFeatureReplies)) {
      *error = "the renderer at " + address_ + " lacks the features this client needs (it offers '" +
               (features ? *features : "") + "')";
      return nullptr;
    }
  }
  return stream;
}

bool Session::Start() {
  if (started_.load(std::memory_order_acquire)) return !lost();
  std::lock_guard lock(mu_);
  if (started_.load(std::memory_order_relaxed)) return !lost();
  if (tried_) return false;
  tried_ = true;
  if (address_.empty()) {
    // A glvnd vendor nobody asked for: glvnd still calls it (eglReleaseThread
    // goes to every vendor); it stays silent.
    if (LoadedByGlvnd()) {
      lost_.store(true, std::memory_order_release);
      return false;
    }
    Lose("STRATA_REMOTE names no renderer address (unix:@NAME, unix:/PATH, shm:NAME or tcp:HOST:PORT)");
    return false;
  }
  if (const char* token_file = GetEnv("STRATA_REMOTE_TOKEN_FILE")) {
    std::string error;
    if (!transport::ReadToken(token_file, &token_, &error)) {
      Lose(error);
      return false;
    }
  }
  std::string error;
  // The process handshake's own connection only proves the renderer is
  // there and opens the session; each thread then joins with its own.
  auto stream = Handshake("process", &error);
  if (!stream) {
    if (const char* fallback = GetEnv("STRATA_REMOTE_FALLBACK"); fallback && std::string(fallback) == "native") {
      // Under glvnd the local driver is glvnd's next vendor, which takes the
      // display this one declines.
      if (LoadedByGlvnd() || FallBackToNative()) {
        fell_back_.store(true, std::memory_order_release);
        STRATA_WARN("strata remote: %s; rendering on the local driver instead (STRATA_REMOTE_FALLBACK=native)",
                    error.c_str());
        return false;
      }
    }
    Lose(error);
    return false;
  }
  process_stream_ = std::move(stream);
  process_ = getpid();
  if (!exit_handlers_) {
    std::atexit([] { g_exiting.store(true); });
    std::atexit(SayGoodbyeAtExit);
    exit_handlers_ = true;
  }
  started_.store(true, std::memory_order_release);
  return true;
}

void Session::SayGoodbyeAtExit() {
  Session& session = Get();
  std::lock_guard lock(session.mu_);
  if (!session.process_stream_ || session.process_ != getpid() || session.lost()) return;
  uint8_t goodbye[stream::wire::kMessageHeaderBytes];
  stream::wire::PutMessageHeader(goodbye, stream::wire::kGoodbye);
  session.process_stream_->Write(goodbye, sizeof goodbye);
  session.process_stream_->Flush();
}

std::unique_ptr<Connection> Session::ConnectThread(uint32_t thread_id) {
  std::string error;
  std::unique_ptr<transport::ByteStream> stream = Handshake("thread", &error);
  if (!stream) {
    Lose(error);
    return nullptr;
  }
  {
    std::lock_guard lock(mu_);
    if (*transport_kind_ == '\0') transport_kind_ = stream->kind();
  }
  return std::make_unique<Connection>(*this, std::move(stream), thread_id);
}

void Session::Lose(const std::string& why, bool ask_why) {
  if (lost_.exchange(true)) return;
  std::string line = why;
  if (ask_why && started()) {
    if (const std::string fate = AskFate(); !fate.empty()) line += "; " + fate;
  }
  if (started() && !told_of_resets_.load(std::memory_order_acquire)) {
    line += "; ending the program (exit status " + std::to_string(kRendererLostStatus) +
            "; a context made with EGL_LOSE_CONTEXT_ON_RESET is told of it as of a GPU reset instead)";
  }
  // One line, whatever the log level: the app's rendering stops here.
  std::fprintf(stderr, "strata remote: error: %s\n", line.c_str());
}

void Session::EndUnlessToldOfResets() {
  // Not from an exit handler of the program's own (exit is not reentrant):
  // g_exiting is set by a handler registered when the session started,
  // which runs before those the program registered earlier.
  if (!started() || told_of_resets_.load(std::memory_order_acquire) || g_exiting.exchange(true)) return;
  std::fflush(nullptr);
  std::exit(kRendererLostStatus);
}

std::string Session::AskFate() {
  std::string error;
  stream::wire::Hello answer;
  auto stream = Handshake("fate", &error, &answer);
  const std::string* fate = answer.Find("fate");
  if (!stream) return error.find("cannot connect") != std::string::npos ? "the renderer is gone" : "";
  return fate != nullptr ? fate->substr(0, 500) : "";
}

bool Session::FallBackToNative() {
  // The system's driver, found as the loader finds it and opened apart from
  // Strata's own libraries, one function per slot; kept for the process's life.
  const std::string own = DirectoryOf(PathOfObjectContaining(reinterpret_cast<const void*>(&ProgramName)));
  std::string error;
  static std::unique_ptr<host::HostDriver> native;
  native = host::HostDriver::Load(own, &error, /*isolated=*/true);
  if (!native) return false;  // the caller says why the renderer was not reached
  g_native_functions = native->functions();
  return true;
}

}  // namespace strata::remote
