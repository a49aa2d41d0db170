#pragma once
// What the fuzz targets share. Each target is one reader of bytes someone
// else wrote (docs/security.md lists them); libFuzzer calls
// LLVMFuzzerTestOneInput once per input, and any crash, sanitizer report or
// leak of the reader is a finding.

#include <cstdint>
#include <span>
#include <string>

namespace strata::host {
class HostDriver;
}
namespace strata::stream {
class FunctionTable;
}

namespace strata::fuzz {

// The host's EGL/GLES (llvmpipe headless on these machines), loaded once per
// process. Exits with a message when there is none: a target that runs GL
// cannot fuzz without it.
const host::HostDriver& Driver();

// The vertices a draw may have in a fuzz target (Executor::SetDrawLimit): a
// legal draw of billions keeps llvmpipe busy past the fuzzer's time limit,
// which is the driver's time, not a finding.
inline constexpr uint64_t kDrawVertexLimit = 1u << 22;

// This build's function table (ids = slots): what the tracer writes and the
// seed corpora use.
const stream::FunctionTable& OwnFunctions();

// `bytes` as a path the file readers can open (one memfd per process,
// rewritten for each input).
std::string AsFile(std::span<const uint8_t> bytes);

}  // namespace strata::fuzz
