#include "common/json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace strata {

namespace {

// Length of the valid UTF-8 sequence at the start of `s`, or 0.
size_t Utf8Length(std::string_view s) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char c = byte(0);
  size_t length = c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;
  if (length == 0 || length > s.size()) return 0;
  for (size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xc0) != 0x80) return 0;
  }
  // Overlong forms, surrogates and values past U+10FFFF.
  if (length == 3 && ((c == 0xe0 && byte(1) < 0xa0) || (c == 0xed && byte(1) >= 0xa0))) return 0;
  if (length == 4 && ((c == 0xf0 && byte(1) < 0x90) || (c == 0xf4 && byte(1) >= 0x90))) return 0;
  return length;
}

}  // namespace

// A JSON string. Trace data is arbitrary bytes (shader sources, captured
// strings): bytes that are not UTF-8 become U+FFFD so that every JSON
// parser accepts the file.
void AppendJsonQuoted(std::string* out_string, std::string_view s) {
  std::string& out = *out_string;
  out += '"';
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      size_t length = Utf8Length(s.substr(i));
      if (length == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out.append(s.substr(i, length));
        i += length;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          static const char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
}


std::string JsonQuote(std::string_view value) {
  std::string out;
  AppendJsonQuoted(&out, value);
  return out;
}

void JsonWriter::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_in_scope_.empty()) {
    if (!first_in_scope_.back()) out_ += ',';
    first_in_scope_.back() = false;
  }
}

JsonWriter& JsonWriter::BeginObject() {
  BeforeValue();
  out_ += '{';
  first_in_scope_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::Raw(std::string_view json) {
  BeforeValue();
  out_ += json;
  return *this;
}

JsonWriter& JsonWriter::EndObject() {
  out_ += '}';
  first_in_scope_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::BeginArray() {
  BeforeValue();
  out_ += '[';
  first_in_scope_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::EndArray() {
  out_ += ']';
  first_in_scope_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  BeforeValue();
  out_ += JsonQuote(key);
  out_ += ':';
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view value) {
  BeforeValue();
  out_ += JsonQuote(value);
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t value) {
  BeforeValue();
  out_ += std::to_string(value);
  return *this;
}

JsonWriter& JsonWriter::UInt(uint64_t value) {
  BeforeValue();
  out_ += std::to_string(value);
  return *this;
}

namespace {

// The shortest text that reads back as the same value (0.1f as 0.1, not
// 0.10000000149011612); NaN and infinities as strings.
template <typename Real>
void AppendReal(JsonWriter& json, std::string& out, Real value) {
  if (std::isnan(value)) {
    json.String("nan");
  } else if (std::isinf(value)) {
    json.String(value > 0 ? "inf" : "-inf");
  } else {
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
  }
}

}  // namespace

JsonWriter& JsonWriter::Double(double value) {
  if (std::isfinite(value)) BeforeValue();
  AppendReal(*this, out_, value);
  return *this;
}

JsonWriter& JsonWriter::Float(float value) {
  if (std::isfinite(value)) BeforeValue();
  AppendReal(*this, out_, value);
  return *this;
}

JsonWriter& JsonWriter::Bool(bool value) {
  BeforeValue();
  out_ += value ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  out_ += "null";
  return *this;
}

}  // namespace strata
