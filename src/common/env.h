#pragma once
// Environment access. Every STRATA_* variable goes through here: in a
// setuid/setgid (AT_SECURE) process it reads as unset, as Android ignores
// debug properties for processes that are not debuggable.

namespace strata {

// The variable's value, or nullptr when unset, empty, or the process is secure.
const char* GetEnv(const char* name);

// True for setuid/setgid and other AT_SECURE processes.
bool IsSecureProcess();

}  // namespace strata
