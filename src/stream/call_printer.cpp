#include "stream/call_printer.h"

#include <bit>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

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

// The name of `value` in `group`: a bitmask's bits joined by " | ", with the
// bits the group does not name in hex. Empty when the group has no name for it.
std::string NameInGroup(uint16_t group, uint64_t value) {
  if (group == api::kNoEnumGroup || value > UINT32_MAX) return {};
  if (const char* name = api::EnumNameInGroup(group, static_cast<uint32_t>(value))) return name;
  const api::EnumGroup& g = api::kEnumGroups[group];
  if (!g.bitmask) return {};
  if (value == 0) return "0";
  std::string out;
  uint64_t rest = value;
  for (uint32_t i = 0; i < g.count; ++i) {
    const api::EnumMember& bit = api::kEnumMembers[g.first + i];
    if (std::has_single_bit(bit.value) && (rest & bit.value)) {
      (out += out.empty() ? "" : " | ") += bit.name;
      rest &= ~static_cast<uint64_t>(bit.value);
    }
  }
  if (out.empty()) return {};
  return rest ? out + " | " + Hex(rest) : out;
}

// A scalar's name when its group names it. A GLenum its registry group
// misses (the groups are incomplete) takes the value's preferred GLES name.
std::string ScalarName(const DecodedValue& v, bool egl, uint16_t group) {
  if (group == api::kNoEnumGroup) return {};
  switch (v.kind) {
    case ArgKind::kEnum: {
      std::string name = NameInGroup(group, v.u);
      if (name.empty() && !egl && group != api::kGlNames) name = NameInGroup(api::kGlNames, v.u);
      return name;
    }
    case ArgKind::kBitfield:
    case ArgKind::kUInt: return NameInGroup(group, v.u);
    case ArgKind::kInt: return v.i < 0 ? std::string() : NameInGroup(group, static_cast<uint64_t>(v.i));
    case ArgKind::kFloat:
    case ArgKind::kDouble:
      // glTexParameterf(pname = GL_TEXTURE_MIN_FILTER, param = GL_LINEAR) passes a token as a float.
      if (v.f >= 0 && v.f <= UINT32_MAX && v.f == static_cast<double>(static_cast<uint32_t>(v.f))) {
        return NameInGroup(group, static_cast<uint32_t>(v.f));
      }
      return {};
    default: return {};
  }
}

std::string Scalar(const DecodedValue& v, bool egl, uint16_t group) {
  if (std::string name = ScalarName(v, egl, group); !name.empty()) return name;
  char buffer[64];
  switch (v.kind) {
    case ArgKind::kInt: std::snprintf(buffer, sizeof buffer, "%" PRId64, v.i); return buffer;
    case ArgKind::kUInt: std::snprintf(buffer, sizeof buffer, "%" PRIu64, v.u); return buffer;
    case ArgKind::kFloat:
    case ArgKind::kDouble: std::snprintf(buffer, sizeof buffer, "%g", v.f); return buffer;
    case ArgKind::kBoolean: return v.u ? (egl ? "EGL_TRUE" : "GL_TRUE") : (egl ? "EGL_FALSE" : "GL_FALSE");
    case ArgKind::kEnum:
    case ArgKind::kBitfield: return Hex(v.u);
    default: return v.u ? Hex(v.u) : "NULL";
  }
}

// The group a scalar argument's value is named from. The value of a pname
// (glTexParameteri's param) is a token only where the pname takes tokens:
// GL_TEXTURE_MAX_LOD 512 is a number, not GL_NEVER.
uint16_t GroupOf(const DecodedCall& call, int index) {
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  const api::ParamInfo& param = info.params[index];
  if (param.enum_group != api::kGlNames || param.kind == ArgKind::kEnum) return param.enum_group;
  for (int i = 0; i < info.param_count; ++i) {
    if (std::strcmp(info.params[i].name, "pname") == 0 && api::PnameTakesNumbers(static_cast<uint32_t>(call.args[i].u))) {
      return api::kNoEnumGroup;
    }
  }
  return param.enum_group;
}

std::string_view Unterminated(std::span<const uint8_t> bytes) {
  std::string_view s(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (!s.empty() && s.back() == '\0') s.remove_suffix(1);
  return s;
}

std::string Quoted(std::span<const uint8_t> bytes, size_t limit = 60) {
  const std::string_view s = Unterminated(bytes);
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

// One element of a small array behind a pointer: a number, a boolean or a name.
struct Element {
  enum Kind { kInt, kUInt, kFloat, kBool, kName } kind = kInt;
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;
  std::string name;

  static Element Int(int64_t v) { return Make(kInt, v, 0, 0); }
  static Element UInt(uint64_t v) { return Make(kUInt, 0, v, 0); }
  static Element Float(double v) { return Make(kFloat, 0, 0, v); }
  static Element Bool(bool v) { return Make(kBool, 0, v, 0); }

 private:
  static Element Make(Kind kind, int64_t i, uint64_t u, double f) {
    Element e;
    e.kind = kind;
    e.i = i;
    e.u = u;
    e.f = f;
    return e;
  }
};

std::string ElementText(const Element& e) {
  char b[32];
  switch (e.kind) {
    case Element::kInt: return std::to_string(e.i);
    case Element::kUInt: return std::to_string(e.u);
    case Element::kFloat: std::snprintf(b, sizeof b, "%g", e.f); return b;
    case Element::kBool: return e.u ? "GL_TRUE" : "GL_FALSE";
    case Element::kName: return e.name;
  }
  return {};
}

void ElementJson(JsonWriter& json, const Element& e) {
  switch (e.kind) {
    case Element::kInt: json.Int(e.i); break;
    case Element::kUInt: json.UInt(e.u); break;
    case Element::kFloat: json.Float(static_cast<float>(e.f)); break;
    case Element::kBool: json.Bool(e.u != 0); break;
    case Element::kName: json.String(e.name); break;
  }
}

Element NamedOr(uint16_t group, int64_t value) {
  Element e = Element::Int(value);
  if (value >= 0) {
    if (std::string name = NameInGroup(group, static_cast<uint64_t>(value)); !name.empty()) {
      e.kind = Element::kName;
      e.name = std::move(name);
    }
  }
  return e;
}

// The elements of a small array of a known element type (at most `limit`);
// false for other data, which prints as its size.
bool Elements(std::span<const uint8_t> bytes, const char* c_type, uint16_t group, size_t limit,
              std::vector<Element>* out) {
  std::string_view type = c_type;
  auto has = [&](std::string_view t) { return type.find(t) != std::string_view::npos; };
  auto read = [&](size_t size, auto element) {
    size_t n = bytes.size() / size;
    if (n == 0 || n > limit || bytes.size() % size) return false;
    for (size_t i = 0; i < n; ++i) out->push_back(element(bytes.data() + i * size));
    return true;
  };
  if (has("GLboolean")) {
    return read(1, [](const uint8_t* p) { return Element::Bool(*p != 0); });
  }
  if (has("GLint64") || has("GLuint64") || has("EGLAttrib")) {
    return read(8, [](const uint8_t* p) {
      int64_t v;
      std::memcpy(&v, p, 8);
      return Element::Int(v);
    });
  }
  if (has("GLfloat")) {
    return read(4, [](const uint8_t* p) {
      float f;
      std::memcpy(&f, p, 4);
      return Element::Float(f);
    });
  }
  if (has("GLenum")) {
    return read(4, [group](const uint8_t* p) {
      uint32_t u;
      std::memcpy(&u, p, 4);
      Element e = NamedOr(group, u);  // the parameter's group, then any GLES name
      return e.kind == Element::kName ? e : NamedOr(api::kGlNames, u);
    });
  }
  if (has("GLint") || has("EGLint") || has("GLsizei")) {
    return read(4, [](const uint8_t* p) {
      int32_t v;
      std::memcpy(&v, p, 4);
      return Element::Int(v);
    });
  }
  if (has("GLuint")) {
    return read(4, [](const uint8_t* p) {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return Element::UInt(v);
    });
  }
  return false;
}

// An EGL attribute list: each key by name, its value by the key's bits or
// as an EGL token (EGL_BACK_BUFFER) when it is one, up to EGL_NONE.
struct Attribute {
  Element key, value;
  bool terminator = false;
};

bool Attributes(std::span<const uint8_t> bytes, const char* c_type, std::vector<Attribute>* out) {
  std::vector<Element> raw;
  if (!Elements(bytes, c_type, api::kNoEnumGroup, 512, &raw)) return false;
  constexpr int64_t kEglNone = 0x3038;
  for (size_t i = 0; i < raw.size(); i += 2) {
    Attribute a;
    a.key = NamedOr(api::kEglNames, raw[i].i);
    if (raw[i].i == kEglNone || i + 1 == raw.size()) {
      a.terminator = true;
      out->push_back(std::move(a));
      break;
    }
    const int64_t value = raw[i + 1].i;
    const uint16_t bits = raw[i].i >= 0 ? api::EglAttributeValueGroup(static_cast<uint32_t>(raw[i].i)) : 0;
    a.value = NamedOr(bits != api::kNoEnumGroup ? bits : api::kEglNames, value);
    out->push_back(std::move(a));
  }
  return true;
}

bool IsAttributeList(const api::FunctionInfo& info, const api::ParamInfo& param) {
  return info.is_egl && std::strcmp(param.name, "attrib_list") == 0;
}

std::string Bytes(std::span<const uint8_t> bytes, const api::FunctionInfo& info, const api::ParamInfo& param) {
  if (IsAttributeList(info, param)) {
    std::vector<Attribute> attributes;
    if (Attributes(bytes, param.type, &attributes)) {
      std::string out = "{";
      for (const Attribute& a : attributes) {
        if (out.size() > 1) out += ", ";
        out += ElementText(a.key);
        if (!a.terminator) out += ": " + ElementText(a.value);
      }
      return out + "}";
    }
  }
  std::vector<Element> elements;
  if (!Elements(bytes, param.type, param.enum_group, 16, &elements)) {
    return "<" + std::to_string(bytes.size()) + " bytes>";
  }
  std::string out = "{";
  for (size_t i = 0; i < elements.size(); ++i) out += (i ? ", " : "") + ElementText(elements[i]);
  return out + "}";
}

// FNV-1a, 64 bits: a blob's identity in JSON output, cheap and stable.
std::string Fnv1a64(std::span<const uint8_t> bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint8_t b : bytes) hash = (hash ^ b) * 0x100000001b3ull;
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "%016" PRIx64, hash);
  return buffer;
}

bool IsCharType(const char* type) { return std::strstr(type, "char") || std::strstr(type, "GLchar"); }

// Bytes behind a pointer as a typed JSON value (docs/dump.md).
void BytesJson(JsonWriter& json, std::span<const uint8_t> bytes, const api::FunctionInfo& info,
               const api::ParamInfo& param, bool string) {
  if (string || IsCharType(param.type)) {
    json.String(Unterminated(bytes));
    return;
  }
  if (IsAttributeList(info, param)) {
    std::vector<Attribute> attributes;
    if (Attributes(bytes, param.type, &attributes)) {
      json.BeginArray();
      for (const Attribute& a : attributes) {
        if (a.terminator) break;
        json.BeginArray();
        ElementJson(json, a.key);
        ElementJson(json, a.value);
        json.EndArray();
      }
      json.EndArray();
      return;
    }
  }
  std::vector<Element> elements;
  if (Elements(bytes, param.type, param.enum_group, 16, &elements)) {
    json.BeginArray();
    for (const Element& e : elements) ElementJson(json, e);
    json.EndArray();
    return;
  }
  json.BeginObject().Key("size").UInt(bytes.size()).Key("fnv1a64").String(Fnv1a64(bytes)).EndObject();
}

void ScalarJson(JsonWriter& json, const DecodedValue& v, bool egl, uint16_t group) {
  if (std::string name = ScalarName(v, egl, group); !name.empty()) {
    json.String(name);
    return;
  }
  switch (v.kind) {
    case ArgKind::kInt: json.Int(v.i); return;
    case ArgKind::kUInt:
    case ArgKind::kEnum:
    case ArgKind::kBitfield: json.UInt(v.u); return;
    case ArgKind::kFloat: json.Float(static_cast<float>(v.f)); return;
    case ArgKind::kDouble: json.Double(v.f); return;
    case ArgKind::kBoolean: json.Bool(v.u != 0); return;
    default:
      if (v.u) {
        json.String(Hex(v.u));
      } else {
        json.Null();
      }
  }
}

void ValueJson(JsonWriter& json, const DecodedCall& call, int index) {
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  const api::ParamInfo& param = info.params[index];
  const DecodedValue& v = call.args[index];
  if (v.kind != ArgKind::kPointer && v.kind != ArgKind::kString) {
    ScalarJson(json, v, info.is_egl, GroupOf(call, index));
    return;
  }
  if (v.u == 0) {
    json.Null();
    return;
  }
  const api::FunctionCodec& codec = api::kCodec[call.slot];
  if (v.has_in && codec.captures && codec.captures[index] == api::Capture::kStringsIn) {
    bool ok = false;
    auto strings = DecodeStrings(v.in, &ok);
    if (!ok) {
      BytesJson(json, v.in, info, param, false);
      return;
    }
    json.BeginArray();
    for (std::string_view s : strings) json.String(s);
    json.EndArray();
    return;
  }
  if (v.has_in) {
    BytesJson(json, v.in, info, param, v.kind == ArgKind::kString);
  } else if (v.has_out) {
    BytesJson(json, v.out, info, param, false);
  } else {
    json.String(Hex(v.u));
  }
}

}  // namespace

std::string FormatValue(const DecodedCall& call, int index) {
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  const api::ParamInfo& param = info.params[index];
  const DecodedValue& v = call.args[index];
  bool egl = info.is_egl;
  if (v.kind != ArgKind::kPointer && v.kind != ArgKind::kString) return Scalar(v, egl, GroupOf(call, index));
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
  if (v.has_in) return v.kind == ArgKind::kString ? Quoted(v.in) : Bytes(v.in, info, param);
  if (v.has_out) return "&" + (IsCharType(param.type) ? Quoted(v.out) : Bytes(v.out, info, param));
  return Hex(v.u);
}

std::string FormatScalar(const DecodedCall& call, const DecodedValue& value) {
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  if (&value == &call.result) return Scalar(value, info.is_egl, info.return_enum_group);
  for (int i = 0; i < info.param_count; ++i) {
    if (&value == &call.args[i]) return Scalar(value, info.is_egl, GroupOf(call, i));
  }
  return Scalar(value, info.is_egl, api::kNoEnumGroup);
}

std::string FormatBytes(const DecodedCall& call, int arg_index, std::span<const uint8_t> bytes) {
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  return Bytes(bytes, info, info.params[arg_index]);
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
                        : Scalar(call.result, info.is_egl, info.return_enum_group));
  }
  return out;
}

std::string FormatResult(const DecodedCall& call) {
  if (!call.has_reply || call.result.kind == ArgKind::kVoid) return {};
  if (call.result.kind == ArgKind::kString) return call.result.has_out ? Quoted(call.result.out, 1 << 20) : "NULL";
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  return Scalar(call.result, info.is_egl, info.return_enum_group);
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
    json.BeginObject().Key("name").String(info.params[i].name).Key("value");
    ValueJson(json, call, i);
    if (v.has_in) json.Key("in_bytes").Int(static_cast<int64_t>(v.in.size()));
    if (v.has_out) json.Key("out_bytes").Int(static_cast<int64_t>(v.out.size()));
    json.EndObject();
  }
  json.EndArray();
  if (call.has_reply && call.result.kind != ArgKind::kVoid) {
    json.Key("result");
    if (call.result.kind == ArgKind::kString) {
      if (call.result.has_out) {
        json.String(Unterminated(call.result.out));
      } else {
        json.Null();
      }
    } else {
      ScalarJson(json, call.result, info.is_egl, info.return_enum_group);
    }
  }
  if (call.flags & kCallSynthesized) json.Key("synthesized").Bool(true);
  if (call.flags & kCallUncovered) json.Key("uncovered").Bool(true);
  if (call.flags & kCallUntimed) json.Key("untimed").Bool(true);
  json.Key("start_ns").Int(static_cast<int64_t>(call.start_ns));
  json.Key("duration_ns").Int(static_cast<int64_t>(call.duration_ns)).EndObject();
  return json.str();
}

std::string GlEnumText(uint32_t value) {
  if (const char* name = api::GlEnumName(value)) return name;
  return Hex(value);
}

}  // namespace strata::stream
