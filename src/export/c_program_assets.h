#pragma once
// The files of src/export/c_program/ that every C export holds as they are,
// embedded at build time (cmake/embed_assets.cmake).

#include <string_view>

namespace strata::exporter {

extern const std::string_view kReplayRuntimeH;      // replay_runtime.h
extern const std::string_view kReplayRuntimeC;      // replay_runtime.c
extern const std::string_view kCMakeListsTemplate;  // CMakeLists.txt.in (@PROGRAM@: the executable)

}  // namespace strata::exporter
