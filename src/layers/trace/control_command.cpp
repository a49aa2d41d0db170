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
