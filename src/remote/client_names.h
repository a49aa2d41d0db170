#pragma once
// Object names the client makes itself (glGen*, glCreateProgram, ...), so
// creating an object never waits for the renderer: the call goes out with the
// names in its reply part, as a trace records the driver's, and the executor
// maps them to the ones the host made (host/object_names.h). Queries that
// answer with names (bindings, attached shaders) come back in these names.
//
// Names only grow, as Mesa hands them out, so they usually equal the host's;
// a name an app binds without generating it (GLES 2 allows that) is never
// handed out afterwards.

#include <GLES3/gl32.h>

#include <cstdint>
#include <array>
#include <atomic>
#include <memory>

#include "strata/api/replay.h"

namespace strata::remote {

// One namespace: the names of one kind of object in one context or share group.
class NameSpace {
 public:
  // n new names into `names`; false (nothing written) when they would run out.
  bool Make(GLsizei n, GLuint* names);
  // A name the app bound without the client making it (a load and a compare
  // when it did: binds are frequent).
  void Saw(GLuint name) {
    GLuint highest = highest_.load(std::memory_order_relaxed);
    while (name > highest && !highest_.compare_exchange_weak(highest, name, std::memory_order_relaxed)) {
    }
  }

 private:
  std::atomic<GLuint> highest_{0};  // a share group's namespaces are used from several threads
};

// A namespace per object class: those a share group's contexts see alike
// (host/object_names.h's IsShared) kept once per group, the rest per context.
class ClientNames {
 public:
  // `share`: the names of the context this one shares objects with (null: a group of its own).
  explicit ClientNames(const ClientNames* share)
      : shared_(share != nullptr ? share->shared_ : std::make_shared<Spaces>()) {}

  // The namespace of an object class (programs and shaders share one, as in GL).
  NameSpace* For(api::ObjectClass object);
  // Whether another context's names share this one's group now.
  bool SharedWithAnother() const { return shared_.use_count() > 1; }

 private:
  using Spaces = std::array<NameSpace, static_cast<size_t>(api::ObjectClass::kCount)>;
  std::shared_ptr<Spaces> shared_;
  Spaces own_;
};

}  // namespace strata::remote
