#pragma once
// Calls to functions the registry does not know (a vendor's or a newer
// extension's), which pass through the loader and layers by name: the trace
// layer hands out a stub per such function, which records a call by name
// (flag kCallUnknownFunction, no arguments: their types are unknown) and
// jumps to the function below with every argument register as it was.
// The table of these functions grows at run time, up to kMaxUnknownFunctions
// per process; later ones pass unrecorded, with one warning.

// Shared with unknown_function_stubs.S: how many stubs, each starting on a
// boundary of this many bytes.
#define STRATA_UNKNOWN_FUNCTION_STUBS 1024
#define STRATA_UNKNOWN_FUNCTION_STUB_BYTES 16

#ifndef __ASSEMBLER__
#include <cstdint>

namespace strata::trace {

inline constexpr uint32_t kMaxUnknownFunctions = STRATA_UNKNOWN_FUNCTION_STUBS;

// The stub for `name` (the same one each time), or `next` itself when the
// table is full.
void* WrapUnknownFunction(const char* name, void* next);
// The name of unknown function `index` (stable once handed out).
const char* UnknownFunctionName(uint32_t index);

}  // namespace strata::trace

#endif  // __ASSEMBLER__
