#pragma once
// The report page: one self-contained HTML file (styles, script, data and
// images inline; nothing fetched) built from a ReportModel and frame images.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/gpu_times_file.h"
#include "view/frame_image.h"
#include "view/report_model.h"

namespace strata::view {

struct HtmlReportOptions {
  // Images larger than this on either side are scaled down first.
  uint32_t image_max_side = 320;
  // Where the images came from, as the page says it ("captured in the
  // trace"); empty when images were not asked for.
  std::string image_source;
  // `strata view --state-frames`: the GL state before each of these calls
  // (strata state's JSON, by call number), and the images it names
  // ("state-image:ID" strings) as PNG files' bytes by ID.
  std::map<uint64_t, std::string> call_states;
  std::map<std::string, std::vector<uint8_t>> state_images;
  // `strata view --gpu-times`: each timed call's GPU time (null: none).
  const GpuTimesFile* gpu_times = nullptr;
  // `strata view --pixel`: pixel histories (strata pixel --json's objects), by frame.
  std::vector<std::pair<uint64_t, std::string>> pixel_histories;
};

// The page. Images of frames the model does not have are left out; of
// several images for one frame the last is used.
std::string BuildHtmlReport(const ReportModel& model, const std::vector<FrameImage>& images,
                            const HtmlReportOptions& options);

}  // namespace strata::view
