#include "view/captured_images.h"

#include <map>
#include <optional>

#include "stream/byte_reader.h"
#include "stream/framebuffer_record.h"
#include "stream/record_reader.h"
#include "view/image_scaling.h"

namespace strata::view {

bool ForEachCapturedImage(const std::string& trace_path, const std::function<bool(uint64_t frame)>& wanted,
                          const std::function<void(FrameImage&& image)>& take, uint64_t* skipped,
                          std::string* error) {
  auto reader = stream::RecordReader::Open(trace_path, error);
  if (!reader) return false;
  struct Kept {
    FrameImage image;
    bool of_surface = false;
  };
  std::map<uint64_t, Kept> kept;  // frames not handed out yet
  uint64_t handed_out = 0;        // frames below this are done
  std::optional<uint64_t> first_tracer_frame;
  // Frames before `frame` are complete: the tracer numbers its records in order.
  auto hand_out_before = [&](uint64_t frame) {
    while (!kept.empty() && kept.begin()->first < frame) {
      handed_out = kept.begin()->first + 1;
      take(std::move(kept.begin()->second.image));
      kept.erase(kept.begin());
    }
  };
  stream::Record record;
  std::vector<uint8_t> rgba_scratch;  // a BGRA8 image as RGBA8
  while (reader->Next(&record)) {
    if (record.type == stream::RecordType::kFrame && !first_tracer_frame) {
      stream::ByteReader r(record.payload);
      const uint64_t tracer_frame = r.Varint();
      if (r.ok()) first_tracer_frame = tracer_frame;
      continue;
    }
    if (record.type != stream::RecordType::kFramebuffer) continue;
    stream::FramebufferImage captured;
    if (!stream::DecodeFramebufferAsRgba(record.payload, &captured, &rgba_scratch) ||
        captured.width == 0 || captured.height == 0) {
      ++*skipped;
      continue;
    }
    if (captured.final_frame) continue;  // not any frame's image: the app's last drawing, at its end
    const uint64_t frame =
        first_tracer_frame && captured.frame > *first_tracer_frame ? captured.frame - *first_tracer_frame : 0;
    hand_out_before(frame);
    // A late image of a frame already handed out (another thread's chunk) is not its last.
    if (frame < handed_out || (wanted && !wanted(frame))) continue;
    const bool of_surface = captured.framebuffer == 0;
    auto found = kept.find(frame);
    if (found != kept.end() && found->second.of_surface && !of_surface) continue;
    Kept entry;
    entry.of_surface = of_surface;
    entry.image.frame = frame;
    entry.image.width = static_cast<uint32_t>(captured.width);
    entry.image.height = static_cast<uint32_t>(captured.height);
    entry.image.rgba = FlipRows(captured.pixels, entry.image.width, entry.image.height);
    kept[frame] = std::move(entry);
  }
  hand_out_before(UINT64_MAX);
  return true;
}

bool ReadCapturedImages(const std::string& trace_path, const CapturedImageOptions& options,
                        CapturedImageResult* result, std::string* error) {
  result->images.clear();
  auto take = [&](FrameImage&& full) {
    FrameImage image;
    if (DownscaleToFit(full, options.max_side, &image)) {
      result->images.push_back(std::move(image));
    } else {
      ++result->skipped;
    }
  };
  return ForEachCapturedImage(trace_path, options.wanted, take, &result->skipped, error);
}

}  // namespace strata::view
