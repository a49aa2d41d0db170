#include "host/executor.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string_view>
#include <utility>

#include "stream/call_encoder.h"
#include "strata/api/codec.h"
#include "strata/api/replay.h"
#include "strata/api/traits.h"

namespace strata::host {

using api::ArgKind;
using api::Capture;
using api::NameRole;
using api::ObjectClass;

uint8_t* Executor::Scratch::Get(size_t size) {
  if (used == buffers.size()) buffers.emplace_back();
  std::vector<uint8_t>& buffer = buffers[used++];
  if (buffer.size() < size) buffer.resize(size);  // outputs are written by the driver; no need to clear
  return buffer.data();
}

Executor::Executor(const HostDriver& driver, SurfaceFactory& surfaces)
    : driver_(driver), surfaces_(surfaces), capture_state_(driver.functions()) {}

Executor::~Executor() {
  if (display_ == EGL_NO_DISPLAY) return;
  auto make_current = driver_.Get<PFNEGLMAKECURRENTPROC>(api::eglMakeCurrent);
  make_current(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  for (auto& [recorded, context] : contexts_) {
    if (context->host != EGL_NO_CONTEXT) driver_.Get<PFNEGLDESTROYCONTEXTPROC>(api::eglDestroyContext)(display_, context->host);
  }
  for (auto& [recorded, surface] : recorded_surfaces_) {
    if (surface.host != EGL_NO_SURFACE) driver_.Get<PFNEGLDESTROYSURFACEPROC>(api::eglDestroySurface)(display_, surface.host);
  }
}

void Executor::Problem(const stream::DecodedCall& call, const std::string& why) {
  auto& entry = problems_[std::string(call.name)];
  if (entry.first++ == 0) entry.second = why;
  ++skipped_;
}

std::vector<std::string> Executor::problems() const {
  std::vector<std::string> lines;
  for (const auto& [name, entry] : problems_) {
    lines.push_back(name + ": " + std::to_string(entry.first) + (entry.first == 1 ? " call" : " calls") + " not run (" +
                    entry.second + ")");
  }
  return lines;
}

Executor::Context* Executor::Current(const Thread& thread) { return thread.current; }

int Executor::CurrentVersion(uint32_t thread) {
  const Context* context = Current(ThreadOf(thread));
  return context ? context->version : 0;
}

bool Executor::DrawsIntoSurface(uint32_t thread) {
  if (CurrentVersion(thread) < 2) return false;
  GLint framebuffer = -1;
  driver_.Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)(GL_FRAMEBUFFER_BINDING, &framebuffer);
  return framebuffer == 0;
}

uint64_t Executor::StreamName(uint32_t thread, ObjectClass object, uint64_t host) {
  Context* context = Current(ThreadOf(thread));
  if (context == nullptr || object == ObjectClass::kNone || IsEglHandle(object)) return host;
  return context->NamesOf(object).ToStream(host);
}

std::vector<std::pair<uint64_t, uint64_t>> Executor::LiveNames(uint32_t thread, ObjectClass object) {
  std::vector<std::pair<uint64_t, uint64_t>> names;
  Context* context = Current(ThreadOf(thread));
  if (context == nullptr || object == ObjectClass::kNone || object == ObjectClass::kUniformLocation ||
      (IsEglHandle(object) && object != ObjectClass::kGlSync)) {
    return names;
  }
  const NameMap& map = object == ObjectClass::kGlSync ? context->shared->names[static_cast<int>(object)]
                                                      : context->NamesOf(object);
  map.ForEach([&names](uint64_t recorded, uint64_t host) { names.emplace_back(recorded, host); });
  std::sort(names.begin(), names.end());
  return names;
}

int64_t Executor::RecordedLocation(uint32_t thread, uint64_t program, int64_t host_location) {
  Context* context = Current(ThreadOf(thread));
  if (context == nullptr) return host_location;
  auto per_program = context->shared->uniform_locations.find(program);
  if (per_program == context->shared->uniform_locations.end()) return host_location;
  int64_t found = host_location;
  bool seen = false;
  per_program->second.ForEach([&](int64_t recorded, int64_t host) {
    if (host == host_location && !seen) found = recorded, seen = true;
  });
  return found;
}

uint64_t Executor::ClientArrayAddress(uint32_t thread, uint32_t attribute) {
  Context* context = Current(ThreadOf(thread));
  if (context == nullptr) return 0;
  auto it = context->client_arrays.find(attribute);
  return it == context->client_arrays.end() ? 0 : it->second.pointer;
}

Executor::Thread& Executor::AnotherThread(uint32_t id) {
  last_thread_ = &threads_[id];
  last_thread_id_ = id;
  last_thread_->draws_limited = draw_vertex_limit_ != UINT64_MAX;
  return *last_thread_;
}

void Executor::SetDrawLimit(uint64_t max_vertices) {
  draw_vertex_limit_ = max_vertices;
  for (auto& [id, thread] : threads_) thread.draws_limited = max_vertices != UINT64_MAX;
}

uint64_t Executor::MappedToHost(const Thread& thread, ObjectClass object, uint64_t recorded, uint64_t program_hint) {
  if (object == ObjectClass::kEglDisplay) return reinterpret_cast<uint64_t>(HostDisplay());
  if (object == ObjectClass::kEglSurface) return reinterpret_cast<uint64_t>(HostSurface(recorded));
  if (object == ObjectClass::kEglConfig) return recorded ? reinterpret_cast<uint64_t>(HostConfig(recorded, 2)) : 0;
  if (IsEglHandle(object) || object == ObjectClass::kGlSync) {
    // A handle value from the traced process must never reach the driver.
    NameMap& names = object == ObjectClass::kGlSync && Current(thread)
                         ? Current(thread)->shared->names[static_cast<int>(object)]
                         : egl_names_[static_cast<int>(object)];
    return names.Knows(recorded) ? names.ToHost(recorded) : 0;
  }
  Context* context = Current(thread);
  if (context == nullptr) return recorded;
  if (object == ObjectClass::kUniformLocation) {
    uint64_t program = program_hint ? program_hint : context->program;
    auto per_program = context->shared->uniform_locations.find(program);
    if (per_program == context->shared->uniform_locations.end()) return recorded;
    return static_cast<uint64_t>(per_program->second.ToHost(static_cast<int64_t>(recorded)));
  }
  NameMap& names = context->NamesOf(object);
  return names.ToHost(recorded);
}

void Executor::AddName(const Thread& thread, ObjectClass object, uint64_t recorded, uint64_t host,
                       uint64_t program_hint) {
  if (object == ObjectClass::kNone || object == ObjectClass::kEglDisplay) return;
  if (object == ObjectClass::kEglSurface) {
    Surface& surface = recorded_surfaces_[recorded];
    surface.host = reinterpret_cast<EGLSurface>(host);
    return;
  }
  Context* context = Current(thread);
  if (object == ObjectClass::kGlSync && context) {
    context->shared->names[static_cast<int>(object)].Add(recorded, host);
    return;
  }
  if (IsEglHandle(object) || object == ObjectClass::kGlSync) {
    egl_names_[static_cast<int>(object)].Add(recorded, host);
    return;
  }
  if (context == nullptr) return;
  if (object == ObjectClass::kUniformLocation) {
    if (static_cast<int64_t>(recorded) < 0) return;  // -1: no such uniform
    uint64_t program = program_hint ? program_hint : context->program;
    auto [table, made] = context->shared->uniform_locations.try_emplace(program);
    if (made) ForgetLocationTables(*context->shared);
    table->second.Add(static_cast<int64_t>(recorded), static_cast<int64_t>(host));
    return;
  }
  NameMap& names = context->NamesOf(object);
  names.Add(recorded, host);
}

void Executor::RemoveName(const Thread& thread, ObjectClass object, uint64_t recorded) {
  if (object == ObjectClass::kEglSurface) {
    recorded_surfaces_.erase(recorded);
    return;
  }
  if (object == ObjectClass::kEglContext) {
    egl_names_[static_cast<int>(object)].Remove(recorded);
    // The Context entry stays: another thread may still have it current.
    if (auto it = contexts_.find(recorded); it != contexts_.end()) it->second->host = EGL_NO_CONTEXT;
    return;
  }
  Context* context = Current(thread);
  if (object == ObjectClass::kGlSync && context) {
    context->shared->names[static_cast<int>(object)].Remove(recorded);
    return;
  }
  if (IsEglHandle(object) || object == ObjectClass::kGlSync) {
    egl_names_[static_cast<int>(object)].Remove(recorded);
    return;
  }
  if (context == nullptr || object == ObjectClass::kUniformLocation || object == ObjectClass::kNone) return;
  NameMap& names = context->NamesOf(object);
  names.Remove(recorded);
  if (object == ObjectClass::kProgram && context->shared->uniform_locations.erase(recorded) != 0) {
    ForgetLocationTables(*context->shared);
  }
}

namespace {

uint64_t ReadName(const uint8_t* p, size_t bytes) {
  if (bytes == sizeof(uint32_t)) {
    uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

void WriteName(uint8_t* p, size_t bytes, uint64_t value) {
  if (bytes == sizeof(uint32_t)) {
    uint32_t v = static_cast<uint32_t>(value);
    std::memcpy(p, &v, sizeof v);
  } else {
    std::memcpy(p, &value, sizeof value);
  }
}

// What the executor asks of every call, worked out once per function from
// its traits (api/function_traits.txt) and the replay table.
struct SlotTraits {
  bool reads_client_arrays = false;  // a draw that may read client-side arrays
  bool index_arrays = false;         // a multi-draw whose index arrays may be app memory
  int program_param = -1;     // the parameter naming a program (uniform locations are per program)
  bool uses_locations = false;
  bool data_pointers = false;  // has a parameter whose bytes travel (only those are checked and sized)
  bool names_objects = false;  // makes or deletes object names the executor maps
  bool client_array = false;   // points a client-side array, or sets an attribute's divisor
  bool changes_vertex_arrays = false;
  // Calls the storage budget counts (WithinStorageBudget), and calls that
  // map, unmap or bind what the executor follows (TrackMapping,
  // TrackBindings): by trait, a superset of those functions' cases, so that
  // the other calls skip them.
  bool counts_storage = false;
  bool tracks_state = false;
};

std::vector<SlotTraits> WorkOutTraits() {
  using api::ObjectClass;
  std::vector<SlotTraits> all(api::kFunctionCount);
  for (int s = 0; s < api::kFunctionCount; ++s) {
    const api::FunctionTraits& facts = api::kTraits[s];
    SlotTraits& traits = all[s];
    traits.reads_client_arrays = (facts.flags & api::kReadsClientArrays) != 0;
    traits.index_arrays = facts.draw == api::DrawKind::kElements && (facts.draw_flags & api::kDrawMulti);
    const api::ReplayFunction& replay = api::kReplay[s];
    traits.uses_locations = replay.result == ObjectClass::kUniformLocation;
    traits.names_objects = replay.result != ObjectClass::kNone;
    for (int i = 0; i < api::kFunctions[s].param_count; ++i) {
      const api::ReplayParam& param = replay.params[i];
      if (param.object == ObjectClass::kProgram && traits.program_param < 0) traits.program_param = i;
      traits.uses_locations |= param.object == ObjectClass::kUniformLocation;
      traits.data_pointers |= stream::IsDataPointer(api::kFunctions[s].params[i].kind);
      traits.names_objects |= param.object != ObjectClass::kNone &&
                              (param.role == NameRole::kCreate || param.role == NameRole::kDelete);
      traits.client_array |= param.client_array;
    }
    traits.client_array |= facts.client_array == api::ClientArrayOp::kDivisor;
    traits.changes_vertex_arrays = (facts.flags & api::kChangesVertexArrays) != 0;
    const auto deletes = facts.deletes;
    traits.counts_storage = facts.storage != ObjectClass::kNone || deletes == ObjectClass::kBuffer ||
                            deletes == ObjectClass::kTexture || deletes == ObjectClass::kRenderbuffer;
    traits.tracks_state = facts.mapping == api::Mapping::kMap || facts.mapping == api::Mapping::kUnmap ||
                          facts.storage == ObjectClass::kBuffer || facts.binds == ObjectClass::kBuffer || facts.binds == ObjectClass::kVertexArray ||
                          facts.binds == ObjectClass::kProgram || deletes == ObjectClass::kBuffer ||
                          deletes == ObjectClass::kVertexArray ||
                          facts.client_array == api::ClientArrayOp::kClientTexture;
  }
  return all;
}

// Filled before main (the registry's tables are constants): no guard on the per-call path.
const std::vector<SlotTraits> kTraits = WorkOutTraits();

const SlotTraits& TraitsOf(int slot) { return kTraits[slot]; }

// The recorded program a call names, for uniform locations (glProgramUniform*).
uint64_t ProgramOf(const stream::DecodedCall& call) {
  int param = TraitsOf(call.slot).program_param;
  return param >= 0 ? call.args[param].u : 0;
}

}  // namespace

int64_t Executor::FindLocations(Context& context, int64_t recorded) {
  auto table = context.shared->uniform_locations.find(context.program);
  context.locations = table == context.shared->uniform_locations.end() ? nullptr : &table->second;
  context.locations_program = context.program;
  return context.MappedLocation(recorded);
}

void Executor::ForgetLocationTables(const ShareGroup& group) {
  const auto forget = [&](Context& context) {
    if (context.shared.get() == &group) context.locations_program = UINT64_MAX;
  };
  for (auto& [handle, context] : contexts_) forget(*context);
  for (auto& context : replaced_contexts_) forget(*context);
}

__attribute__((hot)) bool Executor::FastDrawReady(Thread& thread) {
  Context* context = thread.current;
  // Client memory to put in place, arrays to check, GLES 1's named arrays, a draw limit: Execute's.
  if (context == nullptr || context->version < 2 || !thread.memory.empty() || !thread.applied_arrays.empty() ||
      thread.draws_limited ||
      (!context->client_arrays.empty() && context->vertex_array == 0) || context->has_vertex_array_objects < 0) {
    return false;
  }
  if (context->vertex_array_bound < 0) {
    GLint bound = 0;  // without vertex array objects, the default one is always bound
    if (context->has_vertex_array_objects) {
      driver_.Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)(GL_VERTEX_ARRAY_BINDING, &bound);
    }
    context->vertex_array_bound = bound;
  }
  const auto& known = context->arrays_in_buffers;
  return std::find(known.begin(), known.end(), static_cast<uint32_t>(context->vertex_array_bound)) != known.end();
}

bool Executor::BuildArguments(const stream::DecodedCall& call, Thread& thread, std::vector<Word>* args,
                              std::vector<size_t>* capacity) {
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  const api::FunctionCodec& codec = api::kCodec[call.slot];
  const api::ReplayFunction& replay = api::kReplay[call.slot];
  const uint64_t program = ProgramOf(call);
  // Every word up to param_count is set below; the vector only grows, so
  // that a call with more parameters than the last costs no zero-filling.
  if (args->size() < info.param_count) args->resize(info.param_count);
  Word* const words = args->data();
  const stream::DecodedValue* const values = call.args.data();
  // String lists' lengths, set once every other word is (a lengths
  // parameter may come after its strings); GLES has one list a call at most.
  std::pair<int, GLint*> string_lengths[2];
  int string_length_count = 0;
  for (int i = 0; i < info.param_count; ++i) {
    const stream::DecodedValue& v = values[i];
    const api::ReplayParam& rp = replay.params[i];
    Word& w = words[i];
    switch (v.kind) {
      case ArgKind::kInt:
        w.i = static_cast<int64_t>(ToHost(thread, rp.object, static_cast<uint64_t>(v.i), program));
        continue;
      case ArgKind::kFloat:
      case ArgKind::kDouble:
        w.f = v.f;
        continue;
      case ArgKind::kPointer:
      case ArgKind::kString:
        break;
      default:
        if (rp.named_by_type >= 0) {
          // An object whose kind another argument gives (glObjectLabel's identifier).
          w.u = ToHost(thread, api::ObjectClassOfType(static_cast<uint32_t>(values[rp.named_by_type].u)), v.u, program);
          continue;
        }
        w.u = ToHost(thread, rp.object, v.u, program);
        continue;
    }
    // A pointer: what it points at comes from the record.
    const Capture capture = codec.captures ? codec.captures[i] : Capture::kNone;
    const size_t name_bytes = NameBytes(rp.object);
    switch (capture) {
      case Capture::kIn:
        if (!v.has_in) {
          // An offset into a bound buffer, checked with the others below; else nothing.
          w.p = rp.offset_without_data ? reinterpret_cast<void*>(v.u) : nullptr;
        } else if (rp.size_reads_data) {
          w.p = ScanSafeCopy(v.in);
        } else if (rp.object != ObjectClass::kNone) {
          uint8_t* names = scratch_.Get(v.in.size() + 1);
          for (size_t at = 0; at + name_bytes <= v.in.size(); at += name_bytes) {
            WriteName(names + at, name_bytes, ToHost(thread, rp.object, ReadName(v.in.data() + at, name_bytes), program));
          }
          w.p = names;
        } else if (v.kind == ArgKind::kString) {
          uint8_t* text = scratch_.Get(v.in.size() + 1);  // NUL-terminated whatever was recorded
          std::memcpy(text, v.in.data(), v.in.size());
          text[v.in.size()] = 0;
          w.p = text;
        } else {
          w.p = v.in.empty() ? scratch_.Get(1) : const_cast<uint8_t*>(v.in.data());
        }
        break;
      case Capture::kInOut:
      case Capture::kOut:
        // Output buffers are made once their size is known (CheckBlobsAndSizeOutputs).
        w.p = v.u != 0 ? reinterpret_cast<void*>(v.u) : nullptr;
        break;
      case Capture::kStringsIn: {
        if (!v.has_in) break;
        bool ok = false;
        std::vector<std::string_view> strings = stream::DecodeStrings(v.in, &ok);
        if (!ok) {
          Problem(call, "its strings are damaged");
          return false;
        }
        auto** pointers = reinterpret_cast<char**>(scratch_.Get(sizeof(char*) * (strings.size() + 1)));
        auto* lengths = reinterpret_cast<GLint*>(scratch_.Get(sizeof(GLint) * (strings.size() + 1)));
        for (size_t s = 0; s < strings.size(); ++s) {
          char* copy = reinterpret_cast<char*>(scratch_.Get(strings[s].size() + 1));
          std::memcpy(copy, strings[s].data(), strings[s].size());
          copy[strings[s].size()] = 0;
          pointers[s] = copy;
          lengths[s] = static_cast<GLint>(strings[s].size());
        }
        w.p = pointers;
        // The copies are NUL-terminated and their lengths are ours, whatever the record said.
        if (rp.string_lengths >= 0) {
          if (string_length_count == static_cast<int>(std::size(string_lengths))) {
            Problem(call, "it passes more string lists than the executor handles");
            return false;
          }
          string_lengths[string_length_count++] = {rp.string_lengths, lengths};
        }
        break;
      }
      case Capture::kNone:
        if (rp.object != ObjectClass::kNone) {
          w.u = ToHost(thread, rp.object, v.u, program);  // an object passed as a pointer (a sync)
        } else if (rp.client_array || rp.offset_without_data) {
          w.u = v.u;
        } else if (!codec.covered && v.u != 0) {
          Problem(call, std::string("its parameter '") + info.params[i].name + "' has no capture rule");
          return false;
        } else {
          w.p = nullptr;
        }
        break;
    }
  }
  for (int s = 0; s < string_length_count; ++s) words[string_lengths[s].first].p = string_lengths[s].second;
  // Most calls pass scalars only: nothing to check, no output to size.
  if (!TraitsOf(call.slot).data_pointers) return true;
  return CheckBlobsAndSizeOutputs(call, thread, *args, capacity);
}

// A range draw's start and end only promise where its indices lie, and
// llvmpipe reads vertices by the promise: a stream that breaks it (damaged
// or hostile) would have it read outside the arrays. The same draw without
// the range cannot be misled so, and draws the same.
bool Executor::RunWithoutRange(int slot, const Word* args) {
  const api::DrawParams& p = api::kTraits[slot].draw_params;
  const bool base_vertex = api::kTraits[slot].draw_flags & api::kDrawBaseVertex;
  const int plain = base_vertex ? api::glDrawElementsBaseVertex : api::glDrawElements;
  void* const function = driver_.Function(plain);
  if (function == nullptr) return false;
  const Word without[5] = {args[0], args[p.count], args[p.type], args[p.indices], base_vertex ? args[p.base_vertex] : Word{}};
  Word unused{};
  kInvokers[plain](function, without, &unused);
  return true;
}

bool Executor::RunGeneric(const stream::DecodedCall& call, Thread& thread, Word* result, CallReply* reply) {
  std::vector<Word>& args = generic_args_;
  if (!BuildArguments(call, thread, &args, &generic_capacity_)) return false;
  const SlotTraits& traits = TraitsOf(call.slot);
  if (traits.index_arrays && !ResolveIndexArrays(call, thread, args)) return false;
  if (storage_ && traits.counts_storage && !WithinStorageBudget(call, thread, args)) return false;
  if (traits.client_array) TrackPointerCall(call, thread, args);
  if (!(api::kTraits[call.slot].draw_flags & api::kDrawRange) || !RunWithoutRange(call.slot, args.data())) {
    kInvokers[call.slot](driver_.Function(call.slot), args.data(), result);
  }

  if (traits.names_objects) MapNamesMade(call, thread, args, *result);
  if (traits.tracks_state) TrackMapping(call, thread, *result);
  if (reply && traits.data_pointers) ReplyOutputs(call, thread, args, generic_capacity_, reply);
  return true;
}

void Executor::MapNamesMade(const stream::DecodedCall& call, const Thread& thread, const std::vector<Word>& args,
                            const Word& result) {
  const api::ReplayFunction& replay = api::kReplay[call.slot];
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  const uint64_t program = ProgramOf(call);
  if (replay.result != ObjectClass::kNone && call.has_reply) {
    uint64_t recorded = call.result.kind == ArgKind::kInt ? static_cast<uint64_t>(call.result.i) : call.result.u;
    uint64_t host = info.return_kind == ArgKind::kInt ? static_cast<uint64_t>(result.i) : result.u;
    if (recorded != 0 || replay.result == ObjectClass::kUniformLocation) {
      AddName(thread, replay.result, recorded, host, program);
    }
  }
  for (int i = 0; i < info.param_count; ++i) {
    const api::ReplayParam& rp = replay.params[i];
    const stream::DecodedValue& v = call.args[i];
    if (rp.object == ObjectClass::kNone) continue;
    const size_t name_bytes = NameBytes(rp.object);
    if (rp.role == NameRole::kCreate && v.has_out && args[i].p != nullptr) {
      const uint8_t* host = static_cast<const uint8_t*>(args[i].p);
      for (size_t at = 0; at + name_bytes <= v.out.size(); at += name_bytes) {
        AddName(thread, rp.object, ReadName(v.out.data() + at, name_bytes), ReadName(host + at, name_bytes), program);
      }
    } else if (rp.role == NameRole::kDelete) {
      if (v.kind == ArgKind::kPointer) {
        for (size_t at = 0; v.has_in && at + name_bytes <= v.in.size(); at += name_bytes) {
          RemoveName(thread, rp.object, ReadName(v.in.data() + at, name_bytes));
        }
      } else {
        RemoveName(thread, rp.object, v.u);
      }
    }
  }
}

bool Executor::Execute(const stream::DecodedCall& call, CallReply* reply) {
  if (call.slot < 0) return false;
  Thread& thread = ThreadOf(static_cast<uint32_t>(call.thread));
  thread.stream_context = call.context;
  const api::ReplayFunction& replay = api::kReplay[call.slot];
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  scratch_.used = 0;
  if (reply) {
    reply->result = stream::DecodedValue{};
    reply->result.kind = info.return_kind;
    reply->outputs.assign(info.param_count, stream::DecodedValue{});
    reply->egl_error = EGL_SUCCESS;
    reply->mapped = {};
  }
  // Entry points are the host's own business: the stream names functions, not addresses.
  if (call.slot == api::eglGetProcAddress) return true;
  if (!replay.runnable) {
    Problem(call, api::kNotRunnableReason);
    return false;
  }
  if (driver_.Function(call.slot) == nullptr) {
    Problem(call, "the host driver does not have it");
    return false;
  }
  // A multi-draw's counts are an array (not bounded here); a draw's are scalars.
  if (const api::DrawParams& draw = api::kTraits[call.slot].draw_params;
      draw.count >= 0 && (api::kTraits[call.slot].draw_flags & api::kDrawMulti) == 0 &&
      call.args.size() > static_cast<size_t>(std::max(draw.count, draw.instances))) {
    // As the driver gets them (GLsizei).
    const int64_t count = static_cast<int32_t>(call.args[draw.count].i);
    const int64_t instances = draw.instances >= 0 ? static_cast<int32_t>(call.args[draw.instances].i) : 1;
    if (!DrawWithinLimit(count, instances)) {
      Problem(call, "a draw of " + std::to_string(count) + (count == 1 ? " vertex" : " vertices") + " times " +
                        std::to_string(instances) + " instances, past the executor's draw limit of " +
                        std::to_string(draw_vertex_limit_) + " vertices");
      return false;
    }
  }
  // A buffer range whose end passes INT64_MAX (byte-ranges=): drivers add
  // offset and size unchecked, and the wrapped sum passes their bound check.
  // The GL answers GL_INVALID_VALUE for a range past the buffer's end.
  for (const auto& range : api::kTraits[call.slot].byte_ranges) {
    if (range[0] < 0 || call.args.size() <= static_cast<size_t>(std::max(range[0], range[1]))) break;
    if (api::RangeEndOverflows(call.args[range[0]].i, call.args[range[1]].i)) {
      if (thread.current != nullptr) thread.current->refused_error = GL_INVALID_VALUE;
      Problem(call, std::string("its byte range at '") + info.params[range[0]].name + "' ends past the largest " +
                        "offset there is: GL_INVALID_VALUE");
      return false;
    }
  }
  Word result{};
  bool ok = true;
  if (info.is_egl) {
    bool handled = false;
    ok = ExecuteEgl(call, thread, &handled, &result, reply);
    if (!handled) ok = RunGeneric(call, thread, &result, reply);
    // A call the executor failed itself (ExecuteEgl) left the host's error alone.
    const int32_t refused = std::exchange(thread.refused_egl_error, 0);
    if (reply) {
      // eglGetError answers for the call before it: the executor took that error already.
      if (call.slot == api::eglGetError) result.i = std::exchange(thread.egl_error, EGL_SUCCESS);
      else thread.egl_error = refused != 0 ? refused : driver_.Get<PFNEGLGETERRORPROC>(api::eglGetError)();
      reply->egl_error = thread.egl_error;
    }
  } else {
    const bool draw = TraitsOf(call.slot).reads_client_arrays;
    if (draw) {
      ApplyClientArrays(call, thread);
      if (!ClientArraysCovered(call, thread)) {
        thread.memory.clear();
        return false;
      }
    }
    if (call.slot == api::glGetError && thread.current != nullptr && thread.current->refused_error != 0) {
      // The error of a call the executor refused comes first, as the driver would have raised it.
      result.u = std::exchange(thread.current->refused_error, 0u);
    } else {
      ok = RunGeneric(call, thread, &result, reply);
    }
    if (ok) {
      const SlotTraits& traits = TraitsOf(call.slot);
      if (traits.tracks_state) TrackBindings(call, thread);
      if (traits.changes_vertex_arrays && thread.current) thread.current->arrays_in_buffers.clear();
    }
    if (draw) thread.memory.clear();
  }
  if (ok && reply) ReplyResult(call, thread, result, reply);
  if (ok && reply && api::HasTrait(call.slot, api::kWaitsForGpu)) {
    reply->mapped = MappedReads(thread);
  }
  return ok;
}

}  // namespace strata::host
