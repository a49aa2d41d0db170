#pragma once
// Word runs (wire only, with words-v1 and words-v2; docs/remote.md): a
// client thread's calls whose arguments are all scalars (words-v2: scalars
// and one input array) and that give nothing back, written as the words the
// executor's generated handlers read (prepared_call.h), so that the renderer
// runs them with no decoding: per call, a check of its function, its
// argument count and its words, then its handler.
//
// A record of type kWordRun; its length is a varint written in
// kWordRunLengthBytes bytes (the client grows the run in place). Payload:
//   u8 P | P zero bytes: what follows lies at a multiple of 8 bytes from the message's start
//   word: the first call's sequence number (absolute; the calls' numbers follow one another)
//   word: the stream context of every call of the run
//   word: the start of every call (untimed calls: the batch's); their duration is 0
//   per call: word (function id | argument count << 32 | array bytes << 40),
//             then its arguments, one word each in parameter order, as
//             PreparedWord holds them (kInt sign-extended, kFloat's bits in
//             the low 32, kDouble, the other kinds zero-extended; an input
//             array's pointer as the app passed it, 0 for null); then, for a
//             function of kWordArrayCalls (words-v2), the array's bytes,
//             zeros after them to a whole word. A null array has no bytes.
// Words are 64-bit little-endian. A call record that follows the run in the
// same message takes its sequence and start deltas from the run's last call.

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "stream/byte_writer.h"
#include "stream/call_encoder.h"
#include "stream/call_decoder.h"
#include "stream/prepared_call.h"
#include "strata/api/functions.h"

namespace strata::stream {

static_assert(std::endian::native == std::endian::little, "word runs are the host's words on the wire");

// By slot: whether a function's calls may travel in a word run (a GL
// function whose arguments are all scalars, or scalars and one input array,
// and that returns nothing; generated with the word readers,
// api/emit_word_readers.py); and whether they carry that array.
extern const bool kWordCalls[api::kFunctionCount];
extern const bool kWordArrayCalls[api::kFunctionCount];

inline constexpr size_t kWordRunLengthBytes = 4;  // a run is at most 2^28 - 1 bytes
inline constexpr size_t kWordRunHeadWords = 3;
// The most bytes of an array a client puts in a run; a longer one goes in a
// call record (a run is read while it is held: it should stay small).
inline constexpr size_t kMostWordArrayBytes = 4096;

// A call's head word: its function id, argument count and array bytes.
inline uint64_t WordCallHead(uint64_t function_id, uint32_t count, uint64_t array_bytes) {
  return function_id | static_cast<uint64_t>(count) << 32 | array_bytes << 40;
}
inline uint64_t WordCallFunction(const PreparedWord& head) { return head.u & 0xffffffffu; }
inline uint32_t WordCallArguments(const PreparedWord& head) { return static_cast<uint32_t>(head.u >> 32) & 0xffu; }
inline uint64_t WordCallArrayBytes(const PreparedWord& head) { return head.u >> 40; }
// The words of the call after its head: its arguments and its array's.
inline uint64_t WordCallWords(const PreparedWord& head) {
  return WordCallArguments(head) + (WordCallArrayBytes(head) + sizeof(PreparedWord) - 1) / sizeof(PreparedWord);
}

// The client's side: a run being written at the end of a batch. Each call
// added moves the batch's CallRun on to it, so that a call record after
// the run counts its deltas from the run's last call, as the renderer does.
class WordRunWriter {
 public:
  bool open() const { return at_ != kNone; }
  uint64_t calls() const { return calls_; }
  // Opens a run at the end of `batch` (whose start is the message's); its
  // first call will be `sequence`.
  void Open(ByteBuffer& batch, uint64_t sequence, uint64_t context, uint64_t start_ns);
  // The run's next call, of `count` arguments and `array_bytes` of an
  // array (at most kMostWordArrayBytes): its words and bytes are copied in.
  void Add(ByteBuffer& batch, CallRun& run, uint64_t function_id, const PreparedWord* arguments, uint32_t count,
           const void* array = nullptr, size_t array_bytes = 0) {
    const size_t argument_bytes = static_cast<size_t>(count) * sizeof(PreparedWord);
    const size_t array_words = (array_bytes + sizeof(PreparedWord) - 1) / sizeof(PreparedWord);
    const size_t bytes = sizeof(PreparedWord) + argument_bytes + array_words * sizeof(PreparedWord);
    uint8_t* o = batch.Reserve(bytes);
    const uint64_t head = WordCallHead(function_id, count, array_bytes);
    std::memcpy(o, &head, sizeof head);
    if (count != 0) std::memcpy(o + sizeof head, arguments, argument_bytes);
    if (array_words != 0) {
      uint8_t* bytes_at = o + sizeof head + argument_bytes;
      std::memset(bytes_at + (array_words - 1) * sizeof(PreparedWord), 0, sizeof(PreparedWord));
      std::memcpy(bytes_at, array, array_bytes);
    }
    batch.size += bytes;
    run.last_sequence = first_sequence_ + calls_++;
    run.last_start_ns = start_ns_;
    ++run.calls;
  }
  // Ends the run: its length is written.
  void Close(ByteBuffer& batch);

 private:
  static constexpr size_t kNone = SIZE_MAX;
  size_t at_ = kNone;  // the record's type byte in the batch
  uint64_t first_sequence_ = 0, start_ns_ = 0, calls_ = 0;
};

// The renderer's side: a run's head, and its calls' words.
struct WordRunView {
  uint64_t first_sequence = 0, context = 0, start_ns = 0;
  const PreparedWord* calls = nullptr;  // the first call's head word
  const PreparedWord* end = nullptr;
};
// False for a payload that is not a word run's (cut short, padding that is
// not, words that do not lie at a multiple of 8 bytes, no call);
// WordRunHeadProblem says why. Inline: the renderer reads one between two
// driver calls.
inline bool ReadWordRunHead(std::span<const uint8_t> payload, WordRunView* run) {
  if (payload.empty()) return false;
  const size_t padding = payload[0];
  const size_t head = 1 + padding + kWordRunHeadWords * sizeof(PreparedWord);
  if (padding >= sizeof(PreparedWord) || payload.size() <= head) return false;
  uint8_t pad = 0;
  for (size_t i = 1; i <= padding; ++i) pad |= payload[i];
  const uint8_t* words = payload.data() + 1 + padding;
  if (pad != 0 || reinterpret_cast<uintptr_t>(words) % alignof(PreparedWord) != 0 ||
      (payload.size() - 1 - padding) % sizeof(PreparedWord) != 0) {
    return false;
  }
  const PreparedWord* at = reinterpret_cast<const PreparedWord*>(words);
  run->first_sequence = at[0].u;
  run->context = at[1].u;
  run->start_ns = at[2].u;
  run->calls = at + kWordRunHeadWords;
  run->end = at + (payload.size() - 1 - padding) / sizeof(PreparedWord);
  return true;
}
[[gnu::cold]] std::string WordRunHeadProblem(std::span<const uint8_t> payload);

// The arguments a run's call of function `slot` takes; kNotInRuns where
// its calls may not travel in a run (or `slot` is -1: an unknown id).
inline constexpr uint64_t kNotInRuns = UINT64_MAX;  // never a call's count, a 32-bit one
inline uint64_t WordCallArity(int slot) {
  return slot >= 0 && kWordCalls[slot] ? api::kFunctions[slot].param_count : kNotInRuns;
}
// The words after the call's head at `at` (before `end`), its arguments'
// and its array's: kNotInRuns where it does not have `arity` arguments, has
// an array where `array` allows none, or its words are not all there. A call
// of scalars costs one comparison of its head.
inline uint64_t WordCallLength(const PreparedWord* at, const PreparedWord* end, uint64_t arity, bool array) {
  uint64_t words = arity;
  if (at->u >> 32 != arity) {  // an array's bytes, or a malformed call
    if (!array || WordCallArguments(*at) != arity) return kNotInRuns;
    words = WordCallWords(*at);
  }
  return static_cast<uint64_t>(end - at - 1) >= words ? words : kNotInRuns;
}
// Whether the call at `at` (before `end`) is one a run may hold: of a
// function whose calls may travel so, with as many arguments as it takes,
// and an array only where its calls carry one.
inline bool WordCallFits(const PreparedWord* at, const PreparedWord* end, int slot) {
  return WordCallLength(at, end, WordCallArity(slot), slot >= 0 && kWordArrayCalls[slot]) != kNotInRuns;
}
// A call's array: its bytes after the arguments, or null where the app
// passed null (the pointer's word is 0). `arguments`: the call's first
// argument's word; `pointer`: the array's parameter.
inline std::span<const uint8_t> WordCallArray(const PreparedWord* arguments, int pointer, uint64_t array_bytes,
                                              uint32_t count) {
  if (arguments[pointer].u == 0) return {};
  return {reinterpret_cast<const uint8_t*>(arguments + count), static_cast<size_t>(array_bytes)};
}
// Why it is not; `arrays_agreed`: the client agreed to words-v2.
[[gnu::cold]] std::string WordCallProblem(const PreparedWord* at, const PreparedWord* end, int slot,
                                          bool arrays_agreed = true);

// The sequence number of a run's last call (a reader that does not run the
// calls, but decodes the call records after it, takes its numbering on
// from there); false for a run whose calls do not end where it does.
bool LastWordCallSequence(const WordRunView& run, uint64_t* sequence);

// A call of a run as the decoder gives it (for Execute, hooks, --record).
void DecodeWordCall(const PreparedWord* at, int slot, std::string_view name, uint64_t sequence, uint32_t thread,
                    const WordRunView& run, DecodedCall* call);

}  // namespace strata::stream
