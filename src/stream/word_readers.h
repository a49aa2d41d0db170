#pragma once
// Reading a call record's scalar arguments into the words of a call kept
// decoded (stream/prepared_call.h), one function per shape of argument list,
// with no bound check: the record lies with SlackReader::kSlackBytes after
// it, and the caller checks where the reads ended (SlackReader::ok). The
// table by slot is generated from the registry (api/emit_word_readers.py),
// so the preparer reads each function's arguments straight, with no loop
// over its parameters' kinds.

#include <cstdint>

#include "stream/prepared_call.h"
#include "stream/slack_reader.h"
#include "strata/api/functions.h"

namespace strata::stream {

// How a scalar argument is read into its word (docs/trace-format.md).
enum class WordRead : uint8_t { kVarint, kZigzag, kFloat, kDouble };

template <WordRead kRead>
[[gnu::always_inline]] inline void ReadWord(const uint8_t*& p, PreparedWord* word, bool& bad) {
  if constexpr (kRead == WordRead::kVarint) {
    word->u = SlackReader::VarintAt(p, bad);
  } else if constexpr (kRead == WordRead::kZigzag) {
    word->i = FromZigzag(SlackReader::VarintAt(p, bad));
  } else if constexpr (kRead == WordRead::kFloat) {
    word->f = SlackReader::FixedAt<float>(p);
  } else {
    word->d = SlackReader::FixedAt<double>(p);
  }
}

// The arguments at `p` into `words` on: where the reads ended; `bad` set
// for a varint longer than 10 bytes.
using WordReader = const uint8_t* (*)(const uint8_t* p, PreparedWord* words, bool& bad);

template <WordRead... kReads>
const uint8_t* ReadWords(const uint8_t* p, PreparedWord* words, bool& bad) {
  [[maybe_unused]] PreparedWord* word = words;
  (ReadWord<kReads>(p, word++, bad), ...);
  return p;
}

// By slot: the reader of a function whose arguments and result are all
// scalars (the calls that can be kept decoded); null for the others.
extern const WordReader kWordReaders[api::kFunctionCount];

}  // namespace strata::stream
