#pragma once
// The draw calls' hooks, defined inline so that each draw's recorder carries
// them: every draw runs them, and as calls into trace_hooks.cpp they cost
// each draw cache lines of their own, fetched again on every draw
// (docs/benchmarks.md, the tracer's code in the instruction cache). Before a
// draw: the client-side arrays and persistent mappings it reads, so the
// replayer has them first; after it: the final-frame mark and, with
// STRATA_TRACE_CAPTURE=draw, the framebuffer. What only a client array, a
// persistent mapping or a capture needs is out of line (trace_hooks.cpp).

#include <GLES3/gl32.h>

#include "layers/trace/context_state.h"
#include "layers/trace/final_frame.h"
#include "layers/trace/framebuffer_capture.h"
#include "layers/trace/surface_sizes.h"

namespace strata::trace {

// Out of line, in trace_hooks.cpp.
void RecordClientArrays(ContextState& state, GLint first, GLint end, GLsizei instances);
void RecordIndexedClientArrays(ContextState& state, GLsizei count, GLenum type, const void* indices,
                               GLsizei instances, GLint base_vertex);
void RecordPersistentMappings(ContextState& state);

inline void AfterDraw() {
  NoteDrawn();
  if (CaptureAfterDraws()) [[unlikely]] CaptureDrawFramebuffer();
}

// Before a draw: a resized window's size (surface_sizes.h), what the app
// wrote into persistent mappings since the last draw, then the client-side
// arrays the draw reads; an array draw over vertices [first, first + count),
// an indexed one by its indices.
inline void BeforeArraysDraw(GLint first, GLsizei count, GLsizei instances) {
  BeforeSurfaceWrite();
  ContextState* state = CurrentContextState();
  if (state == nullptr) [[unlikely]] return;
  if (state->persistent_mappings != 0) [[unlikely]] RecordPersistentMappings(*state);
  if (state->arrays.AnyInClientMemory()) [[unlikely]] RecordClientArrays(*state, first, first + count, instances);
}
inline void BeforeIndexedDraw(GLsizei count, GLenum type, const void* indices, GLsizei instances, GLint base_vertex) {
  BeforeSurfaceWrite();
  ContextState* state = CurrentContextState();
  if (state == nullptr) [[unlikely]] return;
  if (state->persistent_mappings != 0) [[unlikely]] RecordPersistentMappings(*state);
  if (state->arrays.AnyInClientMemory()) [[unlikely]] {
    RecordIndexedClientArrays(*state, count, type, indices, instances, base_vertex);
  }
}

inline void Before_glDrawArrays(GLenum, GLint first, GLsizei count) { BeforeArraysDraw(first, count, 1); }
inline void Before_glDrawArraysInstanced(GLenum, GLint first, GLsizei count, GLsizei instancecount) {
  BeforeArraysDraw(first, count, instancecount);
}
inline void Before_glDrawElements(GLenum, GLsizei count, GLenum type, const void* indices) {
  BeforeIndexedDraw(count, type, indices, 1, 0);
}
inline void Before_glDrawElementsInstanced(GLenum, GLsizei count, GLenum type, const void* indices,
                                           GLsizei instancecount) {
  BeforeIndexedDraw(count, type, indices, instancecount, 0);
}
inline void Before_glDrawRangeElements(GLenum, GLuint, GLuint, GLsizei count, GLenum type, const void* indices) {
  BeforeIndexedDraw(count, type, indices, 1, 0);
}
inline void Before_glDrawElementsBaseVertex(GLenum, GLsizei count, GLenum type, const void* indices,
                                            GLint basevertex) {
  BeforeIndexedDraw(count, type, indices, 1, basevertex);
}
inline void Before_glDrawElementsInstancedBaseVertex(GLenum, GLsizei count, GLenum type, const void* indices,
                                                     GLsizei instancecount, GLint basevertex) {
  BeforeIndexedDraw(count, type, indices, instancecount, basevertex);
}
inline void Before_glDrawRangeElementsBaseVertex(GLenum, GLuint, GLuint, GLsizei count, GLenum type,
                                                 const void* indices, GLint basevertex) {
  BeforeIndexedDraw(count, type, indices, 1, basevertex);
}
inline void Before_glDrawArraysIndirect(GLenum, const void*) { BeforeSurfaceWrite(); }
inline void Before_glDrawElementsIndirect(GLenum, GLenum, const void*) { BeforeSurfaceWrite(); }

inline void After_glDrawArrays(GLenum, GLint, GLsizei) { AfterDraw(); }
inline void After_glDrawArraysInstanced(GLenum, GLint, GLsizei, GLsizei) { AfterDraw(); }
inline void After_glDrawElements(GLenum, GLsizei, GLenum, const void*) { AfterDraw(); }
inline void After_glDrawElementsInstanced(GLenum, GLsizei, GLenum, const void*, GLsizei) { AfterDraw(); }
inline void After_glDrawRangeElements(GLenum, GLuint, GLuint, GLsizei, GLenum, const void*) { AfterDraw(); }
inline void After_glDrawElementsBaseVertex(GLenum, GLsizei, GLenum, const void*, GLint) { AfterDraw(); }
inline void After_glDrawElementsInstancedBaseVertex(GLenum, GLsizei, GLenum, const void*, GLsizei, GLint) {
  AfterDraw();
}
inline void After_glDrawRangeElementsBaseVertex(GLenum, GLuint, GLuint, GLsizei, GLenum, const void*, GLint) {
  AfterDraw();
}
inline void After_glDrawArraysIndirect(GLenum, const void*) { AfterDraw(); }
inline void After_glDrawElementsIndirect(GLenum, GLenum, const void*) { AfterDraw(); }

}  // namespace strata::trace
