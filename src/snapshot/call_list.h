#pragma once
// Calls made up rather than recorded (a snapshot's): built argument by
// argument in the registry's order, with the bytes behind their pointers
// owned here, so that they encode exactly like recorded calls
// (stream::EncodeCall) and replay through the same executor.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "stream/call_decoder.h"
#include "strata/api/functions.h"

namespace strata::snapshot {

class CallList {
 public:
  CallList() = default;
  // The calls' spans point into bytes_: a copy would point into the
  // original's. Moving keeps the bytes where they are.
  CallList(const CallList&) = delete;
  CallList& operator=(const CallList&) = delete;
  CallList(CallList&&) = default;
  CallList& operator=(CallList&&) = default;

  class Builder {
   public:
    // The next parameter, by the registry's kind for it: an integer, enum,
    // handle or name (also a pointer's value, for a pointer without data,
    // such as an offset into a bound buffer).
    Builder& Arg(int64_t value);
    Builder& Float(double value);
    // A data pointer and the bytes behind it.
    Builder& In(const void* data, size_t size);
    Builder& String(std::string_view text);                  // NUL-terminated, as the tracer records it
    Builder& Strings(const std::vector<std::string>& texts);  // a string array (glShaderSource)
    // An output pointer and what the call wrote there (glGen*'s names): the
    // executor maps the recorded names to those the host gives.
    Builder& Out(const void* data, size_t size);
    // What the call returned (glCreateShader's name, glGetUniformLocation's location).
    Builder& Returns(uint64_t value);

   private:
    friend class CallList;
    Builder(CallList& list, stream::DecodedCall& call) : list_(list), call_(call) {}
    stream::DecodedValue& Next();
    CallList& list_;
    stream::DecodedCall& call_;
  };

  // Starts a call; its arguments follow through the builder.
  Builder Add(api::Slot slot);
  // A copy of a recorded call, its bytes included, marked as made up.
  const stream::DecodedCall& Copy(const stream::DecodedCall& call);
  const std::deque<stream::DecodedCall>& calls() const { return calls_; }
  size_t size() const { return calls_.size(); }
  // Bytes held behind the calls' pointers.
  uint64_t data_bytes() const { return data_bytes_; }

 private:
  std::span<const uint8_t> Keep(const void* data, size_t size);
  std::deque<std::vector<uint8_t>> bytes_;
  std::deque<stream::DecodedCall> calls_;
  uint64_t data_bytes_ = 0;
};

}  // namespace strata::snapshot
