#include "common/env.h"

#include <stdlib.h>
#include <sys/auxv.h>

namespace strata {

const char* GetEnv(const char* name) {
  const char* value = secure_getenv(name);
  return (value != nullptr && *value != '\0') ? value : nullptr;
}

bool IsSecureProcess() { return getauxval(AT_SECURE) != 0; }

}  // namespace strata
