#pragma once
// What every exporter shares: walking a trace's records in file order,
// decoding calls, numbering frames the way `strata dump` does, and telling
// which calls and frames the user selected (--frames, --calls).

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "stream/call_decoder.h"
#include <utility>
#include <vector>

#include "stream/framebuffer_record.h"
#include "stream/record_reader.h"

namespace strata::exporter {

// Lists of inclusive [first, last] ranges; an empty list selects everything.
struct Selection {
  std::vector<std::pair<uint64_t, uint64_t>> frames;
  std::vector<std::pair<uint64_t, uint64_t>> calls;  // by sequence number
  bool ContainsFrame(uint64_t frame) const { return In(frames, frame); }
  bool ContainsCall(uint64_t sequence) const { return In(calls, sequence); }

 private:
  static bool In(const std::vector<std::pair<uint64_t, uint64_t>>& ranges, uint64_t v) {
    if (ranges.empty()) return true;
    for (const auto& [first, last] : ranges) {
      if (v >= first && v <= last) return true;
    }
    return false;
  }
};

// What an export wrote, and what it had to leave out or change.
struct ExportSummary {
  uint64_t calls = 0;   // call records written (messages, slices)
  uint64_t frames = 0;  // frame ends inside the selection
  uint64_t images = 0;  // framebuffer images written
  uint64_t undecodable_calls = 0;
  std::string first_decode_error;
  // Functions the output format has no name for, with how many calls each.
  std::map<std::string, uint64_t> unnamed_functions;
  uint64_t images_left_out = 0;  // images whose call was not exported, or malformed
  uint64_t gpu_slices = 0;       // chrome-json: GPU times written (--gpu-times)
};

// The exporter's side of the walk. `selected` says whether the user asked
// for this call or frame; exporters see unselected ones too because they
// may need them for bookkeeping (where a frame starts, whose image is next).
class TraceVisitor {
 public:
  virtual ~TraceVisitor() = default;
  virtual void OnCall(const stream::DecodedCall& call, bool selected) = 0;
  // A captured image; its pixels are valid only during the call.
  virtual void OnFramebuffer(uint32_t thread, const stream::FramebufferImage& image, bool selected) = 0;
  // `frame` (numbered by the tracer, from 0) ended with the swap just seen on `thread`.
  virtual void OnFrameEnd(uint32_t thread, uint64_t frame, bool selected) = 0;
  // True once the output cannot be written: the walk stops early.
  virtual bool OutputFailed() const = 0;
};

// Reads every record `reader` has left and hands calls, images and frame
// ends to `visitor`. Stops at the end of the file, at damage (see the
// reader's error()) or when the visitor's output fails.
void WalkTrace(stream::RecordReader& reader, const Selection& selection, TraceVisitor& visitor,
               ExportSummary* summary);

}  // namespace strata::exporter
