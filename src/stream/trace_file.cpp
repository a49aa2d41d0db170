#include "stream/trace_file.h"

#include <fcntl.h>
#include <lz4.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace strata::stream {
namespace {

bool g_checksums_ignored = false;

// On-disk constants; see docs/trace-format.md.
constexpr char kFileMagic[8] = {'S', 'T', 'R', 'A', 'T', 'R', 'C', '\n'};
constexpr size_t kFileHeaderFixed = 20;  // magic, version, body length, body CRC.
constexpr size_t kChunkHeaderSize = 40;
constexpr size_t kTrailerSize = 12;
constexpr size_t kIndexEntrySize = 20;
constexpr char kChunkMagic[4] = {'C', 'H', 'N', 'K'};
constexpr char kIndexMagic[4] = {'I', 'N', 'D', 'X'};
constexpr char kTrailerMagic[4] = {'T', 'E', 'N', 'D'};
// Bounds on sizes read from the file, so a corrupt length never turns into a
// huge allocation.
constexpr uint32_t kMaxChunkBytes = 1u << 30;
constexpr uint32_t kMaxHeaderBody = 16u << 20;
// Codec byte values on disk (stable: never renumber).
constexpr uint8_t kCodecNone = 0, kCodecLz4 = 1, kCodecZstd = 2;
constexpr int kZstdLevel = 3;

constexpr const char* kKeyProgram = "program";
constexpr const char* kKeyPid = "pid";
constexpr const char* kKeyCommandLine = "command_line";
constexpr const char* kKeyStartTime = "start_time_unix_ns";

void PutU32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
void PutU64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t GetU32(const uint8_t* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= uint32_t{p[i]} << (8 * i);
  return v;
}
uint64_t GetU64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

void AppendString(std::vector<uint8_t>* out, std::string_view s) {
  size_t at = out->size();
  out->resize(at + 4 + s.size());
  PutU32(out->data() + at, static_cast<uint32_t>(s.size()));
  memcpy(out->data() + at + 4, s.data(), s.size());
}

// CRC-32 of the chunk header with its CRC field zeroed, then the stored bytes,
// so a flipped bit in the header (sizes, thread, sequence) is caught too.
uint32_t ChunkCrc(const uint8_t* header, const uint8_t* stored, uint32_t stored_size) {
  uint8_t copy[kChunkHeaderSize];
  memcpy(copy, header, kChunkHeaderSize);
  PutU32(copy + 16, 0);
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, copy, kChunkHeaderSize);
  // Not with no bytes: zlib answers crc32(crc, NULL, 0) with its initial value,
  // and an empty vector's data() may be NULL (an empty frame index).
  if (stored_size > 0) crc = crc32(crc, stored, stored_size);
  return static_cast<uint32_t>(crc);
}

// Builds header + stored bytes for one chunk, with `tail` spare bytes at the
// end (for the trailer), so the whole thing goes out in one write.
std::vector<uint8_t> BuildChunk(const char (&magic)[4], Compression compression, std::span<const uint8_t> raw,
                                const ChunkInfo& info, size_t tail) {
  const size_t raw_size = raw.size();
  size_t bound = raw_size;
  if (compression == Compression::kLz4) bound = static_cast<size_t>(LZ4_compressBound(static_cast<int>(raw_size)));
  if (compression == Compression::kZstd) bound = ZSTD_compressBound(raw_size);
  std::vector<uint8_t> buf(kChunkHeaderSize + std::max(bound, raw_size) + tail);
  uint8_t* stored = buf.data() + kChunkHeaderSize;

  uint8_t codec = kCodecNone;
  size_t stored_size = raw_size;
  if (raw_size > 0 && compression == Compression::kLz4) {
    int n = LZ4_compress_default(reinterpret_cast<const char*>(raw.data()), reinterpret_cast<char*>(stored),
                                 static_cast<int>(raw_size), static_cast<int>(bound));
    if (n > 0 && static_cast<size_t>(n) < raw_size) codec = kCodecLz4, stored_size = static_cast<size_t>(n);
  } else if (raw_size > 0 && compression == Compression::kZstd) {
    size_t n = ZSTD_compress(stored, bound, raw.data(), raw_size, kZstdLevel);
    if (!ZSTD_isError(n) && n < raw_size) codec = kCodecZstd, stored_size = n;
  }
  // Data that does not shrink is stored raw: cheaper to read, never larger.
  if (codec == kCodecNone && raw_size > 0) memcpy(stored, raw.data(), raw_size);

  uint8_t* h = buf.data();
  memcpy(h, magic, 4);
  h[4] = codec;
  h[5] = h[6] = h[7] = 0;
  PutU32(h + 8, static_cast<uint32_t>(stored_size));
  PutU32(h + 12, static_cast<uint32_t>(raw_size));
  PutU32(h + 20, info.thread_id);
  PutU64(h + 24, info.first_sequence);
  PutU32(h + 32, info.record_count);
  PutU32(h + 36, info.first_frame);
  PutU32(h + 16, ChunkCrc(h, stored, static_cast<uint32_t>(stored_size)));
  buf.resize(kChunkHeaderSize + stored_size + tail);
  return buf;
}

// pread until `len` bytes or end of file; returns the count, or -1 (errno set).
ssize_t ReadAt(int fd, uint64_t offset, void* buf, size_t len) {
  size_t done = 0;
  while (done < len) {
    ssize_t n = pread(fd, static_cast<uint8_t*>(buf) + done, len - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(done);
}

uint64_t FileSize(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

std::string Format(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string Format(const char* format, ...) {
  char buf[512];
  va_list args;
  va_start(args, format);
  vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return buf;
}

enum class ChunkStatus { kOk, kEnd, kTruncated, kCorrupt };

struct ChunkRead {
  ChunkStatus status = ChunkStatus::kOk;
  bool is_index = false;  // The magic said INDX (set even when the rest failed).
  ChunkInfo info;
  uint64_t next = 0;      // Offset after this chunk.
  std::string detail;     // Why it is truncated or corrupt.
};

class VectorSink final : public ChunkSink {
 public:
  explicit VectorSink(std::vector<uint8_t>* out) : out_(out) {}
  uint8_t* Room(size_t n) override {
    out_->resize(n);
    return out_->data();
  }
  void Clear() override { out_->clear(); }

 private:
  std::vector<uint8_t>* out_;
};

// Grows only: a chunk read into it zero-fills nothing (ByteBuffer's storage
// keeps its size; the bytes in use are [0, size)).
class BufferSink final : public ChunkSink {
 public:
  explicit BufferSink(ByteBuffer* out) : out_(out) {}
  uint8_t* Room(size_t n) override {
    if (out_->storage.size() < n) out_->storage.resize(n);
    out_->size = n;
    return out_->storage.data();
  }
  void Clear() override { out_->Clear(); }

 private:
  ByteBuffer* out_;
};

// Reads and checks the chunk at `at`, decompressing into *out. Every length
// from the file is checked against kMaxChunkBytes and the file size before it
// is used to allocate or read. With `out` null only the header is read and
// checked (the CRC and contents are checked when the chunk is really read).
ChunkRead ReadChunkAt(int fd, uint64_t at, std::vector<uint8_t>* stored_buf, ChunkSink* out) {
  ChunkRead r;
  const uint64_t size = FileSize(fd);  // Re-read: the file may still be growing.
  if (at == size) return r.status = ChunkStatus::kEnd, r;
  uint8_t h[kChunkHeaderSize];
  ssize_t n = ReadAt(fd, at, h, sizeof h);
  if (n < 0) return r.status = ChunkStatus::kCorrupt, r.detail = Format("read error: %s", strerror(errno)), r;
  if (n < static_cast<ssize_t>(kChunkHeaderSize)) {
    // "I", "IN", ... cannot start a data chunk ("CHNK"), so a cut index is still told apart.
    r.is_index = n > 0 && memcmp(h, kIndexMagic, std::min<size_t>(static_cast<size_t>(n), 4)) == 0;
    r.status = ChunkStatus::kTruncated;
    r.detail = Format("only %zd of its %zu header bytes are present", n, kChunkHeaderSize);
    return r;
  }
  r.is_index = memcmp(h, kIndexMagic, 4) == 0;
  if (!r.is_index && memcmp(h, kChunkMagic, 4) != 0)
    return r.status = ChunkStatus::kCorrupt, r.detail = "bad chunk magic (expected \"CHNK\")", r;
  const uint8_t codec = h[4];
  const uint32_t stored_size = GetU32(h + 8), raw_size = GetU32(h + 12), crc = GetU32(h + 16);
  if (codec > kCodecZstd) return r.status = ChunkStatus::kCorrupt, r.detail = Format("unknown codec %u", codec), r;
  if (stored_size > kMaxChunkBytes || raw_size > kMaxChunkBytes) {
    r.status = ChunkStatus::kCorrupt;
    r.detail = Format("implausible sizes (stored %" PRIu32 ", raw %" PRIu32 " bytes; at most 1 GiB)", stored_size,
                      raw_size);
    return r;
  }
  if ((codec == kCodecNone && stored_size != raw_size) || (codec != kCodecNone && (stored_size == 0 || raw_size == 0))) {
    r.status = ChunkStatus::kCorrupt;
    r.detail = Format("inconsistent sizes (codec %u, stored %" PRIu32 ", raw %" PRIu32 ")", codec, stored_size, raw_size);
    return r;
  }
  // LZ4 encodes at most 255 bytes per byte it stores: a larger raw size is a
  // lie, refused before it is allocated.
  if (codec == kCodecLz4 && raw_size > uint64_t{stored_size} * 255 + 16) {
    r.status = ChunkStatus::kCorrupt;
    r.detail = Format("implausible sizes (LZ4 cannot make %" PRIu32 " bytes of %" PRIu32 ")", raw_size, stored_size);
    return r;
  }
  const uint64_t end = at + kChunkHeaderSize + stored_size;
  if (end > size) {
    r.status = ChunkStatus::kTruncated;
    r.detail = Format("it needs %" PRIu64 " bytes, the file ends after %" PRIu64, end - at, size - at);
    return r;
  }
  if (out == nullptr) {
    r.info = {GetU32(h + 20), GetU64(h + 24), GetU32(h + 32), GetU32(h + 36)};
    r.next = end;
    return r;
  }
  // Stored bytes go straight to the sink when they are the raw ones; the
  // stored buffer only grows, so that no chunk zero-fills it.
  uint8_t* stored = nullptr;
  if (codec == kCodecNone) {
    stored = out->Room(stored_size);
  } else {
    if (stored_buf->size() < stored_size) stored_buf->resize(stored_size);
    stored = stored_buf->data();
  }
  n = ReadAt(fd, at + kChunkHeaderSize, stored, stored_size);
  if (n < 0) return r.status = ChunkStatus::kCorrupt, r.detail = Format("read error: %s", strerror(errno)), r;
  if (n < static_cast<ssize_t>(stored_size))
    return r.status = ChunkStatus::kTruncated, r.detail = "the file shrank while it was read", r;
  const uint32_t actual = ChunkCrc(h, stored, stored_size);
  if (actual != crc && !g_checksums_ignored) {
    r.status = ChunkStatus::kCorrupt;
    r.detail = Format("CRC mismatch (stored 0x%08" PRIx32 ", computed 0x%08" PRIx32 ")", crc, actual);
    return r;
  }

  if (codec == kCodecNone) {
    // Read in place above.
  } else if (codec == kCodecLz4) {
    uint8_t* raw = out->Room(raw_size);
    int got = LZ4_decompress_safe(reinterpret_cast<const char*>(stored), reinterpret_cast<char*>(raw),
                                  static_cast<int>(stored_size), static_cast<int>(raw_size));
    if (got != static_cast<int>(raw_size)) {
      r.status = ChunkStatus::kCorrupt;
      r.detail = got < 0 ? "LZ4 decompression failed"
                         : Format("LZ4 data decompresses to %d bytes, not %" PRIu32, got, raw_size);
      return r;
    }
  } else {
    // The frame states its content size: check it before allocating.
    unsigned long long content = ZSTD_getFrameContentSize(stored, stored_size);
    if (content != raw_size) {
      r.status = ChunkStatus::kCorrupt;
      r.detail = content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN
                     ? "zstd frame header is invalid"
                     : Format("zstd frame holds %llu bytes, not %" PRIu32, content, raw_size);
      return r;
    }
    uint8_t* raw = out->Room(raw_size);
    size_t got = ZSTD_decompress(raw, raw_size, stored, stored_size);
    if (ZSTD_isError(got) || got != raw_size) {
      r.status = ChunkStatus::kCorrupt;
      r.detail = ZSTD_isError(got) ? Format("zstd decompression failed: %s", ZSTD_getErrorName(got))
                                   : Format("zstd data decompresses to %zu bytes, not %" PRIu32, got, raw_size);
      return r;
    }
  }
  r.info.thread_id = GetU32(h + 20);
  r.info.first_sequence = GetU64(h + 24);
  r.info.record_count = GetU32(h + 32);
  r.info.first_frame = GetU32(h + 36);
  r.next = end;
  return r;
}

bool IsReservedKey(std::string_view key) {
  return key == kKeyProgram || key == kKeyPid || key == kKeyCommandLine || key == kKeyStartTime;
}

}  // namespace

void IgnoreChecksumsForFuzzing() { g_checksums_ignored = true; }

bool ParseCompression(std::string_view name, Compression* out) {
  if (name == "none") return *out = Compression::kNone, true;
  if (name == "lz4") return *out = Compression::kLz4, true;
  if (name == "zstd") return *out = Compression::kZstd, true;
  return false;
}

const char* CompressionName(Compression compression) {
  switch (compression) {
    case Compression::kNone: return "none";
    case Compression::kLz4: return "lz4";
    case Compression::kZstd: return "zstd";
  }
  return "?";
}

// ---------------------------------------------------------------- writer

TraceFileWriter::TraceFileWriter(std::string path, int fd, Compression compression, uint64_t offset)
    : path_(std::move(path)), compression_(compression), fd_(fd), offset_(offset) {}

TraceFileWriter::~TraceFileWriter() {
  if (fd_ >= 0) close(fd_);
}

std::unique_ptr<TraceFileWriter> TraceFileWriter::Create(const std::string& path, const TraceHeader& header,
                                                         Compression compression, std::string* error) {
  return Start(-1, path, header, compression, error);
}

std::unique_ptr<TraceFileWriter> TraceFileWriter::CreateOnSocket(int fd, const std::string& description,
                                                                 const TraceHeader& header, Compression compression,
                                                                 std::string* error) {
  return Start(fd, description, header, compression, error);
}

std::unique_ptr<TraceFileWriter> TraceFileWriter::Start(int descriptor, const std::string& path,
                                                        const TraceHeader& header, Compression compression,
                                                        std::string* error) {
  std::vector<uint8_t> body;
  auto add = [&](std::string_view key, std::string_view value) {
    AppendString(&body, key);
    AppendString(&body, value);
  };
  add(kKeyProgram, header.program);
  add(kKeyPid, std::to_string(header.pid));
  add(kKeyCommandLine, header.command_line);
  add(kKeyStartTime, std::to_string(header.start_time_unix_ns));
  for (const auto& [key, value] : header.extra) {
    if (IsReservedKey(key)) {
      *error = path + ": header extra key \"" + key + "\" clashes with a fixed header field";
      return nullptr;
    }
    add(key, value);
  }
  if (body.size() > kMaxHeaderBody) {
    *error = path + Format(": header is too large (%zu bytes; at most %" PRIu32 ")", body.size(), kMaxHeaderBody);
    return nullptr;
  }
  std::vector<uint8_t> bytes(kFileHeaderFixed);
  memcpy(bytes.data(), kFileMagic, 8);
  PutU32(bytes.data() + 8, kTraceFormatVersion);
  PutU32(bytes.data() + 12, static_cast<uint32_t>(body.size()));
  PutU32(bytes.data() + 16, static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), body.data(), static_cast<uInt>(body.size()))));
  bytes.insert(bytes.end(), body.begin(), body.end());

  int fd = descriptor;
  if (fd < 0) fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    *error = path + ": cannot create trace file: " + strerror(errno);
    return nullptr;
  }
  std::unique_ptr<TraceFileWriter> writer(new TraceFileWriter(path, fd, compression, 0));
  writer->is_socket_ = descriptor >= 0;
  // Written at once so a trace killed before its first chunk is still valid.
  bool ok;
  {
    std::lock_guard lock(writer->mu_);
    ok = writer->AppendLocked(bytes, error);
  }
  return ok ? std::move(writer) : nullptr;
}

bool TraceFileWriter::AppendLocked(std::span<const uint8_t> bytes, std::string* error) {
  if (!failure_.empty()) return *error = failure_, false;
  if (fd_ < 0) return *error = path_ + ": trace file is already finished", false;
  size_t done = 0;
  while (done < bytes.size()) {
    // A socket whose peer went away must fail the write, not raise SIGPIPE in the app.
    ssize_t n = is_socket_ ? send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL)
                           : write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      // Later chunks would land after a partial one, so the writer stays failed.
      failure_ = path_ + Format(": write failed at byte %" PRIu64 ": %s", offset_ + done,
                                n < 0 ? strerror(errno) : "write returned 0");
      return *error = failure_, false;
    }
    done += static_cast<size_t>(n);  // A short write (e.g. disk nearly full): write the rest.
  }
  offset_ += bytes.size();
  return true;
}

bool TraceFileWriter::WriteChunk(std::span<const uint8_t> records, const ChunkInfo& info, std::string* error) {
  if (records.size() > kMaxChunkBytes) {
    *error = path_ + Format(": chunk of %zu bytes is too large (at most 1 GiB)", records.size());
    return false;
  }
  // Compress before taking the lock so app threads do not wait on each other.
  std::vector<uint8_t> chunk = BuildChunk(kChunkMagic, compression_, records, info, 0);
  std::lock_guard lock(mu_);
  return AppendLocked(chunk, error);
}

void TraceFileWriter::AddFrame(uint32_t frame, uint64_t sequence) {
  std::lock_guard lock(mu_);
  frames_.push_back({frame, offset_, sequence});
}

bool TraceFileWriter::Finish(std::string* error) {
  std::lock_guard lock(mu_);
  if (fd_ < 0) return *error = path_ + ": trace file is already finished", false;
  bool ok = true;
  if (frames_.size() > kMaxChunkBytes / kIndexEntrySize) {
    *error = path_ + ": too many frames for the index";
    ok = false;
  } else {
    std::vector<uint8_t> entries(frames_.size() * kIndexEntrySize);
    for (size_t i = 0; i < frames_.size(); ++i) {
      uint8_t* e = entries.data() + i * kIndexEntrySize;
      PutU32(e, frames_[i].frame);
      PutU64(e + 4, frames_[i].chunk_offset);
      PutU64(e + 12, frames_[i].sequence);
    }
    ChunkInfo info;
    info.record_count = static_cast<uint32_t>(frames_.size());
    const uint64_t index_offset = offset_;
    // Index and trailer in one write: the trailer only exists if the index does.
    std::vector<uint8_t> bytes = BuildChunk(kIndexMagic, compression_, entries, info, kTrailerSize);
    uint8_t* trailer = bytes.data() + bytes.size() - kTrailerSize;
    memcpy(trailer, kTrailerMagic, 4);
    PutU64(trailer + 4, index_offset);
    ok = AppendLocked(bytes, error);
  }
  // close() can report a deferred write error (NFS, quota).
  if (close(fd_) != 0 && ok) {
    *error = path_ + ": closing the trace file failed: " + strerror(errno);
    ok = false;
  }
  fd_ = -1;
  return ok;
}

// ---------------------------------------------------------------- reader

TraceFileReader::~TraceFileReader() { close(fd_); }

std::unique_ptr<TraceFileReader> TraceFileReader::Open(const std::string& path, std::string* error) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = path + ": cannot open: " + strerror(errno);
    return nullptr;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    *error = path + ": not a regular file, so not a Strata trace";
    return nullptr;
  }
  std::unique_ptr<TraceFileReader> reader(new TraceFileReader(path, fd));
  if (!reader->ReadHeader(error)) return nullptr;
  reader->LoadIndex();
  return reader;
}

bool TraceFileReader::ReadHeader(std::string* error) {
  const uint64_t size = FileSize(fd_);
  uint8_t fixed[kFileHeaderFixed];
  ssize_t n = ReadAt(fd_, 0, fixed, sizeof fixed);
  if (n < 0) return *error = path_ + ": cannot read: " + strerror(errno), false;
  if (n == 0) return *error = path_ + ": empty file (0 bytes), not a Strata trace", false;
  if (memcmp(fixed, kFileMagic, std::min<size_t>(static_cast<size_t>(n), 8)) != 0)
    return *error = path_ + ": not a Strata trace (bad magic at byte 0: expected \"STRATRC\\n\")", false;
  if (n < static_cast<ssize_t>(kFileHeaderFixed)) {
    *error = path_ + Format(": file header is truncated at byte %zd (it needs %zu bytes)", n, kFileHeaderFixed);
    return false;
  }
  header_.format_version = GetU32(fixed + 8);
  if (header_.format_version != kTraceFormatVersion) {
    *error = path_ + Format(": unsupported trace format version %" PRIu32 " at byte 8 (this build reads version %" PRIu32
                            ")", header_.format_version, kTraceFormatVersion);
    return false;
  }
  const uint32_t body_size = GetU32(fixed + 12);
  if (body_size > kMaxHeaderBody) {
    *error = path_ + Format(": header length %" PRIu32 " at byte 12 is implausible (at most %" PRIu32 "); corrupt file",
                            body_size, kMaxHeaderBody);
    return false;
  }
  if (size < kFileHeaderFixed + body_size) {
    *error = path_ + Format(": file header is truncated at byte %" PRIu64 " (it needs %zu bytes)", size,
                            kFileHeaderFixed + body_size);
    return false;
  }
  std::vector<uint8_t> body(body_size);
  if (ReadAt(fd_, kFileHeaderFixed, body.data(), body_size) != static_cast<ssize_t>(body_size))
    return *error = path_ + ": cannot read the file header", false;
  if (static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), body.data(), body_size)) != GetU32(fixed + 16) &&
      !g_checksums_ignored) {
    *error = path_ + Format(": file header is corrupt (CRC mismatch over bytes %zu..%zu)", kFileHeaderFixed,
                            kFileHeaderFixed + body_size);
    return false;
  }

  // Key/value pairs. Each length is checked against what is left of the body.
  size_t pos = 0;
  auto next_string = [&](std::string* s) {
    if (body_size - pos < 4 || body_size - pos - 4 < GetU32(body.data() + pos)) return false;
    uint32_t len = GetU32(body.data() + pos);
    s->assign(reinterpret_cast<const char*>(body.data() + pos + 4), len);
    pos += 4 + len;
    return true;
  };
  auto malformed = [&](const std::string& why) {
    *error = path_ + Format(": file header is malformed at byte %zu: ", kFileHeaderFixed + pos) + why;
    return false;
  };
  auto parse_int = [](const std::string& s, int64_t* v) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
    return ec == std::errc() && end == s.data() + s.size();
  };
  std::map<std::string, std::string> seen;
  while (pos < body_size) {
    std::string key, value;
    const size_t at = pos;
    if (!next_string(&key) || !next_string(&value)) return malformed("a key or value runs past the header's end");
    if (!seen.emplace(key, value).second) return pos = at, malformed("duplicate key \"" + key + "\"");
    if (key == kKeyProgram) {
      header_.program = value;
    } else if (key == kKeyCommandLine) {
      header_.command_line = value;
    } else if (key == kKeyPid) {
      if (!parse_int(value, &header_.pid)) return pos = at, malformed("pid is not a number");
    } else if (key == kKeyStartTime) {
      if (!parse_int(value, &header_.start_time_unix_ns)) return pos = at, malformed("start time is not a number");
    } else {
      header_.extra[key] = value;
    }
  }
  data_start_ = offset_ = kFileHeaderFixed + body_size;
  return true;
}

void TraceFileReader::LoadIndex() {
  // A finished file ends with the trailer; anything that does not check out
  // (a cut, a flipped bit) just leaves the file incomplete.
  const uint64_t size = FileSize(fd_);
  if (size < data_start_ + kChunkHeaderSize + kTrailerSize) return;
  uint8_t trailer[kTrailerSize];
  if (ReadAt(fd_, size - kTrailerSize, trailer, kTrailerSize) != static_cast<ssize_t>(kTrailerSize)) return;
  if (memcmp(trailer, kTrailerMagic, 4) != 0) return;
  const uint64_t index_offset = GetU64(trailer + 4);
  if (index_offset < data_start_ || index_offset > size - kTrailerSize - kChunkHeaderSize) return;
  std::vector<uint8_t> entries;
  VectorSink entries_sink(&entries);
  ChunkRead r = ReadChunkAt(fd_, index_offset, &stored_, &entries_sink);
  if (r.status != ChunkStatus::kOk || !r.is_index || r.next != size - kTrailerSize ||
      entries.size() != uint64_t{r.info.record_count} * kIndexEntrySize)
    return;
  std::vector<FrameIndexEntry> frames(r.info.record_count);
  for (size_t i = 0; i < frames.size(); ++i) {
    const uint8_t* e = entries.data() + i * kIndexEntrySize;
    frames[i] = {GetU32(e), GetU64(e + 4), GetU64(e + 12)};
    if (frames[i].chunk_offset < data_start_ || frames[i].chunk_offset > index_offset) return;
  }
  frames_ = std::move(frames);
  index_offset_ = index_offset;
}

std::string TraceFileReader::ChunkError(uint64_t at, const std::string& what) const {
  return path_ + Format(": chunk at byte %" PRIu64 " ", at) + what +
         Format("; %" PRIu64 " chunks read before it", chunks_read_);
}

bool TraceFileReader::NextChunk(std::vector<uint8_t>* records, ChunkInfo* info, std::string* error) {
  VectorSink sink(records);
  return NextChunkInto(&sink, info, error);
}

bool TraceFileReader::NextChunk(ByteBuffer* records, ChunkInfo* info, std::string* error) {
  BufferSink sink(records);
  return NextChunkInto(&sink, info, error);
}

// complete() stops at the index; an index met before that was not confirmed by a trailer.
std::string TraceFileReader::CutIndexError(uint64_t offset, uint64_t chunks_before) const {
  return path_ + Format(": index at byte %" PRIu64 " is truncated or damaged (the trace was cut short while it was "
                        "being finished); all %" PRIu64 " chunks before it are intact",
                        offset, chunks_before);
}

bool TraceFileReader::NextChunkInto(ChunkSink* records, ChunkInfo* info, std::string* error) {
  error->clear();
  if (!failure_.empty()) return *error = failure_, false;
  if (complete() && offset_ == index_offset_) return false;
  ChunkRead r = ReadChunkAt(fd_, offset_, &stored_, records);
  if (r.status == ChunkStatus::kEnd) return false;  // Unfinished file that stops on a chunk boundary.
  if (r.is_index) {
    failure_ = CutIndexError(offset_, chunks_read_);
  } else if (r.status == ChunkStatus::kTruncated) {
    failure_ = ChunkError(offset_, "is truncated (" + r.detail +
                                       "; the trace was cut short, e.g. the process was killed)");
  } else if (r.status == ChunkStatus::kCorrupt) {
    failure_ = ChunkError(offset_, "is corrupt (" + r.detail + ")");
  } else {
    *info = r.info;
    offset_ = r.next;
    ++chunks_read_;
    return true;
  }
  records->Clear();
  *error = failure_;
  return false;
}

bool TraceFileReader::ScanChunks(std::vector<ChunkLocation>* chunks, std::string* error) {
  chunks->clear();
  error->clear();
  uint64_t at = data_start_;
  while (!(complete() && at == index_offset_)) {
    ChunkRead r = ReadChunkAt(fd_, at, nullptr, nullptr);
    if (r.status == ChunkStatus::kEnd) return true;  // Unfinished file that stops on a chunk boundary.
    if (r.is_index) {
      *error = CutIndexError(at, chunks->size());
      return false;
    }
    if (r.status != ChunkStatus::kOk) {
      *error = path_ + Format(": chunk at byte %" PRIu64 " is %s (", at,
                              r.status == ChunkStatus::kTruncated ? "truncated" : "corrupt") +
               r.detail + Format("); %zu chunks before it", chunks->size());
      return false;
    }
    chunks->push_back({at, r.info});
    at = r.next;
  }
  return true;
}

bool TraceFileReader::SeekToChunkAt(uint64_t offset, std::string* error) {
  const uint64_t size = FileSize(fd_);
  if (offset < data_start_ || offset > size) {
    *error = path_ + Format(": cannot seek to byte %" PRIu64 ": chunks lie at bytes %" PRIu64 "..%" PRIu64, offset,
                            data_start_, size);
    return false;
  }
  uint8_t magic[4];
  if (offset < size && (ReadAt(fd_, offset, magic, 4) != 4 ||
                        (memcmp(magic, kChunkMagic, 4) != 0 && memcmp(magic, kIndexMagic, 4) != 0))) {
    *error = path_ + Format(": no chunk starts at byte %" PRIu64, offset);
    return false;
  }
  offset_ = offset;
  chunks_read_ = 0;
  failure_.clear();
  return true;
}

}  // namespace strata::stream
