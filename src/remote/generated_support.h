#pragma once
// What the generated client functions (build/generated/src/remote_functions.cpp)
// use: the thread's connection, the one encoder, the capture rules, and the
// few helpers below.

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "common/shader_stages.h"
#include "remote/connection.h"
#include "stream/call_encoder.h"
#include "stream/capture_sizes.h"
#include "stream/client_arrays.h"
#include "stream/record_format.h"
#include "stream/wire.h"
#include "strata/api/functions.h"
#include "strata/api/traits.h"
#include "strata/api/types.h"

namespace strata::remote {

#include "remote/remote_hand_written.inc"

// What the generated functions call by a function's traits
// (api/function_traits.txt), in client_arrays.cpp: the client-side arrays a
// client-array call changes, and before a draw what it reads of app memory
// (persistent mappings, a multi-draw's index arrays, client-side arrays),
// given the draw's connection.
void NoteClientArrays(const capture::ArrayCall& call);
void BeforeArraysDraw(Connection& c, GLint first, GLsizei count, int64_t instances);
void BeforeIndexedDraw(Connection& c, GLsizei count, GLenum type, const void* indices, int64_t instances,
                       GLint base_vertex);
void BeforeMultiDraw(Connection& c, const capture::DrawCall& draw);
void BeforeDrawFromBuffers(Connection& c);
// Before the other calls that write the draw framebuffer (clears, blits), in
// window_sizes.cpp: a resized window's size (the draws above send it too).
void BeforeSurfaceWrite();

// For the errors= checks (api/error_checks.py), in client_answers.cpp: a
// limit's value as the context's driver answered it, else the least one the
// specification allows; whether a value is glEnable's or glHint's target in
// a context of major version `version`.
uint64_t KnownLimit(Connection& c, GLenum pname, int64_t spec_minimum);
bool IsCapability(uint64_t value, int version);
bool IsHintTarget(uint64_t value, int version);

// Whether `dpy` is one of the client's displays and initialized; sets the
// thread's EGL error when not (client_egl.cpp).
bool DisplayReady(EGLDisplay dpy);

// The client's function per slot: what its eglGetProcAddress hands out.
extern void* const kRemoteFunctions[api::kFunctionCount];

// The bytes behind an input pointer (absent for NULL).
inline void PutBlob(stream::CallEncoder& w, const void* data, size_t size) {
  if (data == nullptr) return w.Absent();
  w.Blob(data, size);
}

// A glGet* output up to this size goes out with the app's bytes in it
// (api/emit_remote.py, _keeps_unwritten_output): the renderer starts from
// them, so an output its driver does not write comes back unchanged.
inline constexpr size_t kSentOutputBytes = 64;

// An array of strings (glShaderSource): varint count, then per string a
// varint length and its bytes (docs/trace-format.md).
void PutStrings(stream::CallEncoder& w, const GLchar* const* strings, GLsizei count, const GLint* lengths);

// Output bytes of a reply into the app's memory, no more than `room`.
inline void CopyOut(void* destination, const stream::DecodedValue& value, size_t room) {
  if (destination == nullptr || !value.has_out) return;
  std::memcpy(destination, value.out.data(), std::min(value.out.size(), room));
}

}  // namespace strata::remote
