#pragma once
// A small JSON reader for tests that check what a command printed as JSON
// (strata pixel --json, strata export's chrome-json): no library of ours, so
// that a bug in Strata's JSON writer cannot hide in a matching reader.

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace strata::test {

struct Json {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;

  // The member `key` of an object (a null value when there is none).
  const Json& operator[](const std::string& key) const;
  const Json& operator[](size_t index) const;
  bool Has(const std::string& key) const { return kind == Kind::kObject && object.count(key) != 0; }
  size_t size() const { return kind == Kind::kArray ? array.size() : object.size(); }
};

// False with *error (and the offset) for text that is not one JSON value.
bool ParseJson(const std::string& text, Json* value, std::string* error);

}  // namespace strata::test
