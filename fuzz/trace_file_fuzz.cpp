// The trace file container (stream/trace_file.h), as `strata dump`, `stats`
// and `replay` read it: header, chunks, frame index, damaged and cut files.
// A live trace (`strata trace --connect`) is stored byte for byte and then
// read by the same code, so this target covers the live socket's bytes too.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "stream/ordered_reader.h"
#include "stream/record_reader.h"
#include "stream/trace_file.h"

using namespace strata;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A mutated chunk keeps its old CRC: without this, nothing past the CRC check would be reached.
  static const bool ignored = (stream::IgnoreChecksumsForFuzzing(), true);
  (void)ignored;
  const std::string path = fuzz::AsFile({data, size});
  std::string error;

  // The container alone: every chunk, then the index's entries as seek targets.
  if (auto file = stream::TraceFileReader::Open(path, &error)) {
    std::vector<uint8_t> records;
    stream::ChunkInfo info;
    while (file->NextChunk(&records, &info, &error)) {
    }
    std::vector<stream::ChunkLocation> chunks;
    file->ScanChunks(&chunks, &error);
    for (const stream::FrameIndexEntry& frame : file->frames()) {
      if (file->SeekToChunkAt(frame.chunk_offset, &error)) file->NextChunk(&records, &info, &error);
    }
  }
  // In file order (dump, stats) and in call order (replay).
  if (auto reader = stream::RecordReader::Open(path, &error)) {
    stream::Record record;
    while (reader->Next(&record)) {
    }
  }
  if (auto ordered = stream::OrderedRecordReader::Open(path, &error)) {
    stream::Record record;
    while (ordered->Next(&record)) {
    }
  }
  return 0;
}
