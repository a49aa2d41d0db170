// What a call gave back, in the stream's terms: object names and handles as
// the stream knows them (a GL name the stream never created stands for
// itself), so a live client that names objects itself reads its own names
// back from a query. No host address ever leaves in a reply.
#include <EGL/egl.h>
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <cstring>

#include "host/executor.h"
#include "host/sizers.h"
#include "strata/api/codec.h"
#include "strata/api/parameters.h"
#include "strata/api/replay.h"
#include "strata/api/traits.h"

namespace strata::host {

using api::ArgKind;
using api::ObjectClass;

uint64_t Executor::StreamHandle(const Thread& thread, ObjectClass object, uint64_t host) const {
  if (host == 0) return 0;
  switch (object) {
    case ObjectClass::kEglDisplay:
      return stream_display_ != 0 ? stream_display_ : 1;  // every stream display is the host's one
    case ObjectClass::kEglSurface:
      for (const auto& [recorded, surface] : recorded_surfaces_) {
        if (reinterpret_cast<uint64_t>(surface.host) == host) return recorded;
      }
      return 0;
    case ObjectClass::kGlSync:
      if (thread.current) return thread.current->shared->names[static_cast<int>(object)].ToRecorded(host);
      return egl_names_[static_cast<int>(object)].ToRecorded(host);
    default:
      return IsEglHandle(object) ? egl_names_[static_cast<int>(object)].ToRecorded(host) : 0;
  }
}

void Executor::ReplyResult(const stream::DecodedCall& call, Thread& thread, const Word& host, CallReply* reply) {
  stream::DecodedValue& result = reply->result;
  switch (api::kFunctions[call.slot].return_kind) {
    case ArgKind::kVoid:
      return;
    case ArgKind::kInt:
      result.i = host.i;
      return;
    case ArgKind::kFloat:
    case ArgKind::kDouble:
      result.f = host.f;
      return;
    case ArgKind::kString:
      if (host.p != nullptr) {
        result.has_out = true;
        result.out = {static_cast<const uint8_t*>(host.p), std::strlen(static_cast<const char*>(host.p))};
      }
      return;
    case ArgKind::kHandle:
    case ArgKind::kPointer: {
      // glMapBufferRange(target, offset, length, access) for reading: the bytes travel, never the address.
      if (api::CoreOf(call.slot) == api::glMapBufferRange && host.p != nullptr &&
          (call.args[3].u & GL_MAP_READ_BIT) && call.args[2].i > 0) {
        reply->mapped = {static_cast<const uint8_t*>(host.p), static_cast<size_t>(call.args[2].i)};
      }
      // The handle the stream proposed (a trace's recorded one, a live client's own), else the one it knows.
      // A bare address (glMapBufferRange) goes back as the proposed value, or 1: "not null".
      const ObjectClass object = api::kReplay[call.slot].result;
      if (host.u == 0) return;
      if (call.has_reply && call.result.u != 0) {
        result.u = call.result.u;
      } else {
        result.u = object == ObjectClass::kNone ? 1 : StreamHandle(thread, object, host.u);
      }
      return;
    }
    default:
      // A GL name the stream proposed (a client that names objects) stays its own.
      result.u = call.has_reply && api::kReplay[call.slot].result != ObjectClass::kNone ? call.result.u : host.u;
      return;
  }
}

void Executor::ReplyBytes(CallReply* reply, int param, const void* bytes, size_t size) {
  stream::DecodedValue& out = reply->outputs[param];
  uint8_t* copy = scratch_.Get(size + 1);
  if (size != 0) std::memcpy(copy, bytes, size);
  out.has_out = true;
  out.out = {copy, size};
}

void Executor::ReplyOutputs(const stream::DecodedCall& call, Thread& thread, const std::vector<Word>& args,
                            const std::vector<size_t>& capacity, CallReply* reply) {
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  const api::ReplayFunction& replay = api::kReplay[call.slot];
  const Sizer sizer = kSizers[call.slot];
  bool sized = false;
  for (int i = 0; i < info.param_count; ++i) {
    if (capacity[i] == 0 || args[i].p == nullptr) continue;
    // What the call wrote, by its rule now that the call is done, within what the buffer holds.
    if (sizer && !sized) {
      sizer(args.data(), capture::CaptureSizes(capture_state_), sizes_.data());
      sized = true;
    }
    size_t size = sizer && sizes_[i] != kNoRule ? std::min(sizes_[i], capacity[i]) : capacity[i];
    stream::DecodedValue& out = reply->outputs[i];
    out.kind = call.args[i].kind;
    out.u = call.args[i].u;
    out.has_out = true;
    if (replay.params[i].reply_addresses) {
      // Host addresses (glGetPointerv) or handles the stream cannot name: zeros.
      uint8_t* zeros = scratch_.Get(size + 1);
      std::memset(zeros, 0, size);
      out.out = {zeros, size};
    } else {
      out.out = {static_cast<const uint8_t*>(args[i].p), size};
    }
  }
  NamesBackToStream(call, thread, args, reply);
}

namespace {

// One name of a query's output, rewritten in place.
template <typename T>
void NameToStream(const NameMap& names, uint8_t* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  value = static_cast<T>(names.ToStream(static_cast<uint64_t>(value)));
  std::memcpy(at, &value, sizeof value);
}

}  // namespace

void Executor::NamesBackToStream(const stream::DecodedCall& call, Thread& thread, const std::vector<Word>& args,
                                 CallReply* reply) {
  Context* context = Current(thread);
  if (context == nullptr) return;
  // Which output holds names, of what, and how wide each value is.
  int param = -1;
  ObjectClass object = ObjectClass::kNone;
  size_t width = sizeof(GLint);
  const int core = api::CoreOf(call.slot);  // an alias is its core
  switch (core) {
    case api::glGetInteger64v:
    case api::glGetInteger64i_v:
      width = sizeof(GLint64);
      [[fallthrough]];
    case api::glGetIntegerv:
    case api::glGetIntegeri_v:
      // The values follow the pname, and the index where the state is indexed.
      param = api::kTraits[core].query == api::QueryKind::kIndexedState ? 2 : 1;
      object = api::ObjectNamedBy(static_cast<uint32_t>(call.args[0].u));
      break;
    case api::glGetVertexAttribiv:
    case api::glGetVertexAttribIiv:
    case api::glGetVertexAttribIuiv:
    case api::glGetQueryiv:
    case api::glGetProgramPipelineiv:
      param = 2;
      object = api::ObjectNamedBy(static_cast<uint32_t>(call.args[1].u));
      break;
    case api::glGetAttachedShaders:
      param = 3;
      object = ObjectClass::kShader;
      break;
    case api::glGetFramebufferAttachmentParameteriv:
      if (call.args[2].u != GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME) return;
      param = 3;
      {
        // A texture's or a renderbuffer's name, as the attachment's type says.
        GLint type = GL_NONE;
        auto get = reinterpret_cast<void (*)(GLenum, GLenum, GLenum, GLint*)>(driver_.Function(call.slot));
        get(static_cast<GLenum>(call.args[0].u), static_cast<GLenum>(call.args[1].u),
            GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
        object = type == GL_TEXTURE ? ObjectClass::kTexture
                 : type == GL_RENDERBUFFER ? ObjectClass::kRenderbuffer
                                           : ObjectClass::kNone;
      }
      break;
    default:
      return;
  }
  if (object == ObjectClass::kNone || args[param].p == nullptr) return;
  stream::DecodedValue& out = reply->outputs[param];
  if (!out.has_out) return;
  const NameMap& names = context->NamesOf(object);
  // The output buffer is the executor's own (args), which out.out views.
  auto* bytes = static_cast<uint8_t*>(args[param].p);
  for (size_t at = 0; at + width <= out.out.size(); at += width) {
    width == sizeof(GLint64) ? NameToStream<GLint64>(names, bytes + at) : NameToStream<GLuint>(names, bytes + at);
  }
}

}  // namespace strata::host
