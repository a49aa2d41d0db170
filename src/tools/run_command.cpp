// strata run [options] -- PROGRAM ARGS...
#include <cstdio>
#include <cstring>
#include <string>

#include "tools/command.h"
#include "tools/command_line.h"
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
  } settings[] = {{"driver-egl", "STRATA_DRIVER_EGL"},
                  {"driver-glesv2", "STRATA_DRIVER_GLESV2"},
                  {"driver-glesv1", "STRATA_DRIVER_GLESV1"},
                  {"driver-gl", "STRATA_DRIVER_GL"},
                  {"remote", "STRATA_REMOTE"},
                  {"remote-fallback", "STRATA_REMOTE_FALLBACK"},
                  {"layers", "STRATA_LAYERS"},
                  {"layer-path", "STRATA_LAYER_PATH"},
                  {"log", "STRATA_LOG"}};
  std::vector<OptionSpec> options = {{"help", 'h', false}, {"traceable", 0, false}, {"no-attach", 0, false}};
  for (const auto& setting : settings) options.push_back({setting.option, 0, true});
  CommandLine args("strata run", kUsage, options, argc, argv, CommandLine::Operands::kProgramLast);
  while (args.Next()) {
    if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args.Is("traceable") || args.Is("no-attach")) {
      traceable = args.Is("traceable");
    } else {
      for (const auto& setting : settings) {
        if (args.Is(setting.option)) request.environment[setting.variable] = args.value();
      }
    }
  }
  if (args.failed()) return 2;
  if (auto it = request.environment.find("STRATA_LOG"); it != request.environment.end()) {
    const std::string& level = it->second;
    if (level != "error" && level != "warning" && level != "info" && level != "debug") {
      std::fprintf(stderr, "strata run: error: --log must be error, warning, info or debug, not '%s'\n",
                   level.c_str());
      return 2;
    }
  }
  request.argv = args.operands();
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
