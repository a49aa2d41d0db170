#include "serve/server.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <list>
#include <map>
#include <mutex>
#include <thread>

#include "common/env.h"
#include "serve/handshake.h"
#include "serve/log.h"
#include "serve/session.h"
#include "serve/worker_channel.h"
#include "serve/worker_pool.h"
#include "transport/listener.h"
#include "transport/spin_wait.h"
#include "transport/stream_handoff.h"
#include "transport/token.h"

namespace strata::serve {
namespace {

namespace wire = stream::wire;

// How long a new client waits for a worker to be started for it (a driver's start-up).
constexpr int kWorkerStartTimeoutMs = 30000;
// How long a client that lost its worker waits to hear how it ended.
constexpr int kFateWaitMs = 3000;
// Ended sessions whose fate is kept for their clients to ask.
constexpr size_t kFatesKept = 256;

// A connection between accept and hand-over, on a thread of its own: a
// client slow to say hello holds up nobody else.
struct Handshake {
  std::unique_ptr<transport::ByteStream> stream;
  transport::Peer peer;
  std::thread thread;
  std::atomic<bool> done{false};
  std::mutex mu;  // the stream's end (its thread) against a Shutdown (the renderer stopping)

  // Closes this end as soon as the client is handed over or refused, not when the thread is joined.
  void Close() {
    std::lock_guard lock(mu);
    stream.reset();
  }
  void Shutdown() {
    std::lock_guard lock(mu);
    if (stream) stream->Shutdown();
  }
};

// A client process the listener has handed to a worker.
struct Route {
  std::string key;
  pid_t worker = 0;
};

struct Fate {
  std::string key;
  std::string text;
};

std::string Value(const wire::Hello& hello, const char* key) {
  const std::string* value = hello.Find(key);
  return value ? *value : std::string();
}

}  // namespace

struct Server::State {
  ServeOptions options;
  AuthPolicy auth;
  std::unique_ptr<WorkerPool> pool;
  std::vector<std::unique_ptr<transport::Listener>> listeners;
  std::string token_file;
  int stop_pipe[2] = {-1, -1};
  int wake_pipe[2] = {-1, -1};  // a handshake thread wants a worker started
  std::list<Handshake> handshakes;  // only the Run() thread touches the list

  std::mutex mu;  // the routes and fates
  std::condition_variable fate_known;
  std::map<std::string, Route> routes;  // by session id
  std::map<std::string, Fate> fates;    // by session id, the last kFatesKept
  std::atomic<uint64_t> next_session{0};

  ~State() {
    for (int fd : {stop_pipe[0], stop_pipe[1], wake_pipe[0], wake_pipe[1]}) {
      if (fd >= 0) close(fd);
    }
  }

  void Wake() {
    const char byte = 1;
    [[maybe_unused]] ssize_t n = write(wake_pipe[1], &byte, 1);
  }

  // A client's connection to its worker; false with *error.
  bool HandOver(int channel, transport::ByteStream& stream, const ClientHello& client, const std::string& session,
                const std::string& key, const std::string& features, const transport::Peer& peer, bool reusable,
                std::string* error) {
    transport::StreamState state;
    if (channel < 0 || !stream.ExportState(&state)) {
      *error = channel < 0 ? "its worker process has ended" : "its connection cannot be handed over";
      return false;
    }
    wire::Hello message;
    message.values = {{"message", "client"},
                      {"role", client.role},
                      {"session", session},
                      {"program", client.program},
                      {"pid", client.pid},
                      {"address", ClientAddress(peer)},
                      {"features", features}};
    if (client.role == "process") {
      message.values["session_key"] = key;
      message.values["reusable"] = reusable ? "yes" : "no";  // the worker may serve another client after it
      message.values["functions"] = Value(client.hello, "functions");
    }
    const std::vector<uint8_t> bytes = state.Encode();
    message.values["stream"] = std::string(bytes.begin(), bytes.end());
    if (!SendControl(channel, message, state.descriptors)) {
      *error = std::string("cannot reach its worker process: ") + std::strerror(errno);
      return false;
    }
    return true;  // the worker has the descriptors now; ours close with `state` and the stream
  }

  void ServeClient(Handshake& h) {
    ClientHello client;
    if (!ReadClientHello(*h.stream, h.peer, auth, &client)) return;
    const std::string id = Value(client.hello, "session"), key = Value(client.hello, "session_key");
    if (client.role == "fate") return AnswerFate(h, client, id, key);
    const std::string features = wire::CommonFeatures(kRendererFeatures, Value(client.hello, "features"));
    std::string error;
    if (client.role == "process") {
      const std::string session = std::to_string(++next_session);
      std::string new_key;
      if (!transport::NewToken(&new_key, &error)) return RefuseClient(*h.stream, h.peer, client, error);
      const ClientInfo info{client.program, std::strtoll(client.pid.c_str(), nullptr, 10), ClientAddress(h.peer)};
      // Only the renderer's own user's Unix clients share workers (one after another).
      const bool own_user = h.peer.is_unix && h.peer.uid == getuid();
      Worker worker;
      if (!pool->Take(session, info.Describe(), own_user, kWorkerStartTimeoutMs, [this] { Wake(); }, &worker,
                      &error)) {
        return RefuseClient(*h.stream, h.peer, client, "no worker process to serve it: " + error);
      }
      {
        std::lock_guard lock(mu);
        routes[session] = {new_key, worker.pid};
      }
      if (!HandOver(worker.channel, *h.stream, client, session, new_key, features, h.peer, own_user, &error)) {
        kill(worker.pid, SIGTERM);  // taken for this client, which it will never see
        return RefuseClient(*h.stream, h.peer, client, error);
      }
      return;
    }
    pid_t worker = 0;
    {
      std::lock_guard lock(mu);
      auto route = routes.find(id);
      if (route == routes.end()) {
        error = "no live session '" + id + "' (its process's connections have all ended)";
      } else if (!transport::TokensEqual(key, route->second.key)) {
        error = "wrong session key for session " + id;
      } else {
        worker = route->second.worker;
      }
    }
    if (error.empty()) HandOver(pool->ChannelOf(worker), *h.stream, client, id, key, features, h.peer, false, &error);
    if (!error.empty()) RefuseClient(*h.stream, h.peer, client, error);
  }

  // A client that lost its connection asks how its worker ended.
  void AnswerFate(Handshake& h, const ClientHello& client, const std::string& id, const std::string& key) {
    std::unique_lock lock(mu);
    const auto known = [&] {
      auto fate = fates.find(id);
      return fate != fates.end() && transport::TokensEqual(key, fate->second.key);
    };
    auto route = routes.find(id);
    if (route != routes.end() && transport::TokensEqual(key, route->second.key)) {
      // Its worker is ending: the client saw its connection go first.
      fate_known.wait_for(lock, std::chrono::milliseconds(kFateWaitMs), known);
    }
    if (!known()) {
      lock.unlock();
      return RefuseClient(*h.stream, h.peer, client, "no ended session '" + id + "' with that key");
    }
    wire::Hello answer;
    answer.values = {{"status", "ok"}, {"fate", fates[id].text}};
    lock.unlock();
    SendHelloAnswer(*h.stream, answer);
  }

  // A worker ended, or went back to the pool (`how`: kBackInPool): its session is over.
  void OnWorkerEnded(const Worker& worker, const std::string& how) {
    const bool normal = how == "exited normally" || how == kBackInPool;
    const std::string who = "its worker process (pid " + std::to_string(worker.pid) + ")";
    if (worker.state == Worker::State::kServing) {
      // A worker that ends normally has logged its client's leaving itself.
      if (!normal) Log("client left: " + worker.client + ": " + who + " " + how);
      if (how == kBackInPool) Log("worker " + std::to_string(worker.pid) + " is back in the pool, warm");
      std::lock_guard lock(mu);
      auto route = routes.find(worker.session);
      if (route != routes.end()) {
        if (fates.size() >= kFatesKept) fates.erase(fates.begin());
        fates[worker.session] = {route->second.key, normal && !worker.ended.empty() ? worker.ended : who + " " + how};
        routes.erase(route);
      }
      fate_known.notify_all();
    } else if (!normal) {
      Log("a worker process (pid " + std::to_string(worker.pid) + ") " + how +
          (worker.state == Worker::State::kStarting ? " before it was ready" : " while idle"));
    }
  }

  // Joins the handshake threads that have handed over or refused their client.
  void ReapHandshakes() {
    for (auto it = handshakes.begin(); it != handshakes.end();) {
      if (!it->done.load()) {
        ++it;
        continue;
      }
      it->thread.join();
      it = handshakes.erase(it);
    }
  }
};

std::string DefaultAddress() { return "unix:@strata-render-" + std::to_string(getuid()); }

std::string DefaultTokenFile() {
  const char* runtime = GetEnv("XDG_RUNTIME_DIR");
  if (runtime != nullptr && runtime[0] == '/') return std::string(runtime) + "/strata-serve.token";
  return "/tmp/strata-serve-" + std::to_string(getuid()) + ".token";
}

Server::Server(std::unique_ptr<State> state) : state_(std::move(state)) {}

Server::~Server() = default;

std::unique_ptr<Server> Server::Open(const ServeOptions& options, std::string* error) {
  auto state = std::make_unique<State>();
  state->options = options;
  state->auth.allowed_uids = options.allow_uids;
  bool tcp = false;
  for (const std::string& address : options.listen) {
    auto listener = transport::Listener::Open(address, error);
    if (!listener) return nullptr;
    tcp |= address.rfind("tcp:", 0) == 0;
    state->listeners.push_back(std::move(listener));
  }
  if (tcp) {
    state->token_file = options.token_file.empty() ? DefaultTokenFile() : options.token_file;
    if (!transport::WriteNewToken(state->token_file, &state->auth.token, error)) return nullptr;
  }
  if (pipe2(state->stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0 || pipe2(state->wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    *error = std::string("cannot make a pipe: ") + std::strerror(errno);
    return nullptr;
  }
  std::vector<std::string> worker = {"strata", "serve", "--worker", "--client-memory",
                                     std::to_string(options.client_memory), "--decode-ahead",
                                     options.decode_ahead ? "on" : "off"};
  if (!options.record_dir.empty()) worker.insert(worker.end(), {"--record", options.record_dir});
  if (options.display) worker.push_back("--display");
  if (options.worker_memory > 0) worker.insert(worker.end(), {"--worker-memory", std::to_string(options.worker_memory)});
  // At least one worker at once, to learn whether workers can serve at all.
  state->pool = std::make_unique<WorkerPool>(worker, std::max<size_t>(options.idle_workers, 1));
  bool short_of = false;
  if (!state->pool->Fill(true, &short_of, error)) return nullptr;
  // Its messages are read by the main loop, which is not running yet: wait here.
  constexpr int kFirstWorkerTimeoutMs = 60000;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kFirstWorkerTimeoutMs);
  for (;;) {
    const int verdict = state->pool->FirstVerdict(error);
    if (verdict > 0) break;
    if (verdict < 0) return nullptr;
    if (std::chrono::steady_clock::now() > deadline) {
      *error = "no worker process was ready within " + std::to_string(kFirstWorkerTimeoutMs / 1000) + " s";
      return nullptr;
    }
    std::vector<pollfd> fds;
    const auto channels = state->pool->Channels();
    for (const auto& [fd, pid] : channels) fds.push_back({fd, POLLIN, 0});
    poll(fds.data(), fds.size(), 100);
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].revents != 0) state->pool->OnChannel(channels[i].second);
    }
    // A worker that could not start is this function's error, not a log line.
    state->pool->Reap([](const Worker&, const std::string&) {});
  }
  state->pool->SetIdle(options.idle_workers);
  return std::unique_ptr<Server>(new Server(std::move(state)));
}

std::vector<std::string> Server::addresses() const {
  std::vector<std::string> out;
  for (const auto& listener : state_->listeners) out.push_back(listener->address());
  return out;
}

const std::string& Server::token_file() const { return state_->token_file; }

void Server::Stop() {
  const char byte = 1;
  [[maybe_unused]] ssize_t n = write(state_->stop_pipe[1], &byte, 1);
}

void Server::Run() {
  State& s = *state_;
  const auto on_ended = [&s](const Worker& w, const std::string& how) { s.OnWorkerEnded(w, how); };
  bool stopping = false;
  // How long the workers get to end their clients when the renderer stops.
  constexpr auto kStopTimeout = std::chrono::seconds(10);
  std::chrono::steady_clock::time_point stop_deadline;
  bool ending = false;  // workers whose channels closed, not yet reaped
  for (;;) {
    std::string error;
    bool short_of = false;
    if (!stopping && !s.pool->Fill(transport::CoreToSpare(), &short_of, &error)) Log(error);
    std::vector<pollfd> fds;
    if (!stopping) {
      for (const auto& listener : s.listeners) fds.push_back({listener->fd(), POLLIN, 0});
    }
    const size_t listeners = fds.size();
    fds.push_back({s.stop_pipe[0], POLLIN, 0});
    fds.push_back({s.wake_pipe[0], POLLIN, 0});
    const auto channels = s.pool->Channels();
    for (const auto& [fd, pid] : channels) fds.push_back({fd, POLLIN, 0});
    if (stopping && ((channels.empty() && !ending) || std::chrono::steady_clock::now() > stop_deadline)) break;
    // Wakes now and then to join the threads of handshakes that finished,
    // and soon while the pool waits for a core to start a worker on or for
    // workers to end.
    const int ready = poll(fds.data(), fds.size(), stopping || short_of || ending ? 100 : 1000);
    s.ReapHandshakes();
    ending = s.pool->Reap(on_ended);
    if (ready < 0 && errno != EINTR) {
      Log(std::string("poll failed: ") + std::strerror(errno));
      break;
    }
    if (ready <= 0) continue;
    if (fds[listeners].revents != 0) {
      char drain[64];
      [[maybe_unused]] ssize_t n = read(s.stop_pipe[0], drain, sizeof drain);
    }
    if (fds[listeners].revents != 0 && !stopping) {
      // Ending: the workers end their clients, and are waited for.
      stopping = true;
      stop_deadline = std::chrono::steady_clock::now() + kStopTimeout;
      s.pool->StopAll();
      for (Handshake& h : s.handshakes) h.Shutdown();
    }
    if (fds[listeners + 1].revents != 0) {
      char drain[64];
      [[maybe_unused]] ssize_t n = read(s.wake_pipe[0], drain, sizeof drain);
    }
    for (size_t i = 0; i < listeners; ++i) {
      if (fds[i].revents == 0) continue;
      transport::Peer peer;
      auto stream = s.listeners[i]->Accept(0, &peer, &error);
      if (!stream) {
        if (!error.empty()) Log(error);
        continue;
      }
      Handshake& h = s.handshakes.emplace_back();
      h.stream = std::move(stream);
      h.peer = std::move(peer);
      h.thread = std::thread([&s, &h] {
        s.ServeClient(h);
        h.Close();
        h.done = true;
      });
    }
    for (size_t i = 0; i < channels.size(); ++i) {
      if (fds[listeners + 2 + i].revents != 0) s.pool->OnChannel(channels[i].second);
    }
    ending |= s.pool->Reap(on_ended);
  }
  for (Handshake& h : s.handshakes) {
    h.Shutdown();
    h.thread.join();
  }
  s.handshakes.clear();
  s.pool.reset();  // what still runs is stopped, then killed
}

}  // namespace strata::serve
