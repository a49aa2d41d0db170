#pragma once
// When tracing starts while the thread's context is current (an attach to a
// running program, tracing switched on at a frame), everything the program
// made before is missing from the trace. This writes it: a snapshot of the
// context (snapshot/), read through the functions below the tracer, as
// made-up calls right after the made-up eglCreateContext and eglMakeCurrent,
// so that the trace replays alone. docs/inspect.md, "Mid-run captures".

namespace strata::trace {

// For the current context, if its creation in this trace is made up (it
// existed before tracing began), once per trace session; needs the thread
// tracing. The app's pending GL error and bindings are left as they were.
// `at_frame_start`: taken right after a swap, where the surface holds what
// the app drew only if it keeps its buffer across swaps (EGL_BUFFER_PRESERVED);
// otherwise at a swap or an eglMakeCurrent, where it holds the frame being drawn.
void SynthesizeContextSnapshot(bool at_frame_start = false);

}  // namespace strata::trace
