#pragma once
// The per-process control socket of a traceable process (Android's DdmServer
// start/stop): `strata trace --attach PID` / `--detach PID` talk to it over
// the abstract Unix socket @strata-trace-PID, one command line per
// connection:
//   attach COMPRESSION [capture=WHEN] [frames=N] DESTINATION
//                                    start tracing (file:PATH or listen:ADDRESS),
//                                    capturing framebuffers as STRATA_TRACE_CAPTURE=WHEN
//                                    (without it: as the process's own environment says);
//                                    with frames=N, the next N frames only, from where
//                                    the next frame begins (frame_range.h)
//   detach                           stop at each context's next swap, finish the trace
//   status                           "tracing DESTINATION" or "idle"
// Only the process's own user (or root) may connect.

#include <string>

namespace strata::trace {

// The control socket's address for process `pid`.
std::string ControlAddress(int pid);

// Starts the listener thread; false with `error` when the socket cannot be made.
bool StartControlServer(std::string* error);

}  // namespace strata::trace
