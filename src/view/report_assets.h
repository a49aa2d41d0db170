#pragma once
// The report page's template, styles and script (report_template.html,
// report.css, report.js), compiled in by a build step (embed_assets.cmake)
// so that `strata view` is one binary with nothing to install beside it.

#include <string_view>

namespace strata::view {

extern const std::string_view kReportTemplateHtml;
extern const std::string_view kReportCss;
extern const std::string_view kReportJs;

}  // namespace strata::view
