#include "serve/recorder.h"

#include <chrono>

#include "serve/log.h"

namespace strata::serve {
namespace {

// A program name as a file name part: no directories, nothing odd.
std::string FileSafe(const std::string& name) {
  std::string out;
  for (char c : name) out += (isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  if (out.empty() || out[0] == '.') out.insert(out.begin(), '_');
  return out.substr(0, 64);
}

}  // namespace

std::unique_ptr<Recorder> Recorder::Create(const std::string& dir, const std::string& program, int64_t pid,
                                           const std::string& session, const std::string& functions,
                                           std::string* error) {
  stream::TraceHeader header;
  header.program = program;
  header.pid = pid;
  header.start_time_unix_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  header.extra["functions"] = functions;  // the client's table: the stored records keep its ids
  header.extra["writer"] = "strata serve";
  const std::string path = dir + "/" + FileSafe(program) + "-" + std::to_string(pid) + "-" + session + ".strace";
  auto writer = stream::TraceFileWriter::Create(path, header, stream::Compression::kLz4, error);
  if (!writer) return nullptr;
  return std::unique_ptr<Recorder>(new Recorder(std::move(writer)));
}

Recorder::~Recorder() {
  std::string error;
  if (!failed_ && !writer_->Finish(&error)) Log("--record: " + error);
}

void Recorder::WriteChunk(uint32_t thread, uint64_t first_sequence, uint32_t records, std::span<const uint8_t> bytes) {
  if (failed_ || records == 0) return;
  stream::ChunkInfo info;
  info.thread_id = thread;
  info.first_sequence = first_sequence;
  info.record_count = records;
  info.first_frame = static_cast<uint32_t>(frame_);
  std::string error;
  if (!writer_->WriteChunk(bytes, info, &error)) {
    failed_ = true;
    Log("--record: " + error + "; recording of this client stops");
  }
}

uint64_t Recorder::EndFrame(uint64_t sequence) {
  const uint64_t ended = frame_++;
  writer_->AddFrame(static_cast<uint32_t>(frame_), sequence + 1);
  return ended;
}

}  // namespace strata::serve
