#pragma once
// The command-stream format shared by trace files and the wire
// (docs/trace-format.md): a sequence of records, each
//   u8 type | varint payload length | payload.
// Integers inside payloads are LEB128 varints (signed ones zigzag-encoded).

#include <cstdint>

namespace strata::stream {

enum class RecordType : uint8_t {
  kFunctionTable = 1,  // names of the functions, by the ids call records use
  kCall = 2,           // one call: arguments, input bytes, timing, reply
  kMemory = 3,         // bytes of app memory a later call reads (client arrays, mapped buffers)
  kFrame = 4,          // a frame ended (after eglSwapBuffers or a damage-region swap)
  kFramebuffer = 5,    // a captured framebuffer image
  kReply = 6,          // wire only: the reply to a call record sent without one
  kTraceEvent = 7,     // tracing switched on/off, a sink problem, ...
  kWordRun = 8,        // wire only: calls of scalars as the executor's words (word_run.h)
};


// Bits of a call record's flags byte.
enum CallFlags : uint8_t {
  kCallHasReply = 1,     // the return value and output bytes follow
  kCallUncovered = 2,    // some pointer parameter has no capture rule: no bytes for it
  kCallSynthesized = 4,  // made up by the tracer (state of a context traced mid-run)
  kCallUntimed = 8,      // a state-setting call the clock was not read for: its start is the end of
                         // the thread's previous timed call, its duration 0 (trace-format.md, Timing)
  // 16 is the wire's "wants reply" (wire.h).
  kCallUnknownFunction = 32,  // a function the tracer's registry did not know: its name follows the
                              // header as a blob, then the times; no arguments (trace-format.md)
};

}  // namespace strata::stream
