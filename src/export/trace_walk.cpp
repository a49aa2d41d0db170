#include "export/trace_walk.h"

#include "stream/byte_reader.h"

namespace strata::exporter {

void WalkTrace(stream::RecordReader& reader, const Selection& selection, TraceVisitor& visitor,
               ExportSummary* summary) {
  // Frames are counted as `strata dump` counts them (frame ends in file
  // order), so `--frames` selects the same calls in both commands.
  uint64_t frame = 0;
  stream::Record record;
  std::vector<uint8_t> rgba_scratch;  // a BGRA8 image as RGBA8
  stream::DecodedCall call;
  stream::CallDecoder decoder(reader.functions());
  std::string error;
  while (!visitor.OutputFailed() && reader.Next(&record)) {
    switch (record.type) {
      case stream::RecordType::kCall: {
        if (!decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &error)) {
          if (summary->undecodable_calls++ == 0) summary->first_decode_error = error;
          break;
        }
        bool selected = selection.ContainsFrame(frame) && selection.ContainsCall(call.sequence);
        visitor.OnCall(call, selected);
        break;
      }
      case stream::RecordType::kFramebuffer: {
        stream::FramebufferImage image;
        if (!stream::DecodeFramebufferAsRgba(record.payload, &image, &rgba_scratch)) {
          ++summary->images_left_out;
          break;
        }
        visitor.OnFramebuffer(record.thread_id, image, selection.ContainsFrame(frame));
        break;
      }
      case stream::RecordType::kFrame: {
        // The tracer numbers frames itself; with several rendering threads
        // its numbers are exact where the file order of chunks is not.
        stream::ByteReader r(record.payload);
        uint64_t number = r.Varint();
        bool selected = selection.ContainsFrame(frame);
        if (selected) ++summary->frames;
        visitor.OnFrameEnd(record.thread_id, r.ok() ? number : frame, selected);
        ++frame;
        break;
      }
      default:
        break;  // memory records, trace events: no place for them in either format
    }
  }
}

}  // namespace strata::exporter
