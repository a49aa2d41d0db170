// A copy of the build's bin/strata and lib/strata elsewhere, the original left
// where it is: a sample app run and traced through the copy loads the copy's
// libraries only, by both routes (Strata's public libraries on the library
// path, and glvnd's vendor list for a program whose library path is reset).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.h"
#include "support/scratch.h"

namespace {

using strata::test::Describe;
using strata::test::ProcessOptions;
using strata::test::ProcessResult;
using strata::test::RunProcess;
using strata::test::ScratchPath;

namespace fs = std::filesystem;

class RelocatedTree : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = new std::string(ScratchPath("moved-strata"));
    fs::create_directories(*root_ + "/bin");
    fs::copy_file(STRATA_CLI, *root_ + "/bin/strata");
    fs::create_directories(fs::path(*root_ + "/" STRATA_LIB_SUBDIR).parent_path());
    fs::copy(STRATA_TEST_LIB_DIR, *root_ + "/" STRATA_LIB_SUBDIR,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  }
  static void TearDownTestSuite() {
    fs::remove_all(*root_);
    delete root_;
  }

  static std::string Copied(const std::string& path) { return *root_ + "/" + path; }

  // Runs `strata ARGS...` of the copy with the dynamic linker naming each
  // object it initialises ("calling init: PATH"), in every process.
  static ProcessResult RunCopied(std::vector<std::string> args) {
    args.insert(args.begin(), Copied("bin/strata"));
    ProcessOptions options;
    options.set_env = {{"LD_DEBUG", "files"}, {"XDG_CACHE_HOME", ScratchPath("cache")}};
    options.unset_env = {"STRATA_LIB_DIR", "__EGL_VENDOR_LIBRARY_FILENAMES"};
    ProcessResult r = RunProcess(args, options);
    // The end of stderr: LD_DEBUG's lines come before what went wrong.
    const size_t tail = r.err.size() > 4000 ? r.err.size() - 4000 : 0;
    EXPECT_EQ(r.exit_code, 0) << Describe(args) << "\n" << r.out << r.err.substr(tail);
    return r;
  }

  // The objects of Strata's (any tree's) that were initialised: PATHs of the
  // "calling init" lines whose file name begins with libstrata or is a
  // public library in a directory named strata.
  static std::set<std::string> StrataObjectsInitialised(const std::string& ld_debug) {
    std::set<std::string> objects;
    std::stringstream lines(ld_debug);
    for (std::string line; std::getline(lines, line);) {
      const std::string marker = "calling init: ";
      size_t at = line.find(marker);
      if (at == std::string::npos) continue;
      std::string path = line.substr(at + marker.size());
      if (path.find("/strata/") != std::string::npos || path.find("libstrata") != std::string::npos) {
        objects.insert(path);
      }
    }
    return objects;
  }

  void ExpectOnlyTheCopysLibraries(const ProcessResult& r) {
    const std::set<std::string> objects = StrataObjectsInitialised(r.err);
    EXPECT_TRUE(objects.count(Copied(STRATA_LIB_SUBDIR "/libstrata_loader.so")))
        << "the copy's loader was not loaded";
    for (const std::string& object : objects) {
      EXPECT_EQ(object.rfind(*root_ + "/", 0), 0u) << object << " is not the copy's";
    }
  }

  static std::string* root_;
};

std::string* RelocatedTree::root_ = nullptr;

const std::vector<std::string> kApp = {STRATA_BIN_DIR "/gles2_shaders", "--frames", "3", "--size", "64x64"};

std::vector<std::string> WithoutLibraryPath(const std::vector<std::string>& app) {
  std::vector<std::string> argv = {"env", "-u", "LD_LIBRARY_PATH", "-u", "LD_AUDIT"};
  argv.insert(argv.end(), app.begin(), app.end());
  return argv;
}

// Catches: a copied tree whose public libraries load the original's loader
// (an absolute RUNPATH), or whose run crashes with two loaders in one process.
TEST_F(RelocatedTree, RunLoadsOnlyTheCopysLibraries) {
  std::vector<std::string> args = {"run", "--"};
  args.insert(args.end(), kApp.begin(), kApp.end());
  ProcessResult r = RunCopied(args);
  EXPECT_NE(r.out.find("rendered 3 frames 64x64"), std::string::npos) << r.out;
  ExpectOnlyTheCopysLibraries(r);
}

// Catches: a glvnd vendor file naming the original tree's loader, which a
// program that reaches EGL only through glvnd would load instead of the copy's.
TEST_F(RelocatedTree, ProgramThroughGlvndLoadsTheCopysLoader) {
  std::vector<std::string> args = {"run", "--log", "info", "--"};
  for (const std::string& arg : WithoutLibraryPath(kApp)) args.push_back(arg);
  ProcessResult r = RunCopied(args);
  EXPECT_NE(r.out.find("rendered 3 frames 64x64"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("(through glvnd)"), std::string::npos) << "the app did not pass the loader as a glvnd vendor";
  ExpectOnlyTheCopysLibraries(r);
}

// Catches: tracing from a copied tree writing nothing, or through the original's trace layer.
TEST_F(RelocatedTree, TraceFromTheCopyRecordsBothRoutes) {
  for (bool through_glvnd : {false, true}) {
    SCOPED_TRACE(through_glvnd ? "through glvnd" : "public libraries");
    const std::string trace = ScratchPath(through_glvnd ? "glvnd.strace" : "public.strace");
    std::vector<std::string> args = {"trace", "-o", trace, "--"};
    for (const std::string& arg : through_glvnd ? WithoutLibraryPath(kApp) : kApp) args.push_back(arg);
    ProcessResult r = RunCopied(args);
    EXPECT_NE(r.err.find("strata trace: " + trace + ": "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(", 3 frames"), std::string::npos) << "the trace does not hold the app's 3 frames";
    ExpectOnlyTheCopysLibraries(r);
    EXPECT_TRUE(StrataObjectsInitialised(r.err).count(Copied(STRATA_LIB_SUBDIR "/layers/libstrata_trace.so")))
        << "the copy's trace layer was not loaded";
  }
}

}  // namespace
