#pragma once
// The object a glGet* pname names: the bindings and current objects (its value
// is an object name, which a replayer maps and an app chose).

#include <cstdint>

#include "strata/api/replay.h"

namespace strata::host {

// kNone for a pname that names no object.
api::ObjectClass ObjectBoundAt(uint64_t pname);

}  // namespace strata::host
