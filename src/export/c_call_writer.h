#pragma once
// One decoded call as C source of the program `strata export --format c`
// writes (the runtime it calls is src/export/c_program/replay_runtime.h).
// Generic, from the registry's tables: each parameter's kind and capture
// rule say whether it is a literal, a name to map, bytes of the data file or
// memory for the call's outputs. It knows nothing of which calls run when:
// the exporter (c_source_export.cpp) follows the trace's state and asks.

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "stream/call_decoder.h"
#include "strata/api/replay.h"

namespace strata::exporter {

// The data file of the exported program: every blob once, 16-byte aligned.
class DataFile {
 public:
  // The offset of `bytes` (a NUL after them with `terminate`).
  uint64_t Add(std::span<const uint8_t> bytes, bool terminate = false);
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
  std::unordered_multimap<uint64_t, std::pair<uint64_t, uint64_t>> by_hash_;  // hash -> (offset, size)
};

// The C expression of a scalar as C: decimal, hex for enums (with their
// name), floats exact.
std::string CLiteral(const stream::DecodedValue& value, uint16_t enum_group);
// The runtime's scope of an object class (STRATA_PER_CONTEXT, ...).
const char* NameScope(api::ObjectClass object);
// The macro of the exported program that maps a class's names (STRATA_TEXTURE, ...).
std::string ClassMacro(api::ObjectClass object);
// `(TYPE)STRATA_TEXTURE(recorded)`: the host's name of a recorded one.
std::string HostName(api::ObjectClass object, uint64_t recorded, const char* type);

class CallWriter {
 public:
  explicit CallWriter(DataFile& data) : data_(data) {}

  // What the exporter gives itself: the expression of some parameters (a
  // client array's pointer into the data file, a multi-draw's resolved
  // index arrays), and a function of the runtime the result goes to
  // (`strata_set_mapping(3, ` for a mapping; the call closes it).
  struct Overrides {
    std::map<int, std::string> params;
    std::string result_into;
  };
  // The statement(s) running `call`; `program` is the current program (the
  // recorded name), for uniform locations. False with `why` when the call
  // cannot run from C (then nothing is written).
  bool Write(const stream::DecodedCall& call, uint64_t program, const Overrides& overrides, std::string* out,
             std::string* why);
  // The expression calling `slot`'s function with `arguments` (for calls the exporter makes up).
  std::string Call(int slot, const std::vector<std::string>& arguments);

  // Every function a written call uses, for the loader of entry points.
  const std::set<int>& used() const { return used_; }

 private:
  // The EGL calls the runtime runs itself; false when `call` is not one.
  bool WriteEgl(const stream::DecodedCall& call, std::string* out, bool* skipped);
  std::string Argument(const stream::DecodedCall& call, int i, uint64_t program, std::string* before,
                       std::string* after, std::map<int, std::string>* lengths, std::string* why);

  DataFile& data_;
  std::set<int> used_;
  int temporaries_ = 0;  // names of a call's local arrays
};

}  // namespace strata::exporter
