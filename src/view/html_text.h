#pragma once
// Text inside HTML pages Strata writes (the trace report, `strata state --html`).

#include <string>
#include <string_view>

namespace strata::view {

// JSON inside <script> must not contain "</script" or "<!--": '<' only ever
// appears inside JSON strings, where \u003c means the same.
inline std::string ScriptSafe(std::string_view json) {
  std::string out;
  out.reserve(json.size() + json.size() / 64);
  for (char c : json) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

inline std::string HtmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace strata::view
