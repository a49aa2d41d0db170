// App memory that GL reads after the call that names it: client-side vertex
// arrays (their bytes arrive in memory records before each draw) and mapped
// buffers (what the app wrote arrives before flush/unmap). Also the few
// bindings this needs, per context.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "common/vertex_formats.h"
#include "host/executor.h"
#include "stream/capture_sizes.h"
#include "stream/client_arrays.h"
#include "strata/api/parameters.h"
#include "strata/api/replay.h"
#include "strata/api/traits.h"

namespace strata::host {

namespace {

// A multi-draw of indices: its index arrays may lie in app memory.
bool MultiIndexed(int slot) {
  const api::FunctionTraits& traits = api::kTraits[slot];
  return traits.draw == api::DrawKind::kElements && (traits.draw_flags & api::kDrawMulti) != 0;
}

// `count` values of T from a recorded array (a multi-draw's firsts, counts
// or base vertices), or none when the record holds fewer.
template <typename T>
std::vector<T> RecordedValues(const stream::DecodedValue& v, int64_t count) {
  std::vector<T> values;
  if (!v.has_in || count <= 0 || v.in.size() / sizeof(T) < static_cast<uint64_t>(count)) return values;
  values.resize(static_cast<size_t>(count));
  std::memcpy(values.data(), v.in.data(), values.size() * sizeof(T));
  return values;
}

// The bounds of a draw's indices: those the stream sent (in the call's
// record, or in the thread's memory records), or, as offsets into the
// host's bound element buffer, read by mapping it (GLES 3, as the tracer
// found them).
class DrawnIndices final : public capture::IndexReader {
 public:
  DrawnIndices(const HostDriver& driver, bool in_buffer) : driver_(driver), in_buffer_(in_buffer) {}
  bool Bounds(const void* indices, GLsizei count, GLenum type, uint32_t* lowest, uint32_t* highest) override {
    if (count <= 0) return false;
    if (!in_buffer_) return capture::IndexBounds(indices, static_cast<size_t>(count), type, lowest, highest);
    const size_t size = capture::CaptureSizes::index_bytes(count, type);
    if (size == 0) return false;
    void* mapped = driver_.Get<PFNGLMAPBUFFERRANGEPROC>(api::glMapBufferRange)(
        GL_ELEMENT_ARRAY_BUFFER, reinterpret_cast<GLintptr>(indices), static_cast<GLsizeiptr>(size), GL_MAP_READ_BIT);
    if (mapped == nullptr) return false;
    const bool found = capture::IndexBounds(mapped, static_cast<size_t>(count), type, lowest, highest);
    driver_.Get<PFNGLUNMAPBUFFERPROC>(api::glUnmapBuffer)(GL_ELEMENT_ARRAY_BUFFER);
    return found;
  }

 private:
  const HostDriver& driver_;
  bool in_buffer_;
};

// The vertices a draw reads, lowest and highest, from its arguments and its
// indices (`index_arrays`: a multi-draw's, where they lie in memory records
// or as offsets into the element buffer), by its draw trait's parts;
// `highest` is -1 when they do not say (instances).
void VertexRange(const stream::DecodedCall& call, const std::vector<const void*>& index_arrays,
                 capture::IndexReader& reader, int64_t* lowest, int64_t* highest) {
  *lowest = 0;
  *highest = -1;
  const api::FunctionTraits& traits = api::kTraits[call.slot];
  const api::DrawParams& p = traits.draw_params;
  const bool instanced = (traits.draw_flags & api::kDrawInstanced) != 0;
  capture::DrawCall draw;
  GLint first = 0, base = 0;
  GLsizei count = 0;
  const void* indices = nullptr;
  std::vector<GLint> firsts, bases;
  std::vector<GLsizei> counts;
  if (p.type >= 0) draw.type = static_cast<GLenum>(call.args[p.type].u);
  if (traits.draw_flags & api::kDrawMulti) {
    const int64_t draws = call.args[p.draw_count].i;
    counts = RecordedValues<GLsizei>(call.args[p.count], draws);
    if (counts.empty()) return;
    draw.draws = static_cast<GLsizei>(draws);
    draw.counts = counts.data();
    if (p.first >= 0) {
      if ((firsts = RecordedValues<GLint>(call.args[p.first], draws)).empty()) return;
      draw.firsts = firsts.data();
    } else {
      if (index_arrays.size() != counts.size()) return;
      draw.indices = index_arrays.data();
    }
    if (p.base_vertex >= 0) {
      if ((bases = RecordedValues<GLint>(call.args[p.base_vertex], draws)).empty()) return;
      draw.base_vertices = bases.data();
    }
  } else if (p.first >= 0) {
    first = static_cast<GLint>(call.args[p.first].i);
    count = static_cast<GLsizei>(call.args[p.count].i);
    *lowest = first;
    draw.firsts = &first;
    draw.counts = &count;
  } else if (p.indices >= 0) {
    const stream::DecodedValue& v = call.args[p.indices];
    count = static_cast<GLsizei>(std::clamp<int64_t>(call.args[p.count].i, 0, INT32_MAX));
    indices = reinterpret_cast<const void*>(v.u);  // an offset into the element buffer
    if (v.has_in) {
      const size_t index_size = capture::CaptureSizes::index_bytes(1, draw.type);
      if (index_size == 0) return;
      count = static_cast<GLsizei>(std::min<uint64_t>(static_cast<uint64_t>(count), v.in.size() / index_size));
      indices = v.in.data();
    }
    draw.counts = &count;
    draw.indices = &indices;
    if (p.base_vertex >= 0) {
      base = static_cast<GLint>(call.args[p.base_vertex].i);
      draw.base_vertices = &base;
    }
  } else {
    return;
  }
  int64_t lo = 0, end = 0;
  if (!capture::VertexSpan(draw, reader, &lo, &end)) return;
  *lowest = lo;
  if (!instanced) *highest = end - 1;
}

// The key of a client array in Context::client_arrays: a generic
// attribute's index, or for GLES 1 the pointer function and texture unit.
uint64_t Gles1ArrayKey(int pointer_function, uint64_t unit) {
  return (1ull << 32) + static_cast<uint64_t>(pointer_function) * 64 +
         (pointer_function == api::glTexCoordPointer ? unit : 0);
}

}  // namespace

uint64_t Executor::Gles1ClientArrayAddress(uint32_t thread, api::Slot pointer_function, uint32_t unit) {
  Context* context = Current(ThreadOf(thread));
  if (context == nullptr) return 0;
  auto it = context->client_arrays.find(Gles1ArrayKey(pointer_function, unit));
  return it == context->client_arrays.end() ? 0 : it->second.pointer;
}

void Executor::TrackPointerCall(const stream::DecodedCall& call, Thread& thread, const std::vector<Word>& args) {
  // The parameter holding a client-side array, per function, found once.
  static const std::vector<int8_t> pointer_params = [] {
    std::vector<int8_t> params(api::kFunctionCount, -1);
    for (int s = 0; s < api::kFunctionCount; ++s) {
      for (int i = 0; i < api::kFunctions[s].param_count; ++i) {
        if (api::kReplay[s].params[i].client_array) params[s] = static_cast<int8_t>(i);
      }
    }
    return params;
  }();
  int pointer = pointer_params[call.slot];
  Context* context = Current(thread);
  if (context == nullptr) return;
  if (api::kTraits[call.slot].client_array == api::ClientArrayOp::kDivisor) {
    // (index, divisor) of vertex array 0: such an array's bytes are per instance, not per vertex.
    if (context->vertex_array != 0 || call.args.size() != 2) return;
    if (call.args[1].u != 0) context->divisors[call.args[0].u] = call.args[1].u;
    else context->divisors.erase(call.args[0].u);
    return;
  }
  if (pointer < 0) return;
  // Which array: the attribute index, or for GLES 1 the named array (and texture unit).
  int index_param = api::ParamIndexOf(call.slot, "index");
  uint64_t key = index_param >= 0 ? call.args[index_param].u : Gles1ArrayKey(call.slot, context->client_texture);
  if (context->vertex_array != 0 || context->array_buffer != 0 || call.args[pointer].u == 0) {
    context->client_arrays.erase(key);
    return;
  }
  // Size and stride are GLint and GLsizei: signed values. A GLES 1 array
  // whose function has no size has its trait's (normals 3, point sizes 1).
  int size_param = api::ParamIndexOf(call.slot, "size"), type_param = api::ParamIndexOf(call.slot, "type");
  int stride_param = api::ParamIndexOf(call.slot, "stride");
  const int64_t components = size_param >= 0 ? call.args[size_param].i : api::kTraits[call.slot].array_size;
  const uint64_t element =
      type_param >= 0 ? VertexAttribBytes(static_cast<uint32_t>(call.args[type_param].u), components) : 4;
  const uint64_t stride =
      stride_param >= 0 && call.args[stride_param].i > 0 ? static_cast<uint64_t>(call.args[stride_param].i) : element;
  context->client_arrays[key] = ClientArray{call.slot, args, pointer, call.args[pointer].u, stride, element};
}

void Executor::ApplyClientArrays(const stream::DecodedCall& call, Thread& thread) {
  thread.applied_arrays.clear();
  Context* context = Current(thread);
  if (context == nullptr || context->client_arrays.empty() || context->vertex_array != 0) return;
  // Indices in the host's element buffer are read from it in GLES 3 (where the tracer read them too).
  const bool in_buffer = HostBufferBound(thread, GL_ELEMENT_ARRAY_BUFFER_BINDING);
  std::vector<const void*> index_arrays;
  if (MultiIndexed(call.slot)) IndexArraysOf(call, thread, in_buffer, &index_arrays);
  DrawnIndices reader(driver_, in_buffer && context->version >= 3);
  int64_t first = 0, last = -1;
  if (!in_buffer || context->version >= 3) VertexRange(call, index_arrays, reader, &first, &last);
  auto bind_buffer = driver_.Get<PFNGLBINDBUFFERPROC>(api::glBindBuffer);
  auto client_active_texture = driver_.Get<void (*)(GLenum)>(api::glClientActiveTexture);
  if (context->array_buffer != 0) bind_buffer(GL_ARRAY_BUFFER, 0);
  for (auto& [key, array] : context->client_arrays) {
    // The memory record holding the vertices this draw starts at; else one
    // holding the array's start. An instanced array's reads are by instance,
    // from its start.
    const bool instanced = context->divisors.count(key) != 0;
    const int64_t from = instanced ? 0 : std::max<int64_t>(first, 0);
    uint64_t start = array.pointer + static_cast<uint64_t>(from) * array.stride;
    const Region* found = nullptr;
    for (const uint64_t wanted : {start, array.pointer}) {
      for (const Region& region : thread.memory) {
        if (wanted >= region.address && wanted < region.address + region.bytes.size()) found = &region;
      }
      if (found) break;
    }
    if (found == nullptr) continue;
    // GL only reads the range the draw uses, which the record must hold (ClientArraysCovered
    // refuses a draw whose enabled array was not given one).
    if (last >= 0 && !instanced) {
      const uint64_t end = array.pointer + static_cast<uint64_t>(last) * array.stride + array.element;
      if (end > found->address + found->bytes.size()) continue;
    }
    std::vector<Word> args = array.args;
    args[array.pointer_param].u = reinterpret_cast<uint64_t>(found->bytes.data()) + (array.pointer - found->address);
    thread.applied_arrays.push_back(args[array.pointer_param].u);
    uint32_t unit = static_cast<uint32_t>(key >> 32 ? key % 64 : 0);
    bool texture_array = array.slot == api::glTexCoordPointer;
    if (texture_array && unit != context->client_texture) client_active_texture(GL_TEXTURE0 + unit);
    kInvokers[array.slot](driver_.Function(array.slot), args.data(), nullptr);
    if (texture_array && unit != context->client_texture) client_active_texture(GL_TEXTURE0 + context->client_texture);
  }
  if (context->array_buffer != 0) {
    bind_buffer(GL_ARRAY_BUFFER, static_cast<GLuint>(ToHost(thread, api::ObjectClass::kBuffer, context->array_buffer, 0)));
  }
}

void Executor::IndexArraysOf(const stream::DecodedCall& call, const Thread& thread, bool in_buffer,
                             std::vector<const void*>* arrays) {
  arrays->clear();
  const api::DrawParams& p = api::kTraits[call.slot].draw_params;
  const int64_t draws = call.args[p.draw_count].i;
  const std::vector<GLsizei> counts = RecordedValues<GLsizei>(call.args[p.count], draws);
  const std::vector<uint64_t> pointers = RecordedValues<uint64_t>(call.args[p.indices], draws);
  if (counts.empty() || pointers.empty()) return;
  if (in_buffer) {
    for (uint64_t offset : pointers) arrays->push_back(reinterpret_cast<const void*>(offset));
    return;
  }
  const size_t index_size = capture::CaptureSizes::index_bytes(1, static_cast<GLenum>(call.args[p.type].u));
  arrays->assign(counts.size(), nullptr);
  for (size_t i = 0; i < counts.size() && index_size != 0; ++i) {
    if (counts[i] <= 0) continue;
    const uint64_t bytes = static_cast<uint64_t>(counts[i]) * index_size;
    for (const Region& region : thread.memory) {
      if (pointers[i] >= region.address && bytes <= region.bytes.size() &&
          pointers[i] - region.address <= region.bytes.size() - bytes) {
        (*arrays)[i] = region.bytes.data() + (pointers[i] - region.address);
      }
    }
  }
}

bool Executor::ResolveIndexArrays(const stream::DecodedCall& call, Thread& thread, std::vector<Word>& args) {
  // Offsets into the element buffer the driver checks against it.
  if (HostBufferBound(thread, GL_ELEMENT_ARRAY_BUFFER_BINDING)) return true;
  std::vector<const void*> arrays;
  IndexArraysOf(call, thread, false, &arrays);
  const api::DrawParams& p = api::kTraits[call.slot].draw_params;
  const std::vector<GLsizei> counts = RecordedValues<GLsizei>(call.args[p.count], call.args[p.draw_count].i);
  for (size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] > 0 && (i >= arrays.size() || arrays[i] == nullptr)) {
      Problem(call, "a client-side index array of the draw has no memory record holding its indices");
      return false;
    }
  }
  // Never an address the stream chose: where an array lies in no record, null (its draw draws nothing).
  auto* host = reinterpret_cast<const void**>(scratch_.Get(sizeof(void*) * (arrays.size() + 1)));
  std::copy(arrays.begin(), arrays.end(), host);
  args[p.indices].p = host;
  return true;
}

void Executor::WriteMemory(uint32_t thread_id, uint64_t address, std::span<const uint8_t> bytes) {
  Thread& thread = ThreadOf(thread_id);
  if (Context* context = Current(thread)) {
    for (auto& [buffer, range] : context->mapped) {
      if (address >= range.recorded && address + bytes.size() <= range.recorded + range.length) {
        std::memcpy(range.host + (address - range.recorded), bytes.data(), bytes.size());
        return;
      }
    }
  }
  thread.memory.push_back(Region{address, std::vector<uint8_t>(bytes.begin(), bytes.end())});
}

uint64_t Executor::BoundBuffer(const Thread& thread, uint32_t target) {
  Context* context = Current(thread);
  const GLenum binding = api::BufferBindingOf(target);
  if (context == nullptr || binding == 0 || (context->version < 3 && api::BufferBindingNeedsGles3(binding))) return 0;
  GLint host = 0;
  driver_.Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)(binding, &host);
  return host <= 0 ? 0 : context->NamesOf(api::ObjectClass::kBuffer).ToStream(static_cast<uint64_t>(host));
}

bool Executor::AnyMapping(const Context& context) const {
  for (const auto& [recorded, other] : contexts_) {
    if (other->shared == context.shared && !other->mapped.empty()) return true;
  }
  return false;
}

void Executor::ForgetMapping(const Context& context, uint64_t buffer) {
  for (auto& [recorded, other] : contexts_) {
    if (other->shared == context.shared) other->mapped.erase(buffer);
  }
}

// TrackMapping and TrackBindings run only for calls whose traits
// SlotTraits::tracks_state (executor.cpp) asks for: a function added to
// either must have one of them. By core function: an alias is its core.
void Executor::TrackMapping(const stream::DecodedCall& call, Thread& thread, const Word& result) {
  Context* context = Current(thread);
  if (context == nullptr) return;
  const uint32_t target = static_cast<uint32_t>(call.args[0].u);
  switch (api::CoreOf(call.slot)) {
    case api::glMapBufferRange:
      if (result.p != nullptr && call.has_reply) {
        context->mapped[BoundBuffer(thread, target)] =
            MappedRange{call.result.u, static_cast<uint8_t*>(result.p), static_cast<uint64_t>(call.args[2].i),
                        call.args[3].u};
      }
      break;
    case api::glMapBufferOES:
      if (result.p != nullptr && call.has_reply) {
        GLint size = 0;
        driver_.Get<PFNGLGETBUFFERPARAMETERIVPROC>(api::glGetBufferParameteriv)(target, GL_BUFFER_SIZE, &size);
        context->mapped[BoundBuffer(thread, target)] =
            MappedRange{call.result.u, static_cast<uint8_t*>(result.p), static_cast<uint64_t>(size), GL_MAP_WRITE_BIT};
      }
      break;
    case api::glUnmapBuffer:
      if (!context->mapped.empty()) context->mapped.erase(BoundBuffer(thread, target));
      break;
    // New storage for a buffer, or its deletion, unmaps it wherever it is
    // mapped: the host's mapping is gone, and no memory record may reach it.
    case api::glBufferData:
    case api::glBufferStorageEXT:
      if (AnyMapping(*context)) ForgetMapping(*context, BoundBuffer(thread, target));
      break;
    case api::glDeleteBuffers: {
      const auto& names = call.args[1];
      for (size_t at = 0; names.has_in && at + 4 <= names.in.size() && AnyMapping(*context); at += 4) {
        uint32_t name;
        std::memcpy(&name, names.in.data() + at, 4);
        ForgetMapping(*context, name);
      }
      break;
    }
    default:
      break;
  }
}

std::span<const uint8_t> Executor::MappedReads(const Thread& thread) {
  const Context* context = thread.current;
  if (context == nullptr) return {};
  size_t total = 0;
  // Mappings made for reading or kept persistently: drivers let apps read both.
  auto readable = [](const MappedRange& range) { return (range.access & (GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT_EXT)) != 0; };
  for (const auto& [buffer, range] : context->mapped) total += readable(range) ? range.length : 0;
  if (total == 0) return {};
  uint8_t* bytes = scratch_.Get(total);
  size_t at = 0;
  for (const auto& [buffer, range] : context->mapped) {
    if (!readable(range)) continue;
    std::memcpy(bytes + at, range.host, range.length);
    at += range.length;
  }
  return {bytes, total};
}

void Executor::TrackBindings(const stream::DecodedCall& call, Thread& thread) {
  Context* context = Current(thread);
  if (context == nullptr) return;
  auto forget = [&](uint64_t* binding) {
    const auto& names = call.args[1];
    for (size_t at = 0; names.has_in && at + 4 <= names.in.size(); at += 4) {
      uint32_t name;
      std::memcpy(&name, names.in.data() + at, 4);
      if (name == *binding) *binding = 0;
    }
  };
  const int core = api::CoreOf(call.slot);
  switch (core) {
    case api::glDeleteBuffers:
      forget(&context->array_buffer);
      break;
    case api::glDeleteVertexArrays:
      forget(&context->vertex_array);
      context->vertex_array_bound = -1;
      break;
    case api::glClientActiveTexture:
      context->client_texture = static_cast<uint32_t>(call.args[0].u - GL_TEXTURE0);
      break;
    default:
      if (!call.args.empty()) FollowBinding(*context, core, call.args[0].u, call.args.size() > 1 ? call.args[1].u : 0);
      break;
  }
}

}  // namespace strata::host
