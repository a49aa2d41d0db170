#include "remote/reply_scan.h"

#include "stream/byte_reader.h"
#include "stream/framebuffer_record.h"
#include "stream/record_format.h"
#include "stream/record_reader.h"

namespace strata::remote {

ReplyScan ScanRendererMessage(std::span<const uint8_t> message, uint64_t sequence, int slot,
                              stream::wire::Reply* reply,
                              const std::function<void(const stream::FramebufferImage&)>& on_frame, std::string* why) {
  if (slot < 0 || slot >= api::kFunctionCount) {
    *why = "a reply awaited for unknown function slot " + std::to_string(slot);
    return ReplyScan::kMalformed;
  }
  stream::Record record;
  std::string error;
  size_t at = 0;
  while (stream::NextRecordIn(message, &at, &record, &error)) {
    if (record.type == stream::RecordType::kFramebuffer) {
      stream::FramebufferImage frame;
      if (!stream::DecodeFramebuffer(record.payload, &frame)) {
        *why = "a framebuffer record of " + std::to_string(record.payload.size()) +
               " bytes whose fields and pixels do not agree";
        return ReplyScan::kMalformed;
      }
      if (on_frame) on_frame(frame);
    } else if (record.type == stream::RecordType::kReply) {
      if (!stream::wire::DecodeReply(record.payload, slot, reply, &error)) break;
      if (reply->sequence != sequence) {
        *why = "reply to call " + std::to_string(reply->sequence) + " while call " + std::to_string(sequence) +
               " waited";
        return ReplyScan::kMalformed;
      }
      return ReplyScan::kReplied;
    } else if (record.type == stream::RecordType::kTraceEvent) {
      stream::ByteReader event(record.payload);
      if (event.String() == "error") {
        *why = event.String();
        return ReplyScan::kClosed;
      }
    }
  }
  if (!error.empty()) {
    *why = error;
    return ReplyScan::kMalformed;
  }
  return ReplyScan::kNotYet;
}

}  // namespace strata::remote
