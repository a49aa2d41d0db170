#pragma once
// What EGL looks like to an app when no driver could be loaded: a valid EGL
// with no displays, so apps fail their own checks cleanly instead of
// dereferencing a NULL they never expect (e.g. the client extension string).

namespace strata::loader {

// The function to use for `slot` when there is no driver, or nullptr to use
// the generic unavailable stub.
void* DriverlessFunction(int slot);

}  // namespace strata::loader
