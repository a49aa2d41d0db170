// The layer system from the outside: a probe app runs through Strata with
// test layers that record each intercepted call to a file.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.h"

namespace {

namespace fs = std::filesystem;
using strata::test::ProcessOptions;
using strata::test::ProcessResult;
using strata::test::RunProcess;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int CountLines(const std::string& text, const std::string& needle) {
  int n = 0;
  std::stringstream lines(text);
  for (std::string line; std::getline(lines, line);) n += line.find(needle) != std::string::npos;
  return n;
}

// The recorded "<layer>:<function>" lines for one function, in call order.
std::vector<std::string> Recorded(const std::string& record, const std::string& function) {
  std::vector<std::string> layers;
  std::stringstream lines(record);
  for (std::string line; std::getline(lines, line);) {
    auto colon = line.find(':');
    if (colon != std::string::npos && line.substr(colon + 1) == function) layers.push_back(line.substr(0, colon));
  }
  return layers;
}

class Layers : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/strata-layers-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    chmod(dir_.c_str(), 0755);
    record_ = dir_ + "/record.txt";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs the probe through `strata run` with `env` added.
  ProcessResult Probe(std::map<std::string, std::string> env, std::vector<std::string> probe_args = {},
                      std::vector<std::string> run_options = {}, bool attachable = false) {
    // The chain under test alone, without the switched-off trace layer `strata run` puts in front.
    std::vector<std::string> argv = {STRATA_CLI, "run"};
    if (!attachable) argv.push_back("--no-attach");
    argv.insert(argv.end(), run_options.begin(), run_options.end());
    argv.insert(argv.end(), {"--", STRATA_LAYER_PROBE});
    argv.insert(argv.end(), probe_args.begin(), probe_args.end());
    ProcessOptions options;
    options.set_env = std::move(env);
    options.set_env["STRATA_TEST_RECORD"] = record_;
    options.set_env["XDG_CONFIG_HOME"] = dir_ + "/config";
    options.unset_env = {"STRATA_LAYERS", "STRATA_LAYER_PATH"};
    for (const auto& [k, v] : options.set_env) {
      if (k == "STRATA_LAYERS" || k == "STRATA_LAYER_PATH") std::erase(options.unset_env, k);
    }
    ProcessResult r = RunProcess(argv, options);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("probe: ok"), std::string::npos) << r.out << r.err;
    return r;
  }
  ProcessResult Strata(std::vector<std::string> args) {
    args.insert(args.begin(), STRATA_CLI);
    ProcessOptions options;
    options.set_env["XDG_CONFIG_HOME"] = dir_ + "/config";
    return RunProcess(args, options);
  }
  std::string Record() { return ReadFile(record_); }

  // A copy of a test layer in a fresh directory with the given modes.
  std::string CopyLayer(const std::string& name, mode_t dir_mode, const std::string& subdir) {
    std::string target_dir = dir_ + "/" + subdir;
    fs::create_directories(target_dir);
    chmod(target_dir.c_str(), dir_mode);
    fs::copy_file(std::string(STRATA_TEST_LAYER_DIR) + "/" + name, target_dir + "/" + name);
    return target_dir;
  }

  std::string dir_, record_;
};

// Catches: layers left out of the dispatch, stacked in the wrong order, or skipped for some calls.
TEST_F(Layers, ThreeStackedLayersRunInListOrderFirstNearestTheApp) {
  ProcessResult r = Probe({{"STRATA_LAYERS", "librecorder_a.so:librecorder_b.so:librecorder_c.so"},
                           {"STRATA_LAYER_PATH", STRATA_TEST_LAYER_DIR}});
  std::string record = Record();
  const std::vector<std::string> order = {"a", "b", "c"};
  EXPECT_EQ(Recorded(record, "glClear"), order) << record;
  EXPECT_EQ(Recorded(record, "eglChooseConfig"), order) << record;
  EXPECT_EQ(Recorded(record, "glObjectLabelKHR"), order) << "an extension from eglGetProcAddress\n" << record;
  EXPECT_EQ(Recorded(record, "glStrataTestExtensionEXT"), order) << "a name no registry knows\n" << record;
  EXPECT_EQ(record.find("initialize-lookup-failed"), std::string::npos)
      << "the active layer (b) must find its functions through get_next_layer_proc_address\n" << record;
}

TEST_F(Layers, Gles1ContextsGoThroughLayersToo) {
  Probe({{"STRATA_LAYERS", "librecorder_a.so:librecorder_c.so"}, {"STRATA_LAYER_PATH", STRATA_TEST_LAYER_DIR}},
        {"--gles1"});
  EXPECT_EQ(Recorded(Record(), "glClear"), (std::vector<std::string>{"a", "c"})) << Record();
}

TEST_F(Layers, RunOptionsSetTheLayers) {
  ProcessResult r = Probe({}, {}, {"--layers", "librecorder_c.so", "--layer-path", STRATA_TEST_LAYER_DIR});
  EXPECT_EQ(Recorded(Record(), "glClear"), std::vector<std::string>{"c"}) << r.err;
}

TEST_F(Layers, MissingLayerIsSkippedWithOneMessage) {
  ProcessResult r = Probe({{"STRATA_LAYERS", "libstrata_no_such_layer.so:librecorder_a.so"},
                           {"STRATA_LAYER_PATH", STRATA_TEST_LAYER_DIR}});
  EXPECT_EQ(CountLines(r.err, "libstrata_no_such_layer.so"), 1) << r.err;
  EXPECT_NE(r.err.find("layer libstrata_no_such_layer.so skipped: not found"), std::string::npos) << r.err;
  EXPECT_EQ(Recorded(Record(), "glClear"), std::vector<std::string>{"a"});
}

TEST_F(Layers, BrokenLayersAreSkippedWithTheirReason) {
  std::string broken_dir = dir_ + "/broken";
  fs::create_directories(broken_dir);
  chmod(broken_dir.c_str(), 0755);
  std::ofstream(broken_dir + "/libjunk_layer.so") << "not an ELF file\n";
  ProcessResult r = Probe({{"STRATA_LAYERS", "libjunk_layer.so:libno_entry_layer.so:librecorder_b.so"},
                           {"STRATA_LAYER_PATH", broken_dir + ":" + STRATA_TEST_LAYER_DIR}});
  EXPECT_EQ(CountLines(r.err, "libjunk_layer.so"), 1) << r.err;
  EXPECT_NE(r.err.find("libjunk_layer.so skipped: cannot load"), std::string::npos) << r.err;
  EXPECT_EQ(CountLines(r.err, "libno_entry_layer.so"), 1) << r.err;
  EXPECT_NE(r.err.find("does not export AndroidGLESLayer_GetProcAddress"), std::string::npos) << r.err;
  EXPECT_EQ(Recorded(Record(), "glClear"), std::vector<std::string>{"b"});
}

// Catches: a NULL entry installed (a crash) instead of passing the call through.
TEST_F(Layers, NullFromGetProcAddressMeansPassThroughAndIsReported) {
  ProcessResult r = Probe({{"STRATA_LAYERS", "librecorder_null.so"}, {"STRATA_LAYER_PATH", STRATA_TEST_LAYER_DIR}});
  EXPECT_EQ(CountLines(r.err, "returned NULL for"), 1) << r.err;
  EXPECT_NE(r.err.find("they pass through"), std::string::npos) << r.err;
  EXPECT_EQ(Recorded(Record(), "glClear"), std::vector<std::string>{"null"});
}

TEST_F(Layers, WorldWritableDirectoryIsRefused) {
  std::string open_dir = CopyLayer("librecorder_a.so", 0777, "open");
  chmod(open_dir.c_str(), 0777);  // mkdir honours the umask; make sure
  ProcessResult r = Probe({{"STRATA_LAYERS", "librecorder_a.so"}, {"STRATA_LAYER_PATH", open_dir}});
  EXPECT_EQ(CountLines(r.err, "refused"), 1) << r.err;
  EXPECT_NE(r.err.find("directory " + open_dir + " is world-writable"), std::string::npos) << r.err;
  EXPECT_TRUE(Recorded(Record(), "glClear").empty()) << Record();
}

TEST_F(Layers, LayerOwnedBySomeoneElseIsRefused) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give a file to another user (CI runs as root)";
  std::string other_dir = CopyLayer("librecorder_a.so", 0755, "other");
  ASSERT_EQ(chown((other_dir + "/librecorder_a.so").c_str(), 65534, 65534), 0);
  ProcessResult r = Probe({{"STRATA_LAYERS", "librecorder_a.so"}, {"STRATA_LAYER_PATH", other_dir}});
  EXPECT_NE(r.err.find("belongs to uid 65534, not to the user or root"), std::string::npos) << r.err;
  EXPECT_TRUE(Recorded(Record(), "glClear").empty()) << Record();
}

TEST_F(Layers, SetuidProcessIgnoresStrataVariables) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to make a setuid copy (CI runs as root)";
  // A setuid-root copy of the probe, run by an unprivileged user: AT_SECURE.
  std::string bin_dir = dir_ + "/setuid";
  fs::create_directories(bin_dir);
  chmod(dir_.c_str(), 0755);
  chmod(bin_dir.c_str(), 0755);
  std::string probe = bin_dir + "/layer_probe";
  fs::copy_file(STRATA_LAYER_PROBE, probe);
  ASSERT_EQ(chmod(probe.c_str(), 04755), 0);
  ProcessOptions options;
  options.set_env = {{"STRATA_LAYERS", "librecorder_a.so"},
                     {"STRATA_LAYER_PATH", STRATA_TEST_LAYER_DIR},
                     {"STRATA_TEST_RECORD", record_},
                     {"HOME", "/nonexistent"}};
  ProcessResult r = RunProcess({"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", probe}, options);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("probe: secure=1"), std::string::npos) << "the copy must really run AT_SECURE\n" << r.out;
  EXPECT_NE(r.err.find("setuid/setgid process: STRATA_LAYERS, STRATA_LAYER_PATH and the user's layer settings are "
                       "ignored"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(Recorded(Record(), "glClear").empty()) << Record();
}

// A plain `strata run` is attachable: its switched-off trace layer goes in
// front of the layers chosen otherwise, and replaces none of them.
// Catches: the trace layer put into STRATA_LAYERS, which would override the
// per-app settings, or an attachable run that drops the chosen layers.
TEST_F(Layers, AttachableRunKeepsTheChosenLayersBehindTheTraceLayer) {
  ASSERT_EQ(Strata({"layers", "enable", "--app", "layer_probe", "librecorder_b.so:librecorder_a.so", "--path",
                    STRATA_TEST_LAYER_DIR})
                .exit_code,
            0);
  ProcessResult r = Probe({}, {}, {"--log", "info"}, true);
  EXPECT_EQ(Recorded(Record(), "glClear"), (std::vector<std::string>{"b", "a"})) << Record();
  EXPECT_NE(r.err.find("layer 1: " STRATA_TEST_LIB_DIR "/layers/libstrata_trace.so"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("layer 2: " STRATA_TEST_LAYER_DIR "/librecorder_b.so"), std::string::npos) << r.err;
  fs::remove(record_);
  r = Probe({{"STRATA_LAYERS", "librecorder_c.so"}, {"STRATA_LAYER_PATH", STRATA_TEST_LAYER_DIR}}, {},
            {"--log", "info"}, true);
  EXPECT_EQ(Recorded(Record(), "glClear"), std::vector<std::string>{"c"}) << Record();
  EXPECT_NE(r.err.find("layer 1: " STRATA_TEST_LIB_DIR "/layers/libstrata_trace.so"), std::string::npos) << r.err;
}

TEST_F(Layers, PerAppSettingsRoundTrip) {
  ProcessResult enable = Strata({"layers", "enable", "--app", "layer_probe", "librecorder_b.so:librecorder_a.so",
                                 "--path", STRATA_TEST_LAYER_DIR});
  ASSERT_EQ(enable.exit_code, 0) << enable.err;
  std::string settings = ReadFile(dir_ + "/config/strata/layers.conf");
  EXPECT_NE(settings.find("[app layer_probe]"), std::string::npos) << settings;

  ProcessResult list = Strata({"layers", "list", "--app", "layer_probe"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find(std::string(STRATA_TEST_LAYER_DIR) + "/librecorder_b.so  (app settings)"), std::string::npos)
      << list.out;

  Probe({});
  EXPECT_EQ(Recorded(Record(), "glClear"), (std::vector<std::string>{"b", "a"})) << Record();
  // STRATA_LAYERS overrides the settings for one run.
  fs::remove(record_);
  Probe({{"STRATA_LAYERS", "librecorder_c.so"}, {"STRATA_LAYER_PATH", STRATA_TEST_LAYER_DIR}});
  EXPECT_EQ(Recorded(Record(), "glClear"), std::vector<std::string>{"c"}) << Record();

  ProcessResult disable = Strata({"layers", "disable", "--app", "layer_probe"});
  ASSERT_EQ(disable.exit_code, 0) << disable.err;
  fs::remove(record_);
  Probe({});
  EXPECT_TRUE(Recorded(Record(), "glClear").empty()) << Record();
  EXPECT_NE(Strata({"layers", "list", "--app", "layer_probe"}).out.find("no layer settings for layer_probe"),
            std::string::npos);
}

TEST_F(Layers, CommandRejectsBadArguments) {
  EXPECT_EQ(Strata({"layers", "enable", "librecorder_a.so"}).exit_code, 2);
  EXPECT_EQ(Strata({"layers", "enable", "--app", "x", "/abs/path/liba.so"}).exit_code, 1);
  EXPECT_EQ(Strata({"layers", "frob"}).exit_code, 2);
  EXPECT_EQ(Strata({"layers", "--help"}).exit_code, 0);
  fs::create_directories(dir_ + "/config/strata");
  std::ofstream(dir_ + "/config/strata/layers.conf") << "[app x]\nbogus = 1\n";
  ProcessResult list = Strata({"layers", "list"});
  EXPECT_EQ(list.exit_code, 1);
  EXPECT_NE(list.err.find("layers.conf:2: unknown key 'bogus'"), std::string::npos) << list.err;
}

// The layers document's order: STRATA_LAYER_PATH, the application's directory,
// the per-app settings' --path, $XDG_DATA_HOME/strata/layers; in each, the
// multiarch subdirectory before the directory itself. Each neighbouring pair
// is checked alone (the higher one wins, and without it the lower one loads),
// which orders the whole list.
// Catches: directories searched out of order, or the ABI subdirectory skipped.
TEST_F(Layers, DiscoveryFollowsTheLayersDocumentsOrder) {
  ASSERT_STRNE(STRATA_MULTIARCH, "") << "the build knows its multiarch directory";
  const std::string app_dir = dir_ + "/app", env_dir = dir_ + "/env", settings_dir = dir_ + "/settings",
                    data_dir = dir_ + "/data/strata/layers", arch = std::string("/") + STRATA_MULTIARCH;
  const std::vector<std::string> levels = {env_dir + arch,      env_dir,      app_dir + arch,  app_dir,
                                           settings_dir + arch, settings_dir, data_dir + arch, data_dir};
  for (const std::string& d : levels) fs::create_directories(d);
  for (const std::string& d : {dir_ + "/data", dir_ + "/data/strata"}) chmod(d.c_str(), 0755);
  for (const std::string& d : levels) chmod(d.c_str(), 0755);
  const std::string probe = app_dir + "/layer_probe";
  fs::copy_file(STRATA_LAYER_PROBE, probe);
  ASSERT_EQ(Strata({"layers", "enable", "--app", "layer_probe", "libpick.so", "--path", settings_dir}).exit_code, 0);
  auto picked = [&] {
    fs::remove(record_);
    ProcessOptions options;
    options.set_env = {{"STRATA_LAYER_PATH", env_dir},
                       {"STRATA_TEST_RECORD", record_},
                       {"XDG_CONFIG_HOME", dir_ + "/config"},
                       {"XDG_DATA_HOME", dir_ + "/data"}};
    options.unset_env = {"STRATA_LAYERS"};
    ProcessResult r = RunProcess({STRATA_CLI, "run", "--", probe}, options);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto layers = Recorded(Record(), "glClear");
    return layers.empty() ? std::string("none") : layers[0];
  };
  for (size_t i = 0; i + 1 < levels.size(); ++i) {
    for (const std::string& d : levels) fs::remove(d + "/libpick.so");
    fs::copy_file(std::string(STRATA_TEST_LAYER_DIR) + "/librecorder_a.so", levels[i] + "/libpick.so");
    fs::copy_file(std::string(STRATA_TEST_LAYER_DIR) + "/librecorder_b.so", levels[i + 1] + "/libpick.so");
    EXPECT_EQ(picked(), "a") << levels[i] << " comes before " << levels[i + 1];
    fs::remove(levels[i] + "/libpick.so");
    EXPECT_EQ(picked(), "b") << levels[i + 1] << " is searched";
  }
}

// Catches: a call counter that misses calls or counts the wrong function.
TEST_F(Layers, CallCounterCountsEveryCall) {
  std::string counts = dir_ + "/counts.txt";
  Probe({{"STRATA_LAYERS", "libstrata_call_counter.so"}, {"STRATA_CALL_COUNTER_OUTPUT", counts}});
  std::string text = ReadFile(counts);
  EXPECT_NE(text.find("strata call counter: "), std::string::npos) << text;
  EXPECT_NE(text.find("           1  glClear\n"), std::string::npos) << text;
  EXPECT_NE(text.find("           2  eglMakeCurrent\n"), std::string::npos) << text;
  EXPECT_NE(text.find("           1  glGenTextures\n"), std::string::npos) << text;
  EXPECT_NE(text.find("           1  eglChooseConfig\n"), std::string::npos) << text;
}

// piglit takes GLES extension functions from libGL's glXGetProcAddressARB,
// even on EGL: Strata's libGL.so.1 must route them through the loader (and
// its own GLES exports too), and leave GLX to the system's libGL.
TEST_F(Layers, GlesCallsThroughLibGlReachTheLayers) {
  std::string counts = dir_ + "/counts.txt";
  ProcessResult r = Probe({{"STRATA_LAYERS", "libstrata_call_counter.so"}, {"STRATA_CALL_COUNTER_OUTPUT", counts}},
                          {"--via-libgl"});
  EXPECT_NE(r.out.find("probe: libGL is " STRATA_TEST_LIB_DIR "/libGL.so.1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("probe: glClear from " STRATA_TEST_LIB_DIR "/libGL.so.1"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("probe: glXCreateContext from " STRATA_TEST_LIB_DIR), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("probe: glXCreateContext from /"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("probe: error after libGL calls 0x0"), std::string::npos) << r.out;
  std::string text = ReadFile(counts);
  // One glClear of the probe's own, three through libGL; the one made with no
  // context current went to the system's libGL.
  EXPECT_NE(text.find("           4  glClear\n"), std::string::npos) << text;
  EXPECT_NE(text.find("           2  glPolygonOffsetClampEXT\n"), std::string::npos) << text;
  EXPECT_EQ(r.err.find("no current EGL context"), std::string::npos) << r.err;
}

// Catches: errors not reported, reported twice per site, or taken from the app.
TEST_F(Layers, ErrorCheckReportsEachCallSiteOnceAndKeepsTheErrorForTheApp) {
  ProcessResult r = Probe({{"STRATA_LAYERS", "libstrata_error_check.so"}}, {"--make-errors"});
  EXPECT_EQ(CountLines(r.err, "error check: GL_INVALID_ENUM from glEnable(0x1234) at layer_probe+0x"), 1) << r.err;
  EXPECT_EQ(CountLines(r.err, "error check: GL_INVALID_ENUM from glTexParameteri(GL_TEXTURE_2D, "
                              "GL_TEXTURE_MAG_FILTER, 9987) at layer_probe+0x"), 1)
      << r.err;
  EXPECT_EQ(CountLines(r.err, "error check: 4 erroring GL calls at 2 call sites"), 1) << r.err;
  EXPECT_NE(r.out.find("probe: app saw 0x500 then 0x0"), std::string::npos) << r.out;
  // Without the layer the app sees the same errors.
  ProcessResult plain = Probe({}, {"--make-errors"});
  EXPECT_NE(plain.out.find("probe: app saw 0x500 then 0x0"), std::string::npos) << plain.out;
  EXPECT_EQ(plain.err.find("error check"), std::string::npos);
}

// Catches: GL calls sent past glvnd where another vendor could own the
// context, kept behind glvnd's stub where Mesa is its only vendor, or either
// path drawing wrongly.
TEST_F(Layers, GlCallsSkipGlvndOnlyWhereMesaIsItsOnlyVendor) {
  const std::string mesa = "/usr/share/glvnd/egl_vendor.d/50_mesa.json";
  ASSERT_TRUE(fs::exists(mesa)) << "Debian's libegl-mesa0 installs it";
  const std::string cleared = "probe: cleared pixel 255 0 255 255";
  ProcessResult direct = Probe({{"__EGL_VENDOR_LIBRARY_FILENAMES", mesa}}, {"--owner", "glClear"});
  EXPECT_NE(direct.out.find("owner of glClear: /"), std::string::npos) << direct.out;
  EXPECT_NE(direct.out.find("libglapi.so.0"), std::string::npos) << direct.out;
  EXPECT_NE(direct.out.find(cleared), std::string::npos) << direct.out;
  ProcessResult gles1 = Probe({{"__EGL_VENDOR_LIBRARY_FILENAMES", mesa}}, {"--gles1"});
  EXPECT_NE(gles1.out.find(cleared), std::string::npos) << gles1.out;

  ProcessResult asked = Probe({{"__EGL_VENDOR_LIBRARY_FILENAMES", mesa}, {"STRATA_GLVND_DISPATCH", "1"}},
                              {"--owner", "glClear"});
  EXPECT_NE(asked.out.find("owner of glClear: /"), std::string::npos) << asked.out;
  EXPECT_NE(asked.out.find("libGLESv2.so.2"), std::string::npos) << asked.out;
  EXPECT_EQ(asked.out.find("libglapi"), std::string::npos) << asked.out;
  EXPECT_NE(asked.out.find(cleared), std::string::npos) << asked.out;

  // A second vendor listed (its library absent: glvnd skips it, the context is Mesa's).
  const std::string other = dir_ + "/10_other.json";
  std::ofstream(other) << R"({"file_format_version": "1.0.0", "ICD": {"library_path": "libEGL_other.so.0"}})";
  ProcessResult two = Probe({{"__EGL_VENDOR_LIBRARY_FILENAMES", other + ":" + mesa}}, {"--owner", "glClear"});
  EXPECT_NE(two.out.find("libGLESv2.so.2"), std::string::npos) << two.out;
  EXPECT_NE(two.out.find(cleared), std::string::npos) << two.out;

  // A driver named by its path: its contexts need not be Mesa's.
  ProcessResult named = Probe({{"__EGL_VENDOR_LIBRARY_FILENAMES", mesa}}, {"--owner", "glClear"},
                              {"--driver-egl", "/usr/lib/" STRATA_MULTIARCH "/libEGL.so.1"});
  EXPECT_NE(named.out.find("libGLESv2.so.2"), std::string::npos) << named.out;
  EXPECT_NE(named.out.find(cleared), std::string::npos) << named.out;

  ProcessResult info = Strata({"info"});
  EXPECT_NE(info.out.find("GL calls"), std::string::npos) << info.out;
}

TEST_F(Layers, DocumentExampleLayersInterceptEglChooseConfig) {
  for (const char* layer : {"libpassive_layer.so", "libactive_layer.so"}) {
    ProcessResult r = Probe({{"STRATA_LAYERS", layer}, {"STRATA_LAYER_PATH", STRATA_EXAMPLE_LAYER_DIR}},
                            {"--owner", "eglChooseConfig"});
    EXPECT_NE(r.out.find(std::string("owner of eglChooseConfig: ") + STRATA_EXAMPLE_LAYER_DIR + "/" + layer),
              std::string::npos)
        << r.out;
  }
  // Stacked, the first listed is what the app's call enters.
  ProcessResult r = Probe({{"STRATA_LAYERS", "libactive_layer.so:libpassive_layer.so"},
                           {"STRATA_LAYER_PATH", STRATA_EXAMPLE_LAYER_DIR}},
                          {"--owner", "eglChooseConfig"});
  EXPECT_NE(r.out.find("libactive_layer.so"), std::string::npos) << r.out;
  // Without layers the driver's own function is there.
  ProcessResult plain = Probe({}, {"--owner", "eglChooseConfig"});
  EXPECT_NE(plain.out.find("owner of eglChooseConfig: /usr/lib"), std::string::npos) << plain.out;
}

}  // namespace
