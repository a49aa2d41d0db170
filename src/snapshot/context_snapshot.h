#pragma once
// A snapshot: the state of every live object a GLES context sees
// (buffers with their contents, textures with their images, renderbuffers,
// samplers, shaders, programs with their uniforms, framebuffers, vertex
// array objects, queries, syncs, transform feedbacks) and the context's own
// state (capabilities, fixed-function values, pixel store, every binding)
// and, where the source gives them, the surface's pixels,
// written as calls that recreate it on a fresh context. docs/inspect.md
// ("strata trim") says what it carries and what not.

#include <GLES3/gl32.h>

#include <string>
#include <vector>

#include "snapshot/call_list.h"
#include "snapshot/snapshot_source.h"

namespace strata::snapshot {

struct SnapshotResult {
  CallList calls;
  // What the snapshot could not carry, one line each ("texture 3 level 0:
  // compressed, and no upload of it was kept").
  std::vector<std::string> not_carried;
};

// What a snapshot writes. A share group's objects (buffers, textures,
// renderbuffers, samplers, shaders, programs, syncs) are written once, with
// its first context; the other contexts of the group get only their own
// state (framebuffers, vertex arrays, queries, transform feedbacks,
// bindings and the rest), after it.
enum class SnapshotScope { kObjectsAndContext, kContextOnly };

// Reads the context current on the calling thread through `source`; the
// driver state it changes to read (bindings, pixel pack state, a
// framebuffer of its own) is put back before it returns. False with *error
// when the context cannot be snapshot at all (a query or transform feedback
// in progress). A GLES 1.1 context's goes to gles1_snapshot.h.
bool TakeSnapshot(const SnapshotSource& source, SnapshotResult* result, std::string* error,
                  SnapshotScope scope = SnapshotScope::kObjectsAndContext);

// Whether a snapshot reads a texture level of this internal format back from
// the driver; for the others the source must keep the uploads (UploadsOf).
bool ImagesReadBack(GLenum internal_format);

}  // namespace strata::snapshot
