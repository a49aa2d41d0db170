#include "serve/worker_pool.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "common/process_info.h"
#include "serve/worker_channel.h"

extern char** environ;

namespace strata::serve {
namespace {

using Clock = std::chrono::steady_clock;

// Waits for `pid` to end for up to `timeout_ms`, then kills it; its wait status.
int WaitFor(pid_t pid, int timeout_ms) {
  const auto until = Clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    int status = 0;
    const pid_t got = waitpid(pid, &status, WNOHANG);
    if (got == pid) return status;
    if (got < 0 && errno != EINTR) return 0;  // not ours any more: nothing to say
    if (Clock::now() >= until) {
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      return status;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

// The worker is ending: its channel closed, it is reaped without waiting for it.
void CloseChannel(Worker& w) {
  close(w.channel);
  w.channel = -1;
  w.ending = true;
  w.ending_since = Clock::now();
}

}  // namespace

std::string DescribeExit(int status) {
  if (WIFEXITED(status)) {
    return WEXITSTATUS(status) == 0 ? "exited normally" : "exited with status " + std::to_string(WEXITSTATUS(status));
  }
  if (WIFSIGNALED(status)) {
    const int signal = WTERMSIG(status);
    const char* name = sigabbrev_np(signal);
    return "was killed by signal " + std::to_string(signal) + (name ? " (SIG" + std::string(name) + ")" : "") +
           (WCOREDUMP(status) ? ", dumping core" : "");
  }
  return "ended (wait status " + std::to_string(status) + ")";
}

namespace {

// The program a worker runs: this one. By its path while that still names
// the file this process runs, so that tools which follow a program's execs
// (valgrind --trace-children, which cannot start /proc/self/exe: it names
// the tool there) follow the workers too; /proc/self/exe once the path names
// another file (a package upgraded under a running renderer), whose workers
// must stay of the renderer's own version.
std::string WorkerProgram() {
  static constexpr char kSelf[] = "/proc/self/exe";
  const std::string path = ExecutablePath();
  struct stat running {}, named {};
  const int self = open(kSelf, O_RDONLY | O_CLOEXEC);
  const bool same = self >= 0 && fstat(self, &running) == 0 && !path.empty() && stat(path.c_str(), &named) == 0 &&
                    running.st_dev == named.st_dev && running.st_ino == named.st_ino;
  if (self >= 0) close(self);
  return same ? path : kSelf;
}

}  // namespace

WorkerPool::WorkerPool(std::vector<std::string> argv, size_t idle) : argv_(std::move(argv)), idle_(idle) {}

WorkerPool::~WorkerPool() {
  std::lock_guard lock(mu_);
  for (Worker& w : workers_) kill(w.pid, SIGTERM);
  const auto until = Clock::now() + std::chrono::seconds(5);
  for (Worker& w : workers_) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
    WaitFor(w.pid, static_cast<int>(std::max<int64_t>(left, 0)));
    if (w.channel >= 0) close(w.channel);
  }
  workers_.clear();
}

bool WorkerPool::Start(std::string* error) {
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
    *error = std::string("cannot make a worker's control socket: ") + std::strerror(errno);
    return false;
  }
  // Above the three standard descriptors, so that the child's dup2 onto
  // kWorkerChannelFd always moves it (and so clears close-on-exec).
  const int child_end = fcntl(pair[1], F_DUPFD_CLOEXEC, kWorkerChannelFd + 1);
  close(pair[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, child_end, kWorkerChannelFd);
  std::vector<char*> args;
  std::vector<std::string> argv = argv_;
  for (std::string& arg : argv) args.push_back(arg.data());
  args.push_back(nullptr);
  pid_t pid = 0;
  const std::string program = WorkerProgram();
  const int failed =
      child_end < 0 ? errno : posix_spawn(&pid, program.c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (child_end >= 0) close(child_end);
  if (failed != 0) {
    close(pair[0]);
    *error = std::string("cannot start a worker process: ") + std::strerror(failed);
    return false;
  }
  Worker& worker = workers_.emplace_back();
  worker.pid = pid;
  worker.channel = pair[0];
  return true;
}

bool WorkerPool::Fill(bool core_to_spare, bool* short_of, std::string* error) {
  std::lock_guard lock(mu_);
  size_t ready_or_starting = 0;
  // Warm workers are not counted: clients of other users cannot have them.
  for (const Worker& w : workers_) ready_or_starting += w.state != Worker::State::kServing && !w.ending && !w.warm;
  // After workers failed to start, none are kept ahead: only a waiting client gets a try.
  const size_t ahead = failures_in_a_row_ == 0 ? idle_ : 0;
  const size_t wanted = waiting_ + (core_to_spare ? ahead : std::min<size_t>(ahead, 1));
  *short_of = ready_or_starting < ahead + waiting_;
  while (ready_or_starting < wanted) {
    if (!Start(error)) {
      last_failure_ = *error;
      ++failures_in_a_row_;
      ++failures_;
      changed_.notify_all();
      return false;
    }
    ++ready_or_starting;
  }
  return true;
}

std::vector<std::pair<int, pid_t>> WorkerPool::Channels() {
  std::lock_guard lock(mu_);
  std::vector<std::pair<int, pid_t>> out;
  for (const Worker& w : workers_) {
    if (!w.ending) out.emplace_back(w.channel, w.pid);
  }
  return out;
}

Worker* WorkerPool::Find(pid_t pid) {
  for (Worker& w : workers_) {
    if (w.pid == pid) return &w;
  }
  return nullptr;
}

void WorkerPool::OnChannel(pid_t pid) {
  int channel = -1;
  {
    std::lock_guard lock(mu_);
    if (Worker* w = Find(pid); w != nullptr && !w->ending) channel = w->channel;
  }
  if (channel < 0) return;
  stream::wire::Hello message;
  std::vector<int> descriptors;
  std::string problem;
  const int got = ReceiveControl(channel, &message, &descriptors, &problem);
  for (int d : descriptors) close(d);  // a worker sends none
  std::lock_guard lock(mu_);
  Worker* w = Find(pid);
  if (w == nullptr) return;
  if (got > 0) {
    const std::string* what = message.Find("message");
    const std::string* why = message.Find(what != nullptr && *what == "ended" ? "reason" : "error");
    if (what != nullptr && *what == "ready" && w->state == Worker::State::kStarting) {
      w->state = Worker::State::kIdle;
      failures_in_a_row_ = 0;
      first_done_ = true;
    } else if (what != nullptr && *what == "idle" && w->state == Worker::State::kServing) {
      back_in_pool_.push_back(*w);  // idle once Reap has reported its session's end
    } else if (what != nullptr && *what == "ended" && why != nullptr) {
      w->ended = why->substr(0, 1000);
    } else if (what != nullptr && *what == "failed") {
      w->failure = why ? why->substr(0, 1000) : "a worker process could not start";
    }
    changed_.notify_all();
    return;
  }
  // Closed (or broken: then it is not to be trusted to end by itself).
  if (got < 0) kill(pid, SIGKILL);
  CloseChannel(*w);
}

bool WorkerPool::Reap(const Ended& ended) {
  std::vector<std::pair<Worker, int>> gone;
  bool still_ending = false;
  {
    std::lock_guard lock(mu_);
    for (auto it = workers_.begin(); it != workers_.end();) {
      if (!it->ending) {
        ++it;
        continue;
      }
      int status = 0;
      const pid_t got = waitpid(it->pid, &status, WNOHANG);
      if (got == 0) {
        if (Clock::now() - it->ending_since > std::chrono::seconds(5)) kill(it->pid, SIGKILL);
        still_ending = true;
        ++it;
        continue;
      }
      if (it->state == Worker::State::kStarting) {
        ++failures_in_a_row_;
        ++failures_;
        last_failure_ = !it->failure.empty() ? it->failure
                                             : "a worker process " + DescribeExit(status) + " before it was ready";
        first_done_ = true;
      }
      gone.emplace_back(*it, got == it->pid ? status : 0);
      it = workers_.erase(it);
    }
    if (!gone.empty()) changed_.notify_all();
  }
  std::vector<Worker> returned;
  {
    std::lock_guard lock(mu_);
    returned.swap(back_in_pool_);
  }
  for (const Worker& worker : returned) {
    ended(worker, kBackInPool);  // its session is over before anyone can take it
    std::lock_guard lock(mu_);
    Worker* w = Find(worker.pid);
    if (w == nullptr || w->ending || w->state != Worker::State::kServing) continue;
    size_t warm_idle = 0;
    for (const Worker& other : workers_) warm_idle += other.warm && other.state == Worker::State::kIdle && !other.ending;
    w->state = Worker::State::kIdle;
    w->session.clear();
    w->client.clear();
    w->ended.clear();
    // Warm workers wait beside the fresh ones the pool keeps ahead, as many at most.
    if (warm_idle >= idle_) {
      CloseChannel(*w);  // it ends, as a worker whose listener is gone and that serves no one
      still_ending = true;
    } else {
      w->warm = true;
      changed_.notify_all();
    }
  }
  for (const auto& [worker, status] : gone) ended(worker, DescribeExit(status));
  return still_ending;
}

bool WorkerPool::Take(const std::string& session, const std::string& client, bool own_user, int timeout_ms,
                      const std::function<void()>& wake, Worker* taken, std::string* error) {
  std::unique_lock lock(mu_);
  ++waiting_;
  const size_t failures_before = failures_;
  wake();
  Worker* found = nullptr;
  const bool got = changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] {
    for (Worker& w : workers_) {
      if (w.state != Worker::State::kIdle || w.ending || (w.warm && !own_user)) continue;
      if (found == nullptr || (w.warm && !found->warm)) found = &w;
    }
    return found != nullptr || failures_ > failures_before;
  });
  --waiting_;
  if (found == nullptr) {
    *error = got ? last_failure_ : "no worker process was ready within " + std::to_string(timeout_ms / 1000) + " s";
    return false;
  }
  found->state = Worker::State::kServing;
  found->session = session;
  found->client = client;
  *taken = *found;
  lock.unlock();
  wake();  // one fewer idle: the main thread starts the next
  return true;
}

int WorkerPool::ChannelOf(pid_t pid) {
  std::lock_guard lock(mu_);
  Worker* w = Find(pid);
  return w != nullptr && !w->ending ? w->channel : -1;
}

int WorkerPool::FirstVerdict(std::string* error) {
  std::lock_guard lock(mu_);
  if (!first_done_) return 0;
  if (failures_in_a_row_ == 0) return 1;
  *error = last_failure_;
  return -1;
}

void WorkerPool::SetIdle(size_t idle) {
  std::lock_guard lock(mu_);
  idle_ = idle;
}

void WorkerPool::StopAll() {
  std::lock_guard lock(mu_);
  for (Worker& w : workers_) kill(w.pid, SIGTERM);
}

}  // namespace strata::serve
