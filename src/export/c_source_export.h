#pragma once
// A trace as a C program (`strata export --format c`, docs/export.md): the
// calls as C source in chunk functions, the bytes they pass in a data file,
// the runtime (c_program/) and a CMakeLists.txt, in one directory. Built,
// the program replays the trace on EGL, headless, with the trace's object
// names mapped as `strata replay` maps them.

#include <cstdint>
#include <map>
#include <string>

#include "stream/record_reader.h"

namespace strata::exporter {

struct CSourceSummary {
  std::string program;       // the executable's name
  uint64_t calls = 0;        // call records read
  uint64_t statements = 0;   // calls written as C (EGL set-up the runtime does itself is not one)
  uint64_t frames = 0;
  uint64_t data_bytes = 0;   // the data file's size
  uint64_t source_files = 0;
  // Calls that cannot run from C, by function: how many, and why.
  std::map<std::string, std::pair<uint64_t, std::string>> left_out;
};

// Writes the program for the trace `reader` reads into `dir` (made if
// missing; it must hold nothing else). `program` names the executable (a C
// identifier). False with `error` for a trace it cannot write (calls of
// several threads, damage) or a directory it cannot write; then nothing it
// wrote is left behind.
bool ExportCSource(stream::RecordReader& reader, const std::string& dir, const std::string& program,
                   CSourceSummary* summary, std::string* error);

// A C identifier for the program of trace `path` ("glmark2.strace" -> "glmark2").
std::string ProgramNameFor(const std::string& path);

}  // namespace strata::exporter
