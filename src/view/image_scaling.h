#pragma once
// Turning captured pixels into thumbnails: GL's bottom-row-first order into
// the top-row-first order images use, and box-filter downscaling.

#include <cstdint>
#include <span>
#include <vector>

#include "view/frame_image.h"

namespace strata::view {

// The rows of a width x height RGBA8 image in reverse order.
std::vector<uint8_t> FlipRows(std::span<const uint8_t> rgba, uint32_t width, uint32_t height);

// `image` scaled down (each output pixel the average of the source pixels it
// covers) so that neither side exceeds `max_side`, keeping the aspect ratio;
// an image that already fits comes back unchanged. False for an image whose
// pixel count does not match its size.
bool DownscaleToFit(const FrameImage& image, uint32_t max_side, FrameImage* out);

}  // namespace strata::view
