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
    // An option before the destination (which may hold spaces): capture=WHEN.
    if (parsed.destination.rfind("capture=", 0) == 0) {
      const size_t space = parsed.destination.find(' ');
      parsed.capture = parsed.destination.substr(8, space == std::string::npos ? std::string::npos : space - 8);
      parsed.destination = space == std::string::npos ? "" : parsed.destination.substr(space + 1);
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
