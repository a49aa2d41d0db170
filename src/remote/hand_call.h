#pragma once
// A call the client encodes by hand (EGL on the client, mapped buffers):
// the same record the generated functions write, argument by argument in the
// registry's order. A call that creates an object the client names itself
// carries the client's handle as its result, as a trace records the driver's,
// and absent output blobs.

#include <cstdint>

#include "remote/generated_support.h"

namespace strata::remote {

class HandCall {
 public:
  enum Kind {
    kNoAnswer,  // appended to the batch
    kAnswer,    // waits for the reply
    kCreates,   // names what it creates with a new handle of the client's (Create / CreateWithoutWaiting)
    kCreatesWaiting,  // the same, and waits to learn whether the renderer could make it
  };
  // `result`: for a call that returns an address of the client's own (a
  // buffer mapping in client memory), that address, recorded as its result.
  HandCall(Connection& c, api::Slot slot, Kind kind, uint64_t result = 0);

  HandCall& Handle(const void* h) { return Uint(reinterpret_cast<uintptr_t>(h)); }
  HandCall& Int(int64_t v) {
    w_.Signed(v);
    return *this;
  }
  HandCall& Uint(uint64_t v) {
    w_.Unsigned(v);
    return *this;
  }
  // A data pointer and the bytes behind it (none for NULL).
  HandCall& Blob(const void* p, size_t size) {
    Handle(p);
    PutBlob(w_, p, size);
    return *this;
  }
  // A data pointer whose bytes do not travel (outputs, native handles).
  HandCall& NoBlob(const void* p) {
    Handle(p);
    w_.Absent();
    return *this;
  }

  // Ends the record (kNoAnswer, and kCreates that does not wait).
  void End();
  // Ends the record and waits for the reply (kAnswer): null when the renderer is gone.
  const stream::wire::Reply* Wait();
  // kCreates: ends the record and gives the client's handle for the new object,
  // after the renderer said it made it (kCreatesWaiting), or at once; 0 when it could not.
  uint64_t Create();
  // The handle a creating call proposes.
  uint64_t handle() const { return handle_; }
  uint64_t sequence() const { return sequence_; }

 private:
  Connection& c_;
  api::Slot slot_;
  Kind kind_;
  uint64_t sequence_, handle_ = 0, proposed_ = 0;
  stream::CallEncoder w_;
  bool ended_ = false;
};

// The object a created handle stands for, as the app's type.
template <typename T>
T AsHandle(uint64_t handle) {
  return reinterpret_cast<T>(static_cast<uintptr_t>(handle));
}

}  // namespace strata::remote
