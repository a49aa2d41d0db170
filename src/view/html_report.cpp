#include "view/html_report.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <string_view>

#include "common/json_writer.h"
#include "common/shader_stages.h"
#include "strata/api/functions.h"
#include "view/base64.h"
#include "view/html_text.h"
#include "view/image_scaling.h"
#include "view/png_encoder.h"
#include "view/report_assets.h"

namespace strata::view {
namespace {

// Per call, in the page's compact per-frame form; report.js reads them in this order.
constexpr int kNumbersPerCall = 8;

int64_t Signed(uint64_t v) { return static_cast<int64_t>(v); }

std::string ShaderTypeName(uint32_t type) {
  if (type == 0) return "unknown type";
  const char* name = api::GlEnumName(type);
  return name ? name : std::to_string(type);
}

void WriteCallRef(JsonWriter& json, const CallRef& ref) {
  json.BeginObject().Key("seq").Int(Signed(ref.sequence)).Key("frame").Int(Signed(ref.frame));
  json.Key("fn").Int(ref.function).Key("text").Int(ref.text).EndObject();
}

// One frame's calls as comma-separated numbers (a JSON array body): the page
// parses a frame only when it is shown, so a 100k-call trace loads quickly.
// Sequence and start time are deltas from the previous call, which keeps
// most numbers to one or two digits.
std::string FrameCalls(const ReportModel& model, const ReportFrame& frame) {
  std::string out;
  out.reserve(frame.call_count * 24);
  uint64_t previous_sequence = frame.call_count ? model.calls[frame.first_call].sequence : 0;
  int64_t previous_start = frame.call_count ? Signed(model.calls[frame.first_call].start_ns) : 0;
  char buffer[160];
  for (size_t i = frame.first_call; i < frame.first_call + frame.call_count; ++i) {
    const ReportCall& call = model.calls[i];
    int length = std::snprintf(buffer, sizeof buffer, "%s%llu,%u,%u,%u,%u,%lld,%llu,%u", out.empty() ? "" : ",",
                               static_cast<unsigned long long>(call.sequence - previous_sequence), call.thread,
                               call.context, call.function, call.text,
                               static_cast<long long>(Signed(call.start_ns) - previous_start),
                               static_cast<unsigned long long>(call.duration_ns), call.flags);
    out.append(buffer, static_cast<size_t>(length));
    previous_sequence = call.sequence;
    previous_start = Signed(call.start_ns);
  }
  return out;
}

void WriteTrace(JsonWriter& json, const ReportModel& model) {
  const stream::TraceHeader& h = model.header;
  json.Key("trace").BeginObject();
  json.Key("path").String(ValidUtf8(model.trace_path)).Key("file_bytes").Int(Signed(model.trace_file_bytes));
  json.Key("program").String(h.program).Key("pid").Int(h.pid).Key("command_line").String(h.command_line);
  json.Key("start_time_unix_ns").Int(h.start_time_unix_ns).Key("complete").Bool(model.complete);
  json.Key("extra").BeginObject();
  for (const auto& [key, value] : h.extra) {
    if (key != "functions") json.Key(ValidUtf8(key)).String(value);  // the function table is not for people
  }
  json.EndObject().EndObject();
  json.Key("warning").String(model.warning).Key("first_undecodable").String(model.first_undecodable);
}

void WriteTotals(JsonWriter& json, const ReportModel& model) {
  const ReportTotals& t = model.totals;
  json.Key("totals").BeginObject();
  json.Key("calls").Int(Signed(t.calls)).Key("frames").Int(Signed(model.ended_frames));
  json.Key("calls_after_last_frame").Int(Signed(model.calls_after_last_frame));
  json.Key("draws").Int(Signed(t.draws)).Key("cpu_ns").Int(Signed(t.cpu_ns));
  json.Key("upload_bytes").Int(Signed(t.upload_bytes)).Key("app_memory_bytes").Int(Signed(t.app_memory_bytes));
  json.Key("record_bytes").Int(Signed(t.record_bytes)).Key("framebuffer_images").Int(Signed(t.framebuffer_images));
  json.Key("uncovered_calls").Int(Signed(t.uncovered_calls)).Key("synthesized_calls").Int(Signed(t.synthesized_calls));
  json.Key("undecodable_records").Int(Signed(t.undecodable_records)).Key("errors").Int(Signed(t.errors));
  json.EndObject();
}

void WriteCalls(JsonWriter& json, const ReportModel& model) {
  json.Key("contexts").BeginArray();
  for (const ContextStrings& context : model.contexts) {
    json.BeginObject().Key("id").Int(Signed(context.context)).Key("strings").BeginArray();
    for (const auto& [key, value] : context.strings) json.BeginArray().String(key).String(value).EndArray();
    json.EndArray().EndObject();
  }
  json.EndArray().Key("threads").BeginArray();
  for (uint32_t thread : model.threads) json.Int(thread);
  json.EndArray().Key("functions").BeginArray();
  for (const std::string& name : model.function_names) json.String(name);
  json.EndArray().Key("texts").BeginArray();
  for (const std::string& text : model.texts) json.String(text);
  // Per frame: first sequence, calls, draws, CPU ns, start ns, errors, upload bytes.
  json.EndArray().Key("frames").BeginArray();
  for (const ReportFrame& frame : model.frames) {
    const bool any = frame.call_count > 0;
    json.BeginArray().Int(any ? Signed(model.calls[frame.first_call].sequence) : -1).Int(Signed(frame.call_count));
    json.Int(Signed(frame.draws)).Int(Signed(frame.cpu_ns));
    json.Int(any ? Signed(model.calls[frame.first_call].start_ns) : 0).Int(Signed(frame.errors));
    json.Int(Signed(frame.upload_bytes)).EndArray();
  }
  json.EndArray().Key("numbers_per_call").Int(kNumbersPerCall).Key("frame_calls").BeginArray();
  for (const ReportFrame& frame : model.frames) json.String(FrameCalls(model, frame));
  json.EndArray();
}

void WriteFindings(JsonWriter& json, const ReportModel& model) {
  json.Key("errors").BeginArray();
  for (const ReportError& error : model.errors) {
    json.BeginObject().Key("call");
    WriteCallRef(json, error.call);
    json.Key("error").String(error.error).Key("egl").Bool(error.egl).Key("follows");
    if (error.follows) {
      WriteCallRef(json, *error.follows);
    } else {
      json.Null();
    }
    json.EndObject();
  }
  json.EndArray().Key("uncovered").BeginArray();
  for (const UncoveredFunction& function : model.uncovered) {
    json.BeginObject().Key("fn").Int(function.function).Key("calls").Int(Signed(function.calls)).Key("first");
    WriteCallRef(json, function.first);
    json.EndObject();
  }
  json.EndArray().Key("shaders").BeginArray();
  for (const ShaderSource& shader : model.shaders) {
    json.BeginObject().Key("call");
    WriteCallRef(json, shader.call);
    json.Key("shader").Int(shader.shader).Key("type").String(ShaderTypeName(shader.type));
    json.Key("extension").String(ShaderStageExtension(shader.type));  // for the file a replacement is saved as
    json.Key("source").String(shader.source).Key("compiled");
    shader.compiled ? json.Bool(*shader.compiled) : json.Null();
    json.Key("log").String(shader.info_log).EndObject();
  }
  json.EndArray().Key("programs").BeginArray();
  for (const LinkedProgram& program : model.programs) {
    json.BeginObject().Key("call");
    WriteCallRef(json, program.call);
    json.Key("program").Int(program.program).Key("shaders").BeginArray();
    for (size_t index : program.shaders) json.Int(Signed(index));
    json.EndArray().Key("shaders_without_source").BeginArray();
    for (uint32_t shader : program.shaders_without_source) json.Int(shader);
    json.EndArray().Key("linked");
    program.linked ? json.Bool(*program.linked) : json.Null();
    json.Key("log").String(program.info_log).EndObject();
  }
  json.EndArray().Key("uploads").BeginArray();
  for (const ReportUpload& upload : model.largest_uploads) {
    json.BeginObject().Key("call");
    WriteCallRef(json, upload.call);
    json.Key("bytes").Int(Signed(upload.bytes)).Key("kind").String(upload.kind).EndObject();
  }
  json.EndArray();
}

void WriteImages(JsonWriter& json, const ReportModel& model, const std::vector<FrameImage>& images,
                 const HtmlReportOptions& options) {
  std::map<uint64_t, const FrameImage*> by_frame;
  for (const FrameImage& image : images) {
    if (image.frame < model.frames.size()) by_frame[image.frame] = &image;
  }
  json.Key("image_source").String(options.image_source).Key("images").BeginArray();
  for (const auto& [frame, image] : by_frame) {
    FrameImage shown;
    if (!DownscaleToFit(*image, options.image_max_side, &shown)) continue;
    std::vector<uint8_t> png = EncodePng(shown.rgba, shown.width, shown.height);
    if (png.empty()) continue;
    json.BeginObject().Key("frame").Int(Signed(frame)).Key("width").Int(shown.width).Key("height").Int(shown.height);
    json.Key("source_width").Int(image->width).Key("source_height").Int(image->height);
    json.Key("src").String("data:image/png;base64," + Base64Encode(png)).EndObject();
  }
  json.EndArray();
}

// The template with `marker` replaced by `value` (once; the markers are ours).
// The GL state before chosen calls, and the images it names, inline.
void WriteStates(JsonWriter& json, const HtmlReportOptions& options) {
  json.Key("states").BeginObject();
  for (const auto& [sequence, state] : options.call_states) json.Key(std::to_string(sequence)).Raw(state);
  json.EndObject();
  json.Key("state_images").BeginObject();
  for (const auto& [id, png] : options.state_images) {
    json.Key(id).String("data:image/png;base64," + Base64Encode(png));
  }
  json.EndObject();
}

// GPU time per call (strata replay --gpu-times), per frame of the report:
// its total and "sequence,ns,..." of its timed calls (parsed when shown).
void WriteGpuTimes(JsonWriter& json, const ReportModel& model, const HtmlReportOptions& options) {
  json.Key("gpu");
  if (options.gpu_times == nullptr) {
    json.Null();
    return;
  }
  std::vector<uint64_t> totals(model.frames.size(), 0);
  std::vector<std::string> calls(model.frames.size());
  // The frames that have calls, by their first call's sequence number.
  std::vector<std::pair<uint64_t, size_t>> starts;
  for (size_t f = 0; f < model.frames.size(); ++f) {
    if (model.frames[f].call_count) starts.emplace_back(model.calls[model.frames[f].first_call].sequence, f);
  }
  for (const GpuTime& time : options.gpu_times->calls) {
    auto after = std::upper_bound(starts.begin(), starts.end(), std::pair{time.sequence, SIZE_MAX});
    if (after == starts.begin()) continue;  // before the trace's first call: not this trace's
    const size_t frame = std::prev(after)->second;
    totals[frame] += time.ns;
    std::string& text = calls[frame];
    text += (text.empty() ? "" : ",") + std::to_string(time.sequence) + "," + std::to_string(time.ns);
  }
  json.BeginObject().Key("renderer").String(options.gpu_times->renderer);
  json.Key("loops").UInt(options.gpu_times->loops).Key("frame_ns").BeginArray();
  for (uint64_t total : totals) json.UInt(total);
  json.EndArray().Key("calls").BeginArray();
  for (const std::string& text : calls) json.String(text);
  json.EndArray().EndObject();
}

void WritePixelHistories(JsonWriter& json, const HtmlReportOptions& options) {
  json.Key("pixels").BeginArray();
  for (const auto& [frame, history] : options.pixel_histories) json.Raw(history);
  json.EndArray();
}

void Substitute(std::string& page, std::string_view marker, std::string_view value) {
  size_t at = page.find(marker);
  if (at != std::string::npos) page.replace(at, marker.size(), value);
}

}  // namespace

std::string BuildHtmlReport(const ReportModel& model, const std::vector<FrameImage>& images,
                            const HtmlReportOptions& options) {
  JsonWriter json;
  json.BeginObject().Key("format").Int(1);
  WriteTrace(json, model);
  WriteTotals(json, model);
  WriteCalls(json, model);
  WriteFindings(json, model);
  WriteImages(json, model, images, options);
  WriteStates(json, options);
  WriteGpuTimes(json, model, options);
  WritePixelHistories(json, options);
  json.EndObject();

  std::string page(kReportTemplateHtml);
  const std::string program = model.header.program.empty() ? "trace" : model.header.program;
  // Values go in last, so that no marker text inside them is ever replaced.
  Substitute(page, "<!--STRATA_TITLE-->", HtmlEscape(program + " - Strata trace report"));
  Substitute(page, "/*STRATA_CSS*/", kReportCss);
  Substitute(page, "/*STRATA_JS*/", std::string(kStateViewJs) + std::string(kReportJs));
  Substitute(page, "<!--STRATA_DATA-->", ScriptSafe(json.str()));
  return page;
}

}  // namespace strata::view
