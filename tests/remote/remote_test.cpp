// Remote rendering end to end: a real renderer (`strata serve`, started by
// the test on a private address) and real programs through the remote client
// driver (`strata run --remote`): the sample apps' frames equal the native
// ones, es2_info sees the renderer's GL, and a missing renderer, a renderer of
// another protocol version, a vanished one and the native fallback each end
// with one clear line instead of a hang.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "stream/wire.h"
#include "support/png_image.h"
#include "support/process.h"
#include "support/renderer.h"
#include "support/scratch.h"
#include "transport/connect.h"
#include "transport/listener.h"

namespace {

using strata::test::Image;
using strata::test::ProcessResult;
using strata::test::RunProcess;
using strata::test::ScratchPath;

std::string UniqueAddress(const std::string& what) {
  static int counter = 0;
  return "unix:@strata-remote-test-" + std::to_string(getpid()) + "-" + what + "-" + std::to_string(counter++);
}

// `strata serve` for one test, on a private address.
class Renderer : public strata::test::Renderer {
 public:
  explicit Renderer(std::vector<std::string> extra = {}) : strata::test::Renderer(STRATA_CLI, extra) {}
};

ProcessResult RunApp(const std::string& app, const std::string& png, const std::vector<std::string>& strata_options,
                     const std::vector<std::string>& app_args = {"--frames", "10", "--size", "160x120"},
                     const std::map<std::string, std::string>& env = {}) {
  std::vector<std::string> argv;
  if (!strata_options.empty()) {
    argv = {STRATA_CLI, "run"};
    argv.insert(argv.end(), strata_options.begin(), strata_options.end());
    argv.push_back("--");
  }
  argv.push_back(std::string(STRATA_BIN_DIR) + "/" + app);
  argv.insert(argv.end(), app_args.begin(), app_args.end());
  argv.insert(argv.end(), {"--output", png});
  strata::test::ProcessOptions options;
  options.timeout_seconds = 120;
  options.set_env = env;
  return RunProcess(argv, options);
}

// Each sample app over each way a local client reaches the renderer: the
// shared-memory ring (the default for unix: addresses), the Unix socket
// itself (STRATA_REMOTE_RING=off) and TCP.
class RemoteSampleApp : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

// Breaks when any call is lost, misencoded or answered wrongly on the wire:
// the frame read back through the renderer must equal the native one bit for bit.
// Catches: calls run wrongly or not at all on the renderer, answers the client gets wrong, frames not sent back.
TEST_P(RemoteSampleApp, FramesEqualNative) {
  const auto& [app, transport] = GetParam();
  const bool tcp = transport == "tcp";
  // Named per transport: the cases of one app run side by side under ctest -j.
  const std::string token_file = ScratchPath(app + "-" + transport + "-token");
  Renderer renderer(tcp ? std::vector<std::string>{"--listen", "tcp:127.0.0.1:0", "--token-file", token_file}
                        : std::vector<std::string>{});
  const std::string address = tcp ? renderer.ListeningAddress("tcp:127.0.0.1:") : renderer.address();
  ASSERT_FALSE(address.empty()) << renderer.Log();
  const std::string native_png = ScratchPath(app + "-" + transport + "-native.png");
  const std::string remote_png = ScratchPath(app + "-" + transport + "-remote.png");
  ProcessResult native = RunApp(app, native_png, {});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  std::map<std::string, std::string> env = {{"STRATA_REMOTE_STATS", "1"}};
  if (transport == "socket") env["STRATA_REMOTE_RING"] = "off";
  if (tcp) env["STRATA_REMOTE_TOKEN_FILE"] = token_file;
  ProcessResult remote = RunApp(app, remote_png, {"--remote", address},
                                {"--frames", "10", "--size", "160x120"}, env);
  ASSERT_EQ(remote.exit_code, 0) << remote.out << remote.err << "\nrenderer:\n" << renderer.Log();
  EXPECT_NE(remote.out.find("rendered 10 frames 160x120"), std::string::npos) << remote.out;
  EXPECT_NE(remote.err.find(transport == "ring" ? "over a shared-memory ring" : "over a socket"), std::string::npos)
      << remote.err;
  Image images[2];
  std::string error;
  ASSERT_TRUE(strata::test::ReadPng(native_png, &images[0], &error)) << error;
  ASSERT_TRUE(strata::test::ReadPng(remote_png, &images[1], &error)) << error;
  EXPECT_GT(strata::test::CountColours(images[0]), 50) << "the native frame looks blank";
  ASSERT_EQ(images[0].width, images[1].width);
  ASSERT_EQ(images[0].height, images[1].height);
  EXPECT_EQ(strata::test::DifferingBytes(images[0], images[1]), 0u) << "bytes differ between the native and the remote frame";
}

INSTANTIATE_TEST_SUITE_P(Headless, RemoteSampleApp,
                         ::testing::Combine(::testing::Values("gles1_cube", "gles2_shaders", "gles3_instanced"),
                                            ::testing::Values("ring", "socket", "tcp")),
                         [](const auto& info) { return std::get<0>(info.param) + "_" + std::get<1>(info.param); });

// es2_info (mesa-utils), a program nobody here wrote: the strings it prints
// come from the renderer's driver through glGetString replies.
TEST(Remote, Es2InfoSeesTheRenderersDriver) {
  Renderer renderer;
  // es2_info opens an X11 window: the client's window, the renderer's GL.
  ProcessResult native = RunProcess({"xvfb-run", "-a", "es2_info"});
  ProcessResult remote =
      RunProcess({"xvfb-run", "-a", STRATA_CLI, "run", "--remote", renderer.address(), "--", "es2_info"});
  ASSERT_EQ(remote.exit_code, native.exit_code) << remote.out << remote.err << renderer.Log();
  auto line = [](const std::string& text, const std::string& key) {
    auto at = text.find("\n" + key);  // not EGL_VERSION for GL_VERSION
    return at == std::string::npos ? std::string() : text.substr(at + 1, text.find('\n', at + 1) - at - 1);
  };
  for (const char* key : {"GL_VERSION:", "GL_RENDERER:", "GL_VENDOR:"}) {
    EXPECT_FALSE(line(native.out, key).empty()) << native.out;
    EXPECT_EQ(line(remote.out, key), line(native.out, key)) << remote.out << remote.err;
  }
}

// No renderer at the address: one error line naming it, the app ends (its own
// EGL check fails), nothing hangs.
TEST(Remote, MissingRendererIsOneClearError) {
  const std::string address = UniqueAddress("nobody");
  auto start = std::chrono::steady_clock::now();
  ProcessResult r = RunApp("gles2_shaders", ScratchPath("missing.png"), {"--remote", address});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_FALSE(r.timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_NE(r.err.find("strata remote: error: cannot connect to renderer at " + address), std::string::npos) << r.err;
}

// STRATA_REMOTE_FALLBACK=native: the same program renders on the local driver, with one warning.
TEST(Remote, FallbackRendersNatively) {
  const std::string png = ScratchPath("fallback.png");
  ProcessResult r =
      RunApp("gles2_shaders", png, {"--remote", UniqueAddress("nobody"), "--remote-fallback", "native"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("rendering on the local driver instead"), std::string::npos) << r.err;
  Image image;
  std::string error;
  ASSERT_TRUE(strata::test::ReadPng(png, &image, &error)) << error;
  EXPECT_GT(strata::test::CountColours(image), 50);
}

// A renderer of another protocol version: the client names both versions.
TEST(Remote, VersionMismatchNamesBothVersions) {
  const std::string address = UniqueAddress("v99");
  std::string error;
  auto listener = strata::transport::Listener::Open(address, &error);
  ASSERT_TRUE(listener) << error;
  std::thread fake([&] {
    strata::transport::Peer peer;
    std::string e;
    auto stream = listener->Accept(20000, &peer, &e);
    if (!stream) return;
    uint8_t header[strata::stream::wire::kHelloHeaderBytes];
    if (!stream->ReadFully(header, sizeof header)) return;
    uint32_t size = header[12] | header[13] << 8 | header[14] << 16 | uint32_t{header[15]} << 24;
    std::vector<uint8_t> body(size);
    stream->ReadFully(body.data(), body.size());
    strata::stream::wire::Hello hello;
    hello.version = 99;
    hello.values["status"] = "refused";
    auto bytes = strata::stream::wire::EncodeHello(strata::stream::wire::kRendererMagic, hello);
    stream->Write(bytes.data(), bytes.size());
    stream->Flush();
  });
  ProcessResult r = RunApp("gles2_shaders", ScratchPath("v99.png"), {"--remote", address});
  fake.join();
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("protocol version 99"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("version " + std::to_string(strata::stream::wire::kProtocolVersion)), std::string::npos)
      << r.err;
}

// The renderer dies while the app renders: one error line, the app ends.
TEST(Remote, VanishedRendererEndsTheAppWithOneLine) {
  Renderer renderer;
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    renderer.Kill();
  });
  ProcessResult r = RunApp("gles2_shaders", ScratchPath("vanished.png"), {"--remote", renderer.address()},
                           {"--frames", "100000", "--size", "64x64"});
  killer.join();
  EXPECT_FALSE(r.timed_out);
  EXPECT_NE(r.err.find("strata remote: error:"), std::string::npos) << r.err;
  size_t lines = 0;
  for (size_t at = 0; (at = r.err.find("strata remote: error:", at)) != std::string::npos; ++at) ++lines;
  EXPECT_EQ(lines, 1u) << r.err;
}

// Eight client processes on one renderer, one of them killed in the middle of
// its frames: the other seven finish with the native frame, and the renderer
// says the killed one left without a goodbye, the others with a normal end,
// and keeps serving.
TEST(Remote, EightClientsOneKilledTheOthersFinish) {
  Renderer renderer;
  const std::string native_png = ScratchPath("eight-native.png");
  ProcessResult native = RunApp("gles2_shaders", native_png, {}, {"--frames", "40", "--size", "96x72"});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  auto spawn = [&](const std::vector<std::string>& app_args, const std::string& png) {
    std::vector<std::string> argv = {STRATA_CLI, "run", "--remote", renderer.address(), "--",
                                     std::string(STRATA_BIN_DIR) + "/gles2_shaders"};
    argv.insert(argv.end(), app_args.begin(), app_args.end());
    argv.insert(argv.end(), {"--output", png});
    pid_t pid = fork();
    if (pid == 0) {
      if (std::freopen((png + ".log").c_str(), "w", stderr) != nullptr) dup2(fileno(stderr), STDOUT_FILENO);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    return pid;
  };
  const pid_t doomed = spawn({"--frames", "1000000", "--size", "96x72"}, ScratchPath("eight-killed.png"));
  std::vector<std::pair<pid_t, std::string>> clients;
  for (int i = 0; i < 7; ++i) {
    const std::string png = ScratchPath("eight-" + std::to_string(i) + ".png");
    clients.emplace_back(spawn({"--frames", "40", "--size", "96x72"}, png), png);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  kill(doomed, SIGKILL);
  waitpid(doomed, nullptr, 0);
  strata::test::Image expected;
  std::string error;
  ASSERT_TRUE(strata::test::ReadPng(native_png, &expected, &error)) << error;
  for (const auto& [pid, png] : clients) {
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << png << ": status " << status << "\n"
                                                               << renderer.Log();
    strata::test::Image image;
    ASSERT_TRUE(strata::test::ReadPng(png, &image, &error)) << error;
    EXPECT_EQ(strata::test::DifferingBytes(image, expected), 0u) << png << " differs from the native frame";
  }
  // Still serving after all that.
  ProcessResult after = RunApp("gles2_shaders", ScratchPath("eight-after.png"), {"--remote", renderer.address()});
  EXPECT_EQ(after.exit_code, 0) << after.err << renderer.Log();
  // Each client's leaving is logged once the renderer has read its end: wait for all nine.
  const auto count = [](const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = 0; (at = text.find(what, at)) != std::string::npos; ++at) ++n;
    return n;
  };
  for (int waited_ms = 0; waited_ms < 10000 && count(renderer.Log(), "client left: ") < 9; waited_ms += 20) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  renderer.Stop();
  const std::string log = renderer.Log();
  size_t joined = 0;
  for (size_t at = 0; (at = log.find("client joined: ", at)) != std::string::npos; ++at) ++joined;
  EXPECT_EQ(joined, 9u) << log;
  // The killed client is told apart from the eight that exited.
  const size_t left = log.find("client left: gles2_shaders (pid " + std::to_string(doomed));
  ASSERT_NE(left, std::string::npos) << log;
  const std::string doomed_line = log.substr(left, log.find('\n', left) - left);
  EXPECT_NE(doomed_line.find("disconnected without a goodbye"), std::string::npos) << doomed_line;
  EXPECT_EQ(count(log, "): normal end ("), 8u) << log;
}

// A remote session is a trace: `--record` writes each client's stream with
// the frame read back at every swap and the driver strings of each context,
// and `strata replay --verify` draws the same frames from the file.
TEST(Remote, RecordedSessionReplaysWithVerify) {
  const std::string dir = ScratchPath("recorded");
  std::filesystem::create_directories(dir);
  {
    Renderer renderer({"--record", dir});
    ProcessResult app = RunApp("gles3_instanced", ScratchPath("recorded.png"), {"--remote", renderer.address()});
    ASSERT_EQ(app.exit_code, 0) << app.err << renderer.Log();
  }
  std::vector<std::string> traces;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) traces.push_back(entry.path());
  ASSERT_EQ(traces.size(), 1u);
  ProcessResult replay = RunProcess({STRATA_CLI, "replay", "--verify", traces[0]});
  EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("verify: all 10 framebuffers match the trace"), std::string::npos) << replay.out
                                                                                              << replay.err;
  // The driver each context ran on, as a traced program's file has it (a
  // replay on another driver leaves that driver's own answers out of --strict).
  ProcessResult dump = RunProcess({STRATA_CLI, "dump", traces[0]});
  EXPECT_NE(dump.out.find(": GL_VENDOR="), std::string::npos) << dump.out.substr(0, 4000);
  EXPECT_NE(dump.out.find("GL_RENDERER=llvmpipe"), std::string::npos) << dump.out.substr(0, 4000);
}

// Three client threads at once, two of their contexts in one share group (a
// texture made on one thread drawn on another): one connection and host
// thread each, one session, nothing refused.
TEST(Remote, ThreadsWithSharedContexts) {
  Renderer renderer;
  ProcessResult r = RunProcess({STRATA_CLI, "run", "--remote", renderer.address(), "--",
                                std::string(STRATA_BIN_DIR) + "/threaded_app", "20"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err << renderer.Log();
  EXPECT_NE(r.out.find("3 threads rendered 20 frames each"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("strata remote: error"), std::string::npos) << r.err;
  renderer.Stop();
  const std::string log = renderer.Log();
  EXPECT_EQ(log.find("closing "), std::string::npos) << log;
  size_t joined = 0;
  for (size_t at = 0; (at = log.find("client joined: ", at)) != std::string::npos; ++at) ++joined;
  EXPECT_EQ(joined, 1u) << "one session for the process's three threads\n" << log;
}

}  // namespace

// Installed with `cmake --install`, the client driver is a glvnd EGL vendor:
// an unmodified program on the system's libEGL (no Strata loader, no
// LD_LIBRARY_PATH) renders through the renderer when STRATA_REMOTE is set, on
// Mesa when it is not, and on Mesa with one warning when the renderer is
// missing and STRATA_REMOTE_FALLBACK=native.
TEST(Remote, InstalledAsAGlvndVendor) {
  const std::string prefix = ScratchPath("glvnd-install");
  ProcessResult install = RunProcess({STRATA_CMAKE, "--install", STRATA_BUILD_DIR, "--prefix", prefix});
  ASSERT_EQ(install.exit_code, 0) << install.out << install.err;
  const std::string vendor_json = prefix + "/share/glvnd/egl_vendor.d/10_strata_remote.json";
  ASSERT_TRUE(std::filesystem::exists(vendor_json)) << install.out;
  const std::string mesa_json = "/usr/share/glvnd/egl_vendor.d/50_mesa.json";
  ASSERT_TRUE(std::filesystem::exists(mesa_json)) << "Mesa's glvnd vendor (libegl-mesa0) is not installed";
  const std::string app = std::string(STRATA_BIN_DIR) + "/gles2_shaders";
  auto run = [&](const std::map<std::string, std::string>& env, const std::string& png) {
    strata::test::ProcessOptions options;
    options.timeout_seconds = 120;
    options.set_env = env;
    options.unset_env = {"LD_LIBRARY_PATH", "LD_PRELOAD"};
    return RunProcess({app, "--frames", "10", "--size", "160x120", "--output", png}, options);
  };
  const std::string native_png = ScratchPath("glvnd-native.png");
  ProcessResult native = run({}, native_png);
  ASSERT_EQ(native.exit_code, 0) << native.err;

  Renderer renderer;
  const std::string remote_png = ScratchPath("glvnd-remote.png");
  ProcessResult remote =
      run({{"__EGL_VENDOR_LIBRARY_FILENAMES", vendor_json}, {"STRATA_REMOTE", renderer.address()}}, remote_png);
  ASSERT_EQ(remote.exit_code, 0) << remote.err << renderer.Log();
  EXPECT_NE(renderer.Log().find("client joined: gles2_shaders"), std::string::npos) << renderer.Log();
  Image images[2];
  std::string error;
  ASSERT_TRUE(strata::test::ReadPng(native_png, &images[0], &error)) << error;
  ASSERT_TRUE(strata::test::ReadPng(remote_png, &images[1], &error)) << error;
  ASSERT_EQ(images[0].width, images[1].width);
  EXPECT_GT(strata::test::CountColours(images[0]), 50);
  EXPECT_EQ(strata::test::DifferingBytes(images[0], images[1]), 0u);

  // Both vendors installed, no STRATA_REMOTE: ours declines, Mesa renders.
  const std::string both = vendor_json + ":" + mesa_json;
  const size_t joins_before = renderer.Log().find("client joined", renderer.Log().find("client joined") + 1);
  ProcessResult declined = run({{"__EGL_VENDOR_LIBRARY_FILENAMES", both}}, ScratchPath("glvnd-declined.png"));
  ASSERT_EQ(declined.exit_code, 0) << declined.err;
  EXPECT_EQ(declined.err.find("strata"), std::string::npos) << declined.err;
  EXPECT_EQ(renderer.Log().find("client joined", renderer.Log().find("client joined") + 1), joins_before);

  // No renderer at the address: without the fallback eglInitialize fails with
  // one line; with it, Mesa renders after one warning.
  const std::string nobody = UniqueAddress("nobody");
  ProcessResult missing =
      run({{"__EGL_VENDOR_LIBRARY_FILENAMES", both}, {"STRATA_REMOTE", nobody}}, ScratchPath("glvnd-missing.png"));
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("strata remote: error: cannot connect to renderer at " + nobody), std::string::npos)
      << missing.err;
  const std::string fallback_png = ScratchPath("glvnd-fallback.png");
  ProcessResult fallback = run({{"__EGL_VENDOR_LIBRARY_FILENAMES", both}, {"STRATA_REMOTE", nobody},
                                {"STRATA_REMOTE_FALLBACK", "native"}},
                               fallback_png);
  ASSERT_EQ(fallback.exit_code, 0) << fallback.err;
  EXPECT_NE(fallback.err.find("rendering on the local driver instead"), std::string::npos) << fallback.err;
  Image fallback_image;
  ASSERT_TRUE(strata::test::ReadPng(fallback_png, &fallback_image, &error)) << error;
  EXPECT_EQ(strata::test::DifferingBytes(images[0], fallback_image), 0u);
}

// `strata run --remote` of a program started by a launcher that resets the
// library path: the program reaches EGL only through the system's libEGL,
// which loads Strata's loader as its first vendor, and the loader takes the
// remote driver below it, as through the library path.
// Catches: a glvnd route that renders locally, or not at all, under --remote.
TEST(Remote, ProgramReachingEglOnlyThroughGlvndRendersRemotely) {
  Renderer renderer;
  const std::string native_png = ScratchPath("glvnd-route-native.png");
  const std::string remote_png = ScratchPath("glvnd-route-remote.png");
  ProcessResult native = RunApp("gles2_shaders", native_png, {});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  strata::test::ProcessOptions options;
  options.timeout_seconds = 120;
  ProcessResult remote = RunProcess({STRATA_CLI, "run", "--remote", renderer.address(), "--log", "info", "--", "env",
                                     "-u", "LD_LIBRARY_PATH", "-u", "LD_AUDIT", std::string(STRATA_BIN_DIR) +
                                     "/gles2_shaders", "--frames", "10", "--size", "160x120", "--output", remote_png},
                                    options);
  ASSERT_EQ(remote.exit_code, 0) << remote.out << remote.err << "\nrenderer:\n" << renderer.Log();
  EXPECT_NE(remote.err.find("libstrata_remote.so (through glvnd)"), std::string::npos) << remote.err;
  EXPECT_NE(renderer.Log().find("client joined: gles2_shaders"), std::string::npos) << renderer.Log();
  Image images[2];
  std::string error;
  ASSERT_TRUE(strata::test::ReadPng(native_png, &images[0], &error)) << error;
  ASSERT_TRUE(strata::test::ReadPng(remote_png, &images[1], &error)) << error;
  ASSERT_EQ(images[0].width, images[1].width);
  EXPECT_EQ(strata::test::DifferingBytes(images[0], images[1]), 0u);
}

// A window resized between frames: after one swap the surface has the
// window's new size and renders to its far corner, as natively; also when
// the frame's first clear comes before anything asks the surface's size
// (remote/window_sizes.h: the size is looked at before the first draw,
// clear or blit after a swap).
TEST(Remote, ResizedWindowGetsASurfaceOfTheNewSize) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/resizing_window";
  ProcessResult native = RunProcess({"xvfb-run", "-a", app});
  ASSERT_EQ(native.exit_code, 0) << native.out << native.err;
  ASSERT_NE(native.out.find("resized: ok"), std::string::npos) << native.out;
  Renderer renderer;
  ProcessResult remote = RunProcess({"xvfb-run", "-a", STRATA_CLI, "run", "--remote", renderer.address(), "--", app});
  EXPECT_EQ(remote.exit_code, 0) << remote.out << remote.err << renderer.Log();
  EXPECT_NE(remote.out.find("surface 240x180 (window 240x180)"), std::string::npos) << remote.out;
  EXPECT_NE(remote.out.find("resized: ok"), std::string::npos) << remote.out;
}

// A window's frames as the X server shows them: four quadrants of four
// colours, right way up and in the right channels, natively and through a
// renderer over each way a frame travels: read back straight into the ring
// (a 320x240 window), copied over a socket, and over the ring when the frame
// is larger than the ring itself (sent in pieces as the client reads).
TEST(Remote, WindowShowsTheRenderersFramesRightWayUp) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/quadrant_window";
  const std::vector<std::string> xvfb = {"xvfb-run", "-a", "-s", "-screen 0 2200x2200x24"};
  auto with = [&](std::vector<std::string> argv) {
    argv.insert(argv.begin(), xvfb.begin(), xvfb.end());
    return argv;
  };
  ProcessResult native = RunProcess(with({app}));
  ASSERT_EQ(native.exit_code, 0) << native.out << native.err;
  ASSERT_NE(native.out.find("window shows the quadrants"), std::string::npos) << native.out;
  Renderer renderer;
  struct Way {
    const char* name;
    std::map<std::string, std::string> env;
    std::string size;
  };
  const Way ways[] = {
      {"ring, read back in place", {}, "320x240"},
      {"socket", {{"STRATA_REMOTE_RING", "off"}}, "320x240"},
      {"ring, a frame larger than the ring", {}, "2100x2100"},
  };
  for (const Way& way : ways) {
    SCOPED_TRACE(way.name);
    ProcessResult remote = RunProcess(
        with({STRATA_CLI, "run", "--remote", renderer.address(), "--", app, "--size", way.size}),
        strata::test::WithEnv(way.env));
    EXPECT_EQ(remote.exit_code, 0) << remote.out << remote.err << renderer.Log();
    EXPECT_NE(remote.out.find("window shows the quadrants"), std::string::npos) << remote.out;
    EXPECT_EQ(remote.err.find("strata remote: error"), std::string::npos) << remote.err;
  }
  EXPECT_EQ(renderer.Log().find("cannot read the frame back"), std::string::npos) << renderer.Log();
}

// `app` through `renderer` with the stats line on and `name`=`value` set.
ProcessResult RunRemoteWithStats(const Renderer& renderer, const std::string& app, const std::string& name,
                                 const std::string& value) {
  strata::test::ProcessOptions options;
  options.timeout_seconds = 120;
  options.set_env = {{"STRATA_REMOTE_STATS", "1"}, {name, value}};
  return RunProcess({STRATA_CLI, "run", "--remote", renderer.address(), "--", app}, options);
}

// Runs `app` through `renderer` with the client's shadow on and off
// (STRATA_REMOTE_SHADOW: held calls, client names and answers): its output
// must be `native_out` both ways (`on_says`, `off_says` name each way in a
// failure). The round trips each run took: {on, off}; -1 where unknown.
std::array<long, 2> RoundTripsWithShadowAndWithout(const Renderer& renderer, const std::string& app,
                                                   const std::string& native_out, const char* on_says,
                                                   const char* off_says) {
  static const std::regex round_trips(R"((\d+) round trips)");
  std::array<long, 2> trips = {-1, -1};
  for (const bool on : {true, false}) {
    ProcessResult remote = RunRemoteWithStats(renderer, app, "STRATA_REMOTE_SHADOW", on ? "on" : "off");
    EXPECT_EQ(remote.exit_code, 0) << remote.err << renderer.Log();
    EXPECT_EQ(remote.out, native_out) << (on ? on_says : off_says);
    std::smatch m;
    if (std::regex_search(remote.err, m, round_trips)) {
      trips[on ? 0 : 1] = std::stol(m[1]);
    } else {
      ADD_FAILURE() << "no round trips in the statistics: " << remote.err;
    }
  }
  return trips;
}

// STRATA_REMOTE_STATS=1: one line at exit with the frames, the calls that
// went out, bytes both ways, round trips, flushes and the calls that stayed
// on the client, in all and per frame, and the transport.
TEST(Remote, StatsSayWhatWentOverTheWire) {
  Renderer renderer;
  strata::test::ProcessOptions options;
  options.timeout_seconds = 120;
  options.set_env = {{"STRATA_REMOTE_STATS", "1"}};
  ProcessResult r = RunProcess({STRATA_CLI, "run", "--remote", renderer.address(), "--",
                                std::string(STRATA_BIN_DIR) + "/gles2_shaders", "--frames", "10", "--size", "64x64",
                                "--output", ScratchPath("stats.png")},
                               options);
  ASSERT_EQ(r.exit_code, 0) << r.err << renderer.Log();
  static const std::regex line(
      R"(strata remote: 10 frames, (\d+) calls sent \(\d+ in word runs\), ([0-9.]+) KiB sent, ([0-9.]+) KiB received, )"
      R"((\d+) round trips, )"
      R"((\d+) flushes, (\d+) calls absorbed on the client; per frame: ([0-9.]+) calls.*; over a shared-memory ring)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, line)) << r.err;
  const long calls = std::stol(m[1]), round_trips = std::stol(m[4]), flushes = std::stol(m[5]);
  // Every frame draws (at least a clear, a draw and a swap); the program's
  // setup queries state, and its glReadPixels of the frame waits for an answer.
  EXPECT_GE(calls, 30);
  EXPECT_GE(round_trips, 2);
  EXPECT_GE(flushes, 10);  // each swap sends the frame's batch
  EXPECT_GT(std::stod(m[3]), 64.0 * 64 * 4 / 1024 - 1) << "the read-back frame came back";
  EXPECT_NEAR(std::stod(m[7]), calls / 10.0, 0.1);
}

// Runs `app` through a renderer with the client holding calls back and with
// every call sent as it comes (STRATA_REMOTE_SHADOW=off): the output must be
// native's both ways, and more than `held_more_than` calls must stay on the
// client when holding (`why`), none when not.
void ExpectHoldingChangesNothing(const std::string& app, const std::string& native_out, long held_more_than,
                                 const char* why) {
  Renderer renderer;
  static const std::regex absorbed(R"(, (\d+) calls absorbed on the client)");
  for (const bool held : {true, false}) {
    ProcessResult remote = RunRemoteWithStats(renderer, app, "STRATA_REMOTE_SHADOW", held ? "on" : "off");
    ASSERT_EQ(remote.exit_code, 0) << remote.err << renderer.Log();
    EXPECT_EQ(remote.out, native_out) << (held ? "held back" : "sent as they come");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(remote.err, m, absorbed)) << remote.err;
    if (held)
      EXPECT_GT(std::stol(m[1]), held_more_than) << why;
    else
      EXPECT_EQ(std::stol(m[1]), 0);
  }
}

// The state calls the client holds back or drops (remote/deferred_state.h)
// change nothing an app can see: held_state's errors, queries and frame
// checksums are the same natively, through a renderer with calls held back,
// and with every call sent as it comes (STRATA_REMOTE_SHADOW=off). Breaks when
// a held call is lost, sent after a call that reads it, or dropped while its
// error should show (an attribute index past the limit); and, through the
// absorbed count, when nothing is held.
TEST(Remote, HeldBackCallsChangeNothingAnAppCanSee) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/held_state";
  ProcessResult native = RunProcess({app});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  ASSERT_NE(native.out.find("invalid capability: error 0x0500"), std::string::npos) << native.out;
  ExpectHoldingChangesNothing(app, native.out, 500,
                              "the toggling loop's 404 calls and the attribute loop's 150 should mostly stay on "
                              "the client");
}

// Textures made, bound, set up and deleted before anything reads them, and
// texture bindings, held back (remote/deferred_textures.h): held_textures'
// errors, glIsTexture, bindings on two units, a queried parameter and frames
// drawn with textures set up while held are the same natively, held back and
// sent as they come. Breaks when a held texture never reaches the renderer
// though something sees it (a frame without its filter or wrap, glIsTexture
// false after a bind), when a held binding is lost or stale after a deletion,
// or when an invalid call is held and its error lost; through the absorbed
// count, when the make-and-drop loop goes over the wire.
TEST(Remote, HeldBackTexturesChangeNothingAnAppCanSee) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/held_textures";
  ProcessResult native = RunProcess({app});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  ASSERT_NE(native.out.find("wrong target: error 0x0502"), std::string::npos) << native.out;
  ASSERT_NE(native.out.find("invalid filter: error 0x0500"), std::string::npos) << native.out;
  ExpectHoldingChangesNothing(app, native.out, 2400,
                              "the 500 textures made and dropped (2,500 calls) should stay on the client");
}

// Every extension alias of a draw that Mesa offers (tests/trace/alias_draws_app.cpp:
// instanced, base-instance, base-vertex and multi-draw entry points drawing
// from client-memory vertex arrays and index arrays) in a GLES 2 and a GLES 3
// context: through a renderer every frame's pixels are the native ones.
// (Indices in an element buffer with client-side arrays, which the client
// cannot see, are docs/remote.md's known limit, not drawn here.)
// Catches: an alias whose client-side arrays or index arrays the client does
// not send before the draw (its draw trait not followed), so the renderer
// refuses it or draws from the wrong bytes.
TEST(Remote, DrawsThroughExtensionAliasesMatchNative) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/alias_draws_app";
  Renderer renderer;
  for (const char* version : {"2", "3"}) {
    SCOPED_TRACE(std::string("GLES ") + version);
    ProcessResult native = RunProcess({app, "--gles", version, "--frames", "3"});
    ASSERT_EQ(native.exit_code, 0) << native.out << native.err;
    ASSERT_NE(native.out.find("alias glMultiDrawElementsBaseVertexEXT"), std::string::npos) << native.out;
    ASSERT_NE(native.out.find("frame 2 "), std::string::npos) << native.out;
    strata::test::ProcessOptions options;
    options.timeout_seconds = 120;
    ProcessResult remote =
        RunProcess({STRATA_CLI, "run", "--remote", renderer.address(), "--", app, "--gles", version, "--frames", "3"},
                   options);
    ASSERT_EQ(remote.exit_code, 0) << remote.out << remote.err << renderer.Log();
    EXPECT_EQ(remote.out, native.out) << "the frames' checksums differ from the native ones";
  }
  EXPECT_EQ(renderer.Log().find("no memory record"), std::string::npos) << renderer.Log();
}

// A draw reading one vertex array from a buffer and one from client memory,
// the buffer left bound (tests/trace/mixed_arrays_app.cpp): through a
// renderer, whose executor runs the binds through its generated handlers,
// every frame's pixel is the native one.
// Catches: a handler that binds without the executor following the binding,
// so that the client array is put in place with the app's buffer bound.
TEST(Remote, ClientArraysBesideABoundBufferMatchNative) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/mixed_arrays_app";
  Renderer renderer;
  ProcessResult native = RunProcess({app, "--frames", "4"});
  ASSERT_EQ(native.exit_code, 0) << native.out << native.err;
  ASSERT_NE(native.out.find("frame 3: "), std::string::npos) << native.out;
  ProcessResult remote = RunProcess({STRATA_CLI, "run", "--remote", renderer.address(), "--", app, "--frames", "4"});
  ASSERT_EQ(remote.exit_code, 0) << remote.out << remote.err << renderer.Log();
  EXPECT_EQ(remote.out, native.out) << "the frames' pixels differ from the native ones";
}

// Buffers kept mapped (GL_EXT_buffer_storage, persistent and coherent) and
// written between draws without unmapping (tests/remote/persistent_buffers.cpp):
// through a renderer every frame's pixels are the native ones, and the
// frames differ from one another (the writes move what is drawn).
// Catches: writes into a persistent mapping not sent before a draw (the
// renderer draws last frame's vertices, or zeros), only part of what
// changed sent, a mapping written once never sent.
TEST(Remote, WritesIntoPersistentMappingsReachEachDraw) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/persistent_buffers";
  Renderer renderer;
  ProcessResult native = RunProcess({app});
  ASSERT_EQ(native.exit_code, 0) << native.out << native.err;
  ASSERT_NE(native.out.find("unmapped: 1, error 0x0000"), std::string::npos) << native.out;
  std::set<std::string> checksums;
  const std::regex frame("frame [0-9]+: error 0x0000, checksum ([0-9a-f]+)");
  for (auto it = std::sregex_iterator(native.out.begin(), native.out.end(), frame); it != std::sregex_iterator(); ++it) {
    checksums.insert((*it)[1]);
  }
  EXPECT_EQ(checksums.size(), 12u) << "every frame draws something else natively:\n" << native.out;
  ProcessResult remote = RunProcess({STRATA_CLI, "run", "--remote", renderer.address(), "--", app});
  ASSERT_EQ(remote.exit_code, 0) << remote.out << remote.err << renderer.Log();
  EXPECT_EQ(remote.out, native.out) << "the frames' pixels differ from the native ones";
}

// A buffer mapped for reading given new storage without being unmapped,
// then a wait for the GPU, whose reply carries every readable mapping's
// bytes (respecified_mapping). Catches: a mapping the renderer keeps after
// its buffer's new storage (the generated handler of glBufferData running
// it without Execute's bookkeeping): the reply then copies storage the
// driver freed, and the worker dies.
TEST(Remote, NewStorageForAMappedBufferEndsItsMapping) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/respecified_mapping";
  ProcessResult native = RunProcess({app});
  ASSERT_EQ(native.exit_code, 0) << native.out << native.err;
  ASSERT_NE(native.out.find("round 4: read 125, new storage error 0x0000"), std::string::npos) << native.out;
  Renderer renderer;
  ProcessResult remote = RunProcess({STRATA_CLI, "run", "--remote", renderer.address(), "--", app});
  ASSERT_EQ(remote.exit_code, 0) << remote.out << remote.err << renderer.Log();
  EXPECT_EQ(remote.out, native.out);
}

// Null pointers where calls need arrays (null_arrays --null): natively the
// driver reads address 0; through a renderer each such call is refused with
// one line naming it, while the nulls GL gives a meaning (glBufferData
// without data, an array of no values, no label) still run. Catches: a null
// array or string handed to the driver (the worker dies, the client exits
// 69), a refusal of a meaningful null (the buffer has no storage or keeps its
// label, the frame differs).
TEST(Remote, ANullArrayIsRefusedAndAMeaningfulNullRuns) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/null_arrays";
  ProcessResult native = RunProcess({app});
  ASSERT_EQ(native.exit_code, 0) << native.out << native.err;
  ASSERT_NE(native.out.find("buffer made without data: 64 bytes, error 0x0000"), std::string::npos) << native.out;
  ASSERT_NE(native.out.find("label after a null one: '' (0 characters), error 0x0000"), std::string::npos)
      << native.out;
  Renderer renderer;
  ProcessResult remote = RunProcess({STRATA_CLI, "run", "--remote", renderer.address(), "--", app, "--null"});
  ASSERT_EQ(remote.exit_code, 0) << remote.out << remote.err << renderer.Log();
  EXPECT_EQ(remote.out, native.out) << "the refused calls changed nothing";
  EXPECT_TRUE(renderer.WaitForLog("client left", 10)) << renderer.Log();
  const std::string log = renderer.Log();
  for (const char* refused : {"glUniform4fv: 1 call not run ('value' is a null pointer, its arguments need 16 bytes)",
                              "glUniformMatrix4fv: 1 call not run ('value' is a null pointer, its arguments need 64",
                              "glBufferSubData: 1 call not run ('data' is a null pointer, its arguments need 64",
                              "glPushDebugGroupKHR: 1 call not run ('message' is a null pointer where the call "
                              "needs a string)"}) {
    EXPECT_NE(log.find(refused), std::string::npos) << refused << "\n" << log;
  }
  EXPECT_EQ(log.find("glBufferData:"), std::string::npos) << log;
  EXPECT_EQ(log.find("glObjectLabelKHR:"), std::string::npos) << log;
}

// A buffer write whose end passes INT64_MAX (null_arrays --wrapping-range:
// glBufferSubData at INT64_MAX - 8): drivers add offset and size unchecked,
// and the wrapped sum passes their bound check. Through a renderer the call
// is not run, the worker lives, and the app's glGetError says
// GL_INVALID_VALUE, as the GL answers a range past a buffer's end.
// Catches: the range check skipped by the generated handler or by Execute
// (the worker writes far past the buffer and dies, or the error is 0).
TEST(Remote, ABufferRangeWhoseEndWrapsIsInvalidValue) {
  Renderer renderer;
  ProcessResult remote = RunProcess({STRATA_CLI, "run", "--remote", renderer.address(), "--",
                                     std::string(STRATA_BIN_DIR) + "/null_arrays", "--wrapping-range"});
  ASSERT_EQ(remote.exit_code, 0) << remote.out << remote.err << renderer.Log();
  EXPECT_NE(remote.out.find("a range whose end wraps: error 0x0501"), std::string::npos) << remote.out;
  EXPECT_NE(remote.out.find("frame: "), std::string::npos) << "the app went on: " << remote.out;
  EXPECT_TRUE(renderer.WaitForLog("client left", 10)) << renderer.Log();
  EXPECT_NE(renderer.Log().find("glBufferSubData: 1 call not run (its byte range at 'offset' ends past the "
                                "largest offset there is: GL_INVALID_VALUE)"),
            std::string::npos)
      << renderer.Log();
}

// A launcher shaped like an app zygote (forking_app): it initialises EGL
// through the renderer, then forks a child that only queries what it
// inherited and one that opens a display of its own and draws, before it
// draws itself. Each child's calls go to a session of its own; the parent's
// ring and socket are never written by a child, so the parent draws on.
// Catches: a forked child that keeps its parent's connection (both
// processes' calls in one ring: the renderer reads garbage and ends the
// parent), or one that can no longer reach the renderer at all.
TEST(Remote, AForkedChildGetsASessionOfItsOwn) {
  Renderer renderer;
  ProcessResult r = RunProcess({STRATA_CLI, "run", "--remote", renderer.address(), "--",
                                std::string(STRATA_BIN_DIR) + "/forking_app"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err << renderer.Log();
  EXPECT_EQ(r.err.find("corrupted"), std::string::npos) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(child inheritor (\d+)\nchild forked-app (\d+))"))) << r.out;
  const std::string log = renderer.Log();
  for (const std::string& child : {m[1].str(), m[2].str()}) {
    EXPECT_NE(log.find("client joined: forking_app (pid " + child + ","), std::string::npos)
        << "child " << child << " has a session of its own:\n" << log;
  }
  EXPECT_NE(log.find("client left: forking_app (pid " + m[2].str() + ", uid " + std::to_string(getuid()) +
                     "): normal end"),
            std::string::npos)
      << log;
}

// A launcher killed while a child it forked lives on (forking_app --orphan:
// the child sleeps 20 s): the child closed its copies of the launcher's
// connection descriptors at the fork, so the renderer sees the launcher's
// end at once and frees its worker. Catches: a child that keeps its
// parent's sockets open (the renderer hears nothing until the child ends).
TEST(Remote, AKilledParentsEndIsSeenWhileItsForkedChildLives) {
  Renderer renderer;
  ProcessResult r = RunProcess({STRATA_CLI, "run", "--remote", renderer.address(), "--",
                                std::string(STRATA_BIN_DIR) + "/forking_app", "--orphan"});
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(child orphan (\d+))"))) << r.out << r.err;
  const pid_t orphan = std::stoi(m[1].str());
  const std::regex left(R"(client left: forking_app \(pid \d+, uid \d+\): disconnected without a goodbye)");
  bool seen = false;
  for (int waited_ms = 0; waited_ms < 5000 && !seen; waited_ms += 20) {
    const std::string log = renderer.Log();
    seen = std::regex_search(log, left) && log.find("is back in the pool") != std::string::npos;
    if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const bool orphan_lived = kill(orphan, 0) == 0;
  kill(orphan, SIGKILL);
  EXPECT_TRUE(orphan_lived) << "the child was to sleep for 20 s";
  EXPECT_TRUE(seen) << "the launcher's end and its worker free, within 5 s while its child lives:\n"
                    << renderer.Log();
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
}

// State queries the client answers from its cache (remote/query_cache.h):
// saved_state queries ~25 pieces of state twice a frame around drawing of its
// own, after changing them in every way the cache must notice (each setter, a
// unit and a vertex array switch, deleting bound objects, invalid calls that
// change nothing). Its output, every answer and error, must be native's with
// the cache and without (STRATA_REMOTE_SHADOW=off), and the cache must take
// most of the round trips away.
// Catches: a stale answer (a call that changes cached state without making the
// client forget it), an answer learned from a call that failed, and a cache
// that answers nothing.
TEST(Remote, SavedAndRestoredStateQueriesMatchNative) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/saved_state";
  ProcessResult native = RunProcess({app});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  ASSERT_NE(native.out.find("frame 7: "), std::string::npos) << native.out;
  Renderer renderer;
  const std::array<long, 2> trips =
      RoundTripsWithShadowAndWithout(renderer, app, native.out, "answered from the cache", "every query asked");
  EXPECT_LT(trips[0] * 3, trips[1]) << "round trips with the cache: " << trips[0] << ", without: " << trips[1];
}

// glGetError after calls whose errors the client decides (errors= traits,
// api/error_checks.py): checked_errors calls each of them with valid and
// invalid arguments, a glGetError after each. Its output, every error, must be
// native's with the client's answers and without (STRATA_REMOTE_SHADOW=off),
// and the valid calls' 360 checks must not wait for the renderer (but the
// first, after an error).
// Catches: a check that passes an argument the driver refuses (an error lost),
// an invalid call that leaves the client sure of GL_NO_ERROR, a limit taken
// above what the driver has, and checks that answer nothing.
TEST(Remote, ErrorsOfCallsTheClientChecksMatchNative) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/checked_errors";
  ProcessResult native = RunProcess({app});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  ASSERT_NE(native.out.find("glBlendFunc invalid: error 0x0500"), std::string::npos) << native.out;
  ASSERT_NE(native.out.find("glVertexAttrib1f invalid: error 0x0501"), std::string::npos) << native.out;
  Renderer renderer;
  const std::array<long, 2> trips = RoundTripsWithShadowAndWithout(
      renderer, app, native.out, "errors answered on the client", "every glGetError asked");
  EXPECT_GE(trips[1] - trips[0], 359) << "round trips with the checks: " << trips[0] << ", without: " << trips[1];
}

// Objects the client names itself (remote/client_names.h) and queries it
// answers itself (remote/client_answers.cpp): client_names' queries of
// bindings, attachments and attached shaders give back the app's names, and
// its limits, strings and errors are the same, natively, with the client's
// own names and answers, and without (STRATA_REMOTE_SHADOW=off). Its program
// names differ between client and host (glCreateShaderProgramv makes a hidden
// shader there), so this breaks when the renderer does not map names both
// ways (object labels too, by the kind their identifier names, and a deleted
// name never reaching the object the host gave its number to); and, through
// the round trips, when creating an object or asking a limit again still
// waits for the renderer.
TEST(Remote, ClientMadeNamesAndAnswersMatchNative) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/client_names";
  ProcessResult native = RunProcess({app});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  ASSERT_EQ(native.out.find(": NO"), std::string::npos) << native.out;
  const std::string dir = ScratchPath("client-names");
  std::filesystem::create_directories(dir);
  Renderer renderer({"--record", dir});
  const std::array<long, 2> trips = RoundTripsWithShadowAndWithout(
      renderer, app, native.out, "names made on the client", "names made by the renderer");
  // Over 200 objects made, and 100 rounds of five queries (one glGetError of
  // each pair must ask), each of which would wait for the renderer.
  EXPECT_LT(trips[0] + 200 + 400, trips[1]) << "names made on the client: " << trips[0] << " round trips, by the renderer: "
                                      << trips[1];
  // The recordings hold the client's names, which the replaying host names
  // its own way again: every answer and error the replay compares agrees.
  renderer.Stop();
  size_t replayed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ProcessResult replay = RunProcess({STRATA_CLI, "replay", "--strict", entry.path()});
    EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;
    EXPECT_NE(replay.out.find("calls compared with the recording, all agree"), std::string::npos) << replay.out;
    ++replayed;
  }
  EXPECT_EQ(replayed, 2u);
}

// What piglit's egl_khr_gl_renderbuffer_image-clear-shared-image,
// egl-invalid-attr and ext_window_rectangles tests check, which llvmpipe runs
// only in this GLES form (remote/piglit_cases.cpp): a renderbuffer shared
// through an EGL image, an invalid image attribute, window rectangles (or
// the driver's errors without them) give the native output through a
// renderer, with and without the client's own names and answers, and the
// recorded session and a trace of the program replay with every compared
// call agreeing and every call run.
// Catches: the renderbuffer of an EGL image not mapped to the host's, an
// attribute list the client or executor changes, a call with no capture rule
// (glWindowRectanglesEXT's rectangles) skipped by the renderer or the replay.
TEST(Remote, PiglitCasesMatchNativeThroughARendererAndReplayed) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/piglit_cases";
  ProcessResult native = RunProcess({app});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  ASSERT_NE(native.out.find("cleared the second, the first reads 0000ffff, error 0x0000"), std::string::npos)
      << native.out;
  ASSERT_NE(native.out.find("image with an invalid attribute: none, EGL error 0x300c"), std::string::npos)
      << native.out;
  const std::string dir = ScratchPath("piglit-cases");
  std::filesystem::create_directories(dir);
  {
    Renderer renderer({"--record", dir});
    for (const char* shadow : {"on", "off"}) {
      ProcessResult remote = RunRemoteWithStats(renderer, app, "STRATA_REMOTE_SHADOW", shadow);
      ASSERT_EQ(remote.exit_code, 0) << remote.err << renderer.Log();
      EXPECT_EQ(remote.out, native.out) << "STRATA_REMOTE_SHADOW=" << shadow;
    }
    EXPECT_EQ(renderer.Log().find("closing "), std::string::npos) << renderer.Log();
  }
  std::vector<std::string> traces;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) traces.push_back(entry.path());
  const std::string traced = ScratchPath("piglit-cases.strace");
  ProcessResult trace = RunProcess({STRATA_CLI, "trace", "-o", traced, "--", app});
  ASSERT_EQ(trace.out, native.out) << trace.err;
  traces.push_back(traced);
  ASSERT_EQ(traces.size(), 3u);
  for (const std::string& file : traces) {
    ProcessResult replay = RunProcess({STRATA_CLI, "replay", "--strict", file});
    EXPECT_EQ(replay.exit_code, 0) << file << "\n" << replay.out << replay.err;
    EXPECT_NE(replay.out.find("calls compared with the recording, all agree"), std::string::npos)
        << file << "\n" << replay.out << replay.err;
    EXPECT_EQ((replay.out + replay.err).find("not run"), std::string::npos) << file << "\n" << replay.out << replay.err;
  }
}

// Calls with large blobs (remote/large_uploads.cpp: texture images, buffer
// data, client-side indices, a long shader source, 20,000 names each way)
// send them out of line (stream/bulk_blobs.h); over the ring the renderer
// hands images and buffer data to the driver where they lie and copies the
// rest first. The output is the same natively, over the ring and over the
// socket. Breaks when a segment is matched to the wrong blob or cut, when a
// copied blob (names, indices, source) is read from the wrong place, and,
// through the stats line, when large blobs go through the batch again. (That
// a view keeps its bytes until released is transport.Ring's to show.)
TEST(Remote, LargeBlobsGoOutOfLineAndChangeNothing) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/large_uploads";
  ProcessResult native = RunProcess({app});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  ASSERT_EQ(native.out.find("NO"), std::string::npos) << native.out;
  ASSERT_NE(native.out.find("round 39: frame"), std::string::npos) << native.out;
  Renderer renderer;
  static const std::regex out_of_line(R"(; ([0-9.]+) KiB sent out of line; over a (shared-memory ring|socket))");
  for (const bool ring : {true, false}) {
    ProcessResult remote = RunRemoteWithStats(renderer, app, "STRATA_REMOTE_RING", ring ? "on" : "off");
    ASSERT_EQ(remote.exit_code, 0) << remote.err << renderer.Log();
    EXPECT_EQ(remote.out, native.out) << (ring ? "over the ring" : "over the socket");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(remote.err, m, out_of_line)) << remote.err;
    EXPECT_EQ(m[2], ring ? "shared-memory ring" : "socket");
    // 40 rounds of a 4 MiB image, a 256 KiB patch and 120 KB of indices.
    EXPECT_GT(std::stod(m[1]), 40 * (4096 + 256 + 117)) << remote.err;
  }
  EXPECT_EQ(renderer.Log().find("closing"), std::string::npos) << renderer.Log();
}

// Catches: a client's storage requests reaching the host driver however
// large (the host's OOM killer instead of GL_OUT_OF_MEMORY), a refused call
// that leaves the client without its error or closes it, a budget shared
// between clients or not given back when objects are deleted, a 3D
// allocation counted without its depth.
TEST(Remote, StoragePastTheClientMemoryBudgetIsOutOfMemory) {
  const std::string app = std::string(STRATA_BIN_DIR) + "/memory_hungry";
  ProcessResult native = RunProcess({app});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  ASSERT_EQ(native.out.find("0x505"), std::string::npos) << "natively every request fits:\n" << native.out;
  Renderer renderer({"--client-memory", "32M"});
  strata::test::ProcessOptions options;
  options.timeout_seconds = 120;
  // Two clients in turn: each has a budget of its own.
  for (int client = 0; client < 2; ++client) {
    ProcessResult remote = RunProcess({STRATA_CLI, "run", "--remote", renderer.address(), "--", app}, options);
    ASSERT_EQ(remote.exit_code, 0) << remote.err << renderer.Log();
    for (const char* refused : {"buffer 48 MiB: 0x505", "texture image 64 MiB: 0x505",
                                "texture storage 64 MiB: 0x505", "renderbuffer 64 MiB: 0x505",
                                "image of a 3D texture, 64 MiB: 0x505", "storage of a 3D texture, 64 MiB: 0x505"}) {
      EXPECT_NE(remote.out.find(refused), std::string::npos) << refused << "\n" << remote.out;
    }
    EXPECT_NE(remote.out.find("image of a 3D texture, 1 MiB: 0x0"), std::string::npos) << remote.out;
    // The 48 MiB buffer was never made; 8 MiB, then the same buffer at 4 MiB, fit.
    EXPECT_NE(remote.out.find("buffer 8 MiB: 0x0"), std::string::npos) << remote.out;
    EXPECT_NE(remote.out.find("the same buffer again, 4 MiB: 0x0"), std::string::npos) << remote.out;
    const size_t frame = native.out.find("frame: ");
    EXPECT_NE(remote.out.find(native.out.substr(frame)), std::string::npos) << "drawing goes on:\n" << remote.out;
  }
  EXPECT_NE(renderer.Log().find("past the memory budget"), std::string::npos) << renderer.Log();
}
