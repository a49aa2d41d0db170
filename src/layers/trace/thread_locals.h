#pragma once
// The trace layer's per-thread values that the per-call paths read: one
// initial-exec TLS block, so that a call loads one GOT entry and touches one
// cache line for all of them (as separate variables, each had a GOT entry of
// its own, four GOT lines on a draw's path, each fetched again after the
// driver's draw emptied the caches: docs/benchmarks.md, "What a call touches
// of data, in fewer lines"). What each means is said where it is kept:
// call_writer.h (tracing, stream, state_stream), context_state.h
// (context_state) and final_frame.h (the framebuffer marks).

#include <GLES2/gl2.h>

#include <cstdint>

namespace strata::trace {

struct ThreadStream;
struct ContextState;

struct alignas(64) ThreadLocals {  // one line, wherever the TLS block lands
  intptr_t state_stream = -1;                 // call_writer.h: kStateGeneral
  struct ThreadStream* stream = nullptr;      // call_writer.h
  struct ContextState* context_state = nullptr;  // context_state.h
  int8_t tracing = -1;                        // call_writer.h: kTracingUndecided
  bool surface_drawn_since_swap = false;      // final_frame.h
  GLuint draw_framebuffer = 0;                // final_frame.h
  GLuint framebuffer_drawn = 0;               // final_frame.h
  // Not next to surface_drawn_since_swap: a draw sets both, and GCC merges two
  // adjacent byte stores into one whose value it loads from another line.
  bool surface_drawn_since_capture = false;   // final_frame.h
  bool surface_size_due = false;              // surface_sizes.h
};

extern __thread ThreadLocals t_locals __attribute__((tls_model("initial-exec")));

}  // namespace strata::trace
