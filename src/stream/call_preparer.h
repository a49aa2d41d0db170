#pragma once
// Keeps call records decoded (stream/prepared_call.h) as a run of records
// goes by in stream order: each call record is decoded (so that the next
// one's sequence and start follow from it), and a call of a slot `wanted`
// names, with scalar arguments only and no reply wanted, is appended to a
// run. A run is closed by any other record, a change of thread or chunk,
// and Close(). Used for replay's loops from memory (RecordStore), by the
// reading ahead of a trace file (ReadAhead) and by the renderer's
// connections (serve/message_preparer.h).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "stream/bulk_blobs.h"
#include "stream/call_decoder.h"
#include "stream/prepared_call.h"
#include "stream/record_format.h"
#include "stream/record_reader.h"
#include "stream/word_readers.h"

namespace strata::stream {

class CallPreparer {
 public:
  // `wanted`: the slots whose calls may be kept decoded (asked once a slot, here).
  CallPreparer(const FunctionTable& functions, const std::function<bool(int slot)>& wanted);

  // A closed run: the records from `first_record` on, `records` of them, whose
  // PreparedRun starts at word `at`.
  struct Run {
    size_t first_record, records, at;
  };
  // The records a run spans at most (a count RecordStore keeps in 32 bits).
  static constexpr size_t kMostRunRecords = UINT32_MAX;
  // The next record of the stream, numbered `index` by the caller (Run's
  // first_record; a run never spans a Close(), so numbers restarting after
  // one are fine) (its payload stays where it is while its words are used). Appends to
  // `words` and `runs`, as long as `words` stays within `word_budget`.
  // Once a call record does not decode, nothing more is prepared: its
  // reader reports it. With SlackReader's slack after it
  // (`record.readable_after`) the record is read without a check per value.
  void Add(size_t index, const Record& record, PreparedWords* words, std::vector<Run>* runs,
           size_t word_budget = SIZE_MAX);
  // Closes the open run, if any (the end of what the runs may span).
  void Close(PreparedWords* words, std::vector<Run>* runs);

  // A wire stream with bulk-v1: blobs of at least `threshold` bytes lie in
  // bulk segments, which the stream's own decoder takes (this one skips them).
  void SetBulkThreshold(size_t threshold) { decoder_.SetBulk(&skipped_bulk_, threshold); }

  size_t prepared() const { return prepared_; }

 private:
  // The call record kept decoded at the end of `words`, when its slot has a
  // reader in readers_ and the record decodes whole; false (nothing appended) when
  // it is not, the record then decoded the generic way for the next one's
  // deltas. `context`: the stream's current context the call carries.
  // `Reader`: a ByteReader, or a SlackReader where the record has the slack after it.
  template <class Reader>
  [[gnu::always_inline]] bool PrepareCall(std::span<const uint8_t> payload, uint32_t thread, uint64_t chunk,
                                          PreparedWords* words, size_t word_budget, uint64_t* context);

  // A call not kept decoded, decoded the generic way all the same: the
  // thread's next call follows from it. False, always.
  [[gnu::noinline]] bool DecodeOnly(std::span<const uint8_t> payload, uint32_t thread, uint64_t chunk);

  // A word run (word_run.h, a wire's): not kept decoded (its calls are
  // words already), but the call records after it number on from its last.
  void FollowWordRun(const Record& record);

  // The open run's head as its calls are added (written at Close).
  void OpenRun(size_t index, size_t at, uint32_t thread, uint64_t chunk, uint64_t context);

  CallDecoder decoder_;
  BulkBlobs skipped_bulk_ = BulkBlobs::Skipping();
  // By slot, the generated reader of its arguments (stream/word_readers.h)
  // where its calls are kept decoded: `wanted`, arguments and result all
  // scalars; null for the others.
  std::vector<WordReader> readers_;
  DecodedCall call_;
  std::string error_;
  bool failed_ = false;
  size_t prepared_ = 0;
  // The open run (records_ 0: none).
  size_t run_first_ = 0, run_records_ = 0, run_at_ = 0;
  uint32_t run_thread_ = 0;
  uint64_t run_chunk_ = 0;
  PreparedRun run_{};  // its count is run_records_'s at Close
};

}  // namespace strata::stream
