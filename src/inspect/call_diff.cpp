#include "inspect/call_diff.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "inspect/call_identity.h"
#include "inspect/sequence_alignment.h"
#include "stream/call_printer.h"
#include "stream/ordered_reader.h"

namespace strata::inspect {
namespace {

using CallVisitor = std::function<void(const stream::DecodedCall& call, uint64_t frame, const CallKeys& keys)>;

// Every selected call of a trace in call order, with its frame and keys.
// False with `error` for a trace that cannot be read or is damaged; one cut
// short gives its calls up to the cut and a `warning`.
bool WalkCalls(const std::string& path, const CallDiffOptions& options, const CallVisitor& visit, std::string* warning,
               std::string* error) {
  auto reader = stream::OrderedRecordReader::Open(path, error);
  if (!reader) return false;
  stream::CallDecoder decoder(reader->functions());
  decoder.AcceptUnknownFunctions(true);
  CallIdentity identity;
  CallKeys keys;
  stream::Record record;
  stream::DecodedCall call;
  uint64_t frame = 0;
  while (reader->Next(&record)) {
    if (record.type == stream::RecordType::kFrame) ++frame;
    if (record.type != stream::RecordType::kCall) continue;
    std::string decode_error;
    if (!decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &decode_error)) {
      *error = path + ": " + decode_error;
      return false;
    }
    // Every call is numbered, selected or not: a handle's number counts from the trace's start.
    identity.Compute(call, &keys);
    if (!options.selected || options.selected(frame, call.sequence)) visit(call, frame, keys);
  }
  if (!reader->error().empty()) {
    if (!reader->truncated()) {
      *error = reader->error();  // it names the file
      return false;
    }
    *warning = reader->error() + " (compared up to there)";
  } else if (!reader->complete()) {
    *warning = path + ": the trace has no index, so it was not finished (cut short, or still being written); "
                      "compared up to its end";
  }
  return true;
}

struct TraceCalls {
  std::vector<uint64_t> keys, functions, sequences, frames;
  size_t size() const { return keys.size(); }
};

struct DiffLine {
  enum class Kind { kSame, kChanged, kOnlyA, kOnlyB };
  Kind kind;
  size_t a = 0, b = 0;  // indexes into each trace's calls, where the line has one
};

// Calls lined up by everything, then each differing stretch by function alone.
std::vector<DiffLine> LineUp(const TraceCalls& a, const TraceCalls& b, size_t max_edits) {
  std::vector<DiffLine> lines;
  const std::vector<AlignedRun> runs = AlignSequences(a.keys, b.keys, max_edits);
  for (size_t r = 0; r < runs.size();) {
    if (runs[r].kind == AlignedRun::Kind::kBoth) {
      for (size_t i = 0; i < runs[r].length; ++i) lines.push_back({DiffLine::Kind::kSame, runs[r].a + i, runs[r].b + i});
      ++r;
      continue;
    }
    // A stretch of removed and added calls between two shared ones.
    const size_t a_begin = runs[r].a, b_begin = runs[r].b;
    size_t a_end = a_begin, b_end = b_begin;
    for (; r < runs.size() && runs[r].kind != AlignedRun::Kind::kBoth; ++r) {
      (runs[r].kind == AlignedRun::Kind::kOnlyA ? a_end : b_end) += runs[r].length;
    }
    const std::span<const uint64_t> a_functions(a.functions.data() + a_begin, a_end - a_begin);
    const std::span<const uint64_t> b_functions(b.functions.data() + b_begin, b_end - b_begin);
    for (const AlignedRun& run : AlignSequences(a_functions, b_functions, max_edits)) {
      for (size_t i = 0; i < run.length; ++i) {
        switch (run.kind) {
          case AlignedRun::Kind::kBoth:
            lines.push_back({DiffLine::Kind::kChanged, a_begin + run.a + i, b_begin + run.b + i});
            break;
          case AlignedRun::Kind::kOnlyA: lines.push_back({DiffLine::Kind::kOnlyA, a_begin + run.a + i, 0}); break;
          case AlignedRun::Kind::kOnlyB: lines.push_back({DiffLine::Kind::kOnlyB, 0, b_begin + run.b + i}); break;
        }
      }
    }
  }
  return lines;
}

// A call as the diff prints it.
struct ShownCall {
  std::string name;
  std::vector<std::string> arg_names, arg_texts;
  std::string result;  // empty: none
  std::vector<uint64_t> value_keys;
  bool known = true;
};

ShownCall Show(const stream::DecodedCall& call, const CallKeys& keys) {
  ShownCall shown;
  shown.name = std::string(call.name);
  shown.value_keys = keys.values;
  if (call.slot < 0) {
    shown.known = false;
    return shown;
  }
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  for (int i = 0; i < info.param_count; ++i) {
    shown.arg_names.push_back(info.params[i].name);
    shown.arg_texts.push_back(stream::FormatValue(call, i));
  }
  shown.result = stream::FormatResult(call);
  return shown;
}

class Printer {
 public:
  Printer(FILE* out, bool color) : out_(out), color_(color) {}

  void Line(char mark, const std::string& numbers, const ShownCall& call, const char* style) {
    std::fprintf(out_, "%c %s ", mark, numbers.c_str());
    Style(style);
    std::fputs(Text(call).c_str(), out_);
    Style(nullptr);
    std::fputc('\n', out_);
  }

  void Changed(const std::string& numbers, const ShownCall& a, const ShownCall& b) {
    std::fprintf(out_, "| %s ", numbers.c_str());
    Style(kBold);
    std::fputs(b.name.c_str(), out_);
    Style(nullptr);
    std::fputc('(', out_);
    for (size_t i = 0; i < b.arg_texts.size(); ++i) {
      std::fprintf(out_, "%s%s=", i ? ", " : "", b.arg_names[i].c_str());
      Value(a, b, i, a.arg_texts[i], b.arg_texts[i]);
    }
    std::fputc(')', out_);
    if (!a.result.empty() || !b.result.empty()) {
      std::fputs(" = ", out_);
      Value(a, b, b.value_keys.size() - 1, a.result, b.result);
    }
    std::fputc('\n', out_);
  }

  void Raw(const std::string& text, const char* style = nullptr) {
    Style(style);
    std::fputs(text.c_str(), out_);
    Style(nullptr);
    std::fputc('\n', out_);
  }

  static constexpr const char* kRemoved = "\033[9m\033[31m";
  static constexpr const char* kAdded = "\033[32m";
  static constexpr const char* kBold = "\033[1m";
  static constexpr const char* kHunk = "\033[36m";

 private:
  static std::string Text(const ShownCall& call) {
    if (!call.known) return call.name + "(...)  [unknown function: arguments not recorded]";
    std::string text = call.name + "(";
    for (size_t i = 0; i < call.arg_texts.size(); ++i) {
      text += (i ? ", " : "") + call.arg_names[i] + "=" + call.arg_texts[i];
    }
    text += ")";
    if (!call.result.empty()) text += " = " + call.result;
    return text;
  }

  void Value(const ShownCall& a, const ShownCall& b, size_t key, const std::string& a_text, const std::string& b_text) {
    const bool same = key < a.value_keys.size() && key < b.value_keys.size() && a.value_keys[key] == b.value_keys[key];
    if (same) {
      std::fputs(b_text.c_str(), out_);
      return;
    }
    Style(kRemoved);
    std::fputs(a_text.c_str(), out_);
    Style(nullptr);
    std::fputs(" -> ", out_);
    Style(kAdded);
    std::fputs(b_text.c_str(), out_);
    // Data shown by its size alone: say that what differs is behind it.
    if (a_text == b_text) std::fputs(" (other contents)", out_);
    Style(nullptr);
  }

  void Style(const char* style) {
    if (!color_) return;
    std::fputs(style ? style : "\033[0m", out_);
  }

  FILE* out_;
  bool color_;
};

}  // namespace

bool DiffCalls(const std::string& path_a, const std::string& path_b, const CallDiffOptions& options, FILE* out,
               CallDiffSummary* summary, std::string* error) {
  // First pass: every call's keys, for lining the calls up.
  TraceCalls calls[2];
  std::string* warnings[2] = {&summary->warning_a, &summary->warning_b};
  const std::string* paths[2] = {&path_a, &path_b};
  for (int t = 0; t < 2; ++t) {
    TraceCalls& trace = calls[t];
    auto keep = [&](const stream::DecodedCall& call, uint64_t frame, const CallKeys& keys) {
      trace.keys.push_back(keys.call);
      trace.functions.push_back(keys.function);
      trace.sequences.push_back(call.sequence);
      trace.frames.push_back(frame);
    };
    if (!WalkCalls(*paths[t], options, keep, warnings[t], error)) return false;
  }
  summary->calls_a = calls[0].size();
  summary->calls_b = calls[1].size();
  const std::vector<DiffLine> lines = LineUp(calls[0], calls[1], options.max_edits);

  // Hunks: each differing line with `context` unchanged lines around it.
  std::vector<std::pair<size_t, size_t>> hunks;  // [first, last) lines
  for (size_t i = 0; i < lines.size(); ++i) {
    switch (lines[i].kind) {
      case DiffLine::Kind::kSame: continue;
      case DiffLine::Kind::kChanged: ++summary->changed; break;
      case DiffLine::Kind::kOnlyA: ++summary->only_a; break;
      case DiffLine::Kind::kOnlyB: ++summary->only_b; break;
    }
    const size_t first = i > options.context ? i - options.context : 0;
    const size_t last = std::min(lines.size(), i + options.context + 1);
    if (!hunks.empty() && first <= hunks.back().second) {
      hunks.back().second = std::max(hunks.back().second, last);
    } else {
      hunks.emplace_back(first, last);
    }
  }
  if (hunks.empty() || out == nullptr) return true;

  // Second pass: only the calls a hunk shows are turned into text.
  std::vector<size_t> wanted[2];
  for (const auto& [first, last] : hunks) {
    for (size_t i = first; i < last; ++i) {
      const DiffLine& line = lines[i];
      if (line.kind != DiffLine::Kind::kOnlyB) wanted[0].push_back(line.a);
      if (line.kind == DiffLine::Kind::kChanged || line.kind == DiffLine::Kind::kOnlyB) wanted[1].push_back(line.b);
    }
  }
  std::unordered_map<size_t, ShownCall> shown[2];
  for (int t = 0; t < 2; ++t) {
    std::sort(wanted[t].begin(), wanted[t].end());
    size_t index = 0, next = 0;
    auto show = [&](const stream::DecodedCall& call, uint64_t, const CallKeys& keys) {
      if (next < wanted[t].size() && wanted[t][next] == index) {
        shown[t].emplace(index, Show(call, keys));
        while (next < wanted[t].size() && wanted[t][next] == index) ++next;
      }
      ++index;
    };
    std::string ignored_warning;
    if (!WalkCalls(*paths[t], options, show, &ignored_warning, error)) return false;
  }

  Printer printer(out, options.color);
  printer.Raw("--- " + path_a, Printer::kRemoved);
  printer.Raw("+++ " + path_b, Printer::kAdded);
  auto numbers = [&](const DiffLine& line) {
    const uint64_t a = calls[0].sequences[line.a], b = calls[1].sequences[line.b];
    return a == b ? std::to_string(a) : std::to_string(a) + " " + std::to_string(b);
  };
  for (const auto& [first, last] : hunks) {
    uint64_t a_range[2] = {UINT64_MAX, 0}, b_range[2] = {UINT64_MAX, 0}, frames[2] = {UINT64_MAX, 0};
    for (size_t i = first; i < last; ++i) {
      const DiffLine& line = lines[i];
      if (line.kind != DiffLine::Kind::kOnlyB) {
        a_range[0] = std::min(a_range[0], calls[0].sequences[line.a]);
        a_range[1] = std::max(a_range[1], calls[0].sequences[line.a]);
        frames[0] = std::min(frames[0], calls[0].frames[line.a]);
        frames[1] = std::max(frames[1], calls[0].frames[line.a]);
      }
      if (line.kind != DiffLine::Kind::kOnlyA) {
        b_range[0] = std::min(b_range[0], calls[1].sequences[line.b]);
        b_range[1] = std::max(b_range[1], calls[1].sequences[line.b]);
        frames[0] = std::min(frames[0], calls[1].frames[line.b]);
        frames[1] = std::max(frames[1], calls[1].frames[line.b]);
      }
    }
    auto range = [](const uint64_t* r) {
      if (r[0] == UINT64_MAX) return std::string("none");
      return r[0] == r[1] ? std::to_string(r[0]) : std::to_string(r[0]) + "-" + std::to_string(r[1]);
    };
    printer.Raw(std::string(frames[0] == frames[1] ? "@@ frame " : "@@ frames ") + range(frames) + ": A calls " +
                    range(a_range) + ", B calls " + range(b_range) + " @@",
                Printer::kHunk);
    for (size_t i = first; i < last; ++i) {
      const DiffLine& line = lines[i];
      switch (line.kind) {
        case DiffLine::Kind::kSame: printer.Line(' ', numbers(line), shown[0].at(line.a), nullptr); break;
        case DiffLine::Kind::kChanged: printer.Changed(numbers(line), shown[0].at(line.a), shown[1].at(line.b)); break;
        case DiffLine::Kind::kOnlyA:
          printer.Line('-', std::to_string(calls[0].sequences[line.a]), shown[0].at(line.a), Printer::kRemoved);
          break;
        case DiffLine::Kind::kOnlyB:
          printer.Line('+', std::to_string(calls[1].sequences[line.b]), shown[1].at(line.b), Printer::kAdded);
          break;
      }
    }
  }
  return true;
}

}  // namespace strata::inspect
