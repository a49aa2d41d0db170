#include "export/c_call_writer.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "host/object_names.h"
#include "strata/api/codec.h"
#include "strata/api/functions.h"
#include "strata/api/traits.h"

namespace strata::exporter {
namespace {

using api::ArgKind;
using api::ObjectClass;

uint64_t Hash(std::span<const uint8_t> bytes, bool terminate) {
  uint64_t h = 1469598103934665603ull ^ bytes.size() ^ (terminate ? 1ull << 63 : 0);
  for (uint8_t b : bytes) h = (h ^ b) * 1099511628211ull;
  return h;
}

std::string Format(const char* format, auto... values) {
  char text[96];
  std::snprintf(text, sizeof text, format, values...);
  return text;
}

// The type an array parameter's elements have: "const GLuint *" -> "GLuint".
std::string ElementType(std::string type) {
  if (type.starts_with("const ")) type.erase(0, 6);
  while (!type.empty() && (type.back() == '*' || type.back() == ' ')) type.pop_back();
  if (type.ends_with(" const")) type.erase(type.size() - 6);
  return type;
}

std::string DataPointer(uint64_t offset, const char* type) {
  return Format("(%s)STRATA_DATA(%" PRIu64 ")", type, offset);
}

uint64_t ReadName(const uint8_t* at, size_t bytes) {
  if (bytes == 4) {
    uint32_t v;
    std::memcpy(&v, at, 4);
    return v;
  }
  uint64_t v;
  std::memcpy(&v, at, 8);
  return v;
}

// The parameter naming the program a location belongs to (glProgramUniform*, glGetUniformLocation), or -1.
int ProgramParam(int slot) {
  const api::FunctionInfo& info = api::kFunctions[slot];
  for (int i = 0; i < info.param_count; ++i) {
    if (api::kReplay[slot].params[i].object == ObjectClass::kProgram) return i;
  }
  return -1;
}

std::vector<int32_t> IntList(const stream::DecodedValue& v) {
  std::vector<int32_t> list;
  for (size_t at = 0; v.has_in && at + 4 <= v.in.size(); at += 4) {
    int32_t value;
    std::memcpy(&value, v.in.data() + at, 4);
    list.push_back(value);
  }
  if (list.empty() || list.back() != EGL_NONE) list.push_back(EGL_NONE);
  return list;
}

std::string EglIntArray(const stream::DecodedValue& v) {
  std::string text = "(const EGLint[]){";
  for (int32_t value : IntList(v)) text += Format("%s0x%x", text.back() == '{' ? "" : ", ", static_cast<uint32_t>(value));
  return text + "}";
}

// Recorded configs of an eglChooseConfig or eglGetConfigs answer, as a C array and its length.
std::string RecordedHandles(const stream::DecodedValue& v, size_t* count) {
  std::string text = "(const uint64_t[]){";
  *count = 0;
  for (size_t at = 0; v.has_out && at + 8 <= v.out.size(); at += 8, ++*count) {
    text += Format("%s0x%" PRIx64 "u", *count ? ", " : "", ReadName(v.out.data() + at, 8));
  }
  return *count ? text + "}" : "NULL";
}

}  // namespace

uint64_t DataFile::Add(std::span<const uint8_t> bytes, bool terminate) {
  const uint64_t hash = Hash(bytes, terminate);
  const uint64_t size = bytes.size() + (terminate ? 1 : 0);
  auto [first, last] = by_hash_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    const auto [offset, stored] = it->second;
    if (stored == size && std::memcmp(bytes_.data() + offset, bytes.data(), bytes.size()) == 0) return offset;
  }
  bytes_.resize((bytes_.size() + 15) & ~size_t{15});
  const uint64_t offset = bytes_.size();
  bytes_.insert(bytes_.end(), bytes.begin(), bytes.end());
  if (terminate) bytes_.push_back(0);
  by_hash_.emplace(hash, std::pair{offset, size});
  return offset;
}

std::string CLiteral(const stream::DecodedValue& v, uint16_t enum_group) {
  switch (v.kind) {
    case ArgKind::kInt:
      if (v.i == std::numeric_limits<int64_t>::min()) return "(-9223372036854775807LL - 1)";
      return Format(v.i >= INT32_MIN && v.i <= INT32_MAX ? "%" PRId64 : "%" PRId64 "LL", v.i);
    case ArgKind::kEnum: {
      const char* name = v.u <= UINT32_MAX && enum_group != api::kNoEnumGroup
                             ? api::EnumNameInGroup(enum_group, static_cast<uint32_t>(v.u))
                             : nullptr;
      if (name == nullptr && v.u <= UINT32_MAX) name = api::EnumNameInGroup(api::kGlNames, static_cast<uint32_t>(v.u));
      std::string text = Format("0x%" PRIX64 "u", v.u);
      return name ? text + " /* " + name + " */" : text;
    }
    case ArgKind::kFloat:
    case ArgKind::kDouble:
      if (std::isnan(v.f)) return "NAN";
      if (std::isinf(v.f)) return v.f < 0 ? "-INFINITY" : "INFINITY";
      if (v.f == 0) return std::signbit(v.f) ? "-0.0" : "0.0";
      return Format(v.kind == ArgKind::kFloat ? "%.9g" : "%.17g", v.f);
    default:
      return Format(v.u <= UINT32_MAX ? "%" PRIu64 "u" : "%" PRIu64 "ull", v.u);
  }
}

const char* NameScope(ObjectClass object) {
  if (host::IsEglHandle(object)) return "STRATA_PER_PROCESS";
  return host::IsShared(object) ? "STRATA_PER_SHARE_GROUP" : "STRATA_PER_CONTEXT";
}

std::string ClassMacro(ObjectClass object) {
  std::string name = "STRATA_";
  const std::string_view words = api::ObjectClassName(object);  // "RenderBuffer" -> STRATA_RENDER_BUFFER
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0 && std::isupper(static_cast<unsigned char>(words[i]))) name += '_';
    name += static_cast<char>(std::toupper(static_cast<unsigned char>(words[i])));
  }
  return name;
}

std::string HostName(ObjectClass object, uint64_t recorded, const char* type) {
  if (recorded == 0) return Format("(%s)0", type);
  return Format("(%s)%s(%" PRIu64 "u)", type, ClassMacro(object).c_str(), recorded);
}

std::string CallWriter::Call(int slot, const std::vector<std::string>& arguments) {
  used_.insert(slot);
  std::string text = std::string("strata_fn_") + api::kFunctions[slot].name + "(";
  for (size_t i = 0; i < arguments.size(); ++i) text += (i ? ", " : "") + arguments[i];
  return text + ")";
}

std::string CallWriter::Argument(const stream::DecodedCall& call, int i, uint64_t program, std::string* before,
                                 std::string* after, std::map<int, std::string>* lengths, std::string* why) {
  const api::ParamInfo& param = api::kFunctions[call.slot].params[i];
  const api::ReplayParam& rp = api::kReplay[call.slot].params[i];
  const stream::DecodedValue& v = call.args[i];
  const char* type = param.type;
  ObjectClass object = rp.object;
  if (rp.named_by_type >= 0) object = api::ObjectClassOfType(static_cast<uint32_t>(call.args[rp.named_by_type].u));
  if (v.kind != ArgKind::kPointer && v.kind != ArgKind::kString) {
    if (object == ObjectClass::kUniformLocation) {
      const int program_param = ProgramParam(call.slot);
      const uint64_t owner = program_param >= 0 ? call.args[program_param].u : program;
      return Format("strata_location(0x%" PRIx64 "u, %" PRId64 ")", owner, v.i);
    }
    if (object == ObjectClass::kNone) {
      return v.kind == ArgKind::kHandle ? Format("(%s)(uintptr_t)0x%" PRIx64 "u", type, v.u)
                                        : CLiteral(v, param.enum_group);
    }
    const uint64_t recorded = v.kind == ArgKind::kInt ? static_cast<uint64_t>(v.i) : v.u;
    if (rp.role == api::NameRole::kDelete) {
      *after += Format("strata_remove_name(%s, %d, 0x%" PRIx64 "u); ", NameScope(object), static_cast<int>(object), recorded);
    }
    switch (object) {
      case ObjectClass::kEglDisplay: return "strata_display()";
      case ObjectClass::kEglConfig: return Format("strata_config(0x%" PRIx64 "u)", recorded);
      case ObjectClass::kEglSurface: return Format("strata_surface(0x%" PRIx64 "u)", recorded);
      case ObjectClass::kEglContext: return Format("strata_context(0x%" PRIx64 "u)", recorded);
      default: return HostName(object, recorded, type);
    }
  }
  const api::Capture capture = api::kCodec[call.slot].captures ? api::kCodec[call.slot].captures[i] : api::Capture::kNone;
  const std::string local = "strata_" + std::to_string(temporaries_++);
  const size_t name_bytes = host::NameBytes(object);
  switch (capture) {
    case api::Capture::kIn: {
      if (!v.has_in) {
        return rp.offset_without_data && v.u != 0 ? Format("(%s)(uintptr_t)0x%" PRIx64 "u", type, v.u) : "NULL";
      }
      if (object != ObjectClass::kNone && !rp.size_reads_data) {
        // Names: each mapped, and forgotten after a call that deletes them.
        const std::string element = ElementType(type);
        *before += element + " " + local + "[] = {";
        size_t count = 0;
        for (size_t at = 0; at + name_bytes <= v.in.size(); at += name_bytes, ++count) {
          const uint64_t recorded = ReadName(v.in.data() + at, name_bytes);
          *before += (count ? ", " : "") + HostName(object, recorded, element.c_str());
          if (rp.role == api::NameRole::kDelete && recorded != 0) {
            *after += Format("strata_remove_name(%s, %d, 0x%" PRIx64 "u); ", NameScope(object), static_cast<int>(object),
                             recorded);
          }
        }
        if (count == 0) *before += "0";
        *before += "}; ";
        return local;
      }
      return DataPointer(data_.Add(v.in, v.kind == ArgKind::kString || rp.size_reads_data), type);
    }
    case api::Capture::kOut:
    case api::Capture::kInOut: {
      if (v.u == 0) return "NULL";
      const size_t size = std::max<size_t>({v.out.size(), v.in.size(), 64});
      if (rp.role == api::NameRole::kCreate && object != ObjectClass::kNone && v.has_out) {
        // Names the call makes: the host's, mapped from the recorded ones after it.
        const size_t count = v.out.size() / name_bytes;
        *before += Format("%s %s[%zu]; ", name_bytes == 4 ? "GLuint" : "uint64_t", local.c_str(), count ? count : 1);
        if (count) {
          *after += Format("strata_add_names(%s, %d, (const uint64_t[]){", NameScope(object), static_cast<int>(object));
          for (size_t n = 0; n < count; ++n) {
            *after += Format("%s0x%" PRIx64 "u", n ? ", " : "", ReadName(v.out.data() + n * name_bytes, name_bytes));
          }
          *after += Format("}, %s, %zu, %zu); ", local.c_str(), count, name_bytes);
        }
        return Format("(%s)%s", type, local.c_str());
      }
      if (capture == api::Capture::kInOut && v.has_in) {
        *before += Format("void* %s = strata_scratch(%zu); memcpy(%s, STRATA_DATA(%" PRIu64 "), %zu); ", local.c_str(), size,
                          local.c_str(), data_.Add(v.in), v.in.size());
        return Format("(%s)%s", type, local.c_str());
      }
      return Format("(%s)strata_scratch(%zu)", type, size);
    }
    case api::Capture::kStringsIn: {
      if (!v.has_in) return "NULL";
      bool ok = false;
      const std::vector<std::string_view> strings = stream::DecodeStrings(v.in, &ok);
      if (!ok) {
        *why = "its strings are damaged";
        return {};
      }
      std::string pointers, sizes;
      for (std::string_view s : strings) {
        const auto* bytes = reinterpret_cast<const uint8_t*>(s.data());
        pointers += Format("%s(const GLchar*)STRATA_DATA(%" PRIu64 ")", pointers.empty() ? "" : ", ",
                           data_.Add({bytes, s.size()}, true));
        sizes += Format("%s%zu", sizes.empty() ? "" : ", ", s.size());
      }
      if (strings.empty()) pointers = sizes = "0";
      *before += "const GLchar* " + local + "[] = {" + pointers + "}; ";
      if (rp.string_lengths >= 0) {
        // Our copies' lengths, whatever the app passed.
        *before += "GLint " + local + "_lengths[] = {" + sizes + "}; ";
        (*lengths)[rp.string_lengths] = local + "_lengths";
      }
      return Format("(%s)%s", type, local.c_str());
    }
    case api::Capture::kNone:
      if (object != ObjectClass::kNone) return HostName(object, v.u, type);  // an object passed as a pointer (a sync)
      if ((rp.client_array || rp.offset_without_data) && v.u != 0) return Format("(%s)(uintptr_t)0x%" PRIx64 "u", type, v.u);
      if (!api::kCodec[call.slot].covered && v.u != 0) {
        *why = std::string("its parameter '") + param.name + "' has no capture rule";
        return {};
      }
      return "NULL";
  }
  return "NULL";
}

bool CallWriter::WriteEgl(const stream::DecodedCall& call, std::string* out, bool* skipped) {
  const auto& a = call.args;
  auto handle = [&](size_t i) { return Format("0x%" PRIx64 "u", a[i].u); };
  const std::string result = Format("0x%" PRIx64 "u", call.result.u);
  const bool made = call.has_reply && call.result.u != 0;
  *skipped = false;
  switch (api::CoreOf(call.slot)) {
    case api::eglGetDisplay:
    case api::eglGetPlatformDisplay:
    case api::eglGetPlatformDisplayEXT:
    case api::eglInitialize:
    case api::eglTerminate:
    case api::eglGetProcAddress:
      *skipped = true;  // the runtime owns the one display; entry points are loaded by name
      return true;
    case api::eglChooseConfig:
    case api::eglGetConfigs: {
      const bool choose = api::CoreOf(call.slot) == api::eglChooseConfig;
      size_t count = 0;
      const std::string recorded = RecordedHandles(a[choose ? 2 : 1], &count);
      if (count == 0) {
        *skipped = true;  // a count asked for: nothing to map
        return true;
      }
      *out = choose ? "strata_choose_config(" + EglIntArray(a[1]) + ", " + recorded + ", " + std::to_string(count) + ");"
                    : "strata_get_configs(" + recorded + ", " + std::to_string(count) + ");";
      return true;
    }
    case api::eglCreateWindowSurface:
    case api::eglCreatePlatformWindowSurface:
    case api::eglCreatePlatformWindowSurfaceEXT:
    case api::eglCreatePixmapSurface:
    case api::eglCreatePlatformPixmapSurface:
    case api::eglCreatePlatformPixmapSurfaceEXT:
      *skipped = !made;
      if (made) *out = "strata_window_surface(" + result + ", " + handle(1) + ");";
      return true;
    case api::eglCreatePbufferSurface:
      *skipped = !made;
      if (made) *out = "strata_pbuffer_surface(" + result + ", " + handle(1) + ", " + EglIntArray(a[2]) + ");";
      return true;
    case api::eglDestroySurface:
      *out = "strata_destroy_surface(" + handle(1) + ");";
      return true;
    case api::eglCreateContext:
      *skipped = !made;
      if (made) *out = "strata_create_context(" + result + ", " + handle(1) + ", " + handle(2) + ", " + EglIntArray(a[3]) + ");";
      return true;
    case api::eglDestroyContext:
      *out = "strata_destroy_context(" + handle(1) + ");";
      return true;
    case api::eglMakeCurrent:
      *out = "strata_make_current(" + handle(1) + ", " + handle(2) + ", " + handle(3) + ");";
      return true;
    case api::eglReleaseThread:
      *out = "strata_release_thread();";
      return true;
    case api::eglSwapBuffers:
    case api::eglSwapBuffersWithDamageKHR:
    case api::eglSwapBuffersWithDamageEXT:
      *out = "strata_swap(" + handle(1) + ");";
      return true;
    default:
      return false;
  }
}

bool CallWriter::Write(const stream::DecodedCall& call, uint64_t program, const Overrides& overrides, std::string* out,
                       std::string* why) {
  out->clear();
  if (call.slot < 0) {
    *why = "a function Strata's registry does not know: the trace holds its name, not its arguments";
    return false;
  }
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  if (info.is_egl) {
    bool skipped = false;
    if (WriteEgl(call, out, &skipped)) {
      if (skipped) out->clear();
      return true;
    }
  }
  const api::ReplayFunction& replay = api::kReplay[call.slot];
  if (!replay.runnable) {
    *why = api::kNotRunnableReason;
    return false;
  }
  temporaries_ = 0;
  std::string before, after;
  std::map<int, std::string> lengths;
  std::vector<std::string> arguments(info.param_count);
  for (int i = 0; i < info.param_count; ++i) {
    if (auto it = overrides.params.find(i); it != overrides.params.end()) {
      arguments[i] = it->second;
      continue;
    }
    arguments[i] = Argument(call, i, program, &before, &after, &lengths, why);
    if (!why->empty()) return false;
  }
  for (const auto& [param, expression] : lengths) arguments[param] = expression;
  if (api::CoreOf(call.slot) == api::eglCreateImage || api::CoreOf(call.slot) == api::eglCreateImageKHR) {
    // The client buffer of a GL image is an object of the context named.
    const ObjectClass object = host::GlImageSource(call.args[2].u);
    if (object == ObjectClass::kNone) {
      *why = "only images of GL textures and renderbuffers can be replayed";
      return false;
    }
    arguments[3] = Format("(EGLClientBuffer)(uintptr_t)strata_name_in_context(0x%" PRIx64 "u, %d, 0x%" PRIx64 "u)",
                          call.args[1].u, static_cast<int>(object), call.args[3].u);
  }
  std::string statement = Call(call.slot, arguments);
  // What the call returns that later calls name: an object, or a uniform location.
  const ObjectClass made = replay.result;
  const uint64_t recorded = call.result.kind == ArgKind::kInt ? static_cast<uint64_t>(call.result.i) : call.result.u;
  if (made == ObjectClass::kUniformLocation && call.has_reply) {
    const int program_param = ProgramParam(call.slot);
    statement = Format("strata_add_location(0x%" PRIx64 "u, %" PRId64 ", ",
                       program_param >= 0 ? call.args[program_param].u : program, call.result.i) +
                statement + ")";
  } else if (made != ObjectClass::kNone && call.has_reply && recorded != 0) {
    statement = Format("strata_add_name(%s, %d, 0x%" PRIx64 "u, (uint64_t)(uintptr_t)", NameScope(made),
                       static_cast<int>(made), recorded) +
                statement + ")";
  }
  if (!overrides.result_into.empty()) statement = overrides.result_into + "(void*)" + statement + ")";
  statement += ";";
  *out = before.empty() && after.empty() ? statement : "{ " + before + statement + " " + after + "}";
  return true;
}

}  // namespace strata::exporter
