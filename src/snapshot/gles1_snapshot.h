#pragma once
// The snapshot of a GLES 1.1 context (TakeSnapshot's, for a source whose
// Version() is 10): fixed-function state instead of programs and vertex
// array objects. docs/inspect.md ("strata trim") says what it carries.

#include <string>

#include "snapshot/context_snapshot.h"

namespace strata::snapshot {

bool TakeGles1Snapshot(const SnapshotSource& source, SnapshotResult* result, std::string* error,
                       SnapshotScope scope);

}  // namespace strata::snapshot
