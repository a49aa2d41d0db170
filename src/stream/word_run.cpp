#include "stream/word_run.h"

#include <cstring>

#include "stream/record_format.h"

namespace strata::stream {

void WordRunWriter::Open(ByteBuffer& batch, uint64_t sequence, uint64_t context, uint64_t start_ns) {
  at_ = batch.size;
  first_sequence_ = sequence;
  start_ns_ = start_ns;
  calls_ = 0;
  // Type, length, the padding's count: the head's words come at the next multiple of 8.
  const size_t unpadded = at_ + 1 + kWordRunLengthBytes + 1;
  const size_t padding = (sizeof(PreparedWord) - unpadded % sizeof(PreparedWord)) % sizeof(PreparedWord);
  const size_t bytes = unpadded - at_ + padding + kWordRunHeadWords * sizeof(PreparedWord);
  uint8_t* o = batch.Reserve(bytes);
  std::memset(o, 0, bytes - kWordRunHeadWords * sizeof(PreparedWord));
  o[0] = static_cast<uint8_t>(RecordType::kWordRun);
  o[1 + kWordRunLengthBytes] = static_cast<uint8_t>(padding);
  const uint64_t head[kWordRunHeadWords] = {sequence, context, start_ns};
  std::memcpy(o + (unpadded - at_) + padding, head, sizeof head);
  batch.size += bytes;
}

void WordRunWriter::Close(ByteBuffer& batch) {
  // A varint of fixed width: each byte but the last says another follows.
  const size_t length = batch.size - at_ - 1 - kWordRunLengthBytes;
  uint8_t* o = batch.storage.data() + at_ + 1;
  for (size_t i = 0; i < kWordRunLengthBytes; ++i) {
    const uint8_t more = i + 1 < kWordRunLengthBytes ? 0x80 : 0;
    o[i] = static_cast<uint8_t>((length >> (7 * i)) & 0x7f) | more;
  }
  at_ = kNone;
}

std::string WordRunHeadProblem(std::span<const uint8_t> payload) {
  const size_t padding = payload.empty() ? 0 : payload[0];
  if (payload.empty() || padding >= sizeof(PreparedWord) ||
      payload.size() < 1 + padding + kWordRunHeadWords * sizeof(PreparedWord)) {
    return "a word run cut short or with more padding than a word (" + std::to_string(payload.size()) + " bytes)";
  }
  for (size_t i = 1; i <= padding; ++i) {
    if (payload[i] != 0) return "a word run whose padding is not zeros";
  }
  if (payload.size() == 1 + padding + kWordRunHeadWords * sizeof(PreparedWord)) return "a word run of no calls";
  return "a word run whose words do not lie at a multiple of 8 bytes from its message's start";
}

std::string WordCallProblem(const PreparedWord* at, const PreparedWord* end, int slot, bool arrays_agreed) {
  if (slot < 0) {
    return "a call to function id " + std::to_string(WordCallFunction(*at)) + ", which the client's table does not name";
  }
  const api::FunctionInfo& info = api::kFunctions[slot];
  if (!kWordCalls[slot]) return std::string("a call to ") + info.name + ", whose calls must travel as call records";
  if (kWordArrayCalls[slot] && !arrays_agreed) {
    return std::string("a call to ") + info.name + ", whose calls travel in word runs only with words-v2 (not agreed)";
  }
  const uint32_t count = WordCallArguments(*at);
  if (count != info.param_count) {
    return std::string("a call to ") + info.name + " with " + std::to_string(count) + " arguments (it takes " +
           std::to_string(info.param_count) + ")";
  }
  if (WordCallArrayBytes(*at) != 0 && !kWordArrayCalls[slot]) {
    return std::string("a call to ") + info.name + " with " + std::to_string(WordCallArrayBytes(*at)) +
           " bytes of an array (it takes none)";
  }
  return std::string("cut short in a call to ") + info.name + " (" + std::to_string(end - at - 1) + " of its " +
         std::to_string(WordCallWords(*at)) +
         (kWordArrayCalls[slot] ? " words of arguments and array there)" : " arguments there)");
}

bool LastWordCallSequence(const WordRunView& run, uint64_t* sequence) {
  uint64_t calls = 0;
  for (const PreparedWord* at = run.calls; at != run.end; ++calls) {
    if (static_cast<uint64_t>(run.end - at - 1) < WordCallWords(*at)) return false;
    at += 1 + WordCallWords(*at);
  }
  *sequence = run.first_sequence + calls - 1;
  return true;
}

void DecodeWordCall(const PreparedWord* at, int slot, std::string_view name, uint64_t sequence, uint32_t thread,
                    const WordRunView& run, DecodedCall* call) {
  const api::FunctionInfo& info = api::kFunctions[slot];
  call->function_id = WordCallFunction(*at);
  call->slot = slot;
  call->name = name;
  call->sequence = sequence;
  call->thread = thread;
  call->context = run.context;
  call->start_ns = run.start_ns;
  call->duration_ns = 0;
  call->flags = kCallUntimed;
  call->result = DecodedValue{};
  call->has_reply = false;
  call->args.resize(info.param_count);
  const PreparedWord* word = at + 1;
  for (int i = 0; i < info.param_count; ++i, ++word) {
    DecodedValue& v = call->args[i];
    v = DecodedValue{};
    v.kind = info.params[i].kind;
    switch (v.kind) {
      case api::ArgKind::kInt: v.i = word->i; break;
      case api::ArgKind::kFloat: v.f = word->f; break;
      case api::ArgKind::kDouble: v.f = word->d; break;
      case api::ArgKind::kPointer:  // the one array of kWordArrayCalls: its bytes as a record's blob
        v.u = word->u;
        v.has_in = v.u != 0;
        if (v.has_in) v.in = WordCallArray(at + 1, i, WordCallArrayBytes(*at), WordCallArguments(*at));
        break;
      default: v.u = word->u; break;
    }
  }
}

}  // namespace strata::stream
