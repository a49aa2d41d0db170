#pragma once
// Calls any registry function through a plain pointer with arguments held as
// words, so an executor can run a decoded call without per-function code.

#include <cstdint>

#include "strata/api/functions.h"

namespace strata::host {

union Word {
  uint64_t u;
  int64_t i;
  double f;
  void* p;
};

// Converts each word to the parameter's C type, calls `function`, stores the
// result (if any) in *result.
using Invoker = void (*)(void* function, const Word* args, Word* result);
extern const Invoker kInvokers[api::kFunctionCount];

}  // namespace strata::host
