#pragma once
// Writes a trace as Android's GLES tracer wrote it (a .gltrace file for the
// "OpenGL Trace" view of Android Device Monitor): one android.gltrace.GLMessage
// per call (gltrace.proto), each after its size as a 4-byte big-endian integer.
// What maps to what, and what is lost, is in docs/export.md.

#include "export/output_file.h"
#include "export/trace_walk.h"
#include "stream/record_reader.h"

namespace strata::exporter {

// Writes the records `reader` has left to `out`. The caller checks
// `reader.error()` and closes `out` afterwards.
void ExportGltrace(stream::RecordReader& reader, const Selection& selection, OutputFile& out, ExportSummary* summary);

}  // namespace strata::exporter
