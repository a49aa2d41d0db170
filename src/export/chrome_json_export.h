#pragma once
// Writes a trace as Trace Event Format JSON (chrome://tracing, Perfetto UI):
// one complete slice per call on its thread's track, frames as slices on a
// track of their own per rendering thread. Streamed: memory use does not
// grow with the trace. Details in docs/export.md.

#include "common/gpu_times_file.h"
#include "export/output_file.h"
#include "export/trace_walk.h"
#include "stream/record_reader.h"

namespace strata::exporter {

// Writes the records `reader` has left to `out` as one JSON object. The
// caller checks `reader.error()` and closes `out` afterwards; the JSON is
// complete even when the trace ends early. With `gpu_times` (strata replay
// --gpu-times), each timed call also gets a slice on a GPU track of its
// context.
void ExportChromeJson(stream::RecordReader& reader, const Selection& selection, OutputFile& out,
                      ExportSummary* summary, const GpuTimesFile* gpu_times = nullptr);

// Thread ids of the frame tracks: the rendering thread's id plus this, which
// is above any Linux thread id (PID_MAX_LIMIT is 2^22), so they never collide.
inline constexpr uint64_t kFrameTrackOffset = uint64_t{1} << 22;
// Thread ids of the GPU tracks: the context id plus this (above the frame tracks).
inline constexpr uint64_t kGpuTrackOffset = uint64_t{1} << 23;

}  // namespace strata::exporter
