#include "serve/message_preparer.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <chrono>

#include "host/record_dispatch.h"

namespace strata::serve {
namespace {

// How long a side waits awake for the other before sleeping: spinning for
// the first microseconds, then giving the core to any thread that has work
// (the driver's own) between looks, for about the time between two messages
// of a client that streams. Woken from sleep instead, the preparing thread
// took a few hundred microseconds to run again on a busy machine, and the
// connection's thread read a fifth of each message itself meanwhile.
constexpr int kSpins = 1000;
constexpr auto kYieldingFor = std::chrono::milliseconds(2);

// Waits until `ready()`, spinning first (unless `resting()`), then sleeping
// on `counter` (which the other side moves, and notifies, when ready() may
// have become true).
template <typename Ready, typename Resting>
void WaitFor(const std::atomic<uint32_t>& counter, Ready ready, Resting resting) {
  for (int i = 0; i < kSpins && !resting(); ++i) {
    if (ready()) return;
    __builtin_ia32_pause();
  }
  const auto until = std::chrono::steady_clock::now() + kYieldingFor;
  while (!resting() && std::chrono::steady_clock::now() < until) {
    if (ready()) return;
    sched_yield();
  }
  for (;;) {
    const uint32_t seen = counter.load(std::memory_order_acquire);
    if (ready()) return;
    counter.wait(seen, std::memory_order_acquire);
  }
}

}  // namespace

MessagePreparer::MessagePreparer(const stream::FunctionTable& functions, size_t bulk_threshold)
    : preparer_(functions, host::RecordDispatch::Handles), worker_([this] { Work(); }) {
  if (bulk_threshold != 0) preparer_.SetBulkThreshold(bulk_threshold);
}

MessagePreparer::~MessagePreparer() {
  stopping_.store(true, std::memory_order_release);
  // Moved, not only notified: a side about to sleep on a count it saw
  // unchanged would miss a bare notification.
  begun_.fetch_add(1, std::memory_order_release);
  begun_.notify_one();
  run_.fetch_add(1, std::memory_order_release);
  run_.notify_one();
  worker_.join();
}

void MessagePreparer::Begin(std::span<const uint8_t> message, size_t readable, uint32_t thread, uint64_t chunk) {
  message_ = message;
  readable_end_ = message.data() + std::max(readable, message.size());
  thread_ = thread;
  chunk_ = chunk;
  running_ = nullptr;
  next_entry_ = 0;
  at_ = 0;
  passed_ = 0;
  passed_prepared_ = 0;
  under_way_ = true;
  preparer_done_ = false;
  abandoned_.store(false, std::memory_order_relaxed);
  message_state_.store(kWaiting, std::memory_order_release);
  resting_.store(false, std::memory_order_relaxed);
  begun_.fetch_add(1, std::memory_order_release);
  begun_.notify_one();
}

void MessagePreparer::Rest() {
  resting_.store(true, std::memory_order_relaxed);
}

void MessagePreparer::Work() {
  pthread_setname_np(pthread_self(), "strata:prepare");
  uint32_t begun = 0;
  for (;;) {
    WaitFor(begun_, [&] { return begun_.load(std::memory_order_acquire) != begun; },
            [&] { return resting_.load(std::memory_order_relaxed); });
    begun = begun_.load(std::memory_order_acquire);
    if (stopping_.load(std::memory_order_acquire)) return;
    // The message waiting, unless the connection's thread ran it all and dropped it first.
    int waiting = kWaiting;
    if (message_state_.compare_exchange_strong(waiting, kTaken, std::memory_order_acq_rel)) {
      Prepare(message_, thread_, chunk_);
    }
  }
}

void MessagePreparer::Prepare(std::span<const uint8_t> message, uint32_t thread, uint64_t chunk) {
  size_t at = 0, first_record = 0;
  size_t records = kFirstStretchRecords;
  bool last = false;
  while (!last) {
    Stretch* stretch = FreeStretch();
    if (stretch == nullptr) return;
    stretch->words.Clear();
    stretch->runs.clear();
    stretch->problem.clear();
    stretch->first_record = first_record;
    stream::Record record;
    record.thread_id = thread;
    record.chunk = chunk;
    size_t count = 0;
    while (count < records) {
      // Looked at every few records: the connection's thread waits for the
      // last stretch once it set it, and its message stays until then.
      if (count % 16 == 0 && abandoned_.load(std::memory_order_relaxed)) {
        last = true;
        break;
      }
      const size_t start = at;
      if (!stream::NextRecordIn(message, &at, &record, &stretch->problem)) {
        last = true;
        break;
      }
      record.readable_after = ReadableAfter(record.payload);
      preparer_.Add(count, record, &stretch->words, &stretch->runs);
      stretch->entries[count++] = {record.type, static_cast<uint32_t>(start),
                                   static_cast<uint32_t>(record.payload.data() - message.data()),
                                   static_cast<uint32_t>(record.payload.size()), static_cast<uint32_t>(at), 0, 0};
    }
    stretch->records = count;
    // Runs end with their stretch: a run's records are handed out together.
    preparer_.Close(&stretch->words, &stretch->runs);
    for (const stream::CallPreparer::Run& run : stretch->runs) {
      Entry& first = stretch->entries[run.first_record];
      first.run_records = static_cast<uint32_t>(run.records);
      first.run_at = static_cast<uint32_t>(run.at);
    }
    last = last || at == message.size();
    stretch->last = last;
    first_record += count;
    filled_.fetch_add(1, std::memory_order_release);
    filled_.notify_one();
    records = kStretchRecords;
  }
}

MessagePreparer::Stretch* MessagePreparer::FreeStretch() {
  const uint32_t filled = filled_.load(std::memory_order_relaxed);  // only this thread moves it
  WaitFor(run_, [&] {
    return filled - run_.load(std::memory_order_acquire) < kStretches || stopping_.load(std::memory_order_acquire);
  }, [] { return false; });
  if (stopping_.load(std::memory_order_acquire)) return nullptr;
  return &stretches_[filled % kStretches];
}

MessagePreparer::Stretch& MessagePreparer::FilledStretch() {
  const uint32_t run = run_.load(std::memory_order_relaxed);  // only this thread moves it
  WaitFor(filled_, [&] { return filled_.load(std::memory_order_acquire) != run; }, [] { return false; });
  return stretches_[run % kStretches];
}

bool MessagePreparer::Next(stream::Record* record, std::span<const uint8_t>* bytes, std::string* problem) {
  if (!under_way_) return false;
  record->thread_id = thread_;
  record->chunk = chunk_;
  for (;;) {
    if (running_ == nullptr && !TakeStretch()) {
      // None starts here yet (the preparing thread is waking up, or behind):
      // the record is read here, as without a preparer.
      const size_t start = at_;
      record->prepared = nullptr;
      if (!stream::NextRecordIn(message_, &at_, record, problem)) {
        PassOver();
        return false;
      }
      ++passed_;
      *bytes = message_.subspan(start, at_ - start);
      record->readable_after = ReadableAfter(record->payload);
      return true;
    }
    if (next_entry_ < running_->records) [[likely]] {
      const Entry& entry = running_->entries[next_entry_];
      record->type = entry.type;
      record->payload = message_.subspan(entry.payload_at, entry.payload_size);
      record->readable_after = ReadableAfter(record->payload);
      *bytes = message_.subspan(entry.start, entry.end - entry.start);
      const uint32_t records = entry.run_records != 0 ? entry.run_records : 1;
      record->prepared = entry.run_records != 0
                             ? reinterpret_cast<const stream::PreparedRun*>(running_->words.data() + entry.run_at)
                             : nullptr;
      next_entry_ += records;
      passed_ += records;
      if (entry.run_records != 0) passed_prepared_ += records;
      at_ = running_->entries[next_entry_ - 1].end;
      return true;
    }
    // The stretch is run: the preparing thread may fill it again.
    const bool last = running_->last;
    if (last && !running_->problem.empty()) *problem = running_->problem;
    running_ = nullptr;
    Release();
    if (last) {
      under_way_ = false;
      return false;
    }
  }
}

bool MessagePreparer::TakeStretch() {
  while (!preparer_done_ && filled_.load(std::memory_order_acquire) != run_.load(std::memory_order_relaxed)) {
    Stretch& stretch = stretches_[run_.load(std::memory_order_relaxed) % kStretches];
    if (stretch.first_record > passed_) return false;  // the records up to it are read here
    if (stretch.first_record == passed_) {
      running_ = &stretch;
      next_entry_ = 0;
      return true;
    }
    // It starts before the records already run: passed over.
    if (stretch.last) preparer_done_ = true;
    Release();
  }
  return false;
}

void MessagePreparer::Release() {
  run_.fetch_add(1, std::memory_order_release);
  run_.notify_one();
}

void MessagePreparer::PassOver() {
  under_way_ = false;
  running_ = nullptr;
  // Not taken yet: the preparing thread never will, nor read the message.
  int waiting = kWaiting;
  if (message_state_.compare_exchange_strong(waiting, kDropped, std::memory_order_acq_rel)) return;
  // Taken: it stops at the next record, and says so in a last stretch.
  abandoned_.store(true, std::memory_order_relaxed);
  while (!preparer_done_) {
    const Stretch& stretch = FilledStretch();
    preparer_done_ = stretch.last;
    Release();
  }
}

void MessagePreparer::Finish() {
  if (under_way_) PassOver();
}

}  // namespace strata::serve
