// strata trace [-o FILE] -- PROGRAM ARGS...: runs a program with the trace layer.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "stream/trace_file.h"
#include "tools/command.h"
#include "tools/program_launch.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata trace [options] [--] PROGRAM [ARGS...]

Runs PROGRAM through Strata with the trace layer first in the layer chain and
records every EGL/GLES call, with the data behind its pointers, into a trace
file. Read it with `strata dump` and `strata stats`.

options:
  -o, --output FILE        the trace file (default: PROGRAM.strace, numbered
                           if that exists)
  --compression KIND       lz4 (default, fastest), zstd (smaller) or none
  --process NAME           trace only processes whose executable is NAME (the
                           program's children otherwise inherit tracing too)
  --layers A:B             more layers, below the trace layer
  --log LEVEL              loader messages: error, warning (default), info, debug
  -h, --help               show this help

Environment, for tracing without this command: STRATA_LAYERS=libstrata_trace.so
with STRATA_TRACE=file:PATH, STRATA_TRACE_COMPRESSION, STRATA_TRACE_PROCESS.
)";

std::string DefaultOutput(const std::string& program) {
  std::string base = program.substr(program.rfind('/') + 1);
  std::string candidate = base + ".strace";
  for (int n = 1; access(candidate.c_str(), F_OK) == 0; ++n) candidate = base + "." + std::to_string(n) + ".strace";
  return candidate;
}

}  // namespace

int TraceCommandMain(int argc, char** argv) {
  LaunchRequest request;
  std::string output, compression = "lz4", extra_layers;
  int i = 1;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--") {
      ++i;
      break;
    } else if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg == "-o" || arg == "--output" || arg == "--compression" || arg == "--process" ||
               arg == "--layers" || arg == "--log") {
      const char* v = value();
      if (v == nullptr) {
        std::fprintf(stderr, "strata trace: error: %s needs a value\n", arg.c_str());
        return 2;
      }
      if (arg == "-o" || arg == "--output") output = v;
      if (arg == "--compression") compression = v;
      if (arg == "--process") request.environment["STRATA_TRACE_PROCESS"] = v;
      if (arg == "--layers") extra_layers = v;
      if (arg == "--log") request.environment["STRATA_LOG"] = v;
    } else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "strata trace: error: unknown option '%s'\n%s", arg.c_str(), kUsage);
      return 2;
    } else {
      break;
    }
  }
  for (; i < argc; ++i) request.argv.emplace_back(argv[i]);
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
  pid_t child = fork();
  if (child < 0) {
    std::perror("strata trace: error: fork");
    return 1;
  }
  if (child == 0) _exit(ExecWithStrata("trace", request, program));
  // The terminal's Ctrl-C reaches the program too; the trace is finished by it.
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  std::string error;
  auto reader = stream::TraceFileReader::Open(output, &error);
  struct stat st{};
  if (!reader) {
    std::fprintf(stderr, "strata trace: no trace written: %s\n", error.c_str());
  } else {
    stat(output.c_str(), &st);
    std::fprintf(stderr, "strata trace: %s: %.1f KiB, %zu frames%s\n", output.c_str(), st.st_size / 1024.0,
                 reader->frames().size(),
                 reader->complete() ? "" : " (incomplete: the program did not exit normally)");
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

}  // namespace strata::tools
