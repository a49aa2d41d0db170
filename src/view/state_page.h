#pragma once
// `strata state --html`: the state JSON as one self-contained page of nested
// tables, with the images `-o` wrote shown where the JSON names them.

#include <cstdint>
#include <string>

namespace strata::view {

// `image_prefix`: prepended to the JSON's relative file paths, so that they
// resolve from where the page is (the way from the page's folder to the
// folder the paths are relative to).
std::string StatePage(const std::string& state_json, const std::string& trace, uint64_t call,
                      const std::string& image_prefix);

}  // namespace strata::view
