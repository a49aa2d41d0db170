#pragma once
// The draw calls' hooks, defined inline so that each draw's recorder carries
// them: every draw runs them, and as calls into trace_hooks.cpp they cost
// each draw cache lines of their own, fetched again on every draw
// (docs/benchmarks.md, the tracer's code in the instruction cache). The
// generated recorder of every draw calls the one its draw trait names
// (api/function_traits.txt, so an alias such as glDrawArraysInstancedEXT
// is its core's draw), with the parts of its arguments that say what it
// reads. Before a draw: a resized window's size, the client-side arrays and
// persistent mappings it reads, so the replayer has them first; after it: the final-frame mark
// and, with STRATA_TRACE_CAPTURE=draw, the framebuffer. What only a client
// array, a persistent mapping or a capture needs is out of line
// (trace_hooks.cpp).

#include <GLES3/gl32.h>

#include "layers/trace/context_state.h"
#include "layers/trace/final_frame.h"
#include "layers/trace/framebuffer_capture.h"
#include "layers/trace/surface_sizes.h"

namespace strata::trace {

// Out of line, in trace_hooks.cpp.
void RecordClientArrays(ContextState& state, int64_t first, int64_t end, int64_t instances);
void RecordIndexedClientArrays(ContextState& state, GLsizei count, GLenum type, const void* indices,
                               int64_t instances, GLint base_vertex);
void RecordMultiDraw(ContextState& state, const capture::DrawCall& draw);
void RecordPersistentMappings(ContextState& state);

inline void AfterDraw() {
  NoteDrawn();
  if (CaptureAfterDraws()) [[unlikely]] CaptureDrawFramebuffer();
}

// Before a draw: a resized window's size (surface_sizes.h), what the app
// wrote into persistent mappings since the last draw, then the client-side arrays the draw reads; an array draw over
// vertices [first, first + count), an indexed one by its indices; instances
// counted from instance 0 (a base instance's draw reads those before it
// in divided arrays' terms).
inline void BeforeArraysDraw(GLint first, GLsizei count, int64_t instances) {
  BeforeSurfaceWrite();
  ContextState* state = CurrentContextState();
  if (state == nullptr) [[unlikely]] return;
  if (state->persistent_mappings != 0) [[unlikely]] RecordPersistentMappings(*state);
  if (state->arrays.AnyInClientMemory()) [[unlikely]] {
    RecordClientArrays(*state, first, int64_t{first} + count, instances);
  }
}
inline void BeforeIndexedDraw(GLsizei count, GLenum type, const void* indices, int64_t instances, GLint base_vertex) {
  BeforeSurfaceWrite();
  ContextState* state = CurrentContextState();
  if (state == nullptr) [[unlikely]] return;
  if (state->persistent_mappings != 0) [[unlikely]] RecordPersistentMappings(*state);
  if (state->arrays.AnyInClientMemory()) [[unlikely]] {
    RecordIndexedClientArrays(*state, count, type, indices, instances, base_vertex);
  }
}
// A multi-draw: its index arrays in app memory too, whatever the vertex arrays.
inline void BeforeMultiDraw(const capture::DrawCall& draw) {
  BeforeSurfaceWrite();
  ContextState* state = CurrentContextState();
  if (state == nullptr) [[unlikely]] return;
  if (state->persistent_mappings != 0) [[unlikely]] RecordPersistentMappings(*state);
  RecordMultiDraw(*state, draw);
}
// A draw that reads no client-side array (indirect draws: GLES forbids them).
inline void BeforeDrawFromBuffers() {
  BeforeSurfaceWrite();
  ContextState* state = CurrentContextState();
  if (state != nullptr && state->persistent_mappings != 0) [[unlikely]] RecordPersistentMappings(*state);
}

}  // namespace strata::trace
