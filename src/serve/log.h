#pragma once
// The renderer's log: one line per event on stderr, whole lines even when
// many connection threads and worker processes write at once.

#include <string>

namespace strata::serve {

// Prints "strata serve: <line>".
void Log(const std::string& line);

}  // namespace strata::serve
