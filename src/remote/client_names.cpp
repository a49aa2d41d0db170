#include "remote/client_names.h"

#include <limits>

#include "host/object_names.h"

namespace strata::remote {

bool NameSpace::Make(GLsizei n, GLuint* names) {
  if (n < 0) return false;
  GLuint first = highest_.load(std::memory_order_relaxed);
  do {
    if (static_cast<uint64_t>(n) > std::numeric_limits<GLuint>::max() - uint64_t{first}) return false;
  } while (!highest_.compare_exchange_weak(first, first + static_cast<GLuint>(n), std::memory_order_relaxed));
  for (GLsizei i = 0; i < n; ++i) names[i] = first + 1 + static_cast<GLuint>(i);
  return true;
}

NameSpace* ClientNames::For(api::ObjectClass object) {
  if (object == api::ObjectClass::kShader) object = api::ObjectClass::kProgram;
  Spaces& spaces = host::IsShared(object) ? *shared_ : own_;
  return &spaces[static_cast<size_t>(object)];
}

}  // namespace strata::remote
