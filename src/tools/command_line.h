#pragma once
// Every `strata` command's options, parsed by glibc's getopt_long: `--option
// VALUE`, `--option=VALUE`, `-o VALUE`, `-oVALUE`, grouped one-letter flags,
// `--` to end the options, and the same error messages everywhere. A command
// lists its options and then asks, for each one given, which it was.

#include <cstdint>
#include <getopt.h>
#include <string>
#include <vector>

#include "common/range_option.h"

namespace strata::tools {

struct OptionSpec {
  const char* name;  // the long form without "--"
  char letter;       // the one-letter form, or 0
  bool takes_value;
};

class CommandLine {
 public:
  enum class Operands {
    kAnywhere,     // options and operands mix (strata dump TRACE --json)
    kProgramLast,  // options end at the first operand: the program to run and its own arguments
  };
  // `command` as in messages ("strata dump"); `usage` is printed after an unknown option.
  CommandLine(const char* command, const char* usage, std::vector<OptionSpec> options, int argc, char** argv,
              Operands operands = Operands::kAnywhere);

  // Moves to the next option given; false at the end, or after saying what
  // is wrong (an unknown option, a value missing or not wanted: failed()).
  bool Next();
  bool failed() const { return failed_; }
  // The current option, by its long name without "--".
  bool Is(const char* name) const;
  // The current option as the user wrote it ("-o", "--frames"), for messages.
  const std::string& written() const { return written_; }
  // The current option's value.
  const char* value() const { return value_; }

  // The value as a count (digits only); false after saying what is wrong.
  bool Count(uint64_t* out);
  // The value as a list of frames or calls (1,5-9,20-); false after saying what is wrong.
  bool List(Range* out);
  // Says "COMMAND: error: OPTION takes WHAT, not 'VALUE'" for the current option; false.
  bool Refuse(const std::string& what);

  // After Next() returned false: the arguments that are not options, in order.
  const std::vector<std::string>& operands() const { return operands_; }
  // Exactly one operand, a trace; false after saying what is wrong.
  bool OneTrace(std::string* path) const;

 private:
  const char* command_;
  const char* usage_;
  std::vector<OptionSpec> specs_;
  int argc_;
  char** argv_;
  std::vector<option> long_options_;
  std::string short_options_;
  int current_ = -1;
  std::string written_;
  const char* value_ = nullptr;
  std::vector<std::string> operands_;
  bool done_ = false, failed_ = false;
};

}  // namespace strata::tools
