#include "inspect/state_page.h"

#include "view/html_text.h"

namespace strata::inspect {
namespace {

using view::HtmlEscape;
using view::ScriptSafe;

constexpr char kScript[] = R"(
const state = JSON.parse(document.getElementById('state').textContent);
const prefix = document.body.dataset.prefix;
function render(value) {
  if (value === null) return document.createTextNode('null');
  if (Array.isArray(value)) {
    if (value.every(v => typeof v !== 'object' || v === null)) {
      return document.createTextNode('[' + value.map(v => JSON.stringify(v)).join(', ') + ']');
    }
    const list = document.createElement('ol');
    list.start = 0;
    for (const item of value) { const li = document.createElement('li'); li.appendChild(render(item)); list.appendChild(li); }
    return list;
  }
  if (typeof value === 'object') {
    const table = document.createElement('table');
    for (const [key, item] of Object.entries(value)) {
      const row = table.insertRow();
      const th = document.createElement('th'); th.textContent = key; row.appendChild(th);
      row.insertCell().appendChild(render(item));
    }
    return table;
  }
  if (typeof value === 'string' && /\.png$/.test(value)) {
    const figure = document.createElement('figure');
    const img = document.createElement('img');
    img.src = value.startsWith('/') ? value : prefix + value;
    figure.appendChild(img);
    const caption = document.createElement('figcaption'); caption.textContent = value; figure.appendChild(caption);
    return figure;
  }
  if (typeof value === 'string' && value.includes('\n')) {
    const pre = document.createElement('pre'); pre.textContent = value; return pre;
  }
  return document.createTextNode(typeof value === 'string' ? value : JSON.stringify(value));
}
document.getElementById('view').appendChild(render(state));
// Images written for textures are listed in the page too (the JSON names only the framebuffer's).
)";

constexpr char kStyle[] = R"(
body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 2px 0; }
th { text-align: left; vertical-align: top; padding: 2px 8px 2px 0; color: #555; font-weight: 600; white-space: nowrap; }
td { padding: 2px 0; vertical-align: top; }
ol { margin: 0; padding-left: 1.5em; }
pre { background: #f4f4f4; padding: 6px; margin: 0; max-width: 90ch; overflow: auto; }
img { image-rendering: pixelated; max-width: 512px; border: 1px solid #ccc; background: repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
figure { margin: 0; }
figcaption { font-size: 12px; color: #777; }
)";

}  // namespace

std::string StatePage(const std::string& state_json, const std::string& trace, uint64_t call,
                      const std::string& image_prefix) {
  std::string page = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>GL state before call " +
                     std::to_string(call) + " of " + HtmlEscape(trace) + "</title><style>" + kStyle + "</style></head>\n";
  page += "<body data-prefix=\"" + HtmlEscape(image_prefix) + "\"><h1>GL state before call " + std::to_string(call) + "</h1>";
  page += "<p>" + HtmlEscape(trace) + " (strata state)</p><div id=\"view\"></div>\n";
  page += "<script type=\"application/json\" id=\"state\">" + ScriptSafe(state_json) + "</script>\n";
  page += std::string("<script>") + kScript + "</script></body></html>\n";
  return page;
}

}  // namespace strata::inspect
