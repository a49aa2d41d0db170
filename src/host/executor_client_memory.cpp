// App memory that GL reads after the call that names it: client-side vertex
// arrays (their bytes arrive in memory records before each draw) and mapped
// buffers (what the app wrote arrives before flush/unmap). Also the few
// bindings this needs, per context.
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "common/gl_bindings.h"
#include "common/vertex_formats.h"
#include "host/executor.h"
#include "stream/capture_sizes.h"
#include "stream/client_arrays.h"
#include "strata/api/replay.h"

namespace strata::host {

namespace {

int ParamIndex(int slot, const char* name) {
  const api::FunctionInfo& info = api::kFunctions[slot];
  for (int i = 0; i < info.param_count; ++i) {
    if (std::strcmp(info.params[i].name, name) == 0) return i;
  }
  return -1;
}

// The vertices a draw reads, lowest and highest, from its arguments or its
// index blob; `highest` is -1 when they do not say (indices in a buffer,
// instances, indirect draws).
void VertexRange(const stream::DecodedCall& call, int64_t* lowest, int64_t* highest) {
  *lowest = 0;
  *highest = -1;
  const std::string_view name = call.name;
  const bool instanced = name.find("Instanced") != std::string_view::npos || name.find("Indirect") != std::string_view::npos;
  int first = ParamIndex(call.slot, "first"), count = ParamIndex(call.slot, "count");
  if (first >= 0) {
    *lowest = call.args[first].i;
    if (count >= 0 && !instanced && call.args[count].i > 0) *highest = *lowest + call.args[count].i - 1;
    return;
  }
  int indices = ParamIndex(call.slot, "indices"), type = ParamIndex(call.slot, "type");
  if (indices < 0 || type < 0 || !call.args[indices].has_in) return;
  const auto& bytes = call.args[indices].in;
  const GLenum index_type = static_cast<GLenum>(call.args[type].u);
  const size_t index_size = capture::CaptureSizes::index_bytes(1, index_type);
  if (index_size == 0 || count < 0 || call.args[count].i <= 0) return;
  const size_t indices_read = std::min(static_cast<size_t>(call.args[count].i), bytes.size() / index_size);
  uint32_t low = 0, high = 0;
  if (!capture::IndexBounds(bytes.data(), indices_read, index_type, &low, &high)) return;
  int base = ParamIndex(call.slot, "basevertex");
  const int64_t offset = base >= 0 ? call.args[base].i : 0;
  *lowest = low + offset;
  if (!instanced) *highest = high + offset;
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
  if (pointer < 0 || context == nullptr) return;
  // Which array: the attribute index, or for GLES 1 the named array (and texture unit).
  int index_param = ParamIndex(call.slot, "index");
  uint64_t key = index_param >= 0 ? call.args[index_param].u : Gles1ArrayKey(call.slot, context->client_texture);
  if (context->vertex_array != 0 || context->array_buffer != 0 || call.args[pointer].u == 0) {
    context->client_arrays.erase(key);
    return;
  }
  int size_param = ParamIndex(call.slot, "size"), type_param = ParamIndex(call.slot, "type");
  int stride_param = ParamIndex(call.slot, "stride");
  uint64_t components = size_param >= 0 ? call.args[size_param].u : 3;
  uint64_t element = type_param >= 0 ? VertexAttribBytes(static_cast<uint32_t>(call.args[type_param].u), static_cast<int64_t>(components)) : 4;
  uint64_t stride = stride_param >= 0 && call.args[stride_param].i > 0 ? call.args[stride_param].u : element;
  context->client_arrays[key] = ClientArray{call.slot, args, pointer, call.args[pointer].u, stride, element};
}

void Executor::ApplyClientArrays(const stream::DecodedCall& call, Thread& thread) {
  thread.applied_arrays.clear();
  Context* context = Current(thread);
  if (context == nullptr || context->client_arrays.empty() || context->vertex_array != 0) return;
  int64_t first = 0, last = -1;
  VertexRange(call, &first, &last);
  auto bind_buffer = driver_.Get<PFNGLBINDBUFFERPROC>(api::glBindBuffer);
  auto client_active_texture = driver_.Get<void (*)(GLenum)>(api::glClientActiveTexture);
  if (context->array_buffer != 0) bind_buffer(GL_ARRAY_BUFFER, 0);
  for (auto& [key, array] : context->client_arrays) {
    // The memory record holding the vertices this draw starts at; else one holding the array's start.
    uint64_t start = array.pointer + static_cast<uint64_t>(std::max<int64_t>(first, 0)) * array.stride;
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
    if (last >= 0) {
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
  const GLenum binding = BufferBindingOf(target);
  if (context == nullptr || binding == 0 || (context->version < 3 && BufferBindingNeedsGles3(binding))) return 0;
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

// TrackMapping and TrackBindings run only for calls whose name
// SlotTraits::tracks_state (executor.cpp) lists: a function added to either
// must match one of its prefixes.
void Executor::TrackMapping(const stream::DecodedCall& call, Thread& thread, const Word& result) {
  Context* context = Current(thread);
  if (context == nullptr) return;
  const uint32_t target = static_cast<uint32_t>(call.args[0].u);
  switch (call.slot) {
    case api::glMapBufferRange:
    case api::glMapBufferRangeEXT:
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
    case api::glUnmapBufferOES:
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
  switch (call.slot) {
    case api::glBindBuffer:
      if (call.args[0].u == GL_ARRAY_BUFFER) context->array_buffer = call.args[1].u;
      break;
    case api::glBindVertexArray:
    case api::glBindVertexArrayOES:
      context->vertex_array = call.args[0].u;
      break;
    case api::glDeleteBuffers:
      forget(&context->array_buffer);
      break;
    case api::glDeleteVertexArrays:
    case api::glDeleteVertexArraysOES:
      forget(&context->vertex_array);
      break;
    case api::glUseProgram:
      context->program = call.args[0].u;
      break;
    case api::glClientActiveTexture:
      context->client_texture = static_cast<uint32_t>(call.args[0].u - GL_TEXTURE0);
      break;
    default:
      break;
  }
}

}  // namespace strata::host
