#pragma once
// How many texture units, vertex attributes and indexed binding points the
// readers of a context's state read (inspect/gl_state.cpp,
// snapshot/context_snapshot.cpp): what a driver reports, up to these
// (llvmpipe has 192 units and 90 uniform buffer bindings), so that a
// driver's nonsense costs no more. What each pname is lives in
// api/parameters.txt; these are the readers' own bounds.

namespace strata {

inline constexpr int kMaxTextureUnitsRead = 256;
inline constexpr int kMaxVertexAttributesRead = 64;
inline constexpr int kMaxIndexedBindingsRead = 256;

}  // namespace strata
