#include "stream/record_store.h"

#include <algorithm>
#include <cstring>

#include "stream/wire.h"

namespace strata::stream {

void RecordStore::Keep(const Record& record) {
  if (overflowed_) return;
  const size_t size = record.payload.size();
  if (kept_bytes_ + size > budget_) {
    overflowed_ = true;
    blocks_.clear();
    entries_.clear();
    entries_.shrink_to_fit();
    kept_bytes_ = block_used_ = block_size_ = 0;
    return;
  }
  uint8_t* data = nullptr;  // an empty payload (a frame's end, say) needs no block, not even a first one
  if (size != 0) {
    if (block_size_ - block_used_ < size) {
      // A new block; a payload larger than a block gets one of its own size.
      block_size_ = std::max(kBlockBytes, size);
      blocks_.push_back(std::make_unique_for_overwrite<uint8_t[]>(block_size_));
      block_used_ = 0;
    }
    data = blocks_.back().get() + block_used_;
    std::memcpy(data, record.payload.data(), size);
    block_used_ += size;
    kept_bytes_ += size;
  }
  entries_.push_back({record.type, record.thread_id, record.chunk, data, size, kNotPrepared, 0});
}

size_t RecordStore::PrepareCalls(const FunctionTable& functions, const std::function<bool(int slot)>& wanted) {
  prepared_.clear();
  for (Entry& e : entries_) e.prepared_at = kNotPrepared;
  CallDecoder decoder(functions);
  decoder.AcceptUnknownFunctions(true);
  DecodedCall call;
  std::string error;
  size_t count = 0;
  constexpr size_t kRunWords = sizeof(PreparedRun) / sizeof(PreparedWord);
  constexpr size_t kCallWords = sizeof(PreparedCall) / sizeof(PreparedWord);
  size_t run_first = 0, run_records = 0, run_at = 0;  // the open run (run_records 0: none)
  for (size_t index = 0; index < entries_.size(); ++index) {
    const Entry& e = entries_[index];
    bool prepare = false;
    // Every call is decoded, prepared or not: the next one's sequence and start follow from it.
    if (e.type == RecordType::kCall) {
      if (!decoder.Decode({e.data, e.size}, e.thread_id, e.chunk, &call, &error)) break;
      prepare = call.slot >= 0 && !(call.flags & wire::kCallWantsReply) && wanted(call.slot) &&
                std::all_of(call.args.begin(), call.args.end(), [](const DecodedValue& v) {
                  return !v.has_in && !v.has_out && v.kind != api::ArgKind::kPointer &&
                         v.kind != api::ArgKind::kString;
                });
    }
    const bool joins = prepare && run_records != 0 && entries_[run_first].thread_id == e.thread_id &&
                       entries_[run_first].chunk == e.chunk;
    if (run_records != 0 && !joins) {
      CloseRun(run_first, run_records, run_at);
      run_records = 0;
    }
    if (!prepare) continue;
    const size_t words = (run_records == 0 ? kRunWords : 0) + kCallWords + call.args.size();
    if (kept_bytes_ + (prepared_.size() + words) * sizeof(PreparedWord) > budget_) break;
    if (run_records == 0) {
      run_first = index;
      run_at = prepared_.size();
      prepared_.resize(prepared_.size() + kRunWords);
    }
    ++run_records;
    const size_t call_at = prepared_.size();
    prepared_.resize(prepared_.size() + kCallWords + call.args.size());
    PreparedCall head{call.sequence, call.context, call.start_ns, call.duration_ns, e.data,
                      static_cast<uint32_t>(e.size), call.slot, static_cast<uint32_t>(call.args.size()), 0};
    std::memcpy(&prepared_[call_at], &head, sizeof head);
    PreparedWord* word = &prepared_[call_at + kCallWords];
    for (const DecodedValue& v : call.args) {
      switch (v.kind) {
        case api::ArgKind::kInt: word->i = v.i; break;
        case api::ArgKind::kFloat: word->f = static_cast<float>(v.f); break;
        case api::ArgKind::kDouble: word->d = v.f; break;
        default: word->u = v.u; break;
      }
      ++word;
    }
    ++count;
  }
  if (run_records != 0) CloseRun(run_first, run_records, run_at);
  prepared_.shrink_to_fit();
  return count;
}

void RecordStore::CloseRun(size_t first, size_t records, size_t at) {
  PreparedRun run{records, UINT64_MAX, 0};
  const PreparedCall* call = reinterpret_cast<const PreparedRun*>(&prepared_[at])->first();
  for (size_t i = 0; i < records; ++i, call = call->next()) {
    run.first_start_ns = std::min(run.first_start_ns, call->start_ns);
    run.last_end_ns = std::max(run.last_end_ns, call->start_ns + call->duration_ns);
  }
  std::memcpy(&prepared_[at], &run, sizeof run);
  entries_[first].prepared_at = at;
  entries_[first].run_records = records;
}

void RecordStore::End(const std::string& error, bool truncated) {
  end_error_ = error;
  end_truncated_ = truncated;
}

bool KeepingSource::Next(Record* record) {
  if (!source_.Next(record)) {
    ended_ = true;
    store_.End(source_.error(), source_.truncated());
    return false;
  }
  store_.Keep(*record);
  return true;
}

}  // namespace strata::stream
