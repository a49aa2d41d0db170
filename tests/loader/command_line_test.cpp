// `strata run` and `strata info` from the outside: arguments, exit statuses,
// and one clear error line for every kind of bad input.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <string>

#include "support/process.h"
#include "support/scratch.h"

namespace {

using strata::test::ProcessOptions;
using strata::test::RunProcess;
using strata::test::WithEnv;

int CountLines(const std::string& text, const std::string& needle) {
  int n = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (text.substr(start, end - start).find(needle) != std::string::npos) ++n;
    start = end + 1;
  }
  return n;
}

int CountNonEmptyLines(const std::string& text) {
  int n = 0;
  bool content = false;
  for (char c : text) {
    if (c == '\n') {
      n += content;
      content = false;
    } else {
      content = true;
    }
  }
  return n + content;
}

std::string WriteFile(const std::string& name, const std::string& contents) {
  std::string path = strata::test::ScratchPath(name);
  std::ofstream(path) << contents;
  return path;
}

TEST(StrataCommand, HelpForEveryCommand) {
  for (auto argv : {std::vector<std::string>{STRATA_CLI, "--help"}, {STRATA_CLI, "run", "--help"},
                    {STRATA_CLI, "info", "--help"}}) {
    auto r = RunProcess(argv);
    EXPECT_EQ(r.exit_code, 0) << strata::test::Describe(argv);
    EXPECT_NE(r.out.find("usage: strata"), std::string::npos) << r.out;
  }
}

TEST(StrataCommand, UnknownCommandAndOptionsAreUsageErrors) {
  auto r = RunProcess({STRATA_CLI, "frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown command 'frobnicate'"), std::string::npos) << r.err;
  r = RunProcess({STRATA_CLI, "run", "--bogus", "--", "true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown option '--bogus'"), std::string::npos) << r.err;
  r = RunProcess({STRATA_CLI, "run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no program given"), std::string::npos) << r.err;
  r = RunProcess({STRATA_CLI, "run", "--log", "loud", "--", "true"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(StrataRun, MissingProgramIsOneErrorLine) {
  auto r = RunProcess({STRATA_CLI, "run", "--", "strata-no-such-program"});
  EXPECT_EQ(r.exit_code, 127);
  EXPECT_EQ(CountNonEmptyLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("program 'strata-no-such-program' not found in PATH"), std::string::npos) << r.err;
  r = RunProcess({STRATA_CLI, "run", "--", "/nonexistent/dir/app"});
  EXPECT_EQ(r.exit_code, 127);
  EXPECT_EQ(CountNonEmptyLines(r.err), 1) << r.err;
}

TEST(StrataRun, NonExecutableProgramIsRefused) {
  std::string path = WriteFile("not-executable", "hello\n");
  auto r = RunProcess({STRATA_CLI, "run", "--", path});
  EXPECT_EQ(r.exit_code, 126);
  EXPECT_NE(r.err.find("is not an executable file"), std::string::npos) << r.err;
}

TEST(StrataRun, PassesExitStatusAndPutsStrataFirst) {
  auto r = RunProcess({STRATA_CLI, "run", "--", "sh", "-c", "echo \"$LD_LIBRARY_PATH\"; exit 7"},
                      WithEnv({{"LD_LIBRARY_PATH", "/opt/other"}}));
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(r.out, std::string(STRATA_LIB_DIR) + ":/opt/other\n");
}

TEST(StrataRun, MissingDriverIsOneErrorLine) {
  auto r = RunProcess({STRATA_CLI, "run", "--driver-egl", "/nonexistent/libEGL.so.1", "--", "true"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(CountNonEmptyLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("STRATA_DRIVER_EGL='/nonexistent/libEGL.so.1' does not exist"), std::string::npos) << r.err;
}

TEST(StrataRun, BrokenOrUnreadableDriverIsOneErrorLine) {
  std::string junk = WriteFile("libEGL-broken.so.1", "this is not an ELF file\n");
  for (const std::string& path : {junk, strata::test::ScratchDir()}) {
    auto r = RunProcess({STRATA_CLI, "run", "--driver-egl", path, "--", "true"});
    EXPECT_EQ(r.exit_code, 1) << path;
    EXPECT_EQ(CountNonEmptyLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("cannot load driver"), std::string::npos) << r.err;
  }
  auto r = RunProcess({STRATA_CLI, "run", "--driver-glesv2", junk, "--", "true"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot load driver " + junk), std::string::npos) << r.err;
}

TEST(StrataRun, DriverOverrideCannotPointAtStrataItself) {
  auto r = RunProcess({STRATA_CLI, "run", "--driver-egl", STRATA_LIB_DIR "/libEGL.so.1", "--", "true"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("is Strata's own library"), std::string::npos) << r.err;
}

// A driver that looks GL names up in the process's global scope, where
// Strata's libGLESv2 comes first, hands out Strata's own exports.
// Catches: such an entry point put in the tables (it jumps to itself for
// ever), or the warning that says so missing.
TEST(LoaderInApp, DriverHandingOutStratasOwnEntryPointsIsRefused) {
  ProcessOptions options;
  options.timeout_seconds = 30;
  auto r = RunProcess({STRATA_CLI, "run", "--driver-egl", STRATA_GLOBAL_SCOPE_DRIVER, "--", STRATA_EXTENSION_CALL_APP},
                      options);
  ASSERT_FALSE(r.timed_out) << "a call went round in Strata's own entry point";
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("reset status 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pixel 0 255 0 255"), std::string::npos) << r.out;
  EXPECT_EQ(CountLines(r.err, "handed out Strata's own entry point"), 1) << r.err;
  EXPECT_NE(r.err.find(STRATA_GLOBAL_SCOPE_DRIVER), std::string::npos) << r.err;
}

// A program that loads a libEGL.so of its own by absolute path (ANGLE's, in a
// Chromium-based program's directory) keeps it; one that loads the system's
// by its development link gets Strata's.
// Catches: the audit module handing Strata's libEGL to a program for a
// library that only shares the system's file name.
TEST(StrataRun, ProgramsOwnLibEglByPathIsNotRedirected) {
  auto own = RunProcess({STRATA_CLI, "run", "--log", "info", "--", STRATA_BUNDLED_LIBRARY_APP, STRATA_BUNDLED_EGL});
  EXPECT_EQ(own.exit_code, 0) << own.out << own.err;
  EXPECT_NE(own.out.find("marker 4242"), std::string::npos) << own.out << own.err;
  EXPECT_EQ(own.err.find("loaded by path"), std::string::npos) << own.err;

  // The system's libEGL.so (a link to glvnd's libEGL.so.1.1.0) has no such
  // function, and Strata's libEGL.so.1 stands in for it.
  auto system = RunProcess({STRATA_CLI, "run", "--log", "info", "--", STRATA_BUNDLED_LIBRARY_APP, STRATA_SYSTEM_EGL});
  EXPECT_NE(system.err.find(STRATA_SYSTEM_EGL " loaded by path: Strata's " STRATA_LIB_DIR "/libEGL.so.1 instead"),
            std::string::npos)
      << system.err;
}

// Past the command's checks, inside the app: a broken driver must cost the app
// one error line and failing EGL calls, never a crash.
TEST(LoaderInApp, BrokenDriverGivesOneErrorLineAndNoCrash) {
  std::string junk = WriteFile("libEGL-broken2.so.1", "not a library\n");
  ProcessOptions options = WithEnv({{"LD_LIBRARY_PATH", STRATA_LIB_DIR}, {"STRATA_DRIVER_EGL", junk}});
  auto r = RunProcess({"eglinfo"}, options);
  EXPECT_EQ(r.signal, 0) << r.err;
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(CountLines(r.err, "strata: error:"), 1) << r.err;
  EXPECT_NE(r.err.find("cannot load driver " + junk), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("EGL vendor string"), std::string::npos) << "EGL must not initialize without a driver";
}

TEST(StrataInfo, ReportsDriverVersionsAndCounts) {
  auto r = RunProcess({STRATA_CLI, "info"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("libEGL.so.1"), std::string::npos);
  EXPECT_NE(r.out.find("GL_VERSION:   OpenGL ES-CM 1.1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GL_VERSION:   OpenGL ES 3."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GLES 3.2"), std::string::npos);
  auto bad = RunProcess({STRATA_CLI, "info"}, WithEnv({{"STRATA_DRIVER_EGL", "/nonexistent"}}));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.out.find("no EGL driver"), std::string::npos) << bad.out;
}

}  // namespace
