// Every generated recorder, encoded and decoded: each of the 1206 functions is
// called through its trace wrapper with sample arguments (the layer below is a
// stub), the trace is read back, and every call must decode to the values it
// was called with and print.
#include <EGL/egl.h>
#include <GLES3/gl32.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "layers/trace/next_functions.h"
#include "layers/trace/trace_session.h"
#include "layers/trace/trace_wrappers.h"
#include "stream/call_printer.h"
#include "stream/record_reader.h"
#include "support/scratch.h"

namespace {

using namespace strata;

// What each sample argument is: a small count, 1.5, or a pointer to memory
// filled with EGL_NONE words (so attribute lists end, and strings read "80").
alignas(64) uint8_t g_memory[1 << 16];
const char* g_strings[16];  // for pointer-to-pointer parameters (string arrays): "80"
constexpr int64_t kInt = 3;
constexpr float kFloat = 1.5f;

template <typename T>
T Sample() {
  if constexpr (std::is_pointer_v<T> && std::is_pointer_v<std::remove_pointer_t<T>>) {
    return reinterpret_cast<T>(reinterpret_cast<uintptr_t>(g_strings));
  } else if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<T>(g_memory);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(kFloat);
  } else {
    return static_cast<T>(kInt);
  }
}

// The sample each parameter of each function got, as the stream encodes it.
std::vector<uint64_t> g_expected[api::kFunctionCount];

template <typename T>
uint64_t Bits(T v) {
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<uintptr_t>(v);
  } else if constexpr (std::is_floating_point_v<T>) {
    return 0;  // floats are compared as floats
  } else {
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  }
}

template <typename R, typename... A>
void CallWithSamples(int slot, R (*fn)(A...)) {
  g_expected[slot] = {Bits(Sample<A>())...};
  fn(Sample<A>()...);
}

// The layer below the tracer: does nothing, returns zero.
#define STRATA_FUNCTION(slot, name, ret, params, args) \
  ret Stub_##name params { return static_cast<ret>(0); }
#include "strata/api/function_list.inc"
#undef STRATA_FUNCTION

TEST(CodecRoundTrip, EveryFunctionEncodesDecodesAndPrints) {
  for (size_t i = 0; i + 4 <= sizeof g_memory; i += 4) {
    const int32_t none = 0x3038;  // EGL_NONE
    std::memcpy(g_memory + i, &none, 4);
  }
  // The strings lie in g_memory too: a length array is a sample pointer
  // (EGL_NONE words, 12344), and a tracer that honours it reads that far.
  for (const char*& s : g_strings) s = reinterpret_cast<const char*>(g_memory);
#define STRATA_FUNCTION(slot, name, ret, params, args) \
  trace::g_next_functions[slot] = reinterpret_cast<void*>(&Stub_##name);
#include "strata/api/function_list.inc"
#undef STRATA_FUNCTION
  std::string path = strata::test::ScratchPath("round-trip.strace");
  std::string error;
  ASSERT_TRUE(trace::TraceSession::Get().Start("file:" + path, "lz4", &error)) << error;

#define STRATA_FUNCTION(slot, name, ret, params, args) \
  CallWithSamples(slot, reinterpret_cast<ret(*) params>(trace::kTraceWrappers[slot]));
#include "strata/api/function_list.inc"
#undef STRATA_FUNCTION
  trace::TraceSession::Get().Finish();

  auto reader = stream::RecordReader::Open(path, &error);
  ASSERT_NE(reader, nullptr) << error;
  EXPECT_TRUE(reader->complete());
  int calls = 0;
  uint64_t next_sequence = 0;
  stream::Record record;
  stream::DecodedCall call;
  stream::CallDecoder decoder(reader->functions());
  while (reader->Next(&record)) {
    if (record.type != stream::RecordType::kCall) continue;
    ASSERT_TRUE(decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &error)) << error;
    EXPECT_EQ(call.sequence, next_sequence++) << "sequence numbers must decode from their deltas";
    // eglMakeCurrent of a context the trace has not seen created is preceded by a made-up eglCreateContext.
    if (call.flags & stream::kCallSynthesized) {
      EXPECT_STREQ(api::kFunctions[call.slot].name, "eglCreateContext");
      continue;
    }
    // Calls were made in slot order, one each.
    ASSERT_EQ(call.slot, calls) << "expected " << api::kFunctions[calls].name << ", got " << call.name;
    const api::FunctionInfo& info = api::kFunctions[call.slot];
    ASSERT_EQ(call.args.size(), info.param_count) << info.name;
    for (int i = 0; i < info.param_count; ++i) {
      const stream::DecodedValue& v = call.args[i];
      uint64_t expected = g_expected[call.slot][i];
      if (v.kind == api::ArgKind::kFloat || v.kind == api::ArgKind::kDouble) {
        EXPECT_EQ(v.f, kFloat) << info.name << " " << info.params[i].name;
      } else if (v.kind == api::ArgKind::kInt) {
        EXPECT_EQ(v.i, static_cast<int64_t>(expected)) << info.name << " " << info.params[i].name;
      } else {
        EXPECT_EQ(v.u, expected) << info.name << " " << info.params[i].name;
      }
    }
    std::string text = stream::FormatCall(call);
    EXPECT_EQ(text.rfind(std::string(info.name) + "(", 0), 0u) << text;
    std::string json = stream::FormatCallJson(call);
    EXPECT_NE(json.find("\"function\":\"" + std::string(info.name) + "\""), std::string::npos) << json;
    ++calls;
  }
  EXPECT_TRUE(reader->error().empty()) << reader->error();
  EXPECT_EQ(calls, api::kFunctionCount);
  unlink(path.c_str());
}

// Values name themselves by their parameter's group; the value of a pname
// only where the pname takes tokens, and bits the group lacks stay in hex.
// Catches: GL_UNPACK_ROW_LENGTH 512 printed as GL_NEVER, a filter printed
// as a number, a bitfield's unnamed bits dropped.
TEST(CallPrinter, ValuesAreNamedWhereTheyAreTokens) {
  auto format = [](api::Slot slot, std::vector<stream::DecodedValue> args) {
    stream::DecodedCall call;
    call.slot = slot;
    call.args = std::move(args);
    const api::FunctionInfo& info = api::kFunctions[slot];
    for (int i = 0; i < info.param_count; ++i) call.args[i].kind = info.params[i].kind;
    return stream::FormatCall(call);
  };
  auto u = [](uint64_t v) {
    stream::DecodedValue value;
    value.u = v;
    value.i = static_cast<int64_t>(v);
    return value;
  };
  auto f = [](double v) {
    stream::DecodedValue value;
    value.f = v;
    return value;
  };
  EXPECT_EQ(format(api::glPixelStorei, {u(GL_UNPACK_ROW_LENGTH), u(512)}),
            "glPixelStorei(pname=GL_UNPACK_ROW_LENGTH, param=512)");
  EXPECT_EQ(format(api::glTexParameteri, {u(GL_TEXTURE_2D), u(GL_TEXTURE_MIN_FILTER), u(GL_LINEAR_MIPMAP_LINEAR)}),
            "glTexParameteri(target=GL_TEXTURE_2D, pname=GL_TEXTURE_MIN_FILTER, param=GL_LINEAR_MIPMAP_LINEAR)");
  EXPECT_EQ(format(api::glTexParameteri, {u(GL_TEXTURE_2D), u(GL_TEXTURE_MAX_LEVEL), u(515)}),
            "glTexParameteri(target=GL_TEXTURE_2D, pname=GL_TEXTURE_MAX_LEVEL, param=515)");
  EXPECT_EQ(format(api::glTexParameterf, {u(GL_TEXTURE_2D), u(GL_TEXTURE_MAG_FILTER), f(GL_NEAREST)}),
            "glTexParameterf(target=GL_TEXTURE_2D, pname=GL_TEXTURE_MAG_FILTER, param=GL_NEAREST)");
  EXPECT_EQ(format(api::glTexParameterf, {u(GL_TEXTURE_2D), u(GL_TEXTURE_MAX_LOD), f(512)}),
            "glTexParameterf(target=GL_TEXTURE_2D, pname=GL_TEXTURE_MAX_LOD, param=512)");
  EXPECT_EQ(format(api::glClear, {u(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | 0x1)}),
            "glClear(mask=GL_DEPTH_BUFFER_BIT | GL_COLOR_BUFFER_BIT | 0x1)");
  EXPECT_EQ(format(api::glDrawArrays, {u(GL_POINTS), u(0), u(3)}), "glDrawArrays(mode=GL_POINTS, first=0, count=3)");
  EXPECT_EQ(format(api::eglBindAPI, {u(EGL_OPENGL_ES_API)}), "eglBindAPI(api=EGL_OPENGL_ES_API)");
}

}  // namespace
