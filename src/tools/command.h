#pragma once
// One `strata` subcommand: its name, one-line summary and entry point.

namespace strata::tools {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(int argc, char** argv);  // argv[0] is the subcommand name
};

int RunCommandMain(int argc, char** argv);
int InfoCommandMain(int argc, char** argv);
int LayersCommandMain(int argc, char** argv);
int TraceCommandMain(int argc, char** argv);
int DumpCommandMain(int argc, char** argv);
int StatsCommandMain(int argc, char** argv);
int ReplayCommandMain(int argc, char** argv);
int ServeCommandMain(int argc, char** argv);
int ExportCommandMain(int argc, char** argv);
int ViewCommandMain(int argc, char** argv);
int DiffCommandMain(int argc, char** argv);
int StateCommandMain(int argc, char** argv);
int TrimCommandMain(int argc, char** argv);
int PixelCommandMain(int argc, char** argv);

}  // namespace strata::tools
