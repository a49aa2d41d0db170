#pragma once
// Copies of what a snapshot cannot read back from the driver: the
// compressed images of every live texture (GLES has no way to read them),
// and in GLES 1.1 contexts every texture image and buffer upload (GLES 1.1
// reads back neither).
// Kept whether the process traces or not, so that an attach to a running
// program (attach_snapshot.h) carries them; the cost is memory, as much as
// the compressed images the program uploaded for textures it still has
// (docs/benchmarks.md, "Shadow copies for attach"). STRATA_TRACE_SHADOWS=0
// keeps none. The hooks (Shadow_* in trace_hook_declarations.inc) run
// before the call on every path.

#include <cstdint>
#include <vector>

#include "snapshot/snapshot_source.h"

namespace strata::trace {

// The kept uploads of a texture of the current context (null: none), for
// the snapshot; valid until the next upload or deletion on any thread.
const snapshot::TextureUploads* ShadowedUploads(uint64_t texture);
// The kept uploads of a GLES 1.1 buffer of the current context (null: none).
const std::vector<const stream::DecodedCall*>* ShadowedBufferUploads(uint64_t buffer);
// Bytes of image and buffer data kept, all contexts together.
uint64_t ShadowedBytes();

}  // namespace strata::trace
