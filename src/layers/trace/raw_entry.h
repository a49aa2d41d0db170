#pragma once
// What an app thread writes into its ring (ThreadStream) on the per-call
// path: raw entries of 8-byte little-endian words, turned into the stream's
// encoded records (docs/trace-format.md) by the encoder thread
// (raw_encoder.cpp). Raw words are plain stores; varints, deltas, clock
// conversion and lengths cost the app thread nothing.
//
// Call entry:
//   word  kEntryCall | flags << 8 | slot << 16 | frame << 32
//   word  context id
//   word  sequence
//   per parameter: a scalar word, and for data pointers a blob
//   unless flags has kCallUntimed:
//     word  start time (raw clock: TSC ticks, or CLOCK_MONOTONIC ns)
//     word  end time
//   if flags & has reply: the return value (a scalar word, or a blob for
//   strings), then a blob per data pointer
// Encoded entry (any record that is not a call, already encoded):
//   word  kEntryEncoded | frame << 32
//   word  the sequence the next call will get (the chunk's first_sequence when it starts one)
//   word  byte length | kExternal
//   the record's bytes, padded to a word; or, when external, a word holding a
//   pointer to a malloc'd block that the encoder frees
// State call entry (a compact call entry: the wrappers of state-setting calls
// whose parameters are all 32-bit scalars write it, StateCallWriter):
//   word  kEntryStateCall | flags << 8 | slot << 16 | sequence delta << 32
//   per parameter: 4 bytes (the scalar word's low half: kInt is sign-extended
//   back), the whole padded to a word
//   The sequence is the thread's previous call's (call, state call or
//   sequence entry) plus the delta; a thread whose next sequence is 2^32 or
//   more past its previous one writes a sequence entry first. The frame is
//   that of the thread's last call or encoded entry: a thread whose frame
//   changed since takes the general path. No context word: the context is
//   that of the thread's last context entry. No time words: flags has
//   kCallUntimed. No reply. glEnable takes 16 bytes, glUniform4f 24.
// Context entry: the thread's current context changed (eglMakeCurrent, a
// thread joining with a context current, eglReleaseThread).
//   word  kEntryContext
//   word  context id
// Sequence entry: the sequence the thread's next state call entry counts from.
//   word  kEntrySequence
//   word  sequence
// Wrap entry: the word kEntryWrap; the next entry is at the start of the ring.
//
// Scalar words: an integer of kind kInt sign-extended to 64 bits; other
// integers and handles zero-extended; a float's 4 bytes in the low half; a
// double's 8 bytes. A blob: a word 0 (absent) or (size + 1) | kExternal, then
// the bytes padded to a word, or, when external, a word with a pointer to a
// malloc'd block of `size` bytes.

#include <cstddef>
#include <cstdint>

namespace strata::trace::raw {

inline constexpr uint64_t kEntryCall = 1;
inline constexpr uint64_t kEntryEncoded = 2;
inline constexpr uint64_t kEntryWrap = 3;
inline constexpr uint64_t kEntryStateCall = 4;
inline constexpr uint64_t kEntryContext = 5;
inline constexpr uint64_t kEntrySequence = 6;
inline constexpr uint64_t kExternal = uint64_t{1} << 63;
inline constexpr size_t kWord = 8;
inline constexpr size_t kSequenceEntryBytes = 2 * kWord;

// Bytes of `n` rounded up to whole words.
inline constexpr size_t Padded(size_t n) { return (n + kWord - 1) & ~(kWord - 1); }

// A state call entry's bytes, for a function of `params` parameters: a
// word, then 4 bytes per parameter, padded.
inline constexpr size_t kStateCallParamBytes = 4;
inline constexpr size_t StateCallBytes(size_t params) { return Padded(kWord + params * kStateCallParamBytes); }

// Blobs larger than this go to the heap rather than through the ring.
inline constexpr size_t kMaxInlineBlob = 16 * 1024;

}  // namespace strata::trace::raw
