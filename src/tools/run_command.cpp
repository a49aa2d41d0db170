// strata run [options] -- PROGRAM ARGS...
#include <cstdio>
#include <cstring>
#include <string>

#include "tools/command.h"
#include "tools/program_launch.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata run [options] [--] PROGRAM [ARGS...]

Runs an unmodified EGL/GLES program with Strata's libEGL.so.1, libGLESv2.so.2,
libGLESv1_CM.so.1 and libGL.so.1 in front of the system's, which Strata finds
and loads itself; also for programs that dlopen the system's libraries by
absolute path. The program's exit status is passed through.

options:
  --driver-egl PATH      use this libEGL.so.1 as the driver (STRATA_DRIVER_EGL)
  --driver-glesv2 PATH   use this libGLESv2.so.2 (STRATA_DRIVER_GLESV2)
  --driver-glesv1 PATH   use this libGLESv1_CM.so.1 (STRATA_DRIVER_GLESV1)
  --driver-gl PATH       use this libGL.so.1 behind Strata's (STRATA_DRIVER_GL)
  --remote ADDRESS       render on a renderer (`strata serve`) at ADDRESS
                         (unix:@NAME, unix:/PATH, tcp:HOST:PORT) through the
                         remote client driver instead of the system's (STRATA_REMOTE);
                         layers and tracing still sit above it
  --remote-fallback native  with --remote: when the renderer cannot be reached,
                         render on the system's driver (STRATA_REMOTE_FALLBACK)
  --layers A:B           load these GLES layers, A nearest the program (STRATA_LAYERS);
                         overrides per-app settings of `strata layers`
  --layer-path DIRS      search these directories for layers first (STRATA_LAYER_PATH)
  --no-attach            leave the trace layer out. By default it is loaded
                         switched off, so that tracing can be switched on and
                         off while the program runs (strata trace --attach
                         PID / --detach PID); switched off it costs one
                         predictable branch per call (docs/benchmarks.md)
  --traceable            the default, kept for scripts that ask for it
  --log LEVEL            loader messages: error, warning (default), info, debug
  -h, --help             show this help

exit status: the program's; 1 when the driver cannot be loaded, 2 for bad
usage, 126 when PROGRAM is not executable, 127 when it is not found.
)";

}  // namespace

int RunCommandMain(int argc, char** argv) {
  LaunchRequest request;
  bool traceable = true;
  const struct {
    const char* option;
    const char* variable;
  } settings[] = {{"--driver-egl", "STRATA_DRIVER_EGL"},
                  {"--driver-glesv2", "STRATA_DRIVER_GLESV2"},
                  {"--driver-glesv1", "STRATA_DRIVER_GLESV1"},
                  {"--driver-gl", "STRATA_DRIVER_GL"},
                  {"--remote", "STRATA_REMOTE"},
                  {"--remote-fallback", "STRATA_REMOTE_FALLBACK"},
                  {"--layers", "STRATA_LAYERS"},
                  {"--layer-path", "STRATA_LAYER_PATH"},
                  {"--log", "STRATA_LOG"}};
  int i = 1;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg.empty() || arg[0] != '-') break;  // the program starts here
    if (arg == "--traceable" || arg == "--no-attach") {
      traceable = arg == "--traceable";
      continue;
    }
    bool known = false;
    for (const auto& setting : settings) {
      std::string prefix = std::string(setting.option) + "=";
      if (arg == setting.option) {
        if (i + 1 >= argc) {
          std::fprintf(stderr, "strata run: error: %s needs a value\n", setting.option);
          return 2;
        }
        request.environment[setting.variable] = argv[++i];
        known = true;
      } else if (arg.rfind(prefix, 0) == 0) {
        request.environment[setting.variable] = arg.substr(prefix.size());
        known = true;
      }
    }
    if (!known) {
      std::fprintf(stderr, "strata run: error: unknown option '%s'\n%s", arg.c_str(), kUsage);
      return 2;
    }
  }
  if (auto it = request.environment.find("STRATA_LOG"); it != request.environment.end()) {
    const std::string& level = it->second;
    if (level != "error" && level != "warning" && level != "info" && level != "debug") {
      std::fprintf(stderr, "strata run: error: --log must be error, warning, info or debug, not '%s'\n",
                   level.c_str());
      return 2;
    }
  }
  for (; i < argc; ++i) request.argv.emplace_back(argv[i]);
  if (traceable) {
    // In front of whatever layers the program gets (--layers, STRATA_LAYERS or per-app settings).
    request.environment["STRATA_LAYERS_FIRST"] = "libstrata_trace.so";
    request.environment["STRATA_TRACE_CONTROL"] = "1";
  }

  std::string program;
  if (int status = CheckLaunch("run", request, &program)) return status;
  return ExecWithStrata("run", request, program);
}

}  // namespace strata::tools
