#pragma once
// The argument walk shared by the commands that read one trace (dump, export,
// view): options, their values, and the trace's path, with the same error
// messages everywhere. Each command keeps only its own options.

#include <cstdio>
#include <string>

#include "tools/range_option.h"

namespace strata::tools {

class TraceArguments {
 public:
  // `command` as in messages ("strata dump"); `usage` is printed after an unknown option.
  TraceArguments(const char* command, const char* usage, int argc, char** argv)
      : command_(command), usage_(usage), argc_(argc), argv_(argv) {}

  // Moves to the next argument; false when there are none left.
  bool Next() {
    if (++i_ >= argc_) return false;
    arg_ = argv_[i_];
    return true;
  }
  const std::string& arg() const { return arg_; }
  bool Is(const char* option) const { return arg_ == option; }

  // The current option's value, or nullptr after saying that it needs one.
  const char* Value() {
    if (i_ + 1 >= argc_) {
      std::fprintf(stderr, "%s: error: %s needs a value\n", command_, arg_.c_str());
      return nullptr;
    }
    return argv_[++i_];
  }

  // The current option's value into `out`; false after saying that it needs one.
  bool Value(std::string* out) {
    const char* v = Value();
    if (v == nullptr) return false;
    *out = v;
    return true;
  }
  // --frames/--calls: the value as N or A-B into the matching range; false
  // after saying what is wrong.
  bool FrameOrCallRange(Range* frames, Range* calls) {
    const char* v = Value();
    if (v == nullptr) return false;
    if (ParseRange(v, arg_ == "--frames" ? frames : calls)) return true;
    std::fprintf(stderr, "%s: error: %s takes N or A-B, not '%s'\n", command_, arg_.c_str(), v);
    return false;
  }

  // For an argument no option of the command took: an unknown option, or the
  // trace's path (only one). False after saying what is wrong.
  bool TakeTrace(std::string* path) {
    if (!arg_.empty() && arg_[0] == '-') {
      std::fprintf(stderr, "%s: error: unknown option '%s'\n%s", command_, arg_.c_str(), usage_);
      return false;
    }
    if (!path->empty()) {
      std::fprintf(stderr, "%s: error: one trace at a time ('%s' and '%s')\n", command_, path->c_str(), arg_.c_str());
      return false;
    }
    *path = arg_;
    return true;
  }

  // After the walk: false after saying that no trace was given.
  bool HasTrace(const std::string& path) const {
    if (!path.empty()) return true;
    std::fprintf(stderr, "%s: error: no trace given\n%s", command_, usage_);
    return false;
  }

 private:
  const char* command_;
  const char* usage_;
  int argc_;
  char** argv_;
  int i_ = 0;
  std::string arg_;
};

}  // namespace strata::tools
