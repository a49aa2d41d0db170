#pragma once
// --record: a session's stream stored as a trace file that dump, stats and
// replay read like a traced program's. Calls are stored with their replies
// merged in (replay needs the names and handles the client was given), and a
// frame record follows every eglSwapBuffers.

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "stream/trace_file.h"

namespace strata::serve {

class Recorder {
 public:
  // DIR/<program>-<pid>-<session>.strace; null with a one-line *error.
  static std::unique_ptr<Recorder> Create(const std::string& dir, const std::string& program, int64_t pid,
                                          const std::string& session, const std::string& functions,
                                          std::string* error);
  // Finishes the file (index and trailer).
  ~Recorder();

  // The records one connection's message gave, as one chunk of its thread.
  // A failure is logged once; the clients go on rendering without the file.
  void WriteChunk(uint32_t thread, uint64_t first_sequence, uint32_t records, std::span<const uint8_t> bytes);
  // A frame ended with call `sequence`: returns the number of the frame that
  // ended (for its frame record) and indexes the next one.
  uint64_t EndFrame(uint64_t sequence);
  uint64_t frame() const { return frame_; }
  const std::string& path() const { return writer_->path(); }

 private:
  explicit Recorder(std::unique_ptr<stream::TraceFileWriter> writer) : writer_(std::move(writer)) {}
  std::unique_ptr<stream::TraceFileWriter> writer_;
  uint64_t frame_ = 0;
  bool failed_ = false;
};

}  // namespace strata::serve
