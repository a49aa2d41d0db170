#include "view/state_page.h"

#include "view/html_text.h"
#include "view/report_assets.h"

namespace strata::view {
namespace {


// The page's own part: the images are the paths -o wrote, relative to the page.
constexpr char kScript[] = R"(
const state = JSON.parse(document.getElementById('state').textContent);
const prefix = document.body.dataset.prefix;
const imageUrl = (text) => /\.png$/.test(text) ? (text.startsWith('/') ? text : prefix + text) : null;
document.getElementById('view').appendChild(StrataStateView.render(state, imageUrl));
)";

constexpr char kStyle[] = R"(
body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 2px 0; }
th { text-align: left; vertical-align: top; padding: 2px 8px 2px 0; color: #555; font-weight: 600; white-space: nowrap; }
td { padding: 2px 0; vertical-align: top; }
ol { margin: 0; padding-left: 1.5em; }
pre { background: #f4f4f4; padding: 6px; margin: 0; max-width: 90ch; overflow: auto; }
img.state-image { image-rendering: pixelated; max-width: 512px; border: 1px solid #ccc; background: repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
)";

}  // namespace

std::string StatePage(const std::string& state_json, const std::string& trace, uint64_t call,
                      const std::string& image_prefix) {
  std::string page = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>GL state before call " +
                     std::to_string(call) + " of " + HtmlEscape(trace) + "</title><style>" + kStyle + "</style></head>\n";
  page += "<body data-prefix=\"" + HtmlEscape(image_prefix) + "\"><h1>GL state before call " + std::to_string(call) + "</h1>";
  page += "<p>" + HtmlEscape(trace) + " (strata state)</p><div id=\"view\"></div>\n";
  page += "<script type=\"application/json\" id=\"state\">" + ScriptSafe(state_json) + "</script>\n";
  page += "<script>" + std::string(kStateViewJs) + kScript + "</script></body></html>\n";
  return page;
}

}  // namespace strata::view
