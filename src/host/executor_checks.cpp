// What the executor checks before a call reaches the host driver: the stream
// is untrusted. Every blob must hold what the call's own arguments say the
// driver reads (the capture rules, through the generated sizers), output
// buffers are as large as the call may fill, a pointer taken as an offset
// needs a buffer really bound on the host, and a draw reads client-side
// arrays only from memory records.
#include <EGL/egl.h>
#include <GLES/gl.h>
#include <GLES/glext.h>
#include <GLES3/gl32.h>

#include <algorithm>
#include <cstring>

#include "host/executor.h"
#include "host/sizers.h"
#include "strata/api/codec.h"
#include "strata/api/parameters.h"
#include "strata/api/replay.h"
#include "strata/api/traits.h"

namespace strata::host {

using api::Capture;

namespace {

constexpr size_t kMinimumOutputBytes = 64;
constexpr size_t kMaximumOutputBytes = size_t{256} << 20;
// Sizes an output buffer when its rule cannot say (no rule: an uncovered extension).
constexpr size_t kUnknownOutputBytes = 64 * 1024;
// Padding after a scanned blob: whole EGL_NONE words at 16-byte alignment
// stop an EGLint or EGLAttrib list walk, and their zero bytes a strlen; the
// zero words after them a GL_NONE-terminated GLint list walk.
constexpr size_t kEglNoneStop = 32;
constexpr size_t kScanStop = kEglNoneStop + 16;

// Stands for an output buffer while its capacity is worked out: never written.
alignas(16) const uint8_t kPlaceholder[kMinimumOutputBytes] = {};

bool IsOutput(Capture capture) { return capture == Capture::kOut || capture == Capture::kInOut; }

const char* BindingName(uint32_t binding) {
  const char* name = api::GlEnumName(binding);
  return name ? name : "the buffer binding";
}

}  // namespace

uint8_t* Executor::ScanSafeCopy(std::span<const uint8_t> bytes) {
  const size_t aligned = (bytes.size() + 15) / 16 * 16;
  uint8_t* copy = scratch_.Get(aligned + kScanStop);
  if (!bytes.empty()) std::memcpy(copy, bytes.data(), bytes.size());
  std::memset(copy + bytes.size(), 0, aligned - bytes.size());
  for (size_t at = aligned; at < aligned + kEglNoneStop; at += sizeof(EGLAttrib)) {
    const EGLAttrib none = EGL_NONE;
    std::memcpy(copy + at, &none, sizeof none);
  }
  std::memset(copy + aligned + kEglNoneStop, 0, kScanStop - kEglNoneStop);
  return copy;
}

bool Executor::HostBufferBound(const Thread& thread, uint32_t binding) {
  const Context* context = thread.current;
  if (context == nullptr || binding == 0) return false;
  // Pixel and indirect buffers do not exist before GLES 3: asking would raise an error.
  if (api::BufferBindingNeedsGles3(binding) && context->version < 3) return false;
  GLint bound = 0;
  driver_.Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)(binding, &bound);
  return bound != 0;
}

bool Executor::FastInputCovered(int slot, const Word* args, int param, uint64_t size) {
  const Sizer sizer = kSizers[slot];
  if (sizer == nullptr) return false;
  // Never shrunk here: calls of three and four parameters alternate.
  if (sizes_.size() < api::kFunctions[slot].param_count) sizes_.resize(api::kFunctions[slot].param_count);
  sizer(args, capture::CaptureSizes(capture_state_), sizes_.data());
  return sizes_[param] != kNoRule && size >= sizes_[param];
}

bool Executor::CheckBlobsAndSizeOutputs(const stream::DecodedCall& call, Thread& thread, std::vector<Word>& args,
                                        std::vector<size_t>* capacity) {
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  const api::FunctionCodec& codec = api::kCodec[call.slot];
  const api::ReplayFunction& replay = api::kReplay[call.slot];
  capacity->assign(info.param_count, 0);
  if (codec.captures == nullptr) return true;
  const Sizer sizer = kSizers[call.slot];
  sizes_.assign(info.param_count, kNoRule);
  auto refuse = [&](int i, const std::string& why) {
    Problem(call, std::string("'") + info.params[i].name + "' " + why);
    return false;
  };
  // An output buffer of at least `size` bytes (and what the stream recorded),
  // holding the input bytes of an in-out parameter, else zeros (a call that
  // fails writes nothing, and the reply must not carry what an earlier call
  // left in the scratch), with one zero byte past its end: a rule that reads
  // the output after the call (strlen) stops there.
  auto GiveOutput = [&](int i, size_t size) {
    const stream::DecodedValue& v = call.args[i];
    size = std::max({size, v.has_out ? v.out.size() : 0, v.has_in ? v.in.size() : 0, kMinimumOutputBytes});
    uint8_t* data = scratch_.Get(size + 1);
    const size_t kept = v.has_in ? v.in.size() : 0;
    if (kept != 0) std::memcpy(data, v.in.data(), kept);
    std::memset(data + kept, 0, size + 1 - kept);
    args[i].p = data;
    (*capacity)[i] = size;
  };

  // Pointers without bytes: offsets into a buffer the host really has bound, else nothing.
  bool has_output = false;
  for (int i = 0; i < info.param_count; ++i) {
    const stream::DecodedValue& v = call.args[i];
    const api::ReplayParam& rp = replay.params[i];
    const Capture capture = codec.captures[i];
    if (capture == Capture::kIn && !v.has_in && rp.offset_without_data) {
      // glTexImage2D(..., NULL) is meaningful without a buffer; a draw with no indices is not.
      if (v.u == 0 && !api::IsDraw(call.slot)) continue;
      if (!HostBufferBound(thread, rp.buffer_binding)) {
        return refuse(i, std::string("is an offset, but no buffer is bound to ") + BindingName(rp.buffer_binding));
      }
    } else if (IsOutput(capture) && v.u != 0) {
      if (capture == Capture::kOut && !v.has_out && rp.offset_without_data &&
          HostBufferBound(thread, rp.buffer_binding)) {
        continue;  // the GL writes into the bound buffer at this offset
      }
      args[i].p = nullptr;  // no output buffer yet: the input sizes must not depend on one
      has_output = true;
    }
  }
  if (sizer == nullptr) {
    // No rule sizes anything here (an uncovered extension): outputs get a generous buffer.
    for (int i = 0; i < info.param_count; ++i) {
      if (!IsOutput(codec.captures[i]) || call.args[i].u == 0 || args[i].p != nullptr) continue;
      GiveOutput(i, kUnknownOutputBytes);
    }
    return true;
  }

  // Inputs: each blob at least as long as its call's arguments say; a
  // pointer without one is null to the driver, which would read those bytes
  // (or a string) from address 0 unless null means something there (null=ok).
  sizer(args.data(), capture::CaptureSizes(capture_state_), sizes_.data());
  for (int i = 0; i < info.param_count; ++i) {
    const stream::DecodedValue& v = call.args[i];
    const Capture capture = codec.captures[i];
    if ((capture != Capture::kIn && capture != Capture::kInOut) || sizes_[i] == kNoRule) continue;
    if (!v.has_in) {
      // Null to the driver: still null after BuildArguments (a string
      // list's lengths the executor gives itself are not), and not an offset
      // into a bound buffer (whose offset 0 reads as null too).
      const api::ReplayParam& rp = replay.params[i];
      if (capture != Capture::kIn || args[i].p != nullptr || rp.null_allowed || rp.offset_without_data) continue;
      if (sizes_[i] > 0) {
        return refuse(i, "is a null pointer, its arguments need " + std::to_string(sizes_[i]) + " bytes");
      }
      // A lookup by a null name (glGetUniformLocation) still runs: a refused
      // call answers 0, a valid location, where drivers answer "not found".
      if (rp.string && info.return_kind == api::ArgKind::kVoid) {
        return refuse(i, "is a null pointer where the call needs a string");
      }
      continue;
    }
    if (v.in.size() < sizes_[i]) {
      return refuse(i, "holds " + std::to_string(v.in.size()) + " bytes, its arguments need " +
                           std::to_string(sizes_[i]));
    }
  }
  if (!has_output) return true;

  // Outputs: room for all the call may write.
  std::vector<int>& outputs = output_params_;
  outputs.clear();
  for (int i = 0; i < info.param_count; ++i) {
    if (IsOutput(codec.captures[i]) && call.args[i].u != 0 && args[i].p == nullptr) {
      outputs.push_back(i);
      args[i].p = const_cast<uint8_t*>(kPlaceholder);
    }
  }
  sizer(args.data(), capture::CaptureSizes(capture_state_, true), sizes_.data());
  for (int i : outputs) {
    if (sizes_[i] != kNoRule && sizes_[i] > kMaximumOutputBytes) {
      return refuse(i, "asks for " + std::to_string(sizes_[i]) + " bytes of output");
    }
    GiveOutput(i, sizes_[i] == kNoRule ? kUnknownOutputBytes : sizes_[i]);
  }
  return true;
}

bool Executor::ClientArraysCovered(const stream::DecodedCall& call, Thread& thread) {
  Context* context = thread.current;
  if (context == nullptr) return true;
  if (context->version < 2) return EnabledArraysCovered(call, thread, *context, nullptr);
  // Asking about every attribute costs more than most draws' own validation:
  // a vertex array object found reading only from buffers stays so until a
  // call that may change that (Execute forgets them) or client arrays applied.
  if (!thread.applied_arrays.empty()) context->arrays_in_buffers.clear();
  auto get_integer = driver_.Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv);
  if (context->has_vertex_array_objects < 0) {
    const auto* extensions = driver_.Get<PFNGLGETSTRINGPROC>(api::glGetString)(GL_EXTENSIONS);
    context->has_vertex_array_objects =
        context->version >= 3 ||
        (extensions && std::strstr(reinterpret_cast<const char*>(extensions), "GL_OES_vertex_array_object"));
  }
  GLint vertex_array = 0;  // without vertex array objects, the default one is always bound
  if (context->has_vertex_array_objects) get_integer(GL_VERTEX_ARRAY_BINDING, &vertex_array);
  const auto known = std::find(context->arrays_in_buffers.begin(), context->arrays_in_buffers.end(),
                               static_cast<uint32_t>(vertex_array));
  if (known != context->arrays_in_buffers.end()) return true;
  bool all_in_buffers = false;
  if (!EnabledArraysCovered(call, thread, *context, &all_in_buffers)) return false;
  if (all_in_buffers && thread.applied_arrays.empty() && context->arrays_in_buffers.size() < 64) {
    context->arrays_in_buffers.push_back(static_cast<uint32_t>(vertex_array));
  }
  return true;
}

bool Executor::EnabledArraysCovered(const stream::DecodedCall& call, const Thread& thread, Context& context,
                                    bool* all_in_buffers) {
  const auto& applied = thread.applied_arrays;
  auto given_by_executor = [&](const void* pointer) {
    return std::find(applied.begin(), applied.end(), reinterpret_cast<uint64_t>(pointer)) != applied.end();
  };
  auto refuse = [&] {
    Problem(call, "an enabled client-side vertex array has no memory record for what the draw reads");
    return false;
  };
  if (context.version >= 2) {
    auto get_attrib = driver_.Get<PFNGLGETVERTEXATTRIBIVPROC>(api::glGetVertexAttribiv);
    auto get_pointer = driver_.Get<PFNGLGETVERTEXATTRIBPOINTERVPROC>(api::glGetVertexAttribPointerv);
    if (context.max_vertex_attribs < 0) {
      GLint count = 0;
      driver_.Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)(GL_MAX_VERTEX_ATTRIBS, &count);
      context.max_vertex_attribs = std::clamp(count, 0, 64);
    }
    bool in_buffers = true;
    for (int i = 0; i < context.max_vertex_attribs; ++i) {
      GLint enabled = 0, buffer = 0;
      get_attrib(static_cast<GLuint>(i), GL_VERTEX_ATTRIB_ARRAY_ENABLED, &enabled);
      if (!enabled) continue;
      get_attrib(static_cast<GLuint>(i), GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buffer);
      if (buffer != 0) continue;
      in_buffers = false;
      void* pointer = nullptr;
      get_pointer(static_cast<GLuint>(i), GL_VERTEX_ATTRIB_ARRAY_POINTER, &pointer);
      if (!given_by_executor(pointer)) return refuse();
    }
    if (all_in_buffers) *all_in_buffers = in_buffers;
    return true;
  }
  // GLES 1: the fixed arrays, texture coordinates per texture unit.
  auto is_enabled = driver_.Get<PFNGLISENABLEDPROC>(api::glIsEnabled);
  auto get_integer = driver_.Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv);
  auto get_pointer = driver_.Get<void (*)(GLenum, void**)>(api::glGetPointerv);
  auto client_active_texture = driver_.Get<void (*)(GLenum)>(api::glClientActiveTexture);
  auto array_safe = [&](GLenum array, GLenum binding, GLenum pointer_name) {
    if (!is_enabled(array)) return true;
    GLint buffer = 0;
    get_integer(binding, &buffer);
    if (buffer != 0) return true;
    void* pointer = nullptr;
    get_pointer(pointer_name, &pointer);
    return given_by_executor(pointer);
  };
  if (context.has_matrix_palette < 0) {
    const auto* extensions = driver_.Get<PFNGLGETSTRINGPROC>(api::glGetString)(GL_EXTENSIONS);
    context.has_matrix_palette =
        extensions && std::strstr(reinterpret_cast<const char*>(extensions), "GL_OES_matrix_palette");
  }
  if (!array_safe(GL_VERTEX_ARRAY, GL_VERTEX_ARRAY_BUFFER_BINDING, GL_VERTEX_ARRAY_POINTER) ||
      !array_safe(GL_NORMAL_ARRAY, GL_NORMAL_ARRAY_BUFFER_BINDING, GL_NORMAL_ARRAY_POINTER) ||
      !array_safe(GL_COLOR_ARRAY, GL_COLOR_ARRAY_BUFFER_BINDING, GL_COLOR_ARRAY_POINTER) ||
      !array_safe(GL_POINT_SIZE_ARRAY_OES, GL_POINT_SIZE_ARRAY_BUFFER_BINDING_OES, GL_POINT_SIZE_ARRAY_POINTER_OES) ||
      (context.has_matrix_palette &&
       (!array_safe(GL_MATRIX_INDEX_ARRAY_OES, GL_MATRIX_INDEX_ARRAY_BUFFER_BINDING_OES,
                    GL_MATRIX_INDEX_ARRAY_POINTER_OES) ||
        !array_safe(GL_WEIGHT_ARRAY_OES, GL_WEIGHT_ARRAY_BUFFER_BINDING_OES, GL_WEIGHT_ARRAY_POINTER_OES)))) {
    return refuse();
  }
  GLint units = 0;
  get_integer(GL_MAX_TEXTURE_UNITS, &units);
  bool safe = true;
  for (GLint unit = 0; unit < std::min(units, 32) && safe; ++unit) {
    client_active_texture(GL_TEXTURE0 + unit);
    safe = array_safe(GL_TEXTURE_COORD_ARRAY, GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING, GL_TEXTURE_COORD_ARRAY_POINTER);
  }
  client_active_texture(GL_TEXTURE0 + context.client_texture);
  return safe || refuse();
}

}  // namespace strata::host
