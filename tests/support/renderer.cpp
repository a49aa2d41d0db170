#include "support/renderer.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "support/scratch.h"
#include "transport/connect.h"

namespace strata::test {

Renderer::Renderer(const std::string& strata_cli, std::vector<std::string> extra) {
  static int counter = 0;
  const std::string name = std::to_string(getpid()) + "-" + std::to_string(counter++);
  address_ = "unix:@strata-test-renderer-" + name;
  log_ = ScratchPath("renderer-" + name + ".log");
  std::vector<std::string> argv = {strata_cli, "serve", "--listen", address_};
  argv.insert(argv.end(), extra.begin(), extra.end());
  pid_ = fork();
  if (pid_ == 0) {
    if (std::freopen(log_.c_str(), "w", stderr) != nullptr) dup2(fileno(stderr), STDOUT_FILENO);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  // Ready when it accepts a connection (the probe, a plain socket that says
  // nothing, is dropped by the renderer).
  for (int i = 0; i < 200; ++i) {
    std::string error;
    if (transport::Connect(address_, &error, {.unix_ring = transport::RingUse::kNever})) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
}

void Renderer::Stop() {
  if (pid_ <= 0) return;
  kill(pid_, SIGTERM);
  int status = 0;
  for (int i = 0; i < 200 && waitpid(pid_, &status, WNOHANG) == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  if (waitpid(pid_, &status, WNOHANG) == 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
  }
  pid_ = -1;
}

void Renderer::Kill() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

std::string Renderer::ListeningAddress(const std::string& prefix) const {
  for (int i = 0; i < 200; ++i) {
    const std::string log = Log();
    const size_t at = log.find(prefix);
    if (at != std::string::npos) return log.substr(at, log.find_first_of(" ,\n(", at) - at);
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  return "";
}

bool Renderer::WaitForLog(const std::string& text, double seconds) const {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (Log().find(text) == std::string::npos) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

std::string Renderer::Log() const {
  std::string text;
  if (FILE* f = std::fopen(log_.c_str(), "r")) {
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
    std::fclose(f);
  }
  return text;
}

}  // namespace strata::test
