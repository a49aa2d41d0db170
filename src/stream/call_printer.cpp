#include "stream/call_printer.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "common/json_writer.h"
#include "stream/record_format.h"
#include "strata/api/codec.h"

namespace strata::stream {
namespace {

using api::ArgKind;

std::string Hex(uint64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%" PRIx64, v);
  return buffer;
}

std::string Scalar(const DecodedValue& v, bool egl) {
  char buffer[64];
  switch (v.kind) {
    case ArgKind::kInt: std::snprintf(buffer, sizeof buffer, "%" PRId64, v.i); return buffer;
    case ArgKind::kUInt: std::snprintf(buffer, sizeof buffer, "%" PRIu64, v.u); return buffer;
    case ArgKind::kFloat:
    case ArgKind::kDouble: std::snprintf(buffer, sizeof buffer, "%g", v.f); return buffer;
    case ArgKind::kBoolean: return v.u ? (egl ? "EGL_TRUE" : "GL_TRUE") : (egl ? "EGL_FALSE" : "GL_FALSE");
    case ArgKind::kEnum:
      if (!egl) {
        if (const char* name = api::GlEnumName(static_cast<uint32_t>(v.u))) return name;
      }
      return Hex(v.u);
    case ArgKind::kBitfield: return Hex(v.u);
    default: return v.u ? Hex(v.u) : "NULL";
  }
}

std::string Quoted(std::span<const uint8_t> bytes, size_t limit = 60) {
  std::string s(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (!s.empty() && s.back() == '\0') s.pop_back();
  std::string out = "\"";
  for (size_t i = 0; i < s.size() && i < limit; ++i) {
    char c = s[i];
    if (c == '\n') {
      out += "\\n";
    } else if (c == '"' || c == '\\') {
      (out += '\\') += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += '?';
    } else {
      out += c;
    }
  }
  return out + (s.size() > limit ? "\"..." : "\"");
}

// Small arrays of a known element type print their values; the rest their size.
std::string Bytes(std::span<const uint8_t> bytes, const char* c_type) {
  std::string type = c_type;
  auto elements = [&](size_t size, auto read) {
    size_t n = bytes.size() / size;
    if (n == 0 || n > 16 || bytes.size() % size) return std::string();
    std::string out = "{";
    for (size_t i = 0; i < n; ++i) out += (i ? ", " : "") + read(bytes.data() + i * size);
    return out + "}";
  };
  std::string shown;
  if (type.find("GLboolean") != std::string::npos) {
    shown = elements(1, [](const uint8_t* p) { return std::string(*p ? "GL_TRUE" : "GL_FALSE"); });
  } else if (type.find("GLint64") != std::string::npos || type.find("GLuint64") != std::string::npos) {
    shown = elements(8, [](const uint8_t* p) {
      int64_t v;
      std::memcpy(&v, p, 8);
      return std::to_string(v);
    });
  } else if (type.find("GLfloat") != std::string::npos) {
    shown = elements(4, [](const uint8_t* p) {
      float f;
      std::memcpy(&f, p, 4);
      char b[32];
      std::snprintf(b, sizeof b, "%g", f);
      return std::string(b);
    });
  } else if (type.find("GLint") != std::string::npos || type.find("GLuint") != std::string::npos ||
             type.find("GLsizei") != std::string::npos || type.find("EGLint") != std::string::npos ||
             type.find("GLenum") != std::string::npos) {
    bool is_signed = type.find("GLint") != std::string::npos || type.find("EGLint") != std::string::npos ||
                     type.find("GLsizei") != std::string::npos;
    shown = elements(4, [is_signed](const uint8_t* p) {
      uint32_t u;
      std::memcpy(&u, p, 4);
      return is_signed ? std::to_string(static_cast<int32_t>(u)) : std::to_string(u);
    });
  }
  return shown.empty() ? "<" + std::to_string(bytes.size()) + " bytes>" : shown;
}

}  // namespace

std::string FormatValue(const DecodedCall& call, int index) {
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  const api::ParamInfo& param = info.params[index];
  const DecodedValue& v = call.args[index];
  bool egl = info.is_egl;
  if (v.kind != ArgKind::kPointer && v.kind != ArgKind::kString) return Scalar(v, egl);
  if (v.u == 0) return "NULL";
  const api::FunctionCodec& codec = api::kCodec[call.slot];
  if (v.has_in && codec.captures && codec.captures[index] == api::Capture::kStringsIn) {
    bool ok = false;
    auto strings = DecodeStrings(v.in, &ok);
    if (!ok) return "<malformed strings>";
    std::string out = "{";
    for (size_t i = 0; i < strings.size(); ++i) {
      out += (i ? ", " : "") +
             Quoted({reinterpret_cast<const uint8_t*>(strings[i].data()), strings[i].size()});
    }
    return out + "}";
  }
  if (v.has_in) return v.kind == ArgKind::kString ? Quoted(v.in) : Bytes(v.in, param.type);
  if (v.has_out) {
    return "&" + (std::strstr(param.type, "GLchar") || std::strstr(param.type, "char") ? Quoted(v.out)
                                                                                        : Bytes(v.out, param.type));
  }
  return Hex(v.u);
}

std::string FormatScalar(const DecodedCall& call, const DecodedValue& value) {
  return Scalar(value, api::kFunctions[call.slot].is_egl);
}

std::string FormatBytes(const DecodedCall& call, int arg_index, std::span<const uint8_t> bytes) {
  return Bytes(bytes, api::kFunctions[call.slot].params[arg_index].type);
}

std::string FormatCall(const DecodedCall& call) {
  if (call.slot < 0) return std::string(call.name) + "(...)  [unknown function: arguments not recorded]";
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  std::string out = std::string(info.name) + "(";
  for (int i = 0; i < info.param_count; ++i) {
    out += (i ? ", " : "") + std::string(info.params[i].name) + "=" + FormatValue(call, i);
  }
  out += ")";
  if (call.has_reply && call.result.kind != ArgKind::kVoid) {
    out += " = " + (call.result.kind == ArgKind::kString
                        ? (call.result.has_out ? Quoted(call.result.out) : std::string("NULL"))
                        : Scalar(call.result, info.is_egl));
  }
  return out;
}

std::string FormatResult(const DecodedCall& call) {
  if (!call.has_reply || call.result.kind == ArgKind::kVoid) return {};
  if (call.result.kind == ArgKind::kString) return call.result.has_out ? Quoted(call.result.out, 1 << 20) : "NULL";
  return Scalar(call.result, api::kFunctions[call.slot].is_egl);
}

std::string FormatCallJson(const DecodedCall& call) {
  JsonWriter json;
  if (call.slot < 0) {
    json.BeginObject().Key("seq").Int(static_cast<int64_t>(call.sequence));
    json.Key("thread").Int(static_cast<int64_t>(call.thread)).Key("context").Int(static_cast<int64_t>(call.context));
    json.Key("function").String(std::string(call.name)).Key("unknown_function").Bool(true);
    json.Key("start_ns").Int(static_cast<int64_t>(call.start_ns));
    json.Key("duration_ns").Int(static_cast<int64_t>(call.duration_ns));
    json.EndObject();
    return json.str();
  }
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  json.BeginObject().Key("seq").Int(static_cast<int64_t>(call.sequence));
  json.Key("thread").Int(static_cast<int64_t>(call.thread)).Key("context").Int(static_cast<int64_t>(call.context));
  json.Key("function").String(info.name).Key("args").BeginArray();
  for (int i = 0; i < info.param_count; ++i) {
    const DecodedValue& v = call.args[i];
    json.BeginObject().Key("name").String(info.params[i].name).Key("value").String(FormatValue(call, i));
    if (v.has_in) json.Key("in_bytes").Int(static_cast<int64_t>(v.in.size()));
    if (v.has_out) json.Key("out_bytes").Int(static_cast<int64_t>(v.out.size()));
    json.EndObject();
  }
  json.EndArray();
  if (call.has_reply && call.result.kind != ArgKind::kVoid) json.Key("result").String(FormatResult(call));
  if (call.flags & kCallSynthesized) json.Key("synthesized").Bool(true);
  if (call.flags & kCallUncovered) json.Key("uncovered").Bool(true);
  if (call.flags & kCallUntimed) json.Key("untimed").Bool(true);
  json.Key("start_ns").Int(static_cast<int64_t>(call.start_ns));
  json.Key("duration_ns").Int(static_cast<int64_t>(call.duration_ns)).EndObject();
  return json.str();
}

}  // namespace strata::stream
