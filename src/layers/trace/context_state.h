#pragma once
// What the tracer must remember per EGL context to capture data the API call
// itself does not carry: client-side vertex arrays (read at draw time) and
// mapped buffer ranges (written behind the API's back, read at unmap/flush,
// and at every draw for persistent mappings).

#include <GLES3/gl32.h>

#include <cstdint>
#include <map>
#include <vector>

#include "layers/trace/thread_locals.h"
#include "stream/client_arrays.h"

namespace strata::trace {

struct MappedRange {
  uint8_t* pointer = nullptr;
  GLsizeiptr length = 0;
  GLbitfield access = 0;
  // Persistent mappings stay mapped while the GL reads them: what the trace
  // last recorded of one, so that each draw records only the bytes that changed.
  std::vector<uint8_t> recorded;
};

struct alignas(64) ContextState {  // line-aligned: see persistent_mappings
  uint64_t id = 0;  // small number the trace uses for the context (1, 2, ...)
  uint64_t handle = 0;  // the EGLContext
  // Seen made (traced or not), and the context it was made to share objects
  // with (0: none): an attach recreates share groups from these.
  bool made = false;
  uint64_t shares_with = 0;
  uint32_t session = 0;  // the trace session in which its creation was recorded
  uint32_t described = 0;  // the trace session in which its driver strings were recorded
  uint32_t synthesized = 0;       // the trace session whose trace has a made-up creation of it (it existed before)
  uint32_t snapshot_session = 0;  // the trace session whose trace has its snapshot (attach_snapshot.h)
  int client_version = 2;
  // Of `mapped`, those with GL_MAP_PERSISTENT_BIT. Every draw reads it and
  // the first word of `arrays` (whether any array is in client memory): the
  // two share the struct's first cache line.
  int persistent_mappings = 0;
  capture::ClientArrays arrays;  // of vertex array object 0
  std::map<GLuint, MappedRange> mapped;  // by buffer name
};

// The state of the calling thread's current context, or nullptr
// (t_locals.context_state). Read inline on every draw: initial-exec TLS, so
// no __tls_get_addr call.
inline ContextState* CurrentContextState() { return t_locals.context_state; }
int CurrentContextVersion();  // 0 without a context
// Switches the calling thread to `context` (0: none) of `version`; returns
// the context's id in the trace (0 for none).
uint64_t MakeContextCurrent(uint64_t context, int version);
void ForgetContext(uint64_t context);
// The state of `context` (created on first use); never freed.
ContextState& StateOf(uint64_t context);
// The first context of `context`'s share group that is still alive, as far
// as the contexts' making was seen (itself when it shares with none).
uint64_t ShareGroupRoot(uint64_t context);

}  // namespace strata::trace
