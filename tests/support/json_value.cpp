#include "support/json_value.h"

#include <cstdlib>

namespace strata::test {
namespace {

const Json kNull;

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  bool Parse(Json* value, std::string* error) {
    if (!Value(value, 0) || (Space(), at_ != text_.size())) {
      *error = "not JSON at offset " + std::to_string(at_);
      return false;
    }
    return true;
  }

 private:
  void Space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\r' || text_[at_] == '\t')) ++at_;
  }
  bool Literal(const char* word) {
    const std::string w(word);
    if (text_.compare(at_, w.size(), w) != 0) return false;
    at_ += w.size();
    return true;
  }
  bool String(std::string* out) {
    if (text_[at_] != '"') return false;
    ++at_;
    while (at_ < text_.size() && text_[at_] != '"') {
      char c = text_[at_++];
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (at_ >= text_.size()) return false;
      c = text_[at_++];
      switch (c) {
        case 'n': out->push_back('\n'); break;
        case 't': out->push_back('\t'); break;
        case 'r': out->push_back('\r'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'u': {
          if (at_ + 4 > text_.size()) return false;
          const unsigned code = static_cast<unsigned>(std::strtoul(text_.substr(at_, 4).c_str(), nullptr, 16));
          at_ += 4;
          if (code < 0x80) {
            out->push_back(static_cast<char>(code));
          } else if (code < 0x800) {
            out->push_back(static_cast<char>(0xc0 | (code >> 6)));
            out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
          } else {
            out->push_back(static_cast<char>(0xe0 | (code >> 12)));
            out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
            out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
          }
          break;
        }
        default: out->push_back(c);
      }
    }
    if (at_ >= text_.size()) return false;
    ++at_;
    return true;
  }
  bool Value(Json* value, int depth) {
    Space();
    if (at_ >= text_.size() || depth > 64) return false;
    const char c = text_[at_];
    if (c == '{') {
      value->kind = Json::Kind::kObject;
      ++at_;
      Space();
      if (at_ < text_.size() && text_[at_] == '}') return ++at_, true;
      while (true) {
        Space();
        std::string key;
        if (at_ >= text_.size() || !String(&key)) return false;
        Space();
        if (at_ >= text_.size() || text_[at_++] != ':') return false;
        if (!Value(&value->object[key], depth + 1)) return false;
        Space();
        if (at_ >= text_.size()) return false;
        if (text_[at_] == ',') {
          ++at_;
          continue;
        }
        return text_[at_++] == '}';
      }
    }
    if (c == '[') {
      value->kind = Json::Kind::kArray;
      ++at_;
      Space();
      if (at_ < text_.size() && text_[at_] == ']') return ++at_, true;
      while (true) {
        value->array.emplace_back();
        if (!Value(&value->array.back(), depth + 1)) return false;
        Space();
        if (at_ >= text_.size()) return false;
        if (text_[at_] == ',') {
          ++at_;
          continue;
        }
        return text_[at_++] == ']';
      }
    }
    if (c == '"') {
      value->kind = Json::Kind::kString;
      return String(&value->string);
    }
    if (Literal("true")) return value->kind = Json::Kind::kBool, value->boolean = true, true;
    if (Literal("false")) return value->kind = Json::Kind::kBool, value->boolean = false, true;
    if (Literal("null")) return value->kind = Json::Kind::kNull, true;
    const char* start = text_.c_str() + at_;
    char* end = nullptr;
    value->number = std::strtod(start, &end);
    if (end == start) return false;
    value->kind = Json::Kind::kNumber;
    at_ += static_cast<size_t>(end - start);
    return true;
  }

  const std::string& text_;
  size_t at_ = 0;
};

}  // namespace

const Json& Json::operator[](const std::string& key) const {
  if (kind != Kind::kObject) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : it->second;
}

const Json& Json::operator[](size_t index) const { return kind == Kind::kArray && index < array.size() ? array[index] : kNull; }

bool ParseJson(const std::string& text, Json* value, std::string* error) {
  *value = Json{};
  return Parser(text).Parse(value, error);
}

}  // namespace strata::test
