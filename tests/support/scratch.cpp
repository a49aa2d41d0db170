#include "support/scratch.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace strata::test {
namespace {

std::string& Directory() {
  static std::string directory;
  return directory;
}

pid_t& Owner() {
  static pid_t owner = 0;
  return owner;
}

// Registered with atexit after gtest's singleton exists, so it runs before
// that singleton is gone. A forked child that exits normally must not take
// its parent's files with it: only the process that made the directory
// removes it.
void RemoveAtExit() {
  if (getpid() != Owner() || Directory().empty()) return;
  const testing::UnitTest* tests = testing::UnitTest::GetInstance();
  if (std::getenv("STRATA_KEEP_TEST_FILES") != nullptr || (tests != nullptr && tests->Failed())) {
    std::fprintf(stderr, "test files kept in %s\n", Directory().c_str());
    return;
  }
  std::error_code ignored;
  std::filesystem::remove_all(Directory(), ignored);
}

}  // namespace

const std::string& ScratchDir() {
  std::string& directory = Directory();
  if (!directory.empty()) return directory;
  std::string base = testing::TempDir();
  if (base.empty()) base = "/tmp/";
  if (base.back() != '/') base += '/';
  std::string pattern = base + "strata-test-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    std::perror(("cannot make a scratch directory in " + base).c_str());
    std::abort();
  }
  directory = pattern;
  Owner() = getpid();
  testing::UnitTest::GetInstance();
  std::atexit(RemoveAtExit);
  return directory;
}

std::string ScratchPath(const std::string& name) { return ScratchDir() + "/" + name; }

}  // namespace strata::test
