#include "transport/shm_ring.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "transport/deadline.h"
#include "transport/spin_wait.h"
#include "transport/stream_handoff.h"

namespace strata::transport {
namespace {

using Clock = std::chrono::steady_clock;

// The first page holds the indices, each word on a cache line of its own so
// that the two sides never write the same line; the rings follow.
constexpr size_t kControlBytes = 4096;
constexpr size_t kLine = 64;
constexpr size_t kRingControlBytes = 4 * kLine;  // head, tail, reader_sleeping, writer_sleeping
// A writer that finds the ring full looks for room this long before sleeping.
constexpr int64_t kRoomSpinNs = 50'000;
// A writer that sleeps for room is woken once this part of the ring (or what
// it needs, if more) is free. Woken at every message the reader finishes, a
// client running ahead of its renderer would pay a spin, a wake-up and a poll
// for each, and the renderer a write to an eventfd: draw-heavy over 600
// frames, 3,100 wake-ups and 200 ms of the client's CPU, against 110 and
// 93 ms this way (docs/benchmarks.md).
constexpr size_t kWakeWriterAtRingPart = 4;
constexpr size_t kPublishBytes = 256 * 1024;

uint32_t Load(const uint32_t* word) {
  return std::atomic_ref<uint32_t>(*const_cast<uint32_t*>(word)).load(std::memory_order_seq_cst);
}
void Store(uint32_t* word, uint32_t value) { std::atomic_ref<uint32_t>(*word).store(value, std::memory_order_seq_cst); }

void Signal(int fd) {
  const uint64_t one = 1;
  [[maybe_unused]] ssize_t n = write(fd, &one, sizeof one);  // a full counter (EAGAIN) wakes as well
}

bool IsEventFd(int fd) {
  char link[64] = {};
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  const ssize_t n = readlink(path.c_str(), link, sizeof link - 1);
  return n > 0 && std::string(link, static_cast<size_t>(n)) == "anon_inode:[eventfd]";
}

std::string ErrnoText(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

RingStream::RingStream(int socket_fd, std::string peer, uint32_t ring_bytes)
    : socket_fd_(socket_fd), peer_(std::move(peer)), size_(ring_bytes) {}

RingStream::~RingStream() {
  if (control_ != nullptr) munmap(control_, kControlBytes);
  for (void* mapping : mapping_) {
    if (mapping != nullptr) munmap(mapping, 2 * static_cast<size_t>(size_));
  }
  for (int fd : descriptors_) {
    if (fd >= 0) close(fd);
  }
  close(socket_fd_);
}

std::unique_ptr<RingStream> RingStream::Create(int socket_fd, std::string peer, uint32_t ring_bytes,
                                               std::string* error) {
  std::unique_ptr<RingStream> stream(new RingStream(socket_fd, std::move(peer), ring_bytes));
  const std::string where = "cannot make the shared-memory ring to " + stream->peer_ + ": ";
  int& memory = stream->descriptors_[0];
  memory = memfd_create("strata-ring", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (memory < 0) {
    *error = where + ErrnoText("memfd_create");
    return nullptr;
  }
  // Sealed so that the server can trust the size: a file shrunk under its
  // mapping would kill it with SIGBUS.
  if (ftruncate(memory, static_cast<off_t>(kControlBytes + 2 * static_cast<size_t>(ring_bytes))) != 0 ||
      fcntl(memory, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
    *error = where + ErrnoText("sizing the memory");
    return nullptr;
  }
  for (int i = 1; i < kRingDescriptorCount; ++i) {
    stream->descriptors_[i] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (stream->descriptors_[i] < 0) {
      *error = where + ErrnoText("eventfd");
      return nullptr;
    }
  }
  if (!stream->Map(memory, /*client=*/true, error)) {
    *error = where + *error;
    return nullptr;
  }
  return stream;
}

std::unique_ptr<RingStream> RingStream::Adopt(int socket_fd, std::string peer, uint32_t ring_bytes,
                                              const int (&descriptors)[kRingDescriptorCount], std::string* error) {
  std::unique_ptr<RingStream> stream(new RingStream(socket_fd, std::move(peer), ring_bytes));
  std::copy(std::begin(descriptors), std::end(descriptors), stream->descriptors_);
  const std::string where = "refused the shared-memory ring of " + stream->peer_ + ": ";
  if (ring_bytes < kMinRingBytes || ring_bytes > kMaxRingBytes || (ring_bytes & (ring_bytes - 1)) != 0 ||
      ring_bytes % static_cast<uint32_t>(sysconf(_SC_PAGESIZE)) != 0) {
    *error = where + "rings of " + std::to_string(ring_bytes) + " bytes (a power of two from " +
             std::to_string(kMinRingBytes) + " to " + std::to_string(kMaxRingBytes) + " expected)";
    return nullptr;
  }
  const int memory = stream->descriptors_[0];
  const int seals = fcntl(memory, F_GET_SEALS);
  if (seals < 0 || (seals & F_SEAL_SHRINK) == 0) {
    *error = where + "its memory is not a memfd sealed against shrinking";
    return nullptr;
  }
  struct stat status{};
  const size_t expected = kControlBytes + 2 * static_cast<size_t>(ring_bytes);
  if (fstat(memory, &status) != 0 || static_cast<size_t>(status.st_size) != expected) {
    *error = where + "its memory is " + std::to_string(status.st_size) + " bytes, not " + std::to_string(expected);
    return nullptr;
  }
  for (int i = 1; i < kRingDescriptorCount; ++i) {
    const int fd = stream->descriptors_[i];
    // A pipe in an eventfd's place could block the server's writes.
    if (!IsEventFd(fd) || fcntl(fd, F_SETFL, O_NONBLOCK) != 0) {
      *error = where + "descriptor " + std::to_string(i) + " is not an eventfd";
      return nullptr;
    }
  }
  if (!stream->Map(memory, /*client=*/false, error)) {
    *error = where + *error;
    return nullptr;
  }
  return stream;
}

void RingStream::ResumeAt(uint32_t read_position, uint32_t write_position) {
  read_pos_ = released_ = read_position;
  write_pos_ = published_ = write_position;
}

bool RingStream::ExportState(StreamState* state) const {
  if (broken() || holding_ || reserved_ != 0 || write_pos_ != published_) return false;
  StreamState out;
  out.kind = StreamState::Kind::kRing;
  out.peer = peer_;
  out.ring_bytes = size_;
  out.read_position = read_pos_;
  out.write_position = write_pos_;
  out.descriptors.push_back(fcntl(socket_fd_, F_DUPFD_CLOEXEC, 0));
  for (int fd : descriptors_) out.descriptors.push_back(fcntl(fd, F_DUPFD_CLOEXEC, 0));
  for (int fd : out.descriptors) {
    if (fd < 0) return false;  // out's destructor closes the others
  }
  *state = std::move(out);
  return true;
}

bool RingStream::Map(int memory_fd, bool client, std::string* error) {
  control_ = mmap(nullptr, kControlBytes, PROT_READ | PROT_WRITE, MAP_SHARED, memory_fd, 0);
  if (control_ == MAP_FAILED) {
    control_ = nullptr;
    *error = ErrnoText("mmap");
    return false;
  }
  const size_t size = size_;
  Ring rings[2];
  for (int r = 0; r < 2; ++r) {
    // Twice in a row, so that any run of bytes up to the ring's size is one
    // span: no record is ever split at the end of the ring.
    void* base = mmap(nullptr, 2 * size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
      *error = ErrnoText("mmap");
      return false;
    }
    mapping_[r] = base;
    const off_t offset = static_cast<off_t>(kControlBytes + r * size);
    for (size_t copy = 0; copy < 2; ++copy) {
      void* at = static_cast<uint8_t*>(base) + copy * size;
      if (mmap(at, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, memory_fd, offset) == MAP_FAILED) {
        *error = ErrnoText("mmap");
        return false;
      }
    }
    auto* words = static_cast<uint8_t*>(control_) + r * kRingControlBytes;
    Ring& ring = rings[r];
    ring.data = static_cast<uint8_t*>(base);
    ring.head = reinterpret_cast<uint32_t*>(words);
    ring.tail = reinterpret_cast<uint32_t*>(words + kLine);
    ring.reader_sleeping = reinterpret_cast<uint32_t*>(words + 2 * kLine);
    ring.writer_sleeping = reinterpret_cast<uint32_t*>(words + 3 * kLine);
    ring.data_ready_fd = descriptors_[1 + 2 * r];
    ring.room_ready_fd = descriptors_[2 + 2 * r];
  }
  // Ring 0 carries the client's bytes to the server, ring 1 the answers.
  out_ = rings[client ? 0 : 1];
  in_ = rings[client ? 1 : 0];
  return true;
}

template <typename Ready>
ByteStream::ReadResult RingStream::Wait(Ready ready, uint32_t* sleeping, int wake_fd, int timeout_ms,
                                        int64_t spin_ns, uint32_t sleeping_word) {
  const auto start = Clock::now();
  if (SpinWhileUseful(ready, spin_ns)) return ReadResult::kOk;
  for (;;) {
    Store(sleeping, sleeping_word);
    // Looked at after saying so: the writer either sees the word or wrote
    // before this look (both sides' stores and loads are sequentially consistent).
    if (ready()) {
      Store(sleeping, 0);
      return ReadResult::kOk;
    }
    int wait_ms = -1;
    if (timeout_ms >= 0) {
      const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
      wait_ms = static_cast<int>(std::max<int64_t>(timeout_ms - spent, 0));
    }
    // The socket carries nothing once the rings are up: any event on it is
    // the peer going (or this end's Shutdown).
    pollfd fds[2] = {{wake_fd, POLLIN, 0}, {socket_fd_, POLLIN | POLLRDHUP, 0}};
    const int got = shut_down_.load() ? 1 : poll(fds, 2, wait_ms);
    Store(sleeping, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      failed_ = true;
      error_ = "cannot wait for " + peer_ + ": " + std::strerror(errno);
      return ReadResult::kError;
    }
    if (got == 0) return ReadResult::kTimeout;
    if (fds[0].revents & POLLIN) {
      uint64_t count = 0;
      [[maybe_unused]] ssize_t n = read(wake_fd, &count, sizeof count);
    }
    if (shut_down_.load() || fds[1].revents != 0) {
      if (!shut_down_.load() && ready()) return ReadResult::kOk;  // what it wrote before it went
      gone_ = true;
      error_ = ClosedText();
      return ReadResult::kClosed;
    }
  }
}

ByteStream::ReadResult RingStream::Corrupted(const std::string& what) {
  failed_ = true;
  error_ = peer_ + " corrupted the shared-memory ring (" + what + ")";
  return ReadResult::kError;
}

int64_t RingStream::Available() {
  // Read once: the writer may change the word at any time.
  const uint32_t available = Load(in_.head) - read_pos_;
  if (available > size_) {
    Corrupted("its write position is " + std::to_string(available) + " bytes ahead in a ring of " +
              std::to_string(size_));
    return -1;
  }
  return available;
}

int64_t RingStream::Room() {
  const uint32_t used = write_pos_ - Load(out_.tail);
  if (used > size_) {
    Corrupted("its read position is " + std::to_string(used) + " bytes behind a ring of " + std::to_string(size_));
    return -1;
  }
  return size_ - used;
}

void RingStream::Publish() {
  if (write_pos_ == published_ || broken()) return;
  Store(out_.head, write_pos_);
  published_ = write_pos_;
  if (Load(out_.reader_sleeping) != 0) Signal(out_.data_ready_fd);
}

bool RingStream::WaitForRoom(size_t n) {
  const auto enough = [&] {
    const int64_t room = Room();
    return room < 0 || static_cast<size_t>(room) >= n;  // a broken ring ends the wait too
  };
  if (!enough()) {
    Publish();  // the reader cannot make room for bytes it cannot see
    // Asleep, it is woken once the reader has made room for a stretch of
    // messages, not for each: the reader is the busy side.
    const size_t wake_at_room = std::min<size_t>(size_, std::max<size_t>(n, size_ / kWakeWriterAtRingPart));
    Wait(enough, out_.writer_sleeping, out_.room_ready_fd, -1, kRoomSpinNs, static_cast<uint32_t>(wake_at_room));
  }
  return !broken();
}

uint8_t* RingStream::Reserve(size_t n) {
  reserved_ = n;
  staged_ = n > size_ || broken() || !WaitForRoom(n);
  if (!staged_) return out_.data + (write_pos_ & (size_ - 1));
  // Larger than the ring, or the stream failed: written in pieces at Commit
  // (or dropped).
  if (staging_.size() < n) staging_.resize(n);
  return staging_.data();
}

uint8_t* RingStream::ReserveIfRoom(size_t n) {
  if (broken() || n > size_) return nullptr;
  const int64_t room = Room();
  if (room < 0 || static_cast<size_t>(room) < n) return nullptr;
  reserved_ = n;
  staged_ = false;
  return out_.data + (write_pos_ & (size_ - 1));
}

void RingStream::Commit(size_t n) {
  if (n > reserved_) {
    std::fprintf(stderr, "strata: committing %zu bytes to %s with only %zu reserved\n", n, peer_.c_str(), reserved_);
    std::abort();
  }
  reserved_ = 0;
  if (staged_) {
    staged_ = false;
    if (!broken()) WriteInPieces(staging_.data(), n);
    return;
  }
  write_pos_ += static_cast<uint32_t>(n);
}

bool RingStream::Write(const void* data, size_t n) {
  if (!broken() && n > 0) WriteInPieces(static_cast<const uint8_t*>(data), n);
  return !broken();
}

void RingStream::WriteInPieces(const uint8_t* data, size_t n) {
  while (n > 0) {
    if (!WaitForRoom(1)) return;
    // Asked again: a hostile reader may have moved its position since.
    const int64_t room = Room();
    if (room <= 0) {
      if (room == 0) Corrupted("its read position moved back");
      return;
    }
    // Published every kPublishBytes at most: a reader waiting for the whole
    // of a large write sees it coming and stays awake (View).
    const size_t piece = std::min({n, static_cast<size_t>(room), kPublishBytes});
    if (data != nullptr) {
      std::memcpy(out_.data + (write_pos_ & (size_ - 1)), data, piece);
      data += piece;
    }
    write_pos_ += static_cast<uint32_t>(piece);
    n -= piece;
    // Large writes stream: the reader copies out one piece while this side writes the next.
    if (n > 0) Publish();
  }
}

size_t RingStream::PlacementPadding(size_t prefix, size_t n) const {
  if (n < size_ / 8 || n > ViewLimit()) return 0;
  const uint32_t half = size_ / 2;
  const uint32_t at = (write_pos_ + static_cast<uint32_t>(prefix)) & (half - 1);
  return at == 0 ? 0 : half - at;
}

bool RingStream::WritePadding(size_t n) {
  if (!broken() && n > 0) WriteInPieces(nullptr, n);
  return !broken();
}

bool RingStream::Flush() {
  Publish();
  return !broken();
}

bool RingStream::ReadFully(void* data, size_t n) { return ReadFullyWithin(data, n, -1) == ReadResult::kOk; }

ByteStream::ReadResult RingStream::ReadFullyWithin(void* data, size_t n, int timeout_ms) {
  auto* out = static_cast<uint8_t*>(data);
  size_t done = 0;
  const Deadline deadline(timeout_ms);  // all n bytes, not only the first
  while (done < n) {
    if (failed_) return ReadResult::kError;
    const int64_t available = Available();
    if (available < 0) return ReadResult::kError;
    if (available == 0) {
      const ReadResult got = Wait([&] { return Load(in_.head) != read_pos_; }, in_.reader_sleeping,
                                  in_.data_ready_fd, deadline.LeftMs(), read_spin_ns_);
      if (got == ReadResult::kOk) continue;
      if (got == ReadResult::kTimeout && done > 0) error_ = PartialMessageText(peer_, done, n, timeout_ms);
      if (got == ReadResult::kClosed && done > 0) {
        error_ += " in the middle of a message (" + std::to_string(done) + " of " + std::to_string(n) + " bytes came)";
      }
      return got;
    }
    const size_t piece = std::min<size_t>(n - done, available);
    std::memcpy(out + done, in_.data + (read_pos_ & (size_ - 1)), piece);
    done += piece;
    read_pos_ += static_cast<uint32_t>(piece);
    if (!holding_) GiveRoomBack();
  }
  return ReadResult::kOk;
}

bool RingStream::Skip(size_t n) {
  while (n > 0) {
    if (failed_) return false;
    const int64_t available = Available();
    if (available < 0) return false;
    if (available == 0) {
      if (Wait([&] { return Load(in_.head) != read_pos_; }, in_.reader_sleeping, in_.data_ready_fd, -1,
               read_spin_ns_) != ReadResult::kOk) {
        return false;
      }
      continue;
    }
    const size_t piece = std::min<size_t>(n, available);
    read_pos_ += static_cast<uint32_t>(piece);
    n -= piece;
    if (!holding_) GiveRoomBack();
  }
  return true;
}

void RingStream::GiveRoomBack() {
  released_ = read_pos_;
  Store(in_.tail, read_pos_);
  // The word is the room the writer sleeps for; a writer's word is only
  // ever a reason to wake it, whatever it says.
  const uint32_t wanted = Load(in_.writer_sleeping);
  if (wanted == 0) return;
  const uint32_t unread = Load(in_.head) - read_pos_;
  if (unread > size_ || size_ - unread >= wanted) Signal(in_.room_ready_fd);
}

const uint8_t* RingStream::View(size_t n) {
  // Everything read since the first view is held, views or not.
  const size_t held = read_pos_ - released_;
  if (failed_ || held > ViewLimit() || n > ViewLimit() - held) return nullptr;
  for (;;) {
    const int64_t available = Available();
    if (available < 0) return nullptr;
    if (static_cast<size_t>(available) >= n) break;
    const auto enough = [&] {
      const uint32_t now = Load(in_.head) - read_pos_;
      return now >= n || now > size_;
    };
    // While the bytes keep coming the writer is in the middle of them: stay
    // awake until they stop for a spin's length (a sleeper is woken across
    // CPUs, which costs more than a large write's remaining pieces).
    for (uint32_t seen = Load(in_.head); !enough();) {
      const auto moved = [&] { return enough() || Load(in_.head) != seen; };
      if (!SpinWhileUseful(moved, read_spin_ns_)) break;
      seen = Load(in_.head);
    }
    if (enough()) continue;
    if (Wait(enough, in_.reader_sleeping, in_.data_ready_fd, -1, 0) != ReadResult::kOk) {
      if (gone_) error_ += " in the middle of a message (" + std::to_string(n) + " bytes expected)";
      return nullptr;
    }
  }
  const uint8_t* view = in_.data + (read_pos_ & (size_ - 1));
  read_pos_ += static_cast<uint32_t>(n);
  holding_ = true;
  return view;
}

void RingStream::ReleaseViews() {
  if (!holding_) return;
  holding_ = false;
  if (!failed_) GiveRoomBack();
}

bool RingStream::HasBufferedInput() const { return !failed_ && Load(in_.head) != read_pos_; }

void RingStream::Shutdown() {
  shut_down_.store(true);
  shutdown(socket_fd_, SHUT_RDWR);  // wakes this end's sleeper as well as the peer
}

std::string RingStream::ClosedText() const {
  return shut_down_.load() ? "the connection to " + peer_ + " was shut down" : peer_ + " closed the connection";
}

}  // namespace strata::transport
