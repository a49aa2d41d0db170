// strata: the command line of the Strata GLES toolkit.
#include <cstdio>
#include <cstring>

#include "tools/command.h"

namespace {

using strata::tools::Command;

constexpr Command kCommands[] = {
    {"run", "run an unmodified EGL/GLES program through Strata's loader", strata::tools::RunCommandMain},
    {"info", "show the loader, the driver it found, version strings and entry-point counts",
     strata::tools::InfoCommandMain},
    {"layers", "enable, disable and list GLES layers per application", strata::tools::LayersCommandMain},
    {"trace", "record every EGL/GLES call of a program into a trace file", strata::tools::TraceCommandMain},
    {"dump", "print the calls of a trace, as text or JSON lines", strata::tools::DumpCommandMain},
    {"stats", "calls, draws, bytes and CPU time of a trace, per function and per frame",
     strata::tools::StatsCommandMain},
    {"replay", "run the calls of a trace again: snapshots, verification, benchmark",
     strata::tools::ReplayCommandMain},
    {"serve", "the remote renderer: run remote clients' EGL/GLES calls on this machine's GPU",
     strata::tools::ServeCommandMain},
    {"export", "write a trace as Android gltrace or Chrome/Perfetto JSON", strata::tools::ExportCommandMain},
    {"view", "a trace as one self-contained HTML report: frames, calls, errors, shaders, uploads",
     strata::tools::ViewCommandMain},
    {"state", "the GL state a call of a trace met: bindings, program, uniforms, textures", strata::tools::StateCommandMain},
    {"trim", "a range of frames or calls of a trace that replays alone", strata::tools::TrimCommandMain},
    {"pixel", "the history of a pixel in a frame: every call that wrote it, and the tests it passed",
     strata::tools::PixelCommandMain},
    {"diff", "compare two traces call by call, or their frames' images", strata::tools::DiffCommandMain},
};

void PrintUsage(FILE* out) {
  std::fprintf(out,
               "usage: strata COMMAND [options] [args]\n\n"
               "Strata puts a GLES/EGL loader with Android's layer design in front of\n"
               "unmodified Linux programs.\n\ncommands:\n");
  for (const Command& command : kCommands) std::fprintf(out, "  %-8s %s\n", command.name, command.summary);
  std::fprintf(out,
               "\nOptions are the same kind everywhere: --option VALUE or --option=VALUE, -o VALUE\n"
               "for one-letter forms, given before or after a trace (before the program that\n"
               "run and trace start); frame and call lists as 1,5-9,20- (frame N is what\n"
               "follows the N-th frame end).\n"
               "\n'strata COMMAND --help' (or 'strata help COMMAND') describes a command.\n"
               "'strata --version' prints the version.\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    PrintUsage(stderr);
    return 2;
  }
  if (!std::strcmp(argv[1], "help") && argc > 2) {  // `strata help COMMAND`: that command's --help
    for (const Command& command : kCommands) {
      if (std::strcmp(argv[2], command.name) != 0) continue;
      char help[] = "--help";
      char* command_argv[] = {argv[2], help, nullptr};
      return command.run(2, command_argv);
    }
    std::fprintf(stderr, "strata: error: no command '%s' to describe\n\n", argv[2]);
    PrintUsage(stderr);
    return 2;
  }
  if (!std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "help")) {
    PrintUsage(stdout);
    return 0;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::printf("strata %s\n", STRATA_VERSION);
    return 0;
  }
  for (const Command& command : kCommands) {
    if (!std::strcmp(argv[1], command.name)) return command.run(argc - 1, argv + 1);
  }
  std::fprintf(stderr, "strata: error: unknown command '%s'\n\n", argv[1]);
  PrintUsage(stderr);
  return 2;
}
