#include "layers/trace/control_command.h"

#include <sstream>

namespace strata::trace {

ControlCommand ParseControlCommand(std::string_view line) {
  ControlCommand parsed;
  if (line.size() > kMaxControlLine) {
    parsed.error = "command longer than " + std::to_string(kMaxControlLine) + " bytes";
    return parsed;
  }
  if (line.find('\0') != std::string_view::npos) {
    parsed.error = "command holds a NUL byte";
    return parsed;
  }
  std::istringstream words{std::string(line)};
  std::string command;
  words >> command;
  if (command == "attach") {
    words >> parsed.compression;
    std::getline(words >> std::ws, parsed.destination);
    // Options before the destination (which may hold spaces): capture=WHEN, frames=N.
    for (;;) {
      const bool capture = parsed.destination.rfind("capture=", 0) == 0;
      const bool frames = parsed.destination.rfind("frames=", 0) == 0;
      if (!capture && !frames) break;
      const size_t space = parsed.destination.find(' ');
      const size_t at = capture ? 8 : 7;
      const std::string value =
          parsed.destination.substr(at, space == std::string::npos ? std::string::npos : space - at);
      parsed.destination = space == std::string::npos ? "" : parsed.destination.substr(space + 1);
      if (capture) {
        parsed.capture = value;
        continue;
      }
      if (value.empty() || value.size() > 9 || value.find_first_not_of("0123456789") != std::string::npos ||
          std::stoull(value) == 0) {
        parsed.error = "frames=" + value + ": give a number of frames from 1";
        return parsed;
      }
      parsed.frames = std::stoull(value);
    }
    if (parsed.destination.empty()) {
      parsed.error = "attach needs a destination";
      return parsed;
    }
    parsed.kind = ControlCommand::Kind::kAttach;
  } else if (command == "detach") {
    parsed.kind = ControlCommand::Kind::kDetach;
  } else if (command == "status") {
    parsed.kind = ControlCommand::Kind::kStatus;
  } else {
    parsed.error = "unknown command '" + command + "'";
  }
  return parsed;
}

}  // namespace strata::trace
