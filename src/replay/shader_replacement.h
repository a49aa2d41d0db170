#pragma once
// `strata replay --replace-shader NAME=FILE`: a shader or program of the
// trace, by the name the trace gives it (as `strata dump` prints it),
// compiled from FILE instead of its recorded source, through the replay's
// call hooks (nothing of the executor's own path changes):
//   a shader:  after each glShaderSource of it, FILE's source is set too, so
//              that the trace's glCompileShader compiles FILE;
//   a program: at each glLinkProgram of it, the attached shader of FILE's
//              stage (by its extension, .vert/.frag/...) is swapped for one
//              compiled from FILE for the link, and put back after; a
//              program from glCreateShaderProgramv is relinked from FILE.
// A compile or link that fails stops the replay with the driver's log.

#include <cstdint>
#include <string>
#include <vector>

#include "replay/replayer.h"

namespace strata::replay {

struct ShaderReplacement {
  uint64_t name = 0;   // the trace's shader or program name
  std::string path;    // FILE
  std::string source;  // its contents
  // What the replay found `name` to be, and how often it used FILE (first loop).
  enum class Met { kNot, kShader, kProgram } met = Met::kNot;
  uint64_t uses = 0;
};

// Parses NAME=FILE and reads FILE; false with *error saying what is wrong.
bool ParseShaderReplacement(const std::string& text, ShaderReplacement* replacement, std::string* error);

// The hooks that make the replay use `replacements` (kept by reference: the
// replay records in them what it met). Several may name the same program
// once per stage.
ReplayOptions::CallHooks ShaderReplacementHooks(std::vector<ShaderReplacement>& replacements);

}  // namespace strata::replay
