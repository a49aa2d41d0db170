#include "export/c_source_export.h"

#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <cctype>
#include <fstream>
#include <set>
#include <vector>

#include "common/vertex_formats.h"
#include "export/c_call_writer.h"
#include "export/c_program_assets.h"
#include "stream/call_decoder.h"
#include "stream/client_arrays.h"
#include "stream/event_records.h"
#include "stream/framebuffer_record.h"
#include "stream/record_format.h"
#include "strata/api/functions.h"
#include "strata/api/replay.h"
#include "strata/api/traits.h"

namespace strata::exporter {
namespace {

constexpr size_t kCallsPerChunk = 1000;   // a chunk is one C function: compilers slow down on huge ones
constexpr size_t kFileBytes = 1 << 20;  // a source file of about this size: many compile in parallel, few start fast
constexpr uint32_t kTexCoordArray = 0x8078;  // GL_TEXTURE_COORD_ARRAY (GLES 1)

std::string Hex(uint64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64 "u", v);
  return text;
}

int ClientArrayParam(int slot) {
  for (int i = 0; i < api::kFunctions[slot].param_count; ++i) {
    if (api::kReplay[slot].params[i].client_array) return i;
  }
  return -1;
}

// The key of a client array: a generic attribute's index, or a GLES 1 array (and texture unit).
uint64_t Gles1Key(uint32_t array, uint32_t unit) {
  return (1ull << 32) + static_cast<uint64_t>(array) * 64 + (array == kTexCoordArray ? unit : 0);
}

class Exporter {
 public:
  Exporter(const std::string& dir, const std::string& program, CSourceSummary* summary)
      : dir_(dir), program_(program), summary_(summary), writer_(data_) {}

  bool Run(stream::RecordReader& reader, std::string* error);

 private:
  struct ClientArray {
    stream::DecodedCall call;  // the pointer call, its arguments' values (no bytes)
    int pointer_param = -1;
    uint64_t pointer = 0, stride = 0;
    uint32_t unit = 0;
    bool texture_array = false;
  };
  struct ContextState {
    uint64_t group = 0;
    uint64_t array_buffer = 0, vertex_array = 0, program = 0;
    uint32_t client_texture = 0;
    std::map<uint64_t, uint64_t> element_buffers;  // by vertex array
    std::map<uint64_t, uint64_t> buffers;          // by target, other than the two above
    std::map<uint64_t, ClientArray> client_arrays;  // of vertex array 0, by key
    std::set<uint64_t> enabled, instanced;           // keys
  };
  struct Mapping {
    uint64_t address = 0, length = 0;
    int id = 0;
  };
  struct Group {
    std::map<uint64_t, Mapping> mappings;  // by buffer
    std::map<uint64_t, uint64_t> sizes;    // buffer -> bytes its last glBufferData gave it
  };
  struct Region {
    uint64_t address, size, offset;
  };

  void OnCall(const stream::DecodedCall& call);
  void OnMemory(uint64_t address, std::span<const uint8_t> bytes);
  void Emit(const std::string& statement);
  void LeaveOut(const stream::DecodedCall& call, const std::string& why);
  bool FollowEgl(const stream::DecodedCall& call);
  // Before a draw: its client arrays pointed at the data file. False when an enabled one has no bytes.
  bool PointClientArrays(const stream::DecodedCall& call);
  void FollowClientArrayCall(const stream::DecodedCall& call, CallWriter::Overrides* overrides);
  void ResolveIndexArrays(const stream::DecodedCall& call, CallWriter::Overrides* overrides);
  void FollowAfter(const stream::DecodedCall& call);
  uint64_t BoundBuffer(uint64_t target) const;
  int64_t LowestVertex(const stream::DecodedCall& call) const;
  void EndChunk();
  bool FlushFile();
  bool WriteFile(const std::string& name, const std::string& text);
  bool WriteSupportFiles();

  std::string dir_, program_;
  CSourceSummary* summary_;
  DataFile data_;
  CallWriter writer_;
  std::string chunk_, file_, error_;
  size_t chunk_calls_ = 0, chunks_ = 0, files_ = 0;
  std::map<uint64_t, ContextState> contexts_;
  std::map<uint64_t, Group> groups_;
  uint64_t groups_made_ = 0;
  ContextState* current_ = nullptr;
  std::vector<Region> regions_;
  int mappings_made_ = 0;
};

bool Exporter::Run(stream::RecordReader& reader, std::string* error) {
  stream::CallDecoder decoder(reader.functions());
  decoder.AcceptUnknownFunctions(true);
  stream::DecodedCall call;
  stream::Record record;
  std::string problem;
  bool have_thread = false;
  uint32_t thread = 0;
  while (error_.empty() && reader.Next(&record)) {
    if (record.type == stream::RecordType::kCall || record.type == stream::RecordType::kMemory) {
      if (have_thread && record.thread_id != thread) {
        *error = "the trace has calls of more than one thread (" + std::to_string(thread) + " and " +
                 std::to_string(record.thread_id) + "); a C export replays the calls of one thread";
        return false;
      }
      have_thread = true;
      thread = record.thread_id;
    }
    switch (record.type) {
      case stream::RecordType::kCall:
        ++summary_->calls;
        if (!decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &problem)) {
          *error = "call record " + std::to_string(summary_->calls) + " cannot be decoded: " + problem;
          return false;
        }
        OnCall(call);
        break;
      case stream::RecordType::kMemory: {
        uint64_t address = 0;
        std::span<const uint8_t> bytes;
        if (!stream::DecodeMemory(record.payload, &address, &bytes)) {
          *error = "a memory record is malformed (after call record " + std::to_string(summary_->calls) + ")";
          return false;
        }
        OnMemory(address, bytes);
        break;
      }
      case stream::RecordType::kTraceEvent: {
        uint64_t handle = 0, width = 0, height = 0;
        stream::EglAttributes format;
        if (stream::DecodeConfigEvent(record.payload, &handle, &format)) {
          std::string pairs;
          for (const auto& pair : format) {
            char text[32];
            std::snprintf(text, sizeof text, "0x%x, %d, ", static_cast<uint32_t>(pair.first), pair.second);
            pairs += text;
          }
          Emit("strata_config_format(" + Hex(handle) + ", (const EGLint[]){" + pairs + "EGL_NONE});");
        } else if (stream::DecodeSurfaceEvent(record.payload, &handle, &width, &height) &&
                   stream::PlausibleFramebufferSize(width, height)) {
          Emit("strata_surface_size(" + Hex(handle) + ", " + std::to_string(width) + ", " + std::to_string(height) + ");");
        }
        break;
      }
      case stream::RecordType::kFrame:
        ++summary_->frames;
        EndChunk();
        break;
      default:
        break;
    }
  }
  if (!reader.error().empty() && !reader.truncated()) {
    *error = reader.error();
    return false;
  }
  EndChunk();
  if (error_.empty() && !file_.empty()) FlushFile();
  if (error_.empty()) WriteSupportFiles();
  if (!error_.empty()) {
    *error = error_;
    return false;
  }
  summary_->data_bytes = data_.bytes().size();
  summary_->source_files = files_;
  return true;
}

void Exporter::Emit(const std::string& statement) {
  chunk_ += "  " + statement + "\n";
  if (++chunk_calls_ >= kCallsPerChunk) EndChunk();
}

void Exporter::LeaveOut(const stream::DecodedCall& call, const std::string& why) {
  auto& [count, reason] = summary_->left_out[std::string(call.name)];
  if (count++ == 0) reason = why;
  chunk_ += "  /* call " + std::to_string(call.sequence) + " " + std::string(call.name) + ": left out, " + why + " */\n";
}

void Exporter::EndChunk() {
  if (chunk_.empty()) return;
  file_ += "void strata_chunk_" + std::to_string(chunks_++) + "(void) {\n" + chunk_ + "}\n\n";
  chunk_.clear();
  chunk_calls_ = 0;
  if (file_.size() >= kFileBytes) FlushFile();
}

bool Exporter::FlushFile() {
  char name[48];
  std::snprintf(name, sizeof name, "trace_frames_%04zu.c", files_++);
  const bool ok = WriteFile(name, "/* Calls of the trace, in order (strata export --format c). */\n#include \"trace_functions.h\"\n\n" + file_);
  file_.clear();
  return ok;
}

bool Exporter::WriteFile(const std::string& name, const std::string& text) {
  const std::string path = dir_ + "/" + name;
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) {
    if (error_.empty()) error_ = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool Exporter::WriteSupportFiles() {
  std::string header = "/* The entry points the trace's calls use (strata export --format c). */\n"
                       "#ifndef STRATA_TRACE_FUNCTIONS_H\n#define STRATA_TRACE_FUNCTIONS_H\n"
                       "#include <math.h>\n#include \"replay_runtime.h\"\n\n"
                       "/* The host's name of a recorded object, by the object's kind. */\n";
  for (int object = 1; object < static_cast<int>(api::ObjectClass::kCount); ++object) {
    const auto cls = static_cast<api::ObjectClass>(object);
    header += "#define " + ClassMacro(cls) + "(recorded) strata_name(" + NameScope(cls) + ", " + std::to_string(object) +
              ", recorded)\n";
  }
  header += "\n";
  std::string source = "#include <stdio.h>\n#include \"trace_functions.h\"\n\n"
                       "static void Missing(const char* name) {\n"
                       "  fprintf(stderr, \"%s: warning: the driver has no %s: its calls do nothing\\n\", strata_trace_name, name);\n"
                       "}\n\n";
  std::string loads;
  for (int slot : writer_.used()) {
    const api::FunctionInfo& info = api::kFunctions[slot];
    const std::string name = info.name;
    std::string types, params, voids;
    for (int i = 0; i < info.param_count; ++i) {
      types += std::string(i ? ", " : "") + info.params[i].type;
      params += std::string(i ? ", " : "") + info.params[i].type + " p" + std::to_string(i);
      voids += "(void)p" + std::to_string(i) + "; ";
    }
    if (types.empty()) types = params = "void";
    const std::string return_type = info.return_type;
    header += "typedef " + return_type + " (*strata_pfn_" + name + ")(" + types + ");\nextern strata_pfn_" + name +
              " strata_fn_" + name + ";\n";
    source += "strata_pfn_" + name + " strata_fn_" + name + ";\n";
    // A function the driver lacks warns once, and its calls do nothing.
    source += "static " + return_type + " Missing_" + name + "(" + params + ") {\n  static int said;\n  " + voids +
              "if (!said++) Missing(\"" + name + "\");\n" + (return_type == "void" ? "" : "  return (" + return_type + ")0;\n") +
              "}\n";
    loads += "  strata_fn_" + name + " = (strata_pfn_" + name + ")eglGetProcAddress(\"" + name + "\");\n  if (!strata_fn_" +
             name + ") strata_fn_" + name + " = Missing_" + name + ";\n";
  }
  header += "\n#endif\n";
  source += "\nvoid strata_load_functions(void) {\n" + loads + "}\n";
  std::string chunks = "/* The order the trace's chunks of calls run in (strata export --format c). */\n"
                       "#include \"replay_runtime.h\"\n\n";
  for (size_t i = 0; i < chunks_; ++i) chunks += "void strata_chunk_" + std::to_string(i) + "(void);\n";
  chunks += "\nconst strata_chunk strata_chunks[] = {\n";
  for (size_t i = 0; i < chunks_; ++i) chunks += "  strata_chunk_" + std::to_string(i) + ",\n";
  if (chunks_ == 0) chunks += "  0,\n";
  chunks += "};\nconst size_t strata_chunk_count = " + std::to_string(chunks_) + ";\nconst char strata_trace_name[] = \"" +
            program_ + "\";\nconst uint64_t strata_trace_frames = " + std::to_string(summary_->frames) + ";\n";
  std::string cmake(kCMakeListsTemplate);
  for (size_t at; (at = cmake.find("@PROGRAM@")) != std::string::npos;) cmake.replace(at, 9, program_);
  const std::vector<uint8_t>& data = data_.bytes();
  return WriteFile("trace_functions.h", header) && WriteFile("trace_functions.c", source) &&
         WriteFile("trace_chunks.c", chunks) && WriteFile("replay_runtime.h", std::string(kReplayRuntimeH)) &&
         WriteFile("replay_runtime.c", std::string(kReplayRuntimeC)) && WriteFile("CMakeLists.txt", cmake) &&
         WriteFile("trace.data", std::string(data.begin(), data.end()));
}

bool Exporter::FollowEgl(const stream::DecodedCall& call) {
  const auto& a = call.args;
  switch (api::CoreOf(call.slot)) {
    case api::eglCreateContext:
      if (call.has_reply && call.result.u != 0) {
        ContextState state;
        auto share = contexts_.find(a[2].u);
        state.group = a[2].u != 0 && share != contexts_.end() ? share->second.group : ++groups_made_;
        // A handle used again for a new context: threads' pointers to the old state are gone with it.
        if (current_ == &contexts_[call.result.u]) current_ = nullptr;
        contexts_[call.result.u] = state;
      }
      return true;
    case api::eglMakeCurrent: {
      auto it = contexts_.find(a[3].u);
      current_ = a[3].u != 0 && it != contexts_.end() ? &it->second : nullptr;
      return true;
    }
    case api::eglReleaseThread:
      current_ = nullptr;
      return true;
    default:
      return false;
  }
}

uint64_t Exporter::BoundBuffer(uint64_t target) const {
  if (current_ == nullptr) return 0;
  if (target == GL_ARRAY_BUFFER) return current_->array_buffer;
  if (target == GL_ELEMENT_ARRAY_BUFFER) {
    auto it = current_->element_buffers.find(current_->vertex_array);
    return it == current_->element_buffers.end() ? 0 : it->second;
  }
  auto it = current_->buffers.find(target);
  return it == current_->buffers.end() ? 0 : it->second;
}

int64_t Exporter::LowestVertex(const stream::DecodedCall& call) const {
  const api::FunctionTraits& traits = api::kTraits[call.slot];
  const api::DrawParams& p = traits.draw_params;
  if (traits.draw_flags & api::kDrawMulti) return -1;
  if (traits.draw == api::DrawKind::kArrays && p.first >= 0) return std::max<int64_t>(call.args[p.first].i, 0);
  if (traits.draw == api::DrawKind::kElements && p.indices >= 0 && call.args[p.indices].has_in && p.type >= 0) {
    const auto& indices = call.args[p.indices].in;
    const GLenum type = static_cast<GLenum>(call.args[p.type].u);
    const size_t size = type == GL_UNSIGNED_BYTE ? 1 : type == GL_UNSIGNED_SHORT ? 2 : 4;
    uint32_t lowest = 0, highest = 0;
    if (!capture::IndexBounds(indices.data(), indices.size() / size, type, &lowest, &highest)) return -1;
    return lowest + (p.base_vertex >= 0 ? call.args[p.base_vertex].i : 0);
  }
  return -1;
}

bool Exporter::PointClientArrays(const stream::DecodedCall& call) {
  if (current_ == nullptr || current_->vertex_array != 0 || current_->client_arrays.empty()) return true;
  const int64_t lowest = LowestVertex(call);
  std::vector<std::string> statements;
  for (const auto& [key, array] : current_->client_arrays) {
    const bool instanced = current_->instanced.count(key) != 0;
    const uint64_t start = array.pointer + static_cast<uint64_t>(instanced ? 0 : std::max<int64_t>(lowest, 0)) * array.stride;
    const Region* found = nullptr;
    for (const uint64_t wanted : {start, array.pointer}) {
      for (const Region& region : regions_) {
        if (wanted >= region.address && wanted < region.address + region.size) found = &region;
      }
      if (found) break;
    }
    if (found == nullptr && lowest < 0) {
      // Indices in a buffer: the record that starts nearest after the array's start holds what the draw reads.
      for (const Region& region : regions_) {
        if (region.address >= array.pointer && (found == nullptr || region.address < found->address)) found = &region;
      }
    }
    if (found == nullptr) {
      if (current_->enabled.count(key)) return false;
      continue;
    }
    const int64_t offset = static_cast<int64_t>(found->offset) + static_cast<int64_t>(array.pointer - found->address);
    CallWriter::Overrides overrides;
    overrides.params[array.pointer_param] = "(const void*)(strata_data + (" + std::to_string(offset) + "))";
    std::string statement, why;
    if (!writer_.Write(array.call, current_->program, overrides, &statement, &why)) continue;
    const bool other_unit = array.texture_array && array.unit != current_->client_texture;
    if (other_unit) statements.push_back(writer_.Call(api::glClientActiveTexture, {Hex(GL_TEXTURE0 + array.unit)}) + ";");
    statements.push_back(statement);
    if (other_unit) {
      statements.push_back(writer_.Call(api::glClientActiveTexture, {Hex(GL_TEXTURE0 + current_->client_texture)}) + ";");
    }
  }
  if (statements.empty()) return true;
  const std::string bind = current_->array_buffer ? writer_.Call(api::glBindBuffer, {Hex(GL_ARRAY_BUFFER), "0"}) + "; " : "";
  std::string text = "/* client arrays for the draw */ { " + bind;
  for (const std::string& s : statements) text += s + " ";
  if (current_->array_buffer) {
    text += writer_.Call(api::glBindBuffer, {Hex(GL_ARRAY_BUFFER), HostName(api::ObjectClass::kBuffer, current_->array_buffer, "GLuint")}) + "; ";
  }
  Emit(text + "}");
  return true;
}

void Exporter::FollowClientArrayCall(const stream::DecodedCall& call, CallWriter::Overrides* overrides) {
  const api::FunctionTraits& traits = api::kTraits[call.slot];
  if (current_ == nullptr) return;
  ContextState& c = *current_;
  auto arg = [&](const char* name) -> uint64_t {
    const int i = api::ParamIndexOf(call.slot, name);
    return i >= 0 ? call.args[i].u : 0;
  };
  switch (traits.client_array) {
    case api::ClientArrayOp::kPointer:
    case api::ClientArrayOp::kGles1Pointer: {
      const int pointer = ClientArrayParam(call.slot);
      if (pointer < 0) return;
      const bool gles1 = traits.client_array == api::ClientArrayOp::kGles1Pointer;
      const uint64_t key = gles1 ? Gles1Key(traits.array_name, c.client_texture) : arg("index");
      if (c.vertex_array != 0 || c.array_buffer != 0 || call.args[pointer].u == 0) {
        c.client_arrays.erase(key);
        return;
      }
      const int size_param = api::ParamIndexOf(call.slot, "size"), type_param = api::ParamIndexOf(call.slot, "type");
      const int64_t components = size_param >= 0 ? call.args[size_param].i : traits.array_size;
      const uint64_t element =
          type_param >= 0 ? VertexAttribBytes(static_cast<uint32_t>(call.args[type_param].u), components) : 4;
      const int stride_param = api::ParamIndexOf(call.slot, "stride");
      ClientArray array;
      array.call = call;
      for (auto& v : array.call.args) v.has_in = v.has_out = false, v.in = v.out = {};
      array.pointer_param = pointer;
      array.pointer = call.args[pointer].u;
      array.stride = stride_param >= 0 && call.args[stride_param].i > 0 ? static_cast<uint64_t>(call.args[stride_param].i) : element;
      array.texture_array = gles1 && traits.array_name == kTexCoordArray;
      array.unit = c.client_texture;
      c.client_arrays[key] = std::move(array);
      // Pointed at the data file before each draw; nothing of the app's address space now.
      overrides->params[pointer] = "NULL";
      return;
    }
    case api::ClientArrayOp::kEnable:
    case api::ClientArrayOp::kDisable:
      if (c.vertex_array != 0) return;
      if (traits.client_array == api::ClientArrayOp::kEnable) c.enabled.insert(arg("index"));
      else c.enabled.erase(arg("index"));
      return;
    case api::ClientArrayOp::kEnableState:
    case api::ClientArrayOp::kDisableState: {
      const uint64_t key = Gles1Key(static_cast<uint32_t>(arg("array")), c.client_texture);
      if (traits.client_array == api::ClientArrayOp::kEnableState) c.enabled.insert(key);
      else c.enabled.erase(key);
      return;
    }
    case api::ClientArrayOp::kDivisor:
      if (c.vertex_array != 0) return;
      if (arg("divisor") != 0) c.instanced.insert(arg("index"));
      else c.instanced.erase(arg("index"));
      return;
    case api::ClientArrayOp::kClientTexture:
      c.client_texture = static_cast<uint32_t>(arg("texture") - GL_TEXTURE0);
      return;
    case api::ClientArrayOp::kNone:
      return;
  }
}

void Exporter::ResolveIndexArrays(const stream::DecodedCall& call, CallWriter::Overrides* overrides) {
  const api::FunctionTraits& traits = api::kTraits[call.slot];
  const api::DrawParams& p = traits.draw_params;
  if (traits.draw != api::DrawKind::kElements || !(traits.draw_flags & api::kDrawMulti) || p.indices < 0) return;
  const stream::DecodedValue& v = call.args[p.indices];
  if (!v.has_in) return;
  const bool in_buffer = BoundBuffer(GL_ELEMENT_ARRAY_BUFFER) != 0;
  std::string list;
  for (size_t at = 0; at + 8 <= v.in.size(); at += 8) {
    uint64_t pointer;
    std::memcpy(&pointer, v.in.data() + at, 8);
    std::string entry = "NULL";  // never an address of the traced process
    if (in_buffer) {
      entry = "(const void*)(uintptr_t)" + Hex(pointer);
    } else {
      for (const Region& region : regions_) {
        if (pointer >= region.address && pointer < region.address + region.size) {
          entry = "STRATA_DATA(" + std::to_string(region.offset + (pointer - region.address)) + ")";
        }
      }
    }
    list += (list.empty() ? "" : ", ") + entry;
  }
  overrides->params[p.indices] = "(const void* const[]){" + (list.empty() ? std::string("NULL") : list) + "}";
}

void Exporter::OnMemory(uint64_t address, std::span<const uint8_t> bytes) {
  if (current_ != nullptr) {
    for (const auto& [buffer, mapping] : groups_[current_->group].mappings) {
      if (address >= mapping.address && address + bytes.size() <= mapping.address + mapping.length) {
        Emit("strata_write_mapping(" + std::to_string(mapping.id) + ", " + std::to_string(address - mapping.address) +
             ", STRATA_DATA(" + std::to_string(data_.Add(bytes)) + "), " + std::to_string(bytes.size()) + ");");
        return;
      }
    }
  }
  regions_.push_back(Region{address, bytes.size(), data_.Add(bytes)});
}

void Exporter::OnCall(const stream::DecodedCall& call) {
  if (call.slot >= 0 && api::kFunctions[call.slot].is_egl) FollowEgl(call);
  const api::FunctionTraits* traits = call.slot >= 0 ? &api::kTraits[call.slot] : nullptr;
  const bool draw = traits != nullptr && (traits->flags & api::kReadsClientArrays);
  CallWriter::Overrides overrides;
  if (draw && !PointClientArrays(call)) {
    LeaveOut(call, "an enabled client-side vertex array has no memory record for what the draw reads");
    regions_.clear();
    return;
  }
  if (traits && traits->client_array != api::ClientArrayOp::kNone) FollowClientArrayCall(call, &overrides);
  if (draw) ResolveIndexArrays(call, &overrides);
  int mapping = -1;
  if (traits && traits->mapping == api::Mapping::kMap && call.has_reply && call.result.u != 0 && current_) {
    const uint64_t buffer = BoundBuffer(call.args[0].u);
    Group& group = groups_[current_->group];
    const uint64_t length = api::CoreOf(call.slot) == api::glMapBufferRange ? static_cast<uint64_t>(call.args[2].i)
                                                                             : group.sizes[buffer];
    mapping = mappings_made_++;
    group.mappings[buffer] = Mapping{call.result.u, length, mapping};
    overrides.result_into = "strata_set_mapping(" + std::to_string(mapping) + ", ";
  }
  std::string statement, why;
  if (!writer_.Write(call, current_ ? current_->program : 0, overrides, &statement, &why)) {
    LeaveOut(call, why);
  } else if (!statement.empty()) {
    ++summary_->statements;
    Emit(statement);
  }
  if (traits) FollowAfter(call);
  if (draw) regions_.clear();
  if (traits && (traits->flags & api::kEndsFrame)) EndChunk();
}

void Exporter::FollowAfter(const stream::DecodedCall& call) {
  if (current_ == nullptr || api::kFunctions[call.slot].is_egl) return;
  ContextState& c = *current_;
  Group& group = groups_[c.group];
  const auto& a = call.args;
  auto deleted = [&](uint64_t name) {
    const auto& names = a[1];
    for (size_t at = 0; names.has_in && at + 4 <= names.in.size(); at += 4) {
      uint32_t n;
      std::memcpy(&n, names.in.data() + at, 4);
      if (n == name) return true;
    }
    return false;
  };
  switch (api::CoreOf(call.slot)) {
    case api::glBindBuffer:
      if (a[0].u == GL_ARRAY_BUFFER) c.array_buffer = a[1].u;
      else if (a[0].u == GL_ELEMENT_ARRAY_BUFFER) c.element_buffers[c.vertex_array] = a[1].u;
      else c.buffers[a[0].u] = a[1].u;
      break;
    case api::glBindBufferBase:
    case api::glBindBufferRange:
      c.buffers[a[0].u] = a[2].u;
      break;
    case api::glBindVertexArray:
      c.vertex_array = a[0].u;
      break;
    case api::glUseProgram:
      c.program = a[0].u;
      break;
    case api::glDeleteBuffers:
      if (deleted(c.array_buffer)) c.array_buffer = 0;
      if (deleted(c.element_buffers[c.vertex_array])) c.element_buffers[c.vertex_array] = 0;
      for (auto& [target, buffer] : c.buffers) buffer = deleted(buffer) ? 0 : buffer;
      for (auto it = group.mappings.begin(); it != group.mappings.end();) it = deleted(it->first) ? group.mappings.erase(it) : std::next(it);
      break;
    case api::glDeleteVertexArrays:
      if (deleted(c.vertex_array)) c.vertex_array = 0;
      break;
    case api::glBufferData:
      group.sizes[BoundBuffer(a[0].u)] = static_cast<uint64_t>(a[1].i);
      group.mappings.erase(BoundBuffer(a[0].u));
      break;
    case api::glBufferStorageEXT:
      group.mappings.erase(BoundBuffer(a[0].u));
      break;
    case api::glUnmapBuffer:
      group.mappings.erase(BoundBuffer(a[0].u));
      break;
    default:
      break;
  }
}

bool IsEmptyDirectory(const std::string& dir, bool* exists) {
  DIR* d = opendir(dir.c_str());
  *exists = d != nullptr;
  if (d == nullptr) return true;
  bool empty = true;
  while (dirent* entry = readdir(d)) {
    if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) empty = false;
  }
  closedir(d);
  return empty;
}

void RemoveWritten(const std::string& dir, bool made) {
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return;
  while (dirent* entry = readdir(d)) {
    if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) {
      unlink((dir + "/" + entry->d_name).c_str());
    }
  }
  closedir(d);
  if (made) rmdir(dir.c_str());
}

}  // namespace

std::string ProgramNameFor(const std::string& path) {
  std::string stem = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  if (const size_t dot = stem.find('.'); dot != std::string::npos && dot > 0) stem.erase(dot);
  std::string name;
  for (char c : stem) name += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) name = "trace_" + name;
  return name;
}

bool ExportCSource(stream::RecordReader& reader, const std::string& dir, const std::string& program,
                   CSourceSummary* summary, std::string* error) {
  bool exists = false;
  if (!IsEmptyDirectory(dir, &exists)) {
    *error = dir + " is not empty: a C export writes a directory of its own";
    return false;
  }
  if (!exists && mkdir(dir.c_str(), 0755) != 0) {
    *error = "cannot make " + dir + ": " + std::strerror(errno);
    return false;
  }
  summary->program = program;
  Exporter exporter(dir, program, summary);
  if (!exporter.Run(reader, error)) {
    RemoveWritten(dir, !exists);
    return false;
  }
  return true;
}

}  // namespace strata::exporter
