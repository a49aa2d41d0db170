#pragma once
// The argument walk shared by the commands that read one trace (dump, stats,
// export, view): options, their values (`--option VALUE` or
// `--option=VALUE`), and the trace's path, with the same error messages
// everywhere. Each command keeps only its own options.

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "tools/range_option.h"

namespace strata::tools {

class TraceArguments {
 public:
  // `command` as in messages ("strata dump"); `usage` is printed after an unknown option.
  TraceArguments(const char* command, const char* usage, int argc, char** argv)
      : command_(command), usage_(usage), argc_(argc), argv_(argv) {}

  // Moves to the next argument; false when there are none left, or after
  // saying that an option given `=VALUE` took no value (then failed()).
  bool Next() {
    if (inline_value_) {
      std::fprintf(stderr, "%s: error: %s takes no value\n", command_, arg_.c_str());
      failed_ = true;
      return false;
    }
    if (++i_ >= argc_) return false;
    arg_ = argv_[i_];
    const size_t equals = arg_.find('=');
    if (arg_.rfind("--", 0) == 0 && equals != std::string::npos) {
      value_ = arg_.substr(equals + 1);
      arg_.resize(equals);
      inline_value_ = true;
    }
    return true;
  }
  // The walk stopped at a mistake it has already reported.
  bool failed() const { return failed_; }
  const std::string& arg() const { return arg_; }
  bool Is(const char* option) const { return arg_ == option; }

  // The current option's value, or nullptr after saying that it needs one.
  const char* Value() {
    if (inline_value_) {
      inline_value_ = false;
      return value_.c_str();
    }
    if (i_ + 1 >= argc_) {
      std::fprintf(stderr, "%s: error: %s needs a value\n", command_, arg_.c_str());
      return nullptr;
    }
    return argv_[++i_];
  }

  // A count (digits only); false after saying what is wrong.
  bool Count(uint64_t* out) {
    const char* v = Value();
    if (v == nullptr) return false;
    const std::string text = v;
    if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) {
      std::fprintf(stderr, "%s: error: %s takes a number of 0 or more, not '%s'\n", command_, arg_.c_str(), v);
      return false;
    }
    *out = std::strtoull(v, nullptr, 10);
    return true;
  }

  // The current option's value into `out`; false after saying that it needs one.
  bool Value(std::string* out) {
    const char* v = Value();
    if (v == nullptr) return false;
    *out = v;
    return true;
  }
  // --frames/--calls: the value as a list (0,5,10-20) into the matching
  // range; false after saying what is wrong.
  bool FrameOrCallRange(Range* frames, Range* calls) {
    const char* v = Value();
    if (v == nullptr) return false;
    if (ParseRange(v, arg_ == "--frames" ? frames : calls)) return true;
    std::fprintf(stderr, "%s: error: %s takes a list of N, A-B, A- or -B, e.g. 0,5,10-20, not '%s'\n", command_,
                 arg_.c_str(), v);
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

  // For an argument no option of the command took, in a command that reads
  // several traces (diff): an unknown option, or the next trace's path.
  bool TakeTraces(std::vector<std::string>* paths) {
    if (!arg_.empty() && arg_[0] == '-') {
      std::fprintf(stderr, "%s: error: unknown option '%s'\n%s", command_, arg_.c_str(), usage_);
      return false;
    }
    paths->push_back(arg_);
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
  std::string value_;          // of --option=VALUE
  bool inline_value_ = false;  // value_ is the current option's and not taken yet
  bool failed_ = false;
};

}  // namespace strata::tools
