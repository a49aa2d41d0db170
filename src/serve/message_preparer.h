#pragma once
// Keeps a client's message decoded ahead of the connection's thread: a
// thread of its own reads the message's records and keeps its calls decoded
// (stream/call_preparer.h), a stretch of records at a time, while the
// connection's thread runs the stretches before. That thread, the one that
// calls the driver, then runs each run of decoded calls in one loop, as a
// replay from memory does: the decoding goes to a core the driver does not
// use, and the driver's code stays in the cache between its calls. It never
// waits for the preparing thread to wake up: until a stretch is ready where
// it is, it reads the records itself.
//
// Pays where the machine has a core to spare, for messages of many calls
// that run through the generated handlers (RecordDispatch::RunsHandlers);
// Connection decides (PreparesAhead).

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "stream/call_decoder.h"
#include "stream/call_preparer.h"
#include "stream/prepared_call.h"
#include "stream/record_format.h"
#include "stream/record_reader.h"

namespace strata::serve {

class MessagePreparer {
 public:
  // `functions`: the session's function table (it outlives the preparer).
  // `bulk_threshold`: the size from which blobs travel as bulk segments (0: none do).
  MessagePreparer(const stream::FunctionTable& functions, size_t bulk_threshold);
  // Stops the preparing thread; Next() must have returned false for every Begin().
  ~MessagePreparer();
  MessagePreparer(const MessagePreparer&) = delete;
  MessagePreparer& operator=(const MessagePreparer&) = delete;

  // Starts on `message`, every record of stream thread `thread`, chunk
  // `chunk`. Its bytes must stay as they are until Next() returned false.
  // `readable`: the bytes readable from message.data() on (its slack
  // included: stream::SlackReader reads the records in place).
  void Begin(std::span<const uint8_t> message, size_t readable, uint32_t thread, uint64_t chunk);
  // The message's next record, in order (read here where no stretch is ready). A run of calls kept decoded comes
  // as one record (its first call's, record->prepared set), its readable_after the message's slack. `*bytes`: the
  // record's bytes in the message, header and all (a run's: its first
  // record's). False at the end of the message, with *problem set when a
  // record's header did not decode there (the records before it came).
  bool Next(stream::Record* record, std::span<const uint8_t>* bytes, std::string* problem);
  // Passes over the rest of the message (the connection stops running it):
  // once it returns the preparing thread no longer reads the message. Next()
  // does the same at the end of the message.
  void Finish();

  // No message comes for a while (the connection runs the next ones
  // itself): the preparing thread sleeps at once, where it would otherwise
  // wait awake for the next message, yielding its core for milliseconds
  // (on a host with cores to spare, a core kept busy: about a third of one
  // for a draw-heavy client). Begin() wakes it.
  void Rest();

  // Of the last message run to its end: its records, and those of them handed out kept decoded.
  size_t message_records() const { return passed_; }
  size_t message_records_prepared() const { return passed_prepared_; }

 private:
  // The first stretch of a message is short, so that the connection's
  // thread starts running it soon; the others are long, so that handing
  // them over costs little.
  static constexpr size_t kFirstStretchRecords = 32;
  static constexpr size_t kStretchRecords = 512;
  static constexpr uint32_t kStretches = 4;
  // One record of a stretch: offsets into the message.
  struct Entry {
    stream::RecordType type;
    uint32_t start, payload_at, payload_size, end;
    uint32_t run_records;  // 0, or the records of the run of decoded calls this record begins
    uint32_t run_at;       // the run's first word in the stretch's words
  };
  struct Stretch {
    // kStretchRecords of them, the first `records` filled (made once: no capacity checked per record).
    std::vector<Entry> entries = std::vector<Entry>(kStretchRecords);
    size_t records = 0;
    stream::PreparedWords words;
    std::vector<stream::CallPreparer::Run> runs;
    size_t first_record = 0;  // the message's record it starts with, counted from 0
    std::string problem;  // a record whose header did not decode ends the message here
    bool last = false;    // the message's last stretch
  };

  void Work();
  void Prepare(std::span<const uint8_t> message, uint32_t thread, uint64_t chunk);
  // The next stretch to fill, once the connection's thread has left it; null when stopping.
  Stretch* FreeStretch();
  // The next stretch to run, once the preparing thread has filled it.
  Stretch& FilledStretch();
  // Whether a filled stretch starts at the record the connection's thread is
  // at (it is then running_); those that start before are given back.
  bool TakeStretch();
  // Gives the oldest filled stretch back to the preparing thread.
  void Release();
  // Gives back every stretch of the message and has the preparing thread
  // stop where it is (or never start on it): once it returns, that thread
  // no longer reads the message.
  void PassOver();

  stream::CallPreparer preparer_;
  std::array<Stretch, kStretches> stretches_;
  // What the preparing thread works on, set by Begin() before `begun_` moves.
  std::span<const uint8_t> message_;
  const uint8_t* readable_end_ = nullptr;  // of the message and its slack
  // The bytes readable after a record of the message.
  size_t ReadableAfter(std::span<const uint8_t> payload) const {
    return static_cast<size_t>(readable_end_ - (payload.data() + payload.size()));
  }
  uint32_t thread_ = 0;
  uint64_t chunk_ = 0;
  // Counts that only grow (wrapping): messages begun, stretches filled and run.
  std::atomic<uint32_t> begun_{0}, filled_{0}, run_{0};
  std::atomic<bool> resting_{false};  // Rest() since the last Begin()
  // The begun message: waiting for the preparing thread, taken by it, or
  // dropped by the connection's thread (which ran it all itself) before.
  enum MessageState : int { kWaiting, kTaken, kDropped };
  std::atomic<int> message_state_{kDropped};
  // Set once the connection's thread no longer wants the message's stretches.
  std::atomic<bool> abandoned_{false};
  std::atomic<bool> stopping_{false};
  // The connection's side: the stretch it runs (null: it reads records
  // itself), the entry it is at, the records it passed and the byte after
  // them, whether a message is under way, whether the preparing thread is done with it.
  Stretch* running_ = nullptr;
  size_t next_entry_ = 0, passed_ = 0, passed_prepared_ = 0, at_ = 0;
  bool under_way_ = false;
  bool preparer_done_ = false;
  std::thread worker_;  // last: it starts once the rest is made
};

}  // namespace strata::serve
