#pragma once
// A real renderer (`strata serve`) for one test, on a private address; its
// log, in the test's scratch directory, is kept for failure messages.
// Stopped with SIGTERM when destroyed.

#include <sys/types.h>

#include <string>
#include <vector>

namespace strata::test {

class Renderer {
 public:
  // Starts `strata_cli serve --listen ADDRESS EXTRA...` and waits until it accepts.
  explicit Renderer(const std::string& strata_cli, std::vector<std::string> extra = {});
  ~Renderer() { Stop(); }
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  void Stop();  // SIGTERM, then SIGKILL after 5 s
  void Kill();  // SIGKILL: a renderer that vanishes
  const std::string& address() const { return address_; }
  pid_t pid() const { return pid_; }  // the listener's process
  // The address it reports listening on that begins with `prefix` (such as
  // "tcp:127.0.0.1:" for a port it picked), read from its log; empty if none.
  std::string ListeningAddress(const std::string& prefix) const;
  std::string Log() const;
  // Whether `text` shows in the log within `seconds` (looked for every 10 ms).
  bool WaitForLog(const std::string& text, double seconds) const;

 private:
  std::string address_, log_;
  pid_t pid_ = -1;
};

}  // namespace strata::test
