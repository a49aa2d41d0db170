#include "support/scratch.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace strata::test {
namespace {

struct Scratch {
  std::string directory;  // empty until first use
  pid_t owner = 0;        // the process that made it
};

Scratch& TheScratch() {
  static Scratch scratch;
  return scratch;
}

// A forked child that exits normally must not take its parent's files with
// it: only the process that made the directory removes it.
void RemoveAtExit() {
  const Scratch& scratch = TheScratch();
  if (getpid() != scratch.owner) return;
  if (std::getenv("STRATA_KEEP_TEST_FILES") != nullptr) {
    std::fprintf(stderr, "test files kept in %s\n", scratch.directory.c_str());
    return;
  }
  // A failed test leaves nothing behind either: STRATA_KEEP_TEST_FILES=1 keeps its files to look at.
  if (testing::UnitTest::GetInstance()->Failed()) {
    std::fprintf(stderr, "test files in %s removed (STRATA_KEEP_TEST_FILES=1 keeps them)\n", scratch.directory.c_str());
  }
  std::error_code ignored;
  std::filesystem::remove_all(scratch.directory, ignored);
}

}  // namespace

const std::string& ScratchDir() {
  Scratch& scratch = TheScratch();
  if (!scratch.directory.empty()) return scratch.directory;
  std::string base = testing::TempDir();  // TEST_TMPDIR, TMPDIR or /tmp/
  if (base.back() != '/') base += '/';
  std::string pattern = base + "strata-test-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    std::perror(("cannot make a scratch directory in " + base).c_str());
    std::abort();
  }
  scratch.directory = pattern;
  scratch.owner = getpid();
  // gtest's singleton made before the handler is registered outlives it
  // (atexit runs in reverse order), so the handler may ask whether a test failed.
  testing::UnitTest::GetInstance();
  std::atexit(RemoveAtExit);
  return scratch.directory;
}

std::string ScratchPath(const std::string& name) { return ScratchDir() + "/" + name; }

}  // namespace strata::test
