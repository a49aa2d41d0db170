#pragma once
// The report page's template, styles and script (report_template.html,
// report.css, report.js; state_view.js, which the state page shares), compiled in by a build step (embed_assets.cmake)
// so that `strata view` is one binary with nothing to install beside it.

#include <string_view>

namespace strata::view {

extern const std::string_view kReportTemplateHtml;
extern const std::string_view kReportCss;
extern const std::string_view kReportJs;
extern const std::string_view kStateViewJs;

}  // namespace strata::view
