#include "export/gltrace_export.h"

#include <lzf.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gltrace.pb.h"
#include "strata/api/codec.h"
#include "strata/api/traits.h"
#include "strata/api/functions.h"

namespace strata::exporter {
namespace {

using android::gltrace::GLMessage;
using DataType = android::gltrace::GLMessage_DataType;
using api::ArgKind;

// Android's function numbers for this build's functions, by dispatch slot,
// looked up by name in the enum of gltrace.proto. A function Android never
// numbered gets `invalid`, the enum's own "no function" value.
class FunctionNumbers {
 public:
  FunctionNumbers() : numbers_(api::kFunctionCount, GLMessage::invalid) {
    for (int slot = 0; slot < api::kFunctionCount; ++slot) {
      GLMessage::Function number;
      if (GLMessage::Function_Parse(api::kFunctions[slot].name, &number)) numbers_[slot] = number;
    }
  }
  GLMessage::Function Of(int slot) const { return numbers_[slot]; }

 private:
  std::vector<GLMessage::Function> numbers_;
};

// How the elements behind a pointer are shown, from the pointer's C type.
enum class Element { kBytes, kChar, kFloat, kEnum, kInt16, kInt32, kInt64, kBool };

Element ElementOf(std::string_view type) {
  auto has = [&](std::string_view part) { return type.find(part) != std::string_view::npos; };
  if (has("char")) return Element::kChar;  // GLchar, char
  if (has("GLfloat") || has("GLclampf")) return Element::kFloat;
  if (has("GLenum")) return Element::kEnum;
  // Before GLint: GLint64, GLuint64, GLintptr and GLsizeiptr are 8 bytes wide.
  if (has("64") || has("ptr") || has("EGLAttrib")) return Element::kInt64;
  if (has("GLint") || has("GLuint") || has("GLsizei") || has("EGLint") || has("GLfixed") || has("GLbitfield")) {
    return Element::kInt32;
  }
  if (has("GLshort") || has("GLushort")) return Element::kInt16;
  if (has("GLboolean")) return Element::kBool;
  return Element::kBytes;  // void, GLubyte, GLbyte, EGL handles, ...
}

size_t ElementSize(Element element) {
  switch (element) {
    case Element::kInt64: return 8;
    case Element::kFloat:
    case Element::kEnum:
    case Element::kInt32: return 4;
    case Element::kInt16: return 2;
    default: return 1;
  }
}

template <typename T>
T Load(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

// A C string: up to its first NUL.
std::string_view CString(std::span<const uint8_t> bytes) {
  std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  return text.substr(0, text.find('\0'));
}

// The bytes behind a pointer, as Android's tracer stored them: typed arrays
// (isArray) of the pointer's element type, strings as CHAR, anything else as
// BYTE. Android's tracer did this per function by hand; here the C type decides.
void SetPointerData(std::span<const uint8_t> bytes, std::string_view c_type, ArgKind kind, DataType* out) {
  Element element = kind == ArgKind::kString ? Element::kChar : ElementOf(c_type);
  size_t size = ElementSize(element);
  if (bytes.size() % size != 0) element = Element::kBytes;  // not whole elements: keep the bytes as they are
  size_t count = bytes.size() / size;
  out->set_isarray(true);
  const uint8_t* p = bytes.data();
  switch (element) {
    case Element::kChar: {
      std::string_view text = CString(bytes);
      out->set_type(DataType::CHAR);
      out->add_charvalue(text.data(), text.size());
      return;
    }
    case Element::kFloat:
      out->set_type(DataType::FLOAT);
      out->mutable_floatvalue()->Reserve(static_cast<int>(count));
      for (size_t i = 0; i < count; ++i) out->add_floatvalue(Load<float>(p + i * 4));
      return;
    case Element::kEnum:
    case Element::kInt32:
      out->set_type(element == Element::kEnum ? DataType::ENUM : DataType::INT);
      out->mutable_intvalue()->Reserve(static_cast<int>(count));
      for (size_t i = 0; i < count; ++i) out->add_intvalue(Load<int32_t>(p + i * 4));
      return;
    case Element::kInt16:
      out->set_type(DataType::INT);
      for (size_t i = 0; i < count; ++i) out->add_intvalue(Load<int16_t>(p + i * 2));
      return;
    case Element::kInt64:
      out->set_type(DataType::INT64);
      out->mutable_int64value()->Reserve(static_cast<int>(count));
      for (size_t i = 0; i < count; ++i) out->add_int64value(Load<int64_t>(p + i * 8));
      return;
    case Element::kBool:
      out->set_type(DataType::BOOL);
      for (size_t i = 0; i < count; ++i) out->add_boolvalue(p[i] != 0);
      return;
    case Element::kBytes:
      out->set_type(DataType::BYTE);
      out->add_rawbytes(bytes.data(), bytes.size());
      return;
  }
}

void SetAddress(uint64_t address, DataType* out) {
  out->set_type(DataType::INT64);
  out->set_isarray(false);
  out->add_int64value(static_cast<int64_t>(address));
}

// A scalar argument. 64-bit C types (GLint64, GLuint64, EGLTime...) keep
// all their bits in int64Value; every other integer is an int32 intValue,
// as Android stored GLintptr and GLsizeiptr too.
void SetScalar(const stream::DecodedValue& v, bool wide, DataType* out) {
  out->set_isarray(false);
  switch (v.kind) {
    case ArgKind::kInt:
      if (wide) {
        out->set_type(DataType::INT64);
        out->add_int64value(v.i);
      } else {
        out->set_type(DataType::INT);
        out->add_intvalue(static_cast<int32_t>(v.i));
      }
      return;
    case ArgKind::kUInt:
    case ArgKind::kBitfield:
      if (wide) {
        out->set_type(DataType::INT64);
        out->add_int64value(static_cast<int64_t>(v.u));
      } else {
        out->set_type(DataType::INT);
        out->add_intvalue(static_cast<int32_t>(static_cast<uint32_t>(v.u)));
      }
      return;
    case ArgKind::kEnum:
      out->set_type(DataType::ENUM);
      out->add_intvalue(static_cast<int32_t>(static_cast<uint32_t>(v.u)));
      return;
    case ArgKind::kBoolean:
      out->set_type(DataType::BOOL);
      out->add_boolvalue(v.u != 0);
      return;
    case ArgKind::kFloat:
    case ArgKind::kDouble:
      out->set_type(DataType::FLOAT);
      out->add_floatvalue(static_cast<float>(v.f));
      return;
    default:  // handles, and pointers without data: the address
      SetAddress(v.u, out);
      return;
  }
}

void SetArgument(const stream::DecodedCall& call, int index, DataType* out) {
  const api::ParamInfo& param = api::kFunctions[call.slot].params[index];
  const stream::DecodedValue& v = call.args[index];
  if (v.kind != ArgKind::kPointer && v.kind != ArgKind::kString) {
    SetScalar(v, std::string_view(param.type).find("64") != std::string_view::npos, out);
    return;
  }
  const api::FunctionCodec& codec = api::kCodec[call.slot];
  api::Capture capture = codec.captures ? codec.captures[index] : api::Capture::kNone;
  if (capture == api::Capture::kStringsIn && v.has_in) {
    // glShaderSource: Android joined the strings into one CHAR value.
    bool ok = false;
    auto strings = stream::DecodeStrings(v.in, &ok);
    if (ok) {
      std::string joined;
      for (std::string_view s : strings) joined += s;
      out->set_type(DataType::CHAR);
      out->set_isarray(true);
      out->add_charvalue(std::move(joined));
      return;
    }
  }
  // What the call wrote (glGen*, glGet*) is what matters for outputs.
  bool output = capture == api::Capture::kOut || capture == api::Capture::kInOut;
  if (output && v.has_out) {
    SetPointerData(v.out, param.type, v.kind, out);
  } else if (v.has_in) {
    SetPointerData(v.in, param.type, v.kind, out);
  } else if (v.has_out) {
    SetPointerData(v.out, param.type, v.kind, out);
  } else {
    SetAddress(v.u, out);  // NULL, an offset into a bound buffer, or data not captured
  }
}

// The return value; its C type is not in the model, so an integer that does
// not fit 32 bits is written as INT64.
void SetResult(const stream::DecodedValue& v, DataType* out) {
  if (v.kind == ArgKind::kString) {
    if (v.has_out) {
      SetPointerData(v.out, "GLchar", v.kind, out);
    } else {
      SetAddress(v.u, out);
    }
    return;
  }
  bool wide = (v.kind == ArgKind::kInt && (v.i < INT32_MIN || v.i > INT32_MAX)) ||
              ((v.kind == ArgKind::kUInt || v.kind == ArgKind::kBitfield) && v.u > UINT32_MAX);
  SetScalar(v, wide, out);
}

// An image compressed as the format stores it.
struct CompressedImage {
  int32_t width = 0, height = 0;
  bool whole_surface = false;  // of the surface, from its origin: what a swap shows
  std::string lzf;
};

bool Compress(const stream::FramebufferImage& image, CompressedImage* out) {
  // The format knows one pixel layout, RGBA8 bottom row first, which is
  // also the tracer's format 0.
  if (image.format != 0 || image.width == 0 || image.height == 0 || image.width > INT32_MAX ||
      image.height > INT32_MAX || image.pixels.size() > std::numeric_limits<unsigned>::max()) {
    return false;
  }
  out->width = static_cast<int32_t>(image.width);
  out->height = static_cast<int32_t>(image.height);
  out->whole_surface = image.framebuffer == 0 && image.x == 0 && image.y == 0;
  // LZF output can exceed its input by about 1/32 (incompressible data):
  // with room for that, compression cannot fail.
  size_t room = image.pixels.size() + image.pixels.size() / 16 + 64;
  out->lzf.resize(room);
  unsigned size = lzf_compress(image.pixels.data(), static_cast<unsigned>(image.pixels.size()), out->lzf.data(),
                               static_cast<unsigned>(room));
  if (size == 0) return false;
  out->lzf.resize(size);
  return true;
}

class GltraceWriter : public TraceVisitor {
 public:
  GltraceWriter(const stream::TraceHeader& header, OutputFile& out, ExportSummary* summary)
      : start_time_ns_(header.start_time_unix_ns), out_(out), summary_(summary) {}

  void OnCall(const stream::DecodedCall& call, bool selected) override {
    ThreadState& thread = threads_[static_cast<uint32_t>(call.thread)];
    // Images seen since this thread's last call: one taken at a swap comes
    // right before the swap, one taken after a draw right after the draw.
    CompressedImage swap_image;
    bool has_swap_image = false;
    // By the call's traits (api/function_traits.txt): a swap ends a frame, a draw of any kind is
    // what STRATA_TRACE_CAPTURE=draw captures after.
    if (!thread.pending.empty() && api::HasTrait(call.slot, api::kEndsFrame) && thread.pending.back().whole_surface) {
      swap_image = std::move(thread.pending.back());
      thread.pending.pop_back();
      has_swap_image = true;
    }
    ResolvePending(thread);
    if (!selected) {
      summary_->images_left_out += has_swap_image;
      return;
    }
    GLMessage& message = thread.message;
    BuildMessage(call, &message);
    if (has_swap_image) AttachImage(std::move(swap_image), &message);
    if (api::IsDraw(call.slot)) {
      thread.holding = true;  // an image taken after it may follow
    } else {
      Write(&message);
    }
  }

  void OnFramebuffer(uint32_t thread_id, const stream::FramebufferImage& image, bool selected) override {
    CompressedImage compressed;
    if (!selected || !Compress(image, &compressed)) {
      ++summary_->images_left_out;
      return;
    }
    threads_[thread_id].pending.push_back(std::move(compressed));
  }

  void OnFrameEnd(uint32_t, uint64_t, bool) override {}
  bool OutputFailed() const override { return out_.failed(); }

  // Writes what is still held at the end of the trace.
  void Finish() {
    for (auto& [id, thread] : threads_) ResolvePending(thread);
  }

 private:
  struct ThreadState {
    GLMessage message;     // reused for every call of the thread
    bool holding = false;  // `message` is a draw not written yet
    std::vector<CompressedImage> pending;
  };

  // Images left pending belong to the call before them (a draw, when
  // capturing after draws); then that call is written.
  void ResolvePending(ThreadState& thread) {
    if (!thread.pending.empty()) {
      if (thread.holding) {
        AttachImage(std::move(thread.pending.back()), &thread.message);
        summary_->images_left_out += thread.pending.size() - 1;
      } else {
        summary_->images_left_out += thread.pending.size();
      }
      thread.pending.clear();
    }
    if (thread.holding) {
      thread.holding = false;
      Write(&thread.message);
    }
  }

  void BuildMessage(const stream::DecodedCall& call, GLMessage* message) {
    GLMessage::Function number = numbers_.Of(call.slot);
    if (number == GLMessage::invalid) ++summary_->unnamed_functions[std::string(call.name)];
    message->set_function(number);
    message->set_context_id(static_cast<int32_t>(call.context));
    message->set_start_time(static_cast<int64_t>(start_time_ns_ + call.start_ns));
    message->set_duration(static_cast<int32_t>(std::min<uint64_t>(call.duration_ns, INT32_MAX)));
    const api::FunctionInfo& info = api::kFunctions[call.slot];
    for (int i = 0; i < info.param_count; ++i) SetArgument(call, i, message->add_args());
    if (call.has_reply && call.result.kind != ArgKind::kVoid) SetResult(call.result, message->mutable_returnvalue());
  }

  void AttachImage(CompressedImage image, GLMessage* message) {
    auto* fb = message->mutable_fb();
    fb->set_width(image.width);
    fb->set_height(image.height);
    fb->add_contents(std::move(image.lzf));
  }

  void Write(GLMessage* message) {
    size_t size = message->ByteSizeLong();
    if (size > INT32_MAX) {  // cannot be framed; no call record is that large
      message->Clear();
      return;
    }
    buffer_.resize(4 + size);
    auto* bytes = reinterpret_cast<uint8_t*>(buffer_.data());
    bytes[0] = static_cast<uint8_t>(size >> 24);
    bytes[1] = static_cast<uint8_t>(size >> 16);
    bytes[2] = static_cast<uint8_t>(size >> 8);
    bytes[3] = static_cast<uint8_t>(size);
    message->SerializeWithCachedSizesToArray(bytes + 4);
    out_.Write(buffer_);
    ++summary_->calls;
    summary_->images += message->has_fb();
    message->Clear();
  }

  const FunctionNumbers numbers_;
  const uint64_t start_time_ns_;
  OutputFile& out_;
  ExportSummary* summary_;
  std::unordered_map<uint32_t, ThreadState> threads_;
  std::string buffer_;
};

}  // namespace

void ExportGltrace(stream::RecordReader& reader, const Selection& selection, OutputFile& out, ExportSummary* summary) {
  GOOGLE_PROTOBUF_VERIFY_VERSION;
  GltraceWriter writer(reader.header(), out, summary);
  WalkTrace(reader, selection, writer, summary);
  writer.Finish();
}

}  // namespace strata::exporter
