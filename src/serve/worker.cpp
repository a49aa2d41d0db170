#include "serve/worker.h"

#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <list>
#include <memory>
#include <thread>
#include <utility>

#include "common/byte_size.h"
#include "host/host_driver.h"
#include "host/surface_factory.h"
#include "serve/connection.h"
#include "serve/frame_display.h"
#include "serve/log.h"
#include "serve/worker_channel.h"
#include "transport/stream_handoff.h"

namespace strata::serve {
namespace {

namespace wire = stream::wire;

int g_wake_pipe[2] = {-1, -1};

void Wake() {
  const char byte = 1;
  [[maybe_unused]] ssize_t n = write(g_wake_pipe[1], &byte, 1);
}

volatile sig_atomic_t g_stopping = 0;

void OnStopSignal(int) {
  g_stopping = 1;
  Wake();
}

// What the OS can hold the process to, beyond the executor's own budget.
void LimitProcess(const WorkerOptions& options) {
  // Under memory pressure the kernel takes a worker (one client), not the listener.
  if (int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC); fd >= 0) {
    [[maybe_unused]] ssize_t n = write(fd, "500", 3);
    close(fd);
  }
  if (options.process_memory > 0) {
    const rlimit limit{options.process_memory, options.process_memory};
    setrlimit(RLIMIT_DATA, &limit);
  }
}

// What a driver does once per process, before its first context draws
// (Mesa's llvmpipe: LLVM's set-up, its first shaders compiled), done ahead:
// one context draws one triangle into a framebuffer of its own and is
// thrown away.
void WarmUp(const host::HostDriver& driver, EGLDisplay display) {
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!driver.Get<PFNEGLCHOOSECONFIGPROC>(api::eglChooseConfig)(display, config_attribs, &config, 1, &count) ||
      count < 1) {
    return;
  }
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext context =
      driver.Get<PFNEGLCREATECONTEXTPROC>(api::eglCreateContext)(display, config, EGL_NO_CONTEXT, context_attribs);
  if (context == EGL_NO_CONTEXT) return;
  if (driver.Get<PFNEGLMAKECURRENTPROC>(api::eglMakeCurrent)(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    const auto gl = [&](auto slot) { return driver.Function(slot); };
    GLuint texture = 0, framebuffer = 0;
    reinterpret_cast<PFNGLGENTEXTURESPROC>(gl(api::glGenTextures))(1, &texture);
    reinterpret_cast<PFNGLBINDTEXTUREPROC>(gl(api::glBindTexture))(GL_TEXTURE_2D, texture);
    reinterpret_cast<PFNGLTEXIMAGE2DPROC>(gl(api::glTexImage2D))(GL_TEXTURE_2D, 0, GL_RGBA, 4, 4, 0, GL_RGBA,
                                                                  GL_UNSIGNED_BYTE, nullptr);
    reinterpret_cast<PFNGLGENFRAMEBUFFERSPROC>(gl(api::glGenFramebuffers))(1, &framebuffer);
    reinterpret_cast<PFNGLBINDFRAMEBUFFERPROC>(gl(api::glBindFramebuffer))(GL_FRAMEBUFFER, framebuffer);
    reinterpret_cast<PFNGLFRAMEBUFFERTEXTURE2DPROC>(gl(api::glFramebufferTexture2D))(
        GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
    const char* vs = "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }";
    const char* fs = "precision mediump float; uniform vec4 c; void main() { gl_FragColor = c; }";
    GLuint program = reinterpret_cast<PFNGLCREATEPROGRAMPROC>(gl(api::glCreateProgram))();
    for (auto [type, source] : {std::pair{GL_VERTEX_SHADER, vs}, std::pair{GL_FRAGMENT_SHADER, fs}}) {
      GLuint shader = reinterpret_cast<PFNGLCREATESHADERPROC>(gl(api::glCreateShader))(type);
      reinterpret_cast<PFNGLSHADERSOURCEPROC>(gl(api::glShaderSource))(shader, 1, &source, nullptr);
      reinterpret_cast<PFNGLCOMPILESHADERPROC>(gl(api::glCompileShader))(shader);
      reinterpret_cast<PFNGLATTACHSHADERPROC>(gl(api::glAttachShader))(program, shader);
      reinterpret_cast<PFNGLDELETESHADERPROC>(gl(api::glDeleteShader))(shader);
    }
    reinterpret_cast<PFNGLLINKPROGRAMPROC>(gl(api::glLinkProgram))(program);
    reinterpret_cast<PFNGLUSEPROGRAMPROC>(gl(api::glUseProgram))(program);
    const GLfloat triangle[] = {-1, -1, 1, -1, 0, 1};
    reinterpret_cast<PFNGLVERTEXATTRIBPOINTERPROC>(gl(api::glVertexAttribPointer))(0, 2, GL_FLOAT, GL_FALSE, 0,
                                                                                    triangle);
    reinterpret_cast<PFNGLENABLEVERTEXATTRIBARRAYPROC>(gl(api::glEnableVertexAttribArray))(0);
    reinterpret_cast<PFNGLDRAWARRAYSPROC>(gl(api::glDrawArrays))(GL_TRIANGLES, 0, 3);
    reinterpret_cast<PFNGLFINISHPROC>(gl(api::glFinish))();
    reinterpret_cast<PFNGLDELETEPROGRAMPROC>(gl(api::glDeleteProgram))(program);
    reinterpret_cast<PFNGLDELETEFRAMEBUFFERSPROC>(gl(api::glDeleteFramebuffers))(1, &framebuffer);
    reinterpret_cast<PFNGLDELETETEXTURESPROC>(gl(api::glDeleteTextures))(1, &texture);
    driver.Get<PFNEGLMAKECURRENTPROC>(api::eglMakeCurrent)(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  }
  driver.Get<PFNEGLDESTROYCONTEXTPROC>(api::eglDestroyContext)(display, context);
  driver.Get<PFNEGLRELEASETHREADPROC>(api::eglReleaseThread)();
}

// The driver loaded, its display initialised and warmed up, so that a
// client's first call does not wait for any of it.
std::unique_ptr<host::HostDriver> StartDriver(const WorkerOptions& options, std::string* error) {
  auto driver = host::HostDriver::Load(options.strata_lib_dir, error);
  if (!driver) return nullptr;
  auto surfaces = host::MakePbufferSurfaceFactory(*driver);
  EGLDisplay display = surfaces->OpenDisplay(error);
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || !driver->Get<PFNEGLINITIALIZEPROC>(api::eglInitialize)(display, &major, &minor)) {
    if (error->empty()) *error = "eglInitialize failed on the host display (" + driver->egl_path() + ")";
    return nullptr;
  }
  WarmUp(*driver, display);
  return driver;
}

struct Running {
  std::unique_ptr<Connection> connection;
  std::thread thread;
};

class Worker {
 public:
  Worker(ServeContext& context, int channel) : context_(context), channel_(channel) {}

  // Until the client is gone; then the listener is told why its session ended.
  int Run() {
    const int status = Serve();
    if (!end_reason_.empty()) SendControl(channel_, wire::Hello{.values = {{"message", "ended"}, {"reason", end_reason_}}});
    return status;
  }

 private:
  int Serve() {
    bool listener_gone = false;
    for (;;) {
      Reap();
      if (served_ && session_.expired() && running_.empty()) {  // the client is gone
        if (!MayServeAnother()) return 0;
        served_ = false;
        ++clients_served_;
        SendControl(channel_, wire::Hello{.values = {{"message", "idle"}}});
      }
      if (g_stopping) {
        Close("the renderer is stopping");
        if (running_.empty()) return 0;
      }
      pollfd fds[2] = {{g_wake_pipe[0], POLLIN, 0}, {listener_gone ? -1 : channel_, POLLIN, 0}};
      if (poll(fds, 2, 1000) < 0 && errno != EINTR) {
        Log(std::string("worker: poll failed: ") + std::strerror(errno));
        return 1;
      }
      if (fds[0].revents != 0) {
        char drain[64];
        [[maybe_unused]] ssize_t n = read(g_wake_pipe[0], drain, sizeof drain);
      }
      if (fds[1].revents == 0) continue;
      wire::Hello message;
      std::vector<int> descriptors;
      std::string error;
      const int got = ReceiveControl(channel_, &message, &descriptors, &error);
      if (got > 0) {
        Take(message, std::move(descriptors));
        continue;
      }
      // The listener is gone: no client comes any more. The one served ends
      // with it, as when the renderer stops.
      if (got < 0) Log("worker: " + error);
      listener_gone = true;
      if (!served_) return 0;
      Close("the renderer's listener ended");
    }
  }

  // After a client that ended normally, where the listener allowed it (a
  // Unix client of the renderer's own user), while the process stays small:
  // its driver's compiled code (llvmpipe's shader variants) then serves the
  // next client's first frames. Its objects went with its session's executor.
  bool MayServeAnother() const {
    constexpr size_t kClientsPerWorker = 32;
    constexpr uint64_t kResidentBytes = 512ull << 20;
    if (!reusable_ || !end_reason_.empty() || g_stopping || clients_served_ + 1 >= kClientsPerWorker) return false;
    std::FILE* statm = std::fopen("/proc/self/statm", "r");
    if (statm == nullptr) return false;
    unsigned long long size = 0, resident = 0;
    const bool read = std::fscanf(statm, "%llu %llu", &size, &resident) == 2;
    std::fclose(statm);
    return read && resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) < kResidentBytes;
  }

  // Ends the client (its connections are shut down), for `reason`.
  void Close(const std::string& reason) {
    if (end_reason_.empty()) end_reason_ = reason;
    if (auto session = session_.lock()) session->Close(reason);
  }
  // A client's connection from the listener: answered and served on a thread of its own.
  void Take(const wire::Hello& message, std::vector<int> descriptors) {
    const auto value = [&](const char* key) {
      const std::string* v = message.Find(key);
      return v ? *v : std::string();
    };
    transport::StreamState state;
    std::string error;
    const std::string bytes = value("stream");
    if (value("message") != "client" ||
        !transport::StreamState::Decode(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
                                        &state, &error)) {
      for (int d : descriptors) close(d);
      Log("worker: a malformed hand-over from the listener" + (error.empty() ? "" : ": " + error));
      return;
    }
    state.descriptors = std::move(descriptors);
    auto stream = transport::ResumeStream(std::move(state), &error);
    if (!stream) {
      Log("worker: cannot take over a client's connection: " + error);
      return;
    }
    wire::Hello answer;
    answer.values["status"] = "ok";
    answer.values["features"] = value("features");
    std::shared_ptr<Session> session;
    if (value("role") == "process" && !served_) {
      ClientInfo client{value("program"), std::strtoll(value("pid").c_str(), nullptr, 10), value("address")};
      reusable_ = value("reusable") == "yes";
      session = StartSession(value("session"), value("session_key"), client, value("functions"), value("features"));
      answer.values["session"] = session->id();
      answer.values["session_key"] = session->key();
    } else if (value("role") == "thread") {
      session = session_.lock();
      if (session && session->id() != value("session")) session.reset();  // a client served before
    }
    if (!session || session->closed()) {
      answer.values = {{"status", "refused"},
                       {"message", "no live session '" + value("session") + "' (its process's connections have all ended)"}};
      SendAnswer(*stream, answer);
      return;
    }
    Running& running = running_.emplace_back();
    running.connection = std::make_unique<Connection>(context_, std::move(stream), std::move(session), answer);
    running.thread = std::thread([connection = running.connection.get()] {
      connection->Run();
      Wake();
    });
  }

  std::shared_ptr<Session> StartSession(const std::string& id, const std::string& key, const ClientInfo& client,
                                        const std::string& functions, const std::string& features) {
    std::unique_ptr<Recorder> recorder;
    if (!context_.record_dir.empty()) {
      std::string error;
      recorder = Recorder::Create(context_.record_dir, client.program, client.pid, id, functions, &error);
      if (!recorder) Log("--record: " + error + "; serving " + client.program + " without recording");
    }
    const std::string recording = recorder ? ", recording to " + recorder->path() : "";
    auto session = std::make_shared<Session>(id, key, client, functions, features, *context_.driver,
                                             std::move(recorder), context_.display, context_.client_memory);
    Log("client joined: " + client.Describe() + ", session " + id + ", worker " + std::to_string(getpid()) +
        recording);
    session_ = session;
    served_ = true;
    return session;
  }

  static void SendAnswer(transport::ByteStream& stream, const wire::Hello& answer) {
    std::vector<uint8_t> bytes = wire::EncodeHello(wire::kRendererMagic, answer);
    stream.Write(bytes.data(), bytes.size());
    stream.Flush();
  }

  // Joins the threads of connections that have ended.
  void Reap() {
    for (auto it = running_.begin(); it != running_.end();) {
      if (!it->connection->done()) {
        ++it;
        continue;
      }
      it->thread.join();
      it = running_.erase(it);
    }
  }

  ServeContext& context_;
  const int channel_;
  std::list<Running> running_;
  std::weak_ptr<Session> session_;
  bool served_ = false;  // a client was handed over (one at a time)
  bool reusable_ = false;  // the listener lets this worker serve another client after it
  size_t clients_served_ = 0;
  std::string end_reason_;  // why the worker ended its client, if it did
};

}  // namespace

int RunWorker(const WorkerOptions& options) {
  if (pipe2(g_wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return 1;
  signal(SIGPIPE, SIG_IGN);
  LimitProcess(options);

  const int channel = kWorkerChannelFd;
  std::string error;
  std::unique_ptr<FrameDisplay> display;
  auto driver = StartDriver(options, &error);
  if (driver && options.display) display = FrameDisplay::Open(&error);
  if (!driver || (options.display && !display)) {
    SendControl(channel, wire::Hello{.values = {{"message", "failed"}, {"error", error}}});
    return 1;
  }
  ServeContext context;
  context.driver = driver.get();
  context.record_dir = options.record_dir;
  context.display = display.get();
  context.client_memory = options.client_memory;
  context.decode_ahead = options.decode_ahead;
  // Until now a stop ends the worker at once (the default action): it has
  // no client, and a driver's start-up may take seconds on a busy machine.
  struct sigaction action {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  if (!SendControl(channel, wire::Hello{.values = {{"message", "ready"}}})) return 0;  // the listener went already
  Worker worker(context, channel);
  const int status = worker.Run();
  return status;
}

}  // namespace strata::serve
