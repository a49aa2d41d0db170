#include "layers/trace/process_decision.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "common/env.h"
#include "common/log.h"
#include "common/process_info.h"
#include "layers/trace/call_writer.h"
#include "layers/trace/control_server.h"
#include "layers/trace/frame_range.h"
#include "layers/trace/trace_session.h"

namespace strata::trace {

std::atomic<Decision> g_decision{Decision::kUndecided};

namespace {

// Read once at layer initialization; a forked child keeps its parent's.
std::string g_destination;  // STRATA_TRACE ("" when only controllable)
std::string g_compression;
bool g_controllable = false;
// STRATA_TRACE_FRAMES: trace only frames g_first_frame..g_last_frame (frame_range.h).
bool g_frame_range_given = false;
uint64_t g_first_frame = 0, g_last_frame = UINT64_MAX;

bool ThisProcessIsTraced() {
  const char* only = GetEnv("STRATA_TRACE_PROCESS");
  if (only == nullptr) return true;
  for (const std::string& name : ProcessNames()) {
    if (name == only) return true;
  }
  return false;
}

// PATH with the process id before its extension: the file of a process other
// than the first to trace under one STRATA_TRACE=file:PATH.
std::string PerProcessPath(const std::string& path, int pid) {
  const size_t slash = path.rfind('/');
  const size_t dot = path.rfind('.');
  const bool has_extension = dot != std::string::npos && dot > (slash == std::string::npos ? 0 : slash + 1);
  if (!has_extension) return path + "." + std::to_string(pid);
  return path.substr(0, dot) + "." + std::to_string(pid) + path.substr(dot);
}

// The file this process traces to. Under `strata trace` every tracing process
// writes its file's name into STRATA_TRACE_REGISTRY (under a lock): the first
// takes PATH, later ones PATH with their process id, so processes run one
// after another or side by side never overwrite each other's trace. Without
// the registry a forked child still gets a file of its own.
std::string FileOfThisProcess(const std::string& path, bool forked_child) {
  std::string own = forked_child ? PerProcessPath(path, getpid()) : path;
  const char* registry = GetEnv("STRATA_TRACE_REGISTRY");
  if (registry == nullptr) return own;
  int fd = open(registry, O_RDWR | O_APPEND | O_CLOEXEC);
  if (fd < 0) {
    STRATA_WARN("STRATA_TRACE_REGISTRY '%s': %s; tracing to %s", registry, std::strerror(errno), own.c_str());
    return own;
  }
  struct stat st{};
  if (flock(fd, LOCK_EX) == 0 && fstat(fd, &st) == 0) {
    own = st.st_size == 0 ? path : PerProcessPath(path, getpid());
    std::string line = std::to_string(getpid()) + "\t" + own + "\n";
    if (write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
      STRATA_WARN("STRATA_TRACE_REGISTRY '%s': %s", registry, std::strerror(errno));
    }
  }
  close(fd);  // and with it the lock
  return own;
}

// Starts the session, switched off until its frame range begins where one is given.
void StartTracing(const std::string& destination) {
  std::string error;
  const bool later = g_frame_range_given && g_first_frame > 0;
  if (!TraceSession::Get().Start(destination, g_compression, &error, !later)) {
    STRATA_ERROR("tracing disabled: %s", error.c_str());
    return;
  }
  if (!g_frame_range_given) return;
  const uint64_t frames = g_last_frame == UINT64_MAX ? 0 : g_last_frame - g_first_frame + 1;
  if (!ArmFrameRange(g_first_frame, frames, &error)) STRATA_ERROR("frame range: %s", error.c_str());
}

}  // namespace

bool PrepareTracing(const std::string& driver) {
  const char* destination = GetEnv("STRATA_TRACE");
  g_controllable = GetEnv("STRATA_TRACE_CONTROL") != nullptr;
  if (destination == nullptr && !g_controllable) return false;
  g_destination = destination ? destination : "";
  const char* compression = GetEnv("STRATA_TRACE_COMPRESSION");
  g_compression = compression ? compression : "";
  if (const char* frames = GetEnv("STRATA_TRACE_FRAMES")) {
    std::string error;
    if (!ParseFrameRange(frames, &g_first_frame, &g_last_frame, &error)) {
      STRATA_ERROR("STRATA_TRACE_FRAMES: %s; tracing disabled", error.c_str());
      g_destination.clear();
    }
    g_frame_range_given = true;
  }
  TraceSession::Get().set_driver(driver);
  TraceSession::WatchForks();
  pthread_atfork(nullptr, nullptr, [] { g_decision.store(Decision::kUndecided); });
  return true;
}

void DecideTracing() {
  Decision undecided = Decision::kUndecided;
  if (!g_decision.compare_exchange_strong(undecided, Decision::kDeciding)) {
    // Another thread is deciding (or has): its answer is this thread's.
    while (!ProcessDecided()) sched_yield();
    return;
  }
  const bool forked_child = TraceSession::Get().forked();
  if (forked_child) {
    TraceSession::RenewAfterFork();
    // The forking thread's state came over from the parent: it decides afresh.
    SetThreadStream(nullptr);
    SetThreadTracing(kTracingUndecided);
    DisarmFrameRange();  // the parent's: the child counts its own frames
  }
  std::string error;
  // Every process that decides can be switched at run time (the parent's listener did not come over a fork).
  if (g_controllable && !StartControlServer(&error)) {
    STRATA_WARN("tracing cannot be switched at run time: %s", error.c_str());
  }
  if (!g_destination.empty() && ThisProcessIsTraced()) {
    std::string destination = g_destination;
    if (destination.rfind("listen:", 0) == 0) {
      if (forked_child) {
        STRATA_WARN("process %d (%s) is not traced: it was forked from a process that serves %s, which one "
                    "process can serve",
                    getpid(), ProcessNames().back().c_str(), destination.c_str());
        destination.clear();
      }
    } else {
      const std::string path = destination.rfind("file:", 0) == 0 ? destination.substr(5) : destination;
      if (!path.empty()) destination = "file:" + FileOfThisProcess(path, forked_child);  // else Start says so
    }
    if (!destination.empty()) StartTracing(destination);
  }
  g_decision.store(Decision::kDecided, std::memory_order_release);
}

}  // namespace strata::trace
