#pragma once
// Where a test writes its files: one directory of its own per test process,
// made fresh (mkdtemp) so no file left by an earlier run, or by a process
// that had the same pid, is ever in the way, and removed when the process
// exits, unless a test failed (then kept and named on stderr for a look) or
// STRATA_KEEP_TEST_FILES is set.

#include <string>

namespace strata::test {

// The directory, made on first use.
const std::string& ScratchDir();

// ScratchDir()/name.
std::string ScratchPath(const std::string& name);

}  // namespace strata::test
