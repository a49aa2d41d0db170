// The call decoder (stream/call_decoder.h) and everything that reads a
// record's payload for a person: `strata dump` text and JSON, memory,
// framebuffer and trace event records. The input is a run of records as a
// chunk holds them, function ids by this build's table (what the tracer writes).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "stream/call_decoder.h"
#include "stream/call_printer.h"
#include "stream/event_records.h"
#include "stream/framebuffer_record.h"
#include "stream/record_reader.h"

using namespace strata;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const stream::FunctionTable& functions = fuzz::OwnFunctions();
  stream::CallDecoder decoder(functions);
  stream::DecodedCall call;
  stream::Record record;
  std::string error;
  size_t at = 0;
  const std::span<const uint8_t> bytes(data, size);
  while (stream::NextRecordIn(bytes, &at, &record, &error)) {
    switch (record.type) {
      case stream::RecordType::kCall:
        if (decoder.Decode(record.payload, 1, 0, &call, &error)) {
          stream::FormatCall(call);
          stream::FormatCallJson(call);
        }
        break;
      case stream::RecordType::kMemory: {
        uint64_t address = 0;
        std::span<const uint8_t> memory;
        stream::DecodeMemory(record.payload, &address, &memory);
        break;
      }
      case stream::RecordType::kFramebuffer: {
        stream::FramebufferImage image;
        stream::DecodeFramebuffer(record.payload, &image);
        break;
      }
      case stream::RecordType::kTraceEvent: {
        uint64_t context = 0, gl_error = 0;
        stream::DecodeGlErrorEvent(record.payload, &context, &gl_error);
        break;
      }
      default: break;
    }
  }
  return 0;
}
