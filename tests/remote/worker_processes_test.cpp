// The renderer's process model (docs/remote.md): a worker process per client
// process, the listener never touching the GL driver, a worker's death ending
// its client alone (as a GPU reset where the client asked to be told),
// several clients at once getting the pixels they get natively, and a
// worker's second thread keeping its client's messages decoded ahead.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/process.h"
#include "support/renderer.h"
#include "support/scratch.h"

namespace {

using strata::test::ProcessResult;
using strata::test::RunProcess;
using strata::test::ScratchPath;

using Clock = std::chrono::steady_clock;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

// A program started in the background, its stdout and stderr in one file.
struct Background {
  pid_t pid = -1;
  std::string log;
  int status = -1;

  Background(const std::vector<std::string>& argv, const std::string& log_path) : log(log_path) {
    std::vector<std::string> args = argv;
    std::vector<char*> pointers;
    for (auto& a : args) pointers.push_back(a.data());
    pointers.push_back(nullptr);
    pid = fork();
    if (pid == 0) {
      if (std::freopen(log.c_str(), "w", stdout) != nullptr) dup2(fileno(stdout), STDERR_FILENO);
      execv(pointers[0], pointers.data());
      _exit(127);
    }
  }
  // Waits up to `seconds`; false (and the program killed) when it did not end.
  bool Wait(int seconds) {
    const auto until = Clock::now() + std::chrono::seconds(seconds);
    while (Clock::now() < until) {
      if (waitpid(pid, &status, WNOHANG) == pid) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return false;
  }
  int exit_code() const { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
  std::string output() const { return ReadFile(log); }
};

std::vector<std::string> Remote(const strata::test::Renderer& renderer, std::vector<std::string> program) {
  std::vector<std::string> argv = {STRATA_CLI, "run", "--remote", renderer.address(), "--"};
  argv.insert(argv.end(), program.begin(), program.end());
  return argv;
}

// The worker a client was handed to, from the log's "client joined: PROGRAM (pid PID, ...), session N, worker W".
pid_t WorkerOf(const strata::test::Renderer& renderer, pid_t client, int seconds = 20) {
  const std::regex line("client joined: [^\n]*\\(pid " + std::to_string(client) + ",[^\n]*, worker ([0-9]+)");
  const auto until = Clock::now() + std::chrono::seconds(seconds);
  while (Clock::now() < until) {
    std::smatch m;
    const std::string log = renderer.Log();
    if (std::regex_search(log, m, line)) return static_cast<pid_t>(std::stol(m[1]));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return -1;
}

// The client pid `strata run` execs as: the same process (strata run execs the program).
// Waits until `text` appears in the background program's output.
bool WaitForOutput(const Background& program, const std::string& text, int seconds) {
  const auto until = Clock::now() + std::chrono::seconds(seconds);
  while (Clock::now() < until) {
    if (program.output().find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// Four clients of one call shape at once on one renderer: each gets the
// native frame. Catches: sessions of different workers mixed up, a hand-over
// that loses or repeats bytes (the ring's positions, a socket's read-ahead),
// a stream that cannot be resumed in the worker, answers routed to the wrong
// client, and (through the time limit) waiters that spin on the cores the
// others need.
class FourClients : public ::testing::TestWithParam<const char*> {};

TEST_P(FourClients, EachGetsTheNativeFrame) {
  const std::string mode = GetParam();
  const std::string frames = "30";
  const std::string workload = STRATA_BENCH_WORKLOAD;
  const std::string native_ppm = ScratchPath("native-" + mode + ".ppm");
  ProcessResult native = RunProcess({workload, "--mode", mode, "--frames", frames, "--output", native_ppm});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  const std::string expected = ReadFile(native_ppm);
  ASSERT_GT(expected.size(), 256u * 256u * 3u);

  strata::test::Renderer renderer(STRATA_CLI);
  std::vector<Background> clients;
  for (int i = 0; i < 4; ++i) {
    const std::string ppm = ScratchPath(mode + "-" + std::to_string(i) + ".ppm");
    clients.emplace_back(Remote(renderer, {workload, "--mode", mode, "--frames", frames, "--output", ppm}),
                         ScratchPath(mode + "-" + std::to_string(i) + ".log"));
  }
  for (int i = 0; i < 4; ++i) {
    // Each does 30 frames in well under a second alone; a collapse takes minutes.
    ASSERT_TRUE(clients[i].Wait(90)) << mode << " client " << i << " still running after 90 s\n" << renderer.Log();
    EXPECT_EQ(clients[i].exit_code(), 0) << clients[i].output() << renderer.Log();
    const std::string ppm = ScratchPath(mode + "-" + std::to_string(i) + ".ppm");
    EXPECT_TRUE(ReadFile(ppm) == expected) << mode << " client " << i << "'s frame differs from the native one";
  }
  const std::string log = renderer.Log();
  EXPECT_EQ(Count(log, "client joined: trace_workload"), 4u) << log;
  // A worker serves one client at a time: it joins a client again only after
  // it came back to the pool (a client that ended before the last began may
  // leave its worker to it).
  std::set<std::string> serving;
  const std::regex joined(", worker ([0-9]+)"), back("worker ([0-9]+) is back in the pool");
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, back)) {
      EXPECT_EQ(serving.erase(m[1]), 1u) << "worker " << m[1] << " came back serving no one:\n" << log;
    } else if (line.find("client joined: ") != std::string::npos && std::regex_search(line, m, joined)) {
      EXPECT_TRUE(serving.insert(m[1]).second) << "worker " << m[1] << " given a second client at once:\n" << log;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, FourClients,
                         ::testing::Values("cheap", "draws", "roundtrip", "geterror", "upload", "create", "saved",
                                           "matrices", "streaming"),
                         [](const auto& info) { return std::string(info.param); });

// A worker that keeps its client's messages decoded ahead on a second
// thread (--decode-ahead on) draws what the program draws natively, for
// call shapes that keep most calls decoded (draws), few (matrices: uniforms
// by pointer), blobs (streaming, upload: bulk segments) and answered calls
// (saved), from a client that sends calls of scalars in word runs and from
// one that sends every call as a record (STRATA_REMOTE_WORD_RUNS=off); the
// leaving line says as many calls ran as the client sent, and how many of
// them ran from their decoded form: some of draw-heavy's records with
// --decode-ahead on, none with it off; and the client says it sent nearly
// every call of draw-heavy, matrices and streaming in word runs (words-v2
// carries their arrays), none with them off.
// Catches: calls kept decoded with wrong arguments or run out of order,
// records lost or repeated where the connection's thread and the preparing
// thread hand over, or where the dispatch's loop over a message's records
// stops at one its handlers do not take, a preparer that stops at a blob in
// a bulk segment, a switch that does not switch, arrays that never travel
// in word runs.
class DecodingAhead : public ::testing::TestWithParam<const char*> {};

TEST_P(DecodingAhead, DrawsTheNativeFrame) {
  const std::string mode = GetParam();
  const std::string workload = STRATA_BENCH_WORKLOAD;
  // Draw-heavy long enough that a connection whose preparing thread lost
  // the race on a busy machine (its next 63 messages then go without)
  // tries it again several times.
  const std::string frames = mode == "draws" ? "150" : "20";
  const std::string native_ppm = ScratchPath("native-" + mode + ".ppm");
  ProcessResult native = RunProcess({workload, "--mode", mode, "--frames", frames, "--output", native_ppm});
  ASSERT_EQ(native.exit_code, 0) << native.err;
  const std::string expected = ReadFile(native_ppm);
  ASSERT_GT(expected.size(), 256u * 256u * 3u);
  struct Run {
    const char* decode_ahead;
    const char* word_runs;
  };
  for (const Run run : {Run{"on", "on"}, Run{"on", "off"}, Run{"off", "on"}}) {
    const std::string decode_ahead = run.decode_ahead, word_runs = run.word_runs;
    strata::test::Renderer renderer(STRATA_CLI, {"--decode-ahead", decode_ahead});
    const std::string ppm = ScratchPath(mode + "-" + decode_ahead + "-" + word_runs + ".ppm");
    std::vector<std::string> argv = {"env", "STRATA_REMOTE_STATS=1", "STRATA_REMOTE_WORD_RUNS=" + word_runs};
    for (std::string& arg : Remote(renderer, {workload, "--mode", mode, "--frames", frames, "--output", ppm})) {
      argv.push_back(std::move(arg));
    }
    ProcessResult remote = RunProcess(argv);
    ASSERT_EQ(remote.exit_code, 0) << remote.err << renderer.Log();
    std::smatch sent;
    ASSERT_TRUE(std::regex_search(remote.err, sent, std::regex(R"(([0-9]+) calls sent \(([0-9]+) in word runs\))")))
        << remote.err;
    const uint64_t in_runs = std::stoull(sent[2]);
    if (word_runs == "off") {
      EXPECT_EQ(in_runs, 0u) << remote.err;
    } else if (mode == "draws" || mode == "matrices" || mode == "streaming") {
      // Uniforms by value or by pointer, buffer data and draws: nearly every call.
      EXPECT_GT(in_runs, std::stoull(sent[1]) * 9 / 10) << remote.err;
    }
    EXPECT_TRUE(ReadFile(ppm) == expected) << mode << " with --decode-ahead " << decode_ahead << ", word runs "
                                           << word_runs << ": the frame differs from the native one";
    std::smatch m;
    std::string log;
    const std::regex left("client left: trace_workload [^\n]*normal end \\(([0-9]+) calls run, ([0-9]+) of them decoded ahead\\)");
    for (int i = 0; i < 500 && !std::regex_search(log = renderer.Log(), m, left); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_FALSE(m.empty()) << log;
    const uint64_t calls = std::stoull(m[1]), decoded_ahead = std::stoull(m[2]);
    EXPECT_EQ(calls, std::stoull(sent[1])) << log;
    EXPECT_LE(decoded_ahead, calls) << log;
    if (decode_ahead == "off") {
      EXPECT_EQ(decoded_ahead, 0u) << log;
    } else if (mode == "draws" && word_runs == "off") {
      // How many depends on the other core's load; none only if the path is never taken.
      EXPECT_GT(decoded_ahead, 0u) << log;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, DecodingAhead, ::testing::Values("draws", "matrices", "streaming", "upload", "saved"),
                         [](const auto& info) { return std::string(info.param); });

// A worker killed mid-frame ends its client alone: a client that asked to be
// told of resets reads GL_UNKNOWN_CONTEXT_RESET and goes on to exit by
// itself; one that did not ends with one line naming the signal and exit
// status 69; two others finish with the native frame, and the listener logs
// how the worker died and keeps serving.
// Catches: a renderer process shared by clients (one crash ending all), a
// client that hangs or crashes when its renderer goes, a reset status a
// robust context never sees, a cause nobody names.
TEST(Workers, AKilledWorkerEndsOnlyItsClient) {
  strata::test::Renderer renderer(STRATA_CLI);
  const std::string app = std::string(STRATA_BIN_DIR) + "/gles2_shaders";
  const std::string native_png = ScratchPath("native.png");
  ProcessResult native = RunProcess({app, "--frames", "60", "--size", "96x72", "--output", native_png});
  ASSERT_EQ(native.exit_code, 0) << native.err;

  Background robust(Remote(renderer, {std::string(STRATA_BIN_DIR) + "/robust_client"}), ScratchPath("robust.log"));
  Background plain(Remote(renderer, {app, "--frames", "1000000", "--size", "64x64", "--output", ScratchPath("x.png")}),
                   ScratchPath("plain.log"));
  std::vector<Background> others;
  for (int i = 0; i < 2; ++i) {
    const std::string png = ScratchPath("other-" + std::to_string(i) + ".png");
    others.emplace_back(Remote(renderer, {app, "--frames", "60", "--size", "96x72", "--output", png}),
                        ScratchPath("other-" + std::to_string(i) + ".log"));
  }
  ASSERT_TRUE(WaitForOutput(robust, "robust_client: drawing", 30)) << robust.output() << renderer.Log();
  const pid_t robust_worker = WorkerOf(renderer, robust.pid), plain_worker = WorkerOf(renderer, plain.pid);
  ASSERT_GT(robust_worker, 0) << renderer.Log();
  ASSERT_GT(plain_worker, 0) << renderer.Log();
  ASSERT_NE(robust_worker, plain_worker);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // mid-frame
  kill(robust_worker, SIGKILL);
  kill(plain_worker, SIGKILL);

  ASSERT_TRUE(robust.Wait(30)) << robust.output();
  EXPECT_EQ(robust.exit_code(), 0) << robust.output();
  EXPECT_NE(robust.output().find("reset status 0x8255"), std::string::npos) << robust.output();  // GL_UNKNOWN_CONTEXT_RESET
  EXPECT_NE(robust.output().find("then glGetError 0x0507, 0x0000"), std::string::npos) << robust.output();
  EXPECT_EQ(Count(robust.output(), "strata remote: error:"), 1u) << robust.output();
  EXPECT_NE(robust.output().find("was killed by signal 9 (SIGKILL)"), std::string::npos) << robust.output();

  ASSERT_TRUE(plain.Wait(30)) << plain.output();
  EXPECT_EQ(plain.exit_code(), 69) << plain.output();
  EXPECT_EQ(Count(plain.output(), "strata remote: error:"), 1u) << plain.output();
  EXPECT_NE(plain.output().find("its worker process (pid " + std::to_string(plain_worker) +
                                ") was killed by signal 9 (SIGKILL)"),
            std::string::npos)
      << plain.output();

  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(others[i].Wait(60)) << others[i].output();
    EXPECT_EQ(others[i].exit_code(), 0) << others[i].output() << renderer.Log();
    const std::string png = ScratchPath("other-" + std::to_string(i) + ".png");
    EXPECT_TRUE(ReadFile(png) == ReadFile(native_png)) << "client " << i << "'s frame differs from the native one";
  }
  const std::string log = renderer.Log();
  EXPECT_NE(log.find("its worker process (pid " + std::to_string(robust_worker) + ") was killed by signal 9"),
            std::string::npos)
      << log;
  // Still serving.
  ProcessResult after = RunProcess(Remote(renderer, {app, "--frames", "3", "--output", ScratchPath("after.png")}));
  EXPECT_EQ(after.exit_code, 0) << after.err << renderer.Log();
}

// Catches: a thread of a client handed to a worker other than its
// process's (its session would be unknown there and the thread refused).
TEST(Workers, ThreeThreadsOfOneClientShareItsWorker) {
  strata::test::Renderer renderer(STRATA_CLI, {"--idle-workers", "0"});
  ProcessResult r = RunProcess(Remote(renderer, {std::string(STRATA_BIN_DIR) + "/threaded_app", "10"}));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err << renderer.Log();
  const std::string log = renderer.Log();
  EXPECT_EQ(Count(log, "client joined: "), 1u) << log;
  EXPECT_EQ(Count(log, "refused"), 0u) << log;
}

// A client of the renderer's own user that ended normally leaves its worker
// to the next such client (warm: llvmpipe's compiled code kept), never to a
// client of another kind (TCP here, as another user would be); each gets
// the frame it gets alone.
// Catches: a worker that serves two clients at once or keeps a client's
// session for the next (a thread of the old client joining the new one), a
// warm worker handed to a client the listener cannot tell is the same user,
// a worker that is not reused at all.
TEST(Workers, AWorkerServesTheNextClientOfTheSameUserOnly) {
  const std::string token_file = ScratchPath("reuse-token");
  strata::test::Renderer renderer(STRATA_CLI,
                                  {"--idle-workers", "1", "--listen", "tcp:127.0.0.1:0", "--token-file", token_file});
  const std::string tcp = renderer.ListeningAddress("tcp:127.0.0.1:");
  ASSERT_FALSE(tcp.empty()) << renderer.Log();
  setenv("STRATA_REMOTE_TOKEN_FILE", token_file.c_str(), 1);  // for the TCP client; the others ignore it
  const std::string app = std::string(STRATA_BIN_DIR) + "/gles2_shaders";
  auto run = [&](const std::string& address, const std::string& png, pid_t* worker) {
    Background client({STRATA_CLI, "run", "--remote", address, "--", app, "--frames", "3", "--output", png},
                      png + ".log");
    ASSERT_TRUE(client.Wait(60)) << client.output();
    EXPECT_EQ(client.exit_code(), 0) << client.output() << renderer.Log();
    *worker = WorkerOf(renderer, client.pid, 1);
  };
  auto back_in_pool = [&](pid_t worker) {
    return renderer.WaitForLog("worker " + std::to_string(worker) + " is back in the pool", 5);
  };
  pid_t first = 0, over_tcp = 0, third = 0;
  const std::string a = ScratchPath("reuse-a.png"), b = ScratchPath("reuse-b.png"), c = ScratchPath("reuse-c.png");
  run(renderer.address(), a, &first);
  ASSERT_GT(first, 0) << renderer.Log();
  ASSERT_TRUE(back_in_pool(first)) << renderer.Log();
  run(tcp, b, &over_tcp);
  EXPECT_GT(over_tcp, 0) << renderer.Log();
  EXPECT_NE(over_tcp, first) << "a TCP client got the warm worker:\n" << renderer.Log();
  EXPECT_FALSE(back_in_pool(over_tcp)) << "the TCP client's worker served on";
  run(renderer.address(), c, &third);
  EXPECT_EQ(third, first) << "the warm worker was not reused:\n" << renderer.Log();
  EXPECT_EQ(ReadFile(a), ReadFile(b));
  EXPECT_EQ(ReadFile(a), ReadFile(c));
  EXPECT_GT(ReadFile(a).size(), 100u);
  unsetenv("STRATA_REMOTE_TOKEN_FILE");
}

bool MapsGl(pid_t pid) {
  const std::string maps = ReadFile("/proc/" + std::to_string(pid) + "/maps");
  for (const char* library : {"libEGL", "libGLES", "libgallium", "swrast_dri", "libLLVM", "libnvidia"}) {
    if (maps.find(library) != std::string::npos) return true;
  }
  return false;
}

// Catches: a listener that loads or initialises the GL driver (a fork of it
// would carry the driver's state; a crash in it would end every client).
TEST(Workers, TheListenerNeverMapsTheDriver) {
  strata::test::Renderer renderer(STRATA_CLI);
  ProcessResult r = RunProcess(Remote(renderer, {std::string(STRATA_BIN_DIR) + "/gles2_shaders", "--frames", "3",
                                                 "--output", ScratchPath("listener.png")}));
  ASSERT_EQ(r.exit_code, 0) << r.err << renderer.Log();
  EXPECT_FALSE(MapsGl(renderer.pid())) << ReadFile("/proc/" + std::to_string(renderer.pid()) + "/maps");
  // Its idle workers have the driver loaded: the check above can see one.
  const std::string children =
      ReadFile("/proc/" + std::to_string(renderer.pid()) + "/task/" + std::to_string(renderer.pid()) + "/children");
  std::istringstream pids(children);
  pid_t child = 0;
  bool worker_maps_gl = false;
  while (pids >> child) worker_maps_gl |= MapsGl(child);
  EXPECT_TRUE(worker_maps_gl) << "no worker with the driver among " << children;
}

// Catches: a listener that does not reap its workers as they end (its stop
// then waits out its limit), or workers that do not end on the stop.
TEST(Workers, TheRendererStopsPromptly) {
  strata::test::Renderer renderer(STRATA_CLI);
  ProcessResult r = RunProcess(Remote(renderer, {std::string(STRATA_BIN_DIR) + "/gles2_shaders", "--frames", "3",
                                                 "--output", ScratchPath("stop.png")}));
  ASSERT_EQ(r.exit_code, 0) << r.err << renderer.Log();
  // Stopped as its worker ends after its client, with idle ones waiting.
  renderer.WaitForLog("client left", 5);
  const pid_t listener = renderer.pid();
  const auto start = Clock::now();
  renderer.Stop();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_LT(seconds, 3.0) << renderer.Log();
  EXPECT_NE(renderer.Log().find("strata serve: stopped"), std::string::npos) << renderer.Log();
  EXPECT_NE(kill(listener, 0), 0);
}

// Catches: workers started by the program's path after the file there was
// replaced (a package upgraded under a running renderer): they would be the
// new program, not the renderer's own version. Two clients at once need two
// workers; at most one was started before the replacement.
TEST(Workers, ARendererWhoseProgramWasReplacedStartsWorkersOfItsOwn) {
  const std::string program = ScratchPath("upgraded-strata");
  {
    std::ifstream in(STRATA_CLI, std::ios::binary);
    std::ofstream out(program, std::ios::binary);
    out << in.rdbuf();
  }
  ASSERT_EQ(chmod(program.c_str(), 0755), 0);
  strata::test::Renderer renderer(program, {"--idle-workers", "0"});
  const std::string replacement = ScratchPath("replacement");
  {
    std::ofstream out(replacement);
    out << "#!/bin/sh\nexit 3\n";
  }
  ASSERT_EQ(chmod(replacement.c_str(), 0755), 0);
  ASSERT_EQ(rename(replacement.c_str(), program.c_str()), 0);

  const std::string app = std::string(STRATA_BIN_DIR) + "/gles2_shaders";
  std::vector<Background> clients;
  for (int i = 0; i < 2; ++i) {
    const std::string name = "replaced-" + std::to_string(i);
    clients.emplace_back(Remote(renderer, {app, "--frames", "100", "--size", "64x64", "--output",
                                           ScratchPath(name + ".png")}),
                         ScratchPath(name + ".log"));
  }
  std::set<pid_t> workers;
  for (Background& client : clients) {
    const pid_t worker = WorkerOf(renderer, client.pid);
    ASSERT_GT(worker, 0) << renderer.Log();
    workers.insert(worker);
    ASSERT_TRUE(client.Wait(60)) << client.output();
    EXPECT_EQ(client.exit_code(), 0) << client.output() << renderer.Log();
  }
  EXPECT_EQ(workers.size(), 2u) << renderer.Log();
  EXPECT_EQ(renderer.Log().find("exited with status 3"), std::string::npos) << renderer.Log();
}

// Catches: a driver the workers cannot load reported late (at a client's
// first call) or not at all.
TEST(Workers, AWorkerThatCannotStartIsOneClearError) {
  ProcessResult r = RunProcess({STRATA_CLI, "serve", "--listen", "unix:@strata-workers-test-" + std::to_string(getpid()),
                                "--driver-egl", "/nonexistent/libEGL.so.1"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(Count(r.err, "strata serve: error:"), 1u) << r.err;
  EXPECT_NE(r.err.find("/nonexistent/libEGL.so.1"), std::string::npos) << r.err;
}

}  // namespace
