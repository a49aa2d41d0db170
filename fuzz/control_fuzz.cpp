// The trace control socket's command line (layers/trace/control_command.h),
// sent by whoever can connect to a traceable process, and the parts of it a
// tracer then parses: the compression name and a listen: address.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "layers/trace/control_command.h"
#include "stream/trace_file.h"
#include "transport/socket_address.h"

using namespace strata;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const trace::ControlCommand command = trace::ParseControlCommand(line);
  if (command.kind != trace::ControlCommand::Kind::kAttach) return 0;
  stream::Compression compression;
  stream::ParseCompression(command.compression, &compression);
  if (command.destination.rfind("listen:", 0) == 0) {
    transport::Address address;
    std::string error;
    transport::ParseAddress(command.destination.substr(7), &address, &error);
  }
  return 0;
}
