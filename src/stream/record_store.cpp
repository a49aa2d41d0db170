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
  entries_.push_back({record.type, record.thread_id, record.chunk, data, size, kNotPrepared});
}

size_t RecordStore::PrepareCalls(const FunctionTable& functions, const std::function<bool(int slot)>& wanted) {
  prepared_.clear();
  for (Entry& e : entries_) e.prepared_at = kNotPrepared;
  CallDecoder decoder(functions);
  decoder.AcceptUnknownFunctions(true);
  DecodedCall call;
  std::string error;
  size_t count = 0;
  constexpr size_t kHeadWords = sizeof(PreparedCall) / sizeof(PreparedWord);
  for (Entry& e : entries_) {
    if (e.type != RecordType::kCall) continue;
    // Every call is decoded, prepared or not: the next one's sequence and start follow from it.
    if (!decoder.Decode({e.data, e.size}, e.thread_id, e.chunk, &call, &error)) break;
    if (call.slot < 0 || (call.flags & wire::kCallWantsReply) || !wanted(call.slot)) continue;
    const bool scalars = std::all_of(call.args.begin(), call.args.end(), [](const DecodedValue& v) {
      return !v.has_in && !v.has_out && v.kind != api::ArgKind::kPointer && v.kind != api::ArgKind::kString;
    });
    if (!scalars) continue;
    const size_t words = kHeadWords + call.args.size();
    if (kept_bytes_ + (prepared_.size() + words) * sizeof(PreparedWord) > budget_) break;
    e.prepared_at = prepared_.size();
    prepared_.resize(prepared_.size() + words);
    PreparedWord* at = &prepared_[e.prepared_at];
    PreparedCall head{call.sequence, call.context, call.start_ns, call.duration_ns, call.slot,
                      static_cast<uint32_t>(call.args.size())};
    std::memcpy(at, &head, sizeof head);
    at += kHeadWords;
    for (const DecodedValue& v : call.args) {
      PreparedWord& word = *at++;
      switch (v.kind) {
        case api::ArgKind::kInt: word.i = v.i; break;
        case api::ArgKind::kFloat: word.f = static_cast<float>(v.f); break;
        case api::ArgKind::kDouble: word.d = v.f; break;
        default: word.u = v.u; break;
      }
    }
    ++count;
  }
  prepared_.shrink_to_fit();
  return count;
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
