#include "view/report_model.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "stream/byte_reader.h"
#include "stream/call_decoder.h"
#include "stream/call_printer.h"
#include "stream/event_records.h"
#include "stream/framebuffer_record.h"
#include "stream/record_reader.h"
#include "strata/api/functions.h"
#include "strata/api/traits.h"

namespace strata::view {
namespace {

constexpr uint32_t kGlCompileStatus = 0x8B81;
constexpr uint32_t kGlLinkStatus = 0x8B82;
constexpr int64_t kEglSuccess = 0x3000;

// What the model does with a function, decided once per function id.
enum class Role {
  kOther,
  kGlGetError,
  kEglGetError,
  kCreateShader,
  kShaderSource,
  kGetShaderiv,
  kGetShaderInfoLog,
  kAttachShader,
  kDetachShader,
  kLinkProgram,
  kGetProgramiv,
  kGetProgramInfoLog,
  kCreateShaderProgramv,
  kBufferUpload,
  kTextureUpload,
  kCompressedTextureUpload,
  kMappedBufferEnd,  // glUnmapBuffer / glFlushMappedBufferRange: app writes arrive as memory records before it
};

// By the function's core (an alias is its core's) and its traits (api/function_traits.txt).
Role RoleOf(int slot) {
  if (slot < 0) return Role::kOther;
  switch (api::CoreOf(slot)) {
    case api::glGetError: return Role::kGlGetError;
    case api::eglGetError: return Role::kEglGetError;
    case api::glCreateShader: return Role::kCreateShader;
    case api::glShaderSource: return Role::kShaderSource;
    case api::glGetShaderiv: return Role::kGetShaderiv;
    case api::glGetShaderInfoLog: return Role::kGetShaderInfoLog;
    case api::glAttachShader: return Role::kAttachShader;
    case api::glDetachShader: return Role::kDetachShader;
    case api::glLinkProgram: return Role::kLinkProgram;
    case api::glGetProgramiv: return Role::kGetProgramiv;
    case api::glGetProgramInfoLog: return Role::kGetProgramInfoLog;
    case api::glCreateShaderProgramv: return Role::kCreateShaderProgramv;
    default: break;
  }
  const api::FunctionTraits& traits = api::kTraits[slot];
  switch (traits.upload) {
    case api::Upload::kClientMemory: return Role::kBufferUpload;
    case api::Upload::kImage: return Role::kTextureUpload;
    case api::Upload::kCompressedImage: return Role::kCompressedTextureUpload;
    case api::Upload::kNone: break;
  }
  if (traits.mapping == api::Mapping::kUnmap || traits.mapping == api::Mapping::kFlush) return Role::kMappedBufferEnd;
  return Role::kOther;
}

std::string HexCode(uint64_t value) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(value));
  return buffer;
}

const stream::DecodedValue* Arg(const stream::DecodedCall& call, std::string_view name) {
  int index = api::ParamIndexOf(call.slot, name);
  return index >= 0 && static_cast<size_t>(index) < call.args.size() ? &call.args[index] : nullptr;
}

uint32_t UIntArg(const stream::DecodedCall& call, std::string_view name) {
  const stream::DecodedValue* v = Arg(call, name);
  if (!v) return 0;
  return static_cast<uint32_t>(v->kind == api::ArgKind::kInt ? static_cast<uint64_t>(v->i) : v->u);
}

// The first 32-bit integer a call wrote behind `name` (glGetShaderiv params).
std::optional<int32_t> IntOutput(const stream::DecodedCall& call, std::string_view name) {
  const stream::DecodedValue* v = Arg(call, name);
  if (!v || !v->has_out || v->out.size() < 4) return std::nullopt;
  int32_t value;
  std::memcpy(&value, v->out.data(), 4);
  return value;
}

// A string a call wrote behind `name`, up to its terminating NUL.
std::string StringOutput(const stream::DecodedCall& call, std::string_view name) {
  const stream::DecodedValue* v = Arg(call, name);
  if (!v || !v->has_out) return {};
  std::string_view text(reinterpret_cast<const char*>(v->out.data()), v->out.size());
  return ValidUtf8(text.substr(0, text.find('\0')));
}

// glShaderSource-style string arrays joined into one source text.
std::optional<std::string> JoinedStrings(const stream::DecodedCall& call, std::string_view name) {
  const stream::DecodedValue* v = Arg(call, name);
  if (!v || !v->has_in) return std::nullopt;
  bool ok = false;
  std::vector<std::string_view> parts = stream::DecodeStrings(v->in, &ok);
  if (!ok) return std::nullopt;
  std::string joined;
  for (std::string_view part : parts) joined += part;
  return ValidUtf8(joined);
}

class ModelBuilder {
 public:
  ModelBuilder(ReportModel& model, const ReportModelOptions& options) : model_(model), options_(options) {}

  void Call(const stream::DecodedCall& call, uint32_t thread_id, uint64_t payload_bytes);
  void FrameEnd(uint32_t thread_id, uint64_t tracer_frame);
  void Memory(uint32_t thread_id, uint64_t bytes);
  void Framebuffer(std::span<const uint8_t> payload);
  void ContextEvent(std::span<const uint8_t> payload);
  void Finish();

 private:
  uint32_t FunctionIndex(const stream::DecodedCall& call);
  uint32_t TextIndex(std::string text);
  uint32_t ThreadIndex(uint32_t thread_id);
  Role RoleOfFunction(const stream::DecodedCall& call);
  void Shaders(Role role, const stream::DecodedCall& call, const CallRef& ref);
  uint64_t FrameOf(uint64_t sequence) const;
  void ResolveFrame(CallRef& ref) const { ref.frame = FrameOf(ref.sequence); }

  ReportModel& model_;
  const ReportModelOptions& options_;
  std::unordered_map<std::string, uint32_t> text_ids_;
  std::unordered_map<std::string_view, uint32_t> function_ids_;  // views of model_.function_names' strings
  std::vector<std::optional<Role>> roles_by_slot_;  // decided at the first call of each function
  std::unordered_map<uint32_t, uint32_t> thread_ids_;

  std::vector<uint64_t> frame_end_sequences_;  // the last call of each frame that ended
  std::optional<uint64_t> first_tracer_frame_;
  std::set<uint64_t> image_tracer_frames_;
  uint64_t max_sequence_ = 0;
  std::unordered_map<uint32_t, uint64_t> last_sequence_of_thread_;
  std::unordered_map<uint32_t, CallRef> last_call_of_thread_;  // not counting error queries
  std::unordered_map<uint32_t, uint64_t> pending_memory_of_thread_;

  std::unordered_map<uint32_t, uint32_t> shader_types_;
  std::unordered_map<uint32_t, size_t> latest_source_of_shader_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> shaders_of_program_;
  std::unordered_map<uint32_t, size_t> latest_link_of_program_;
  std::map<uint32_t, size_t> uncovered_of_function_;
  std::vector<ReportUpload> uploads_;
};

uint32_t ModelBuilder::FunctionIndex(const stream::DecodedCall& call) {
  if (auto found = function_ids_.find(call.name); found != function_ids_.end()) return found->second;
  const uint32_t id = static_cast<uint32_t>(model_.function_names.size());
  // call.name points into the registry tables of this build, which outlive the builder.
  model_.function_names.emplace_back(call.name);
  function_ids_.emplace(call.name, id);
  return id;
}

uint32_t ModelBuilder::TextIndex(std::string text) {
  auto [it, inserted] = text_ids_.try_emplace(std::move(text), static_cast<uint32_t>(model_.texts.size()));
  if (inserted) model_.texts.push_back(it->first);
  return it->second;
}

uint32_t ModelBuilder::ThreadIndex(uint32_t thread_id) {
  auto [it, inserted] = thread_ids_.try_emplace(thread_id, static_cast<uint32_t>(model_.threads.size()));
  if (inserted) model_.threads.push_back(thread_id);
  return it->second;
}

Role ModelBuilder::RoleOfFunction(const stream::DecodedCall& call) {
  const size_t slot = static_cast<size_t>(call.slot);
  if (slot >= roles_by_slot_.size()) roles_by_slot_.resize(slot + 1);
  if (!roles_by_slot_[slot]) roles_by_slot_[slot] = RoleOf(call.slot);
  return *roles_by_slot_[slot];
}

void ModelBuilder::Call(const stream::DecodedCall& call, uint32_t thread_id, uint64_t payload_bytes) {
  ReportTotals& totals = model_.totals;
  ReportCall row;
  row.sequence = call.sequence;
  row.start_ns = call.start_ns;
  row.duration_ns = call.duration_ns;
  row.thread = ThreadIndex(thread_id);
  row.context = static_cast<uint32_t>(call.context);
  row.function = FunctionIndex(call);
  std::string line = stream::FormatCall(call);
  row.text = TextIndex(ValidUtf8(std::string_view(line).substr(std::min(line.size(), call.name.size()))));
  const CallRef ref{call.sequence, 0, row.function, row.text};

  ++totals.calls;
  totals.cpu_ns += call.duration_ns;
  totals.record_bytes += payload_bytes;
  max_sequence_ = std::max(max_sequence_, call.sequence);
  last_sequence_of_thread_[thread_id] = call.sequence;

  if (api::IsGpuWork(call.slot)) {
    row.flags |= kReportDraw;
    ++totals.draws;
  }
  if (call.flags & stream::kCallUntimed) row.flags |= kReportUntimed;
  if (call.flags & stream::kCallSynthesized) {
    row.flags |= kReportSynthesized;
    ++totals.synthesized_calls;
  }
  if (call.flags & stream::kCallUncovered) {
    row.flags |= kReportUncovered;
    ++totals.uncovered_calls;
    auto [it, inserted] = uncovered_of_function_.try_emplace(row.function, model_.uncovered.size());
    if (inserted) model_.uncovered.push_back({row.function, 0, ref});
    ++model_.uncovered[it->second].calls;
  }

  const Role role = RoleOfFunction(call);
  if (role == Role::kGlGetError || role == Role::kEglGetError) {
    std::string error;
    if (call.has_reply && role == Role::kGlGetError && call.result.u != 0) {
      const char* name = api::GlEnumName(static_cast<uint32_t>(call.result.u));
      error = name ? name : HexCode(call.result.u);
    } else if (call.has_reply && role == Role::kEglGetError && call.result.i != kEglSuccess) {
      const char* name = api::EglErrorName(call.result.i);
      error = name ? name : HexCode(static_cast<uint64_t>(call.result.i));
    }
    if (!error.empty()) {
      row.flags |= kReportError;
      ++totals.errors;
      ReportError entry{ref, std::move(error), role == Role::kEglGetError, std::nullopt};
      if (auto previous = last_call_of_thread_.find(thread_id); previous != last_call_of_thread_.end()) {
        entry.follows = previous->second;
      }
      model_.errors.push_back(std::move(entry));
    }
  } else {
    last_call_of_thread_[thread_id] = ref;
  }

  // Data the call sends: its input bytes for uploads, plus app memory the
  // tracer captured for it just before (mapped-buffer writes, client arrays).
  uint64_t upload = 0;
  const char* kind = "";
  if (role == Role::kBufferUpload || role == Role::kTextureUpload || role == Role::kCompressedTextureUpload) {
    for (const stream::DecodedValue& v : call.args) {
      if (v.has_in) upload += v.in.size();
    }
    kind = role == Role::kBufferUpload ? "buffer" : role == Role::kTextureUpload ? "texture" : "compressed texture";
  }
  if (auto pending = pending_memory_of_thread_.find(thread_id); pending != pending_memory_of_thread_.end()) {
    if (upload == 0) kind = role == Role::kMappedBufferEnd ? "mapped buffer" : "client arrays";
    upload += pending->second;
    pending_memory_of_thread_.erase(pending);
  }
  if (upload > 0) {
    row.flags |= kReportUpload;
    totals.upload_bytes += upload;
    uploads_.push_back({ref, upload, kind});
  }

  Shaders(role, call, ref);
  model_.calls.push_back(row);
}

void ModelBuilder::Shaders(Role role, const stream::DecodedCall& call, const CallRef& ref) {
  switch (role) {
    case Role::kCreateShader:
      if (call.has_reply) shader_types_[static_cast<uint32_t>(call.result.u)] = UIntArg(call, "type");
      break;
    case Role::kShaderSource: {
      ShaderSource source;
      source.call = ref;
      source.shader = UIntArg(call, "shader");
      auto found = shader_types_.find(source.shader);
      source.type = found != shader_types_.end() ? found->second : 0;
      std::optional<std::string> text = JoinedStrings(call, "string");
      source.source = text ? std::move(*text) : std::string("(the source was not captured)");
      latest_source_of_shader_[source.shader] = model_.shaders.size();
      model_.shaders.push_back(std::move(source));
      break;
    }
    case Role::kGetShaderiv:
      if (UIntArg(call, "pname") == kGlCompileStatus) {
        auto found = latest_source_of_shader_.find(UIntArg(call, "shader"));
        std::optional<int32_t> status = IntOutput(call, "params");
        if (found != latest_source_of_shader_.end() && status) model_.shaders[found->second].compiled = *status != 0;
      }
      break;
    case Role::kGetShaderInfoLog:
      if (auto found = latest_source_of_shader_.find(UIntArg(call, "shader")); found != latest_source_of_shader_.end()) {
        model_.shaders[found->second].info_log = StringOutput(call, "infoLog");
      }
      break;
    case Role::kAttachShader: {
      std::vector<uint32_t>& shaders = shaders_of_program_[UIntArg(call, "program")];
      const uint32_t shader = UIntArg(call, "shader");
      if (std::find(shaders.begin(), shaders.end(), shader) == shaders.end()) shaders.push_back(shader);
      break;
    }
    case Role::kDetachShader: {
      std::vector<uint32_t>& shaders = shaders_of_program_[UIntArg(call, "program")];
      std::erase(shaders, UIntArg(call, "shader"));
      break;
    }
    case Role::kLinkProgram: {
      LinkedProgram program;
      program.call = ref;
      program.program = UIntArg(call, "program");
      for (uint32_t shader : shaders_of_program_[program.program]) {
        auto found = latest_source_of_shader_.find(shader);
        if (found != latest_source_of_shader_.end()) {
          program.shaders.push_back(found->second);
        } else {
          program.shaders_without_source.push_back(shader);
        }
      }
      latest_link_of_program_[program.program] = model_.programs.size();
      model_.programs.push_back(std::move(program));
      break;
    }
    case Role::kGetProgramiv:
      if (UIntArg(call, "pname") == kGlLinkStatus) {
        auto found = latest_link_of_program_.find(UIntArg(call, "program"));
        std::optional<int32_t> status = IntOutput(call, "params");
        if (found != latest_link_of_program_.end() && status) model_.programs[found->second].linked = *status != 0;
      }
      break;
    case Role::kGetProgramInfoLog:
      if (auto found = latest_link_of_program_.find(UIntArg(call, "program")); found != latest_link_of_program_.end()) {
        model_.programs[found->second].info_log = StringOutput(call, "infoLog");
      }
      break;
    case Role::kCreateShaderProgramv: {
      // One call compiles a shader and links a program around it.
      ShaderSource source;
      source.call = ref;
      source.type = UIntArg(call, "type");
      std::optional<std::string> text = JoinedStrings(call, "strings");
      source.source = text ? std::move(*text) : std::string("(the source was not captured)");
      LinkedProgram program;
      program.call = ref;
      program.program = call.has_reply ? static_cast<uint32_t>(call.result.u) : 0;
      program.shaders.push_back(model_.shaders.size());
      model_.shaders.push_back(std::move(source));
      latest_link_of_program_[program.program] = model_.programs.size();
      model_.programs.push_back(std::move(program));
      break;
    }
    default: break;
  }
}

void ModelBuilder::FrameEnd(uint32_t thread_id, uint64_t tracer_frame) {
  if (!first_tracer_frame_ || tracer_frame < *first_tracer_frame_) first_tracer_frame_ = tracer_frame;
  // The frame ends with the swap its thread made just before this record.
  auto last = last_sequence_of_thread_.find(thread_id);
  frame_end_sequences_.push_back(last != last_sequence_of_thread_.end() ? last->second : max_sequence_);
}

void ModelBuilder::Memory(uint32_t thread_id, uint64_t bytes) {
  model_.totals.app_memory_bytes += bytes;
  pending_memory_of_thread_[thread_id] += bytes;
}

void ModelBuilder::Framebuffer(std::span<const uint8_t> payload) {
  stream::FramebufferImage image;
  const bool decoded = stream::DecodeFramebuffer(payload, &image);
  // The final frame alone is no thumbnail per frame: such a trace's thumbnails come from a replay.
  if (decoded && image.final_frame) {
    ++model_.totals.final_frame_images;
    return;
  }
  ++model_.totals.framebuffer_images;
  if (decoded) image_tracer_frames_.insert(image.frame);
}

void ModelBuilder::ContextEvent(std::span<const uint8_t> payload) {
  ContextStrings context;
  stream::KeyValues info;
  if (!stream::DecodeContextEvent(payload, &context.context, &info)) return;
  for (const auto& [key, value] : info) context.strings.emplace_back(ValidUtf8(key), ValidUtf8(value));
  model_.contexts.push_back(std::move(context));
}

uint64_t ModelBuilder::FrameOf(uint64_t sequence) const {
  // A frame's last call is the swap recorded in frame_end_sequences_, so a
  // call belongs to the first frame whose end is at or after it.
  uint64_t frame = std::lower_bound(frame_end_sequences_.begin(), frame_end_sequences_.end(), sequence) -
                   frame_end_sequences_.begin();
  return std::min<uint64_t>(frame, model_.frames.empty() ? 0 : model_.frames.size() - 1);
}

void ModelBuilder::Finish() {
  // Chunks hold one thread each, so in a multi-threaded trace file order is
  // not call order; the sequence numbers are.
  auto by_sequence = [](const ReportCall& a, const ReportCall& b) { return a.sequence < b.sequence; };
  if (!std::is_sorted(model_.calls.begin(), model_.calls.end(), by_sequence)) {
    std::stable_sort(model_.calls.begin(), model_.calls.end(), by_sequence);
  }
  std::sort(frame_end_sequences_.begin(), frame_end_sequences_.end());
  model_.tracer_first_frame =
      first_tracer_frame_.value_or(image_tracer_frames_.empty() ? 0 : *image_tracer_frames_.begin());

  std::vector<ReportFrame>& frames = model_.frames;
  frames.assign(frame_end_sequences_.size() + 1, ReportFrame{});
  size_t frame = 0;
  frames[0].first_call = 0;
  for (size_t i = 0; i < model_.calls.size(); ++i) {
    const ReportCall& call = model_.calls[i];
    while (frame < frame_end_sequences_.size() && call.sequence > frame_end_sequences_[frame]) {
      frames[++frame].first_call = i;
    }
    ReportFrame& f = frames[frame];
    ++f.call_count;
    f.cpu_ns += call.duration_ns;
    f.draws += (call.flags & kReportDraw) != 0;
  }
  for (++frame; frame < frames.size(); ++frame) frames[frame].first_call = model_.calls.size();
  // The calls after the last swap are an unfinished frame: shown, never counted (stream/frame_numbering.h).
  model_.ended_frames = frame_end_sequences_.size();
  model_.calls_after_last_frame = frames.back().call_count;
  if (frames.size() > 1 && frames.back().call_count == 0) frames.pop_back();
  // Images taken before the first frame record (tracing switched on mid-frame) count as frame 0.
  for (uint64_t tracer_frame : image_tracer_frames_) {
    const uint64_t image_frame =
        tracer_frame > model_.tracer_first_frame ? tracer_frame - model_.tracer_first_frame : 0;
    if (image_frame < frames.size() &&
        (model_.frames_with_images.empty() || model_.frames_with_images.back() != image_frame)) {
      model_.frames_with_images.push_back(image_frame);
    }
  }

  for (ReportError& error : model_.errors) {
    ResolveFrame(error.call);
    if (error.follows) ResolveFrame(*error.follows);
    ++frames[error.call.frame].errors;
  }
  for (UncoveredFunction& function : model_.uncovered) ResolveFrame(function.first);
  for (ShaderSource& shader : model_.shaders) ResolveFrame(shader.call);
  for (LinkedProgram& program : model_.programs) ResolveFrame(program.call);
  for (ReportUpload& upload : uploads_) {
    ResolveFrame(upload.call);
    frames[upload.call.frame].upload_bytes += upload.bytes;
  }
  const size_t keep = std::min(options_.largest_uploads, uploads_.size());
  std::partial_sort(uploads_.begin(), uploads_.begin() + keep, uploads_.end(),
                    [](const ReportUpload& a, const ReportUpload& b) {
                      return a.bytes != b.bytes ? a.bytes > b.bytes : a.call.sequence < b.call.sequence;
                    });
  uploads_.resize(keep);
  model_.largest_uploads = std::move(uploads_);
}

}  // namespace

std::string ValidUtf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    size_t length = 0;
    uint32_t min = 0, code = 0;
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      length = 2, min = 0x80, code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      length = 3, min = 0x800, code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      length = 4, min = 0x10000, code = c & 0x07;
    }
    bool valid = length > 0 && i + length <= n;
    for (size_t k = 1; valid && k < length; ++k) {
      valid = (p[i + k] & 0xC0) == 0x80;
      code = (code << 6) | (p[i + k] & 0x3F);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
    valid = valid && code >= min && code <= 0x10FFFF && !(code >= 0xD800 && code <= 0xDFFF);
    if (valid) {
      out.append(bytes.substr(i, length));
      i += length;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

bool BuildReportModel(const std::string& trace_path, const ReportModelOptions& options, ReportModel* model,
                      std::string* error) {
  auto reader = stream::RecordReader::Open(trace_path, error);
  if (!reader) return false;
  *model = ReportModel{};
  model->trace_path = trace_path;
  std::error_code size_error;
  model->trace_file_bytes = std::filesystem::file_size(trace_path, size_error);
  if (size_error) model->trace_file_bytes = 0;
  model->header = reader->header();
  model->header.program = ValidUtf8(model->header.program);
  model->header.command_line = ValidUtf8(model->header.command_line);
  for (auto& [key, value] : model->header.extra) value = ValidUtf8(value);
  model->complete = reader->complete();

  ModelBuilder builder(*model, options);
  stream::CallDecoder decoder(reader->functions());
  stream::Record record;
  stream::DecodedCall call;
  std::string decode_error;
  while (reader->Next(&record)) {
    switch (record.type) {
      case stream::RecordType::kCall:
        if (decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &decode_error)) {
          builder.Call(call, record.thread_id, record.payload.size());
        } else if (model->totals.undecodable_records++ == 0) {
          model->first_undecodable = ValidUtf8(decode_error);
        }
        break;
      case stream::RecordType::kFrame: {
        stream::ByteReader r(record.payload);
        const uint64_t tracer_frame = r.Varint();
        builder.FrameEnd(record.thread_id, r.ok() ? tracer_frame : 0);
        break;
      }
      case stream::RecordType::kMemory: {
        stream::ByteReader r(record.payload);
        r.Varint();  // the app address: not shown
        std::span<const uint8_t> bytes;
        if (r.Blob(&bytes)) builder.Memory(record.thread_id, bytes.size());
        break;
      }
      case stream::RecordType::kFramebuffer: builder.Framebuffer(record.payload); break;
      case stream::RecordType::kTraceEvent: builder.ContextEvent(record.payload); break;
      default: break;
    }
  }
  if (!reader->error().empty()) {
    if (!reader->truncated()) {
      *error = reader->error();
      return false;
    }
    model->warning = reader->error();
  }
  builder.Finish();
  return true;
}

}  // namespace strata::view
