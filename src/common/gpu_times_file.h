#pragma once
// GPU time per call, as `strata replay --gpu-times FILE` measures it and
// `strata export --gpu-times` and `strata view --gpu-times` read it: a
// tab-separated text file, a call a line, after '#' lines that say what it
// is (docs/inspect.md, "GPU time per call").

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

struct GpuTime {
  uint64_t sequence = 0;  // the call, as strata dump numbers it
  uint64_t frame = 0;
  uint64_t context = 0;   // the tracer's context id
  uint64_t ns = 0;        // GPU time (with several loops: their median)
  int slot = -1;          // the function (api/functions.h) where the replay knows it; not in the file
};

struct GpuTimesFile {
  std::string trace;     // the trace measured
  std::string renderer;  // GL_RENDERER and GL_VERSION of the driver that replayed it
  uint64_t loops = 1;
  std::vector<GpuTime> calls;  // in call order
};

bool WriteGpuTimesFile(const std::string& path, const GpuTimesFile& file, std::string* error);
// False with *error naming the file and line for anything that is not such a file.
bool ReadGpuTimesFile(const std::string& path, GpuTimesFile* file, std::string* error);

}  // namespace strata
