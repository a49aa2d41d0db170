#include "layers/trace/next_functions.h"

namespace strata::trace {

void* g_next_functions[api::kFunctionCount];

}  // namespace strata::trace
