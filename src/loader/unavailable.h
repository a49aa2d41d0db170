#pragma once
// Calls that reach no driver function: a GL call with no current context, a
// function the driver lacks, or any call when the driver failed to load.

namespace strata::loader {

// Reports the call once (per thread for missing contexts, per function for
// missing driver functions); generated stubs call it and then return zero.
void ReportUnavailableCall(int slot);

}  // namespace strata::loader
