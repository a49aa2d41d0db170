#pragma once
// A record source read on a thread of its own: while the caller runs one
// batch of records, the next ones are read, decompressed and put in call
// order (a trace file's OrderedRecordReader) on the other core. A batch
// holds on to the source's chunk buffers where the source lets it
// (PayloadOwner) and copies the payloads only where it does not; a payload
// stays valid until the next Next(), as any RecordSource promises.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "stream/record_source.h"

namespace strata::stream {

class ReadAhead final : public RecordSource {
 public:
  // Starts reading `source` at once; it must not be used elsewhere until
  // this is destroyed (which stops the reading).
  explicit ReadAhead(RecordSource& source);
  ~ReadAhead() override;
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  bool Next(Record* record) override;
  const std::string& error() const override { return error_; }
  bool truncated() const override { return truncated_; }

 private:
  struct Entry {
    RecordType type;
    bool copied;  // into the batch's bytes, at `offset`; else the source's, at `data`
    uint32_t thread_id;
    uint64_t chunk;
    const uint8_t* data;
    size_t offset, size;
  };
  struct Batch {
    std::vector<uint8_t> bytes;  // payloads copied (their source keeps none)
    std::vector<std::shared_ptr<const void>> owners;  // what keeps the other payloads valid (or null)
    std::vector<uint64_t> owned_chunks;               // the chunk of each of `owners`
    std::vector<Entry> entries;
    bool last = false;  // the source ended after this batch
  };
  void Read();
  // Whether `batch` holds `chunk`'s buffer (asking the source the first time): its records need no copy.
  bool Hold(Batch& batch, uint64_t chunk);

  RecordSource& source_;
  std::mutex mu_;
  std::condition_variable ready_, room_;
  std::deque<std::unique_ptr<Batch>> full_;  // read, not yet handed out
  std::vector<std::unique_ptr<Batch>> spare_;  // handed out, for reuse
  bool stopping_ = false;
  std::unique_ptr<Batch> current_;  // the batch Next() hands out from
  size_t at_ = 0;
  bool ended_ = false;
  std::string error_;
  bool truncated_ = false;
  std::string source_error_;
  bool source_truncated_ = false;
  std::thread reader_;
};

}  // namespace strata::stream
