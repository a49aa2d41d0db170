#include "tools/command_line.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace strata::tools {
namespace {

// getopt_long's value for the long form of spec k; above any letter.
constexpr int kLongBase = 1000;

}  // namespace

CommandLine::CommandLine(const char* command, const char* usage, std::vector<OptionSpec> options, int argc,
                         char** argv, Operands operands)
    : command_(command), usage_(usage), specs_(std::move(options)), argc_(argc), argv_(argv) {
  // '+': stop at the first operand; ':': a missing value is told apart from an unknown option.
  short_options_ = operands == Operands::kProgramLast ? "+:" : ":";
  for (size_t k = 0; k < specs_.size(); ++k) {
    const OptionSpec& spec = specs_[k];
    long_options_.push_back({spec.name, spec.takes_value ? required_argument : no_argument, nullptr,
                             kLongBase + static_cast<int>(k)});
    if (spec.letter) {
      short_options_ += spec.letter;
      if (spec.takes_value) short_options_ += ':';
    }
  }
  long_options_.push_back({nullptr, 0, nullptr, 0});
  optind = 0;  // glibc: start over, also after an earlier command line in this process
  opterr = 0;  // the messages are ours
}

bool CommandLine::Next() {
  if (done_ || failed_) return false;
  int index = -1;
  const int c = getopt_long(argc_, argv_, short_options_.c_str(), long_options_.data(), &index);
  auto spec_of = [&](int value) -> int {
    if (value >= kLongBase) return value - kLongBase;
    for (size_t k = 0; k < specs_.size(); ++k) {
      if (specs_[k].letter == value) return static_cast<int>(k);
    }
    return -1;
  };
  // What the user typed for the option getopt_long just looked at.
  auto typed = [&](int value) {
    if (value > 0 && value < kLongBase) return std::string("-") + static_cast<char>(value);
    if (value >= kLongBase) return std::string("--") + specs_[value - kLongBase].name;
    std::string text = optind > 0 && optind <= argc_ ? argv_[optind - 1] : "";
    return text.substr(0, text.find('='));
  };
  if (c == -1) {
    for (int i = optind; i < argc_; ++i) operands_.emplace_back(argv_[i]);
    done_ = true;
    return false;
  }
  if (c == ':') {
    std::fprintf(stderr, "%s: error: %s needs a value\n", command_, typed(optopt).c_str());
    failed_ = true;
    return false;
  }
  if (c == '?') {
    if (optopt >= kLongBase) {
      std::fprintf(stderr, "%s: error: %s takes no value\n", command_, typed(optopt).c_str());
    } else {
      std::fprintf(stderr, "%s: error: unknown option '%s'\n%s", command_, typed(optopt).c_str(), usage_);
    }
    failed_ = true;
    return false;
  }
  current_ = spec_of(c);
  written_ = c >= kLongBase ? std::string("--") + specs_[current_].name : std::string("-") + static_cast<char>(c);
  value_ = specs_[current_].takes_value ? optarg : nullptr;
  return true;
}

bool CommandLine::Is(const char* name) const {
  return current_ >= 0 && std::strcmp(specs_[current_].name, name) == 0;
}

bool CommandLine::Count(uint64_t* out) {
  const std::string text = value_ ? value_ : "";
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos) {
    std::fprintf(stderr, "%s: error: %s takes a number of 0 or more, not '%s'\n", command_, written_.c_str(),
                 text.c_str());
    failed_ = true;
    return false;
  }
  *out = std::strtoull(text.c_str(), nullptr, 10);
  return true;
}

bool CommandLine::List(Range* out) {
  const char* text = value_ ? value_ : "";
  if (ParseRange(text, out)) return true;
  std::fprintf(stderr, "%s: error: %s takes a list of N, A-B, A- or -B, e.g. 0,5,10-20, not '%s'\n", command_,
               written_.c_str(), text);
  return false;
}

bool CommandLine::Refuse(const std::string& what) {
  std::fprintf(stderr, "%s: error: %s takes %s, not '%s'\n", command_, written_.c_str(), what.c_str(),
               value_ ? value_ : "");
  failed_ = true;
  return false;
}

bool CommandLine::OneTrace(std::string* path) const {
  if (operands_.empty()) {
    std::fprintf(stderr, "%s: error: no trace given\n%s", command_, usage_);
    return false;
  }
  if (operands_.size() > 1) {
    std::fprintf(stderr, "%s: error: one trace at a time ('%s' and '%s')\n", command_, operands_[0].c_str(),
                 operands_[1].c_str());
    return false;
  }
  *path = operands_[0];
  return true;
}

}  // namespace strata::tools
