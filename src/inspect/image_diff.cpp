#include "inspect/image_diff.h"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

#include "common/png_file.h"
#include "stream/framebuffer_record.h"
#include "stream/record_reader.h"
#include "view/captured_images.h"
#include "view/replayed_images.h"

namespace strata::inspect {
namespace {

using ImageVisitor = std::function<void(view::FrameImage&& image)>;

// A's images wait, compressed, for B's: a long trace's frames never all sit in memory raw.
struct StoredImage {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> compressed;
};

StoredImage Store(const view::FrameImage& image) {
  StoredImage stored{image.width, image.height, {}};
  uLongf size = compressBound(static_cast<uLong>(image.rgba.size()));
  stored.compressed.resize(size);
  if (compress2(stored.compressed.data(), &size, image.rgba.data(), static_cast<uLong>(image.rgba.size()), 1) != Z_OK) {
    stored.compressed.clear();  // cannot happen with a buffer of compressBound's size
  }
  stored.compressed.resize(size);
  return stored;
}

std::vector<uint8_t> Restore(const StoredImage& stored) {
  std::vector<uint8_t> rgba(static_cast<size_t>(stored.width) * stored.height * 4);
  uLongf size = static_cast<uLongf>(rgba.size());
  if (uncompress(rgba.data(), &size, stored.compressed.data(), static_cast<uLong>(stored.compressed.size())) != Z_OK ||
      size != rgba.size()) {
    rgba.clear();
  }
  return rgba;
}

bool HoldsCapturedImages(const std::string& path) {
  std::string error;
  auto reader = stream::RecordReader::Open(path, &error);
  if (!reader) return false;
  stream::Record record;
  while (reader->Next(&record)) {
    if (record.type != stream::RecordType::kFramebuffer) continue;
    stream::FramebufferImage image;
    if (stream::DecodeFramebuffer(record.payload, &image) && !image.final_frame) return true;
  }
  return false;
}

bool ForEachFrameImage(const std::string& path, bool captured, const ImageDiffOptions& options,
                       const ImageVisitor& visit, std::string* warning, std::string* error) {
  if (captured) {
    uint64_t skipped = 0;
    if (!view::ForEachCapturedImage(path, options.wanted, visit, &skipped, error)) return false;
    if (skipped) {
      *warning = path + ": " + std::to_string(skipped) + " framebuffer records malformed or empty, not compared";
    }
    return true;
  }
  auto wanted = [&](view::FrameImage&& image) {
    if (!options.wanted || options.wanted(image.frame)) visit(std::move(image));
  };
  std::string replay_error;
  if (!view::ForEachReplayedImage(path, {}, options.strata_lib_dir, wanted, warning, &replay_error)) {
    // The replay's errors name the file.
    *error = "replaying for frame images: " + (replay_error.empty() ? path + ": the replay failed" : replay_error);
    return false;
  }
  return true;
}

// Compares B's image with A's; fills the figures and, per pixel of B's panel, whether it differs.
void Compare(const std::vector<uint8_t>& a, const view::FrameImage& b, uint32_t width_a, uint32_t height_a,
             int threshold, FrameDifference* difference, std::vector<uint8_t>* marked) {
  marked->assign(static_cast<size_t>(b.width) * b.height, 1);
  const uint32_t width = std::min(width_a, b.width), height = std::min(height_a, b.height);
  for (uint32_t y = 0; y < height; ++y) {
    difference->difference.Add(&a[static_cast<size_t>(y) * width_a * 4], &b.rgba[static_cast<size_t>(y) * b.width * 4],
                               width, threshold, &(*marked)[static_cast<size_t>(y) * b.width]);
  }
  // Pixels only one image has all differ.
  const uint64_t pixels_a = static_cast<uint64_t>(width_a) * height_a, pixels_b = static_cast<uint64_t>(b.width) * b.height;
  difference->difference.AddUnmatched(std::max(pixels_a, pixels_b) - static_cast<uint64_t>(width) * height);
}

// A | B | B greyed, differing pixels magenta; on a dark background, top row first.
std::vector<uint8_t> SideBySide(const std::vector<uint8_t>& a, uint32_t width_a, uint32_t height_a,
                                const view::FrameImage& b, const std::vector<uint8_t>& marked, uint32_t* width,
                                uint32_t* height) {
  constexpr uint32_t kGap = 4;
  *width = width_a + 2 * b.width + 2 * kGap;
  *height = std::max(height_a, b.height);
  std::vector<uint8_t> out(static_cast<size_t>(*width) * *height * 4);
  for (size_t i = 0; i < out.size(); i += 4) out[i] = out[i + 1] = out[i + 2] = 40, out[i + 3] = 255;
  auto put = [&](uint32_t x, uint32_t y, const uint8_t* rgba) {
    std::copy(rgba, rgba + 4, &out[(static_cast<size_t>(y) * *width + x) * 4]);
  };
  for (uint32_t y = 0; y < height_a; ++y) {
    for (uint32_t x = 0; x < width_a; ++x) put(x, y, &a[(static_cast<size_t>(y) * width_a + x) * 4]);
  }
  const uint32_t b_left = width_a + kGap, marked_left = b_left + b.width + kGap;
  for (uint32_t y = 0; y < b.height; ++y) {
    for (uint32_t x = 0; x < b.width; ++x) {
      const size_t i = static_cast<size_t>(y) * b.width + x;
      const uint8_t* p = &b.rgba[i * 4];
      put(b_left + x, y, p);
      const uint8_t magenta[4] = {255, 0, 255, 255};
      const uint8_t grey = static_cast<uint8_t>(64 + ((77 * p[0] + 150 * p[1] + 29 * p[2]) >> 9));
      const uint8_t dimmed[4] = {grey, grey, grey, 255};
      put(marked_left + x, y, marked[i] ? magenta : dimmed);
    }
  }
  return out;
}

}  // namespace

bool DiffImages(const std::string& path_a, const std::string& path_b, const ImageDiffOptions& options,
                ImageDiffSummary* summary, std::string* error) {
  bool captured = options.source == ImageSource::kCaptured;
  if (options.source == ImageSource::kAuto) captured = HoldsCapturedImages(path_a) && HoldsCapturedImages(path_b);
  summary->source = captured ? "captured" : "replayed on this machine";
  auto say = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };

  std::map<uint64_t, StoredImage> images_a;
  say(std::string(captured ? "reading" : "replaying") + " A (" + path_a + ") for its frame images");
  std::string warning;
  auto keep = [&](view::FrameImage&& image) { images_a[image.frame] = Store(image); };
  if (!ForEachFrameImage(path_a, captured, options, keep, &warning, error)) return false;
  summary->frames_a = images_a.size();
  if (captured && images_a.empty()) {
    *error = path_a + ": holds no frame images (trace with --capture swap, or compare replayed images)";
    return false;
  }

  say(std::string(captured ? "reading" : "replaying") + " B (" + path_b + ") and comparing");
  std::string write_error, warning_b;
  std::vector<uint8_t> marked;
  auto compare = [&](view::FrameImage&& b) {
    ++summary->frames_b;
    auto found = images_a.find(b.frame);
    if (found == images_a.end()) {
      summary->only_b.push_back(b.frame);
      return;
    }
    const StoredImage stored = std::move(found->second);
    images_a.erase(found);
    const std::vector<uint8_t> a = Restore(stored);
    ++summary->compared;
    FrameDifference difference;
    difference.frame = b.frame;
    difference.width_a = stored.width, difference.height_a = stored.height;
    difference.width_b = b.width, difference.height_b = b.height;
    Compare(a, b, stored.width, stored.height, options.tolerance.threshold, &difference, &marked);
    if (difference.difference.equal()) return;
    summary->worst.Note(b.frame, difference.difference);
    const bool same_size = stored.width == b.width && stored.height == b.height;
    if (same_size && options.tolerance.Accepts(difference.difference)) {
      summary->tolerated.push_back(std::move(difference));
      return;
    }
    if (write_error.empty()) {
      std::error_code made;
      std::filesystem::create_directories(options.output_dir, made);
      char name[40];
      std::snprintf(name, sizeof name, "frame-%06llu.png", static_cast<unsigned long long>(b.frame));
      difference.image_path = (std::filesystem::path(options.output_dir) / name).string();
      uint32_t width = 0, height = 0;
      const std::vector<uint8_t> page = SideBySide(a, stored.width, stored.height, b, marked, &width, &height);
      if (made) {
        write_error = "cannot make " + options.output_dir + ": " + made.message();
      } else {
        WritePng(difference.image_path, static_cast<int>(width), static_cast<int>(height), page, false, &write_error);
      }
    }
    summary->differing.push_back(std::move(difference));
  };
  if (!ForEachFrameImage(path_b, captured, options, compare, &warning_b, error)) return false;
  if (!write_error.empty()) {
    *error = write_error;
    return false;
  }
  if (captured && summary->frames_b == 0) {
    *error = path_b + ": holds no frame images (trace with --capture swap, or compare replayed images)";
    return false;
  }
  for (const auto& [frame, image] : images_a) summary->only_a.push_back(frame);
  std::sort(summary->only_b.begin(), summary->only_b.end());
  summary->warning = warning.empty() ? warning_b : warning_b.empty() ? warning : warning + "; " + warning_b;
  return true;
}

}  // namespace strata::inspect
