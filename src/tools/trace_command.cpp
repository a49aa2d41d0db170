// strata trace [-o FILE] -- PROGRAM ARGS...: runs a program with the trace layer.
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "layers/trace/capture_setting.h"
#include "stream/trace_file.h"
#include "tools/command.h"
#include "tools/command_line.h"
#include "tools/program_launch.h"
#include "common/range_option.h"
#include "transport/sockets.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata trace [options] [--] PROGRAM [ARGS...]
       strata trace --connect ADDRESS [-o FILE] [--wait SECONDS]
       strata trace --attach PID [--frames N] [-o FILE | --listen ADDRESS] [--compression KIND]
       strata trace --detach PID

Runs PROGRAM through Strata with the trace layer first in the layer chain and
records every EGL/GLES call, with the data behind its pointers, into a trace
file. Read it with `strata dump` and `strata stats`.

options:
  -o, --output FILE        the trace file (default: PROGRAM.strace, numbered
                           if that exists)
  --compression KIND       lz4 (default, fastest), zstd (smaller) or none
  --process NAME           trace only processes called NAME: the executable's
                           file name, argv[0]'s, or the name the process gives
                           itself (/proc/PID/comm); otherwise every process
                           the program starts traces too
  --listen ADDRESS         serve the trace live to one client instead of
                           writing a file (ADDRESS: unix:@NAME, unix:/PATH or
                           tcp:IP:PORT); the program waits for no one, but
                           stops tracing if no client comes within
                           STRATA_TRACE_WAIT seconds (default 60)
  --frames A-B             trace frames A to B only (also A- to the end,
                           -B from the start, or N): the program runs
                           untraced until frame A begins, then each context
                           joins the trace with a snapshot of what it holds,
                           and after frame B the trace is finished while the
                           program runs on; the file holds just those frames
                           and replays alone (frame 0 ends at the first
                           eglSwapBuffers). With --attach: --frames N, the
                           next N frames
  --capture WHEN           store framebuffer images in the trace: swap (before
                           each eglSwapBuffers, with or without damage
                           regions), draw (after each draw call),
                           swap,draw, final (only the final frame: what the
                           app drew last, read when it gives its context up
                           or exits; the default, also taken with swap and
                           draw) or none
  --timing WHICH           which calls get a start time and duration: work
                           (default: every call but those that only set state,
                           such as glUniform4f, glEnable or glBindBuffer, which
                           are marked untimed and cost far less to record) or
                           all (every call; state-setting calls then cost about
                           twice as much to trace)
  --layers A:B             more layers, below the trace layer
  --layer-path DIRS        search these directories for layers first
                           (STRATA_LAYER_PATH)
  --log LEVEL              loader messages: error, warning (default), info, debug
  -h, --help               show this help

Ctrl-C reaches the program, and strata trace waits for it to end; SIGTERM and
SIGHUP sent to strata trace are passed on to the program. A program that dies
of a signal leaves a readable trace up to its last finished chunk.

Each process decides for itself whether it traces: at its first EGL/GLES
call, or, in a child forked from a process that had loaded Strata, when the
child opens an EGL display of its own (a child that only goes on with its
parent's context records nothing). Every process that traces writes a file of
its own: the first FILE, later ones FILE with their process id before the
extension (program.4242.strace); all are listed at the end.

With --attach, it switches tracing on in a running program started with
`strata run` (unless --no-attach; or STRATA_TRACE_CONTROL=1 and the trace
layer), with --capture as given (else as the program's environment says): each
context joins the trace at its next eglSwapBuffers, with made-up records that
create it, make it current and recreate everything it holds (a snapshot:
buffers, textures, programs, framebuffers, vertex arrays, state, and the frame
being drawn), so that the trace replays alone; other contexts at their next
eglMakeCurrent.
--detach switches it off the same way and finishes the trace. Switched off, the
program pays one predictable branch per call. `--attach PID --frames N` traces
the next N frames instead, from where the next frame begins, and finishes the
trace by itself: a command to bind to a key, for a capture of what is on
screen now.

With --connect, it is the host side of a live trace: it connects to a process
traced with --listen (or STRATA_TRACE=listen:ADDRESS), retrying for --wait
seconds (default 10), and stores the stream as a trace file until the
process ends or the connection drops.

Environment, for tracing without this command: STRATA_LAYERS=libstrata_trace.so
with STRATA_TRACE=file:PATH or listen:ADDRESS, STRATA_TRACE_COMPRESSION,
STRATA_TRACE_PROCESS, STRATA_TRACE_WAIT, STRATA_TRACE_CAPTURE, STRATA_TRACE_TIMING,
STRATA_TRACE_FRAMES.
)";

// Sends one command to a traceable process's control socket; prints the reply.
int Control(int pid, const std::string& command) {
  std::string error, address = "unix:@strata-trace-" + std::to_string(pid);
  int fd = transport::ConnectTo(address, &error);
  if (fd < 0) {
    std::fprintf(stderr,
                 "strata trace: error: process %d is not traceable (%s); start it with `strata run` (without --no-attach)\n",
                 pid, error.c_str());
    return 1;
  }
  std::string line = command + "\n";
  if (write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
    std::fprintf(stderr, "strata trace: error: cannot talk to process %d: %s\n", pid, std::strerror(errno));
    close(fd);
    return 1;
  }
  std::string reply;
  char buffer[512];
  for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) reply.append(buffer, static_cast<size_t>(n));
  close(fd);
  while (!reply.empty() && reply.back() == '\n') reply.pop_back();
  if (reply.rfind("ok", 0) == 0) {
    std::fprintf(stderr, "strata trace: process %d: %s\n", pid, reply.substr(3).c_str());
    return 0;
  }
  std::fprintf(stderr, "strata trace: error: process %d: %s\n", pid,
               reply.empty() ? "no reply (did the process exit?)" : reply.substr(reply.find(' ') + 1).c_str());
  return 1;
}

std::string ProcessName(int pid) {
  std::FILE* comm = std::fopen(("/proc/" + std::to_string(pid) + "/comm").c_str(), "r");
  char name[64] = "process";
  if (comm) {
    if (std::fgets(name, sizeof name, comm)) name[std::strcspn(name, "\n")] = '\0';
    std::fclose(comm);
  }
  return name;
}

// The host side of a live trace: what arrives is a trace file, byte for byte.
int ReceiveLiveTrace(const std::string& address, const std::string& output, int wait_seconds) {
  std::string error;
  int fd = -1;
  for (int tries = 0; fd < 0; ++tries) {
    fd = transport::ConnectTo(address, &error);
    if (fd >= 0) break;
    if (tries >= wait_seconds * 10) {
      std::fprintf(stderr, "strata trace: error: %s\n", error.c_str());
      return 1;
    }
    usleep(100000);
  }
  FILE* out = std::fopen(output.c_str(), "wb");
  if (out == nullptr) {
    std::fprintf(stderr, "strata trace: error: cannot create %s: %s\n", output.c_str(), std::strerror(errno));
    close(fd);
    return 1;
  }
  std::fprintf(stderr, "strata trace: connected to %s, writing %s\n", address.c_str(), output.c_str());
  char buffer[1 << 16];
  uint64_t received = 0, reported = 0;
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (std::fwrite(buffer, 1, static_cast<size_t>(n), out) != static_cast<size_t>(n)) {
      std::fprintf(stderr, "strata trace: error: writing %s: %s\n", output.c_str(), std::strerror(errno));
      std::fclose(out);
      close(fd);
      return 1;
    }
    received += static_cast<uint64_t>(n);
    if (received - reported >= (8u << 20)) {
      std::fprintf(stderr, "strata trace: received %.1f MiB\n", received / 1048576.0);
      reported = received;
    }
  }
  close(fd);
  if (std::fclose(out) != 0) {
    std::fprintf(stderr, "strata trace: error: writing %s: %s\n", output.c_str(), std::strerror(errno));
    return 1;
  }
  auto reader = stream::TraceFileReader::Open(output, &error);
  if (!reader) {
    std::fprintf(stderr, "strata trace: error: the stream from %s is not a trace: %s\n", address.c_str(),
                 error.c_str());
    return 1;
  }
  std::fprintf(stderr, "strata trace: %s: %.1f KiB, %zu frames%s\n", output.c_str(), received / 1024.0,
               reader->frames().size(),
               reader->complete() ? "" : " (incomplete: the connection ended before the program did)");
  return 0;
}

// A new empty file named after `pattern` (ending in XXXXXX), or "" when none can be made.
// The files `strata trace` shares with the program it runs are named
// /tmp/strata-trace-KIND-PID-XXXXXX by the process id of the `strata trace`
// that made them: one killed before it could remove them (SIGKILL) leaves
// them behind, and the next run removes those of runs that ended.
constexpr char kTemporaryPrefix[] = "strata-trace-";

std::string EmptyTemporaryFile(const std::string& kind) {
  std::string pattern = "/tmp/" + std::string(kTemporaryPrefix) + kind + "-" + std::to_string(getpid()) + "-XXXXXX";
  int fd = mkstemp(pattern.data());
  if (fd < 0) return "";
  close(fd);
  return pattern;
}

void RemoveTemporaryFilesOfEndedRuns() {
  DIR* dir = opendir("/tmp");
  if (dir == nullptr) return;
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.rfind(kTemporaryPrefix, 0) != 0) continue;
    // KIND-PID-XXXXXX: the process id sits between the last two dashes.
    const size_t last = name.rfind('-');
    const size_t before = last == std::string::npos || last == 0 ? std::string::npos : name.rfind('-', last - 1);
    if (before == std::string::npos || before < sizeof kTemporaryPrefix - 1) continue;
    const std::string pid = name.substr(before + 1, last - before - 1);
    if (pid.empty() || pid.size() > 9 || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    struct stat st{};
    const std::string path = "/tmp/" + name;
    if (lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != getuid()) continue;
    if (kill(static_cast<pid_t>(std::stol(pid)), 0) != 0 && errno == ESRCH) unlink(path.c_str());
  }
  closedir(dir);
}

// A `strata trace` told to end (SIGTERM, SIGHUP) passes it on to the program
// and ends as it does, having finished with the trace and its files.
volatile sig_atomic_t g_traced_program = 0;
void PassSignalOn(int signal_number) {
  if (g_traced_program > 0) kill(static_cast<pid_t>(g_traced_program), signal_number);
}

// The trace files the program's processes took, in the order they began tracing.
std::vector<std::string> TracesWritten(const std::string& registry) {
  std::vector<std::string> paths;
  std::FILE* in = registry.empty() ? nullptr : std::fopen(registry.c_str(), "r");
  if (in == nullptr) return paths;
  char line[8192];
  while (std::fgets(line, sizeof line, in)) {
    std::string entry = line;
    if (!entry.empty() && entry.back() == '\n') entry.pop_back();
    size_t tab = entry.find('\t');
    if (tab != std::string::npos) paths.push_back(entry.substr(tab + 1));
  }
  std::fclose(in);
  return paths;
}

std::string DefaultOutput(const std::string& program) {
  std::string base = program.substr(program.rfind('/') + 1);
  std::string candidate = base + ".strace";
  for (int n = 1; access(candidate.c_str(), F_OK) == 0; ++n) candidate = base + "." + std::to_string(n) + ".strace";
  return candidate;
}

}  // namespace

int TraceCommandMain(int argc, char** argv) {
  LaunchRequest request;
  std::string output, compression = "lz4", extra_layers, connect, listen;
  int wait_seconds = 10, attach = 0, detach = 0;
  std::string frames;
  bool frames_given = false;
  CommandLine args("strata trace", kUsage,
                   {{"help", 'h', false}, {"output", 'o', true}, {"compression", 0, true}, {"process", 0, true},
                    {"layers", 0, true}, {"layer-path", 0, true}, {"log", 0, true}, {"connect", 0, true},
                    {"listen", 0, true}, {"wait", 0, true}, {"attach", 0, true}, {"detach", 0, true},
                    {"capture", 0, true}, {"timing", 0, true}, {"frames", 0, true}},
                   argc, argv, CommandLine::Operands::kProgramLast);
  while (args.Next()) {
    const char* v = args.value();
    if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args.Is("output")) {
      output = v;
    } else if (args.Is("compression")) {
      compression = v;
    } else if (args.Is("process")) {
      request.environment["STRATA_TRACE_PROCESS"] = v;
    } else if (args.Is("layers")) {
      extra_layers = v;
    } else if (args.Is("layer-path")) {
      request.environment["STRATA_LAYER_PATH"] = v;
    } else if (args.Is("log")) {
      request.environment["STRATA_LOG"] = v;
    } else if (args.Is("connect")) {
      connect = v;
    } else if (args.Is("listen")) {
      listen = v;
    } else if (args.Is("capture")) {
      if (!trace::IsCaptureSetting(v)) {
        std::fprintf(stderr, "strata trace: error: --capture takes %s, not '%s'\n", trace::kCaptureSettings, v);
        return 2;
      }
      request.environment["STRATA_TRACE_CAPTURE"] = v;
    } else if (args.Is("timing")) {
      if (std::strcmp(v, "work") != 0 && std::strcmp(v, "all") != 0) {
        std::fprintf(stderr, "strata trace: error: --timing takes work or all, not '%s'\n", v);
        return 2;
      }
      request.environment["STRATA_TRACE_TIMING"] = v;
    } else if (args.Is("frames")) {
      frames = v;
      frames_given = true;
    } else if (args.Is("wait")) {
      uint64_t seconds = 0;
      if (!args.Count(&seconds)) return 2;
      wait_seconds = static_cast<int>(std::min<uint64_t>(seconds, 86400));
    } else if (args.Is("attach") || args.Is("detach")) {
      char* end = nullptr;
      long pid = std::strtol(v, &end, 10);
      if (*v == '\0' || *end != '\0' || pid <= 0 || pid > INT32_MAX) {
        std::fprintf(stderr, "strata trace: error: %s takes a process id, not '%s'\n", args.written().c_str(), v);
        return 2;
      }
      (args.Is("attach") ? attach : detach) = static_cast<int>(pid);
    }
  }
  if (args.failed()) return 2;
  request.argv = args.operands();
  if (attach || detach) {
    if (!request.argv.empty()) {
      std::fprintf(stderr, "strata trace: error: --attach/--detach switch a running program; they run none\n");
      return 2;
    }
    if (detach) {
      if (frames_given) {
        std::fprintf(stderr, "strata trace: error: --frames is for a program this command starts or --attach\n");
        return 2;
      }
      return Control(detach, "detach");
    }
    if (request.environment.count("STRATA_TRACE_TIMING")) {
      std::fprintf(stderr, "strata trace: error: --timing is for a program this command starts; a traceable process "
                           "takes STRATA_TRACE_TIMING from its own environment\n");
      return 2;
    }
    stream::Compression parsed_compression;
    if (!stream::ParseCompression(compression, &parsed_compression)) {
      std::fprintf(stderr, "strata trace: error: --compression must be lz4, zstd or none\n");
      return 2;
    }
    // --capture takes effect in the attached process; without it, its own environment's setting does.
    std::string attach_command = "attach " + compression + " ";
    if (auto it = request.environment.find("STRATA_TRACE_CAPTURE"); it != request.environment.end()) {
      attach_command += "capture=" + it->second + " ";
    }
    if (frames_given) {
      uint64_t count = 0;
      if (frames.size() > 9 || frames.find_first_not_of("0123456789") != std::string::npos ||
          (count = std::strtoull(frames.c_str(), nullptr, 10)) == 0) {
        std::fprintf(stderr, "strata trace: error: with --attach, --frames takes how many frames to trace (N from 1), "
                             "not '%s'\n", frames.c_str());
        return 2;
      }
      attach_command += "frames=" + std::to_string(count) + " ";
    }
    if (!listen.empty()) return Control(attach, attach_command + "listen:" + listen);
    if (output.empty()) output = ProcessName(attach) + "-" + std::to_string(attach) + ".strace";
    char absolute[4096];
    std::string dir = output.find('/') == std::string::npos ? "." : output.substr(0, output.rfind('/'));
    if (realpath(dir.empty() ? "/" : dir.c_str(), absolute) == nullptr) {
      std::fprintf(stderr, "strata trace: error: directory of '%s' does not exist\n", output.c_str());
      return 1;
    }
    std::string path = std::string(absolute) + "/" + output.substr(output.rfind('/') + 1);
    return Control(attach, attach_command + "file:" + path);
  }
  if (frames_given) {
    std::pair<uint64_t, uint64_t> range;
    if (!ParseRangeItem(frames, &range)) {
      std::fprintf(stderr, "strata trace: error: --frames takes one range of frames, A-B, A-, -B or N (B not before A), "
                           "not '%s'\n",
                   frames.c_str());
      return 2;
    }
    if (!connect.empty()) {
      std::fprintf(stderr, "strata trace: error: --frames is for the traced program, not --connect\n");
      return 2;
    }
    request.environment["STRATA_TRACE_FRAMES"] =
        std::to_string(range.first) + "-" + (range.second == UINT64_MAX ? "" : std::to_string(range.second));
  }
  if (!connect.empty()) {
    if (!request.argv.empty()) {
      std::fprintf(stderr, "strata trace: error: --connect receives a live trace; it runs no program\n");
      return 2;
    }
    return ReceiveLiveTrace(connect, output.empty() ? "live.strace" : output, wait_seconds > 0 ? wait_seconds : 10);
  }
  stream::Compression parsed;
  if (!stream::ParseCompression(compression, &parsed)) {
    std::fprintf(stderr, "strata trace: error: --compression must be lz4, zstd or none, not '%s'\n",
                 compression.c_str());
    return 2;
  }
  if (request.argv.empty()) {
    std::fprintf(stderr, "strata trace: error: no program given\n%s", kUsage);
    return 2;
  }
  if (!listen.empty()) {
    request.environment["STRATA_TRACE"] = "listen:" + listen;
    request.environment["STRATA_TRACE_COMPRESSION"] = compression;
    request.environment["STRATA_LAYERS"] = "libstrata_trace.so" + (extra_layers.empty() ? "" : ":" + extra_layers);
    std::string program;
    if (int status = CheckLaunch("trace", request, &program)) return status;
    return ExecWithStrata("trace", request, program);
  }
  if (output.empty()) output = DefaultOutput(request.argv[0]);
  std::string dir = output.find('/') == std::string::npos ? "." : output.substr(0, output.rfind('/'));
  if (dir.empty()) dir = "/";
  if (access(dir.c_str(), W_OK) != 0) {
    std::fprintf(stderr, "strata trace: error: cannot write the trace: directory '%s' is not writable\n", dir.c_str());
    return 1;
  }
  request.environment["STRATA_TRACE"] = "file:" + output;
  request.environment["STRATA_TRACE_COMPRESSION"] = compression;
  request.environment["STRATA_LAYERS"] = "libstrata_trace.so" + (extra_layers.empty() ? "" : ":" + extra_layers);

  std::string program;
  if (int status = CheckLaunch("trace", request, &program)) return status;
  // Where libstrata_audit.so says why, when the program's calls bypassed Strata.
  RemoveTemporaryFilesOfEndedRuns();
  const std::string audit_report = EmptyTemporaryFile("audit");
  if (!audit_report.empty()) request.environment["STRATA_AUDIT_REPORT"] = audit_report;
  // Where each traced process says which file it took (the first takes
  // `output`, later ones `output` with their process id).
  const std::string registry = EmptyTemporaryFile("files");
  if (!registry.empty()) request.environment["STRATA_TRACE_REGISTRY"] = registry;
  pid_t child = fork();
  if (child < 0) {
    std::perror("strata trace: error: fork");
    return 1;
  }
  if (child == 0) _exit(ExecWithStrata("trace", request, program));
  // The terminal's Ctrl-C reaches the program too; the trace is finished by it.
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  g_traced_program = child;
  signal(SIGTERM, PassSignalOn);
  signal(SIGHUP, PassSignalOn);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::vector<std::string> written = TracesWritten(registry);
  if (written.empty()) written.push_back(output);
  for (const std::string& path : written) {
    std::string error;
    auto reader = stream::TraceFileReader::Open(path, &error);
    if (!reader) {
      std::string why = path == output ? WhyNoCallReachedStrata(program, audit_report) : "";
      if (!why.empty() && access(path.c_str(), F_OK) != 0) {
        std::fprintf(stderr, "strata trace: no trace written: no EGL/GLES call reached Strata: %s\n", why.c_str());
      } else {
        std::fprintf(stderr, "strata trace: no trace written: %s\n", error.c_str());
      }
      continue;
    }
    struct stat st{};
    stat(path.c_str(), &st);
    std::fprintf(stderr, "strata trace: %s: %.1f KiB, %zu frames%s\n", path.c_str(), st.st_size / 1024.0,
                 reader->frames().size(),
                 reader->complete() ? "" : " (incomplete: the program did not exit normally)");
  }
  for (const std::string& temporary : {registry, audit_report}) {
    if (!temporary.empty()) unlink(temporary.c_str());
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

}  // namespace strata::tools
