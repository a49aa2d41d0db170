#pragma once
// A small streaming JSON writer: enough for machine-readable command output.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

class JsonWriter {
 public:
  JsonWriter& BeginObject();
  JsonWriter& EndObject();
  JsonWriter& BeginArray();
  JsonWriter& EndArray();
  JsonWriter& Key(std::string_view key);
  JsonWriter& String(std::string_view value);
  JsonWriter& Int(int64_t value);
  JsonWriter& UInt(uint64_t value);
  // Shortest text that reads back as the same double (float); NaN and
  // infinities, which JSON has no numbers for, as "nan", "inf", "-inf".
  JsonWriter& Double(double value);
  JsonWriter& Float(float value);
  JsonWriter& Bool(bool value);
  JsonWriter& Null();
  // A value that is JSON already (another writer's output), as it is.
  JsonWriter& Raw(std::string_view json);

  const std::string& str() const { return out_; }

 private:
  void BeforeValue();
  std::string out_;
  std::vector<bool> first_in_scope_;
  bool after_key_ = false;
};

// `value` as a quoted JSON string literal.
std::string JsonQuote(std::string_view value);
// The same, appended to *out. Bytes that are not valid UTF-8 (trace data is
// arbitrary: shader sources, captured strings) become U+FFFD, so every JSON
// parser accepts the output.
void AppendJsonQuoted(std::string* out, std::string_view value);

}  // namespace strata
