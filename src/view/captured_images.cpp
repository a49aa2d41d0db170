#include "view/captured_images.h"

#include <map>

#include "stream/framebuffer_record.h"
#include "stream/record_reader.h"
#include "view/image_scaling.h"

namespace strata::view {

bool ReadCapturedImages(const std::string& trace_path, const CapturedImageOptions& options,
                        CapturedImageResult* result, std::string* error) {
  auto reader = stream::RecordReader::Open(trace_path, error);
  if (!reader) return false;
  struct Kept {
    FrameImage image;
    bool of_surface = false;
  };
  std::map<uint64_t, Kept> kept;
  stream::Record record;
  while (reader->Next(&record)) {
    if (record.type != stream::RecordType::kFramebuffer) continue;
    stream::FramebufferImage captured;
    if (!stream::DecodeFramebuffer(record.payload, &captured) || captured.format != 0 || captured.width == 0 ||
        captured.height == 0 || captured.width > UINT32_MAX || captured.height > UINT32_MAX) {
      ++result->skipped;
      continue;
    }
    if (captured.final_frame) continue;  // not any frame's image: the app's last drawing, at its end
    // An image taken before the trace's first frame record (tracing switched
    // on mid-frame) still belongs to frame 0.
    const uint64_t frame =
        captured.frame > options.tracer_first_frame ? captured.frame - options.tracer_first_frame : 0;
    if (options.wanted && !options.wanted(frame)) continue;
    const bool of_surface = captured.framebuffer == 0;
    auto found = kept.find(frame);
    if (found != kept.end() && found->second.of_surface && !of_surface) continue;
    FrameImage full;
    full.frame = frame;
    full.width = static_cast<uint32_t>(captured.width);
    full.height = static_cast<uint32_t>(captured.height);
    full.rgba = FlipRows(captured.pixels, full.width, full.height);
    Kept entry;
    entry.of_surface = of_surface;
    if (!DownscaleToFit(full, options.max_side, &entry.image)) {
      ++result->skipped;
      continue;
    }
    kept[frame] = std::move(entry);
  }
  result->images.clear();
  for (auto& [frame, entry] : kept) result->images.push_back(std::move(entry.image));
  return true;
}

}  // namespace strata::view
