#pragma once
// What the GLES 2/3 snapshot (context_snapshot.cpp) and the GLES 1.1 one
// (gles1_snapshot.cpp) do alike: read the driver through the source, name
// what it reads as the stream does, and write calls and notes.

#include <GLES3/gl32.h>

#include <string>
#include <vector>

#include "common/gl_queries.h"
#include "snapshot/context_snapshot.h"

namespace strata::snapshot {

class SnapshotWriter {
 protected:
  SnapshotWriter(const SnapshotSource& source, SnapshotResult* result)
      : source_(source),
        calls_(result->calls),
        notes_(result->not_carried),
        GetIntegerv(F<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)),
        GetError(F<PFNGLGETERRORPROC>(api::glGetError)) {}

  // The driver's function for a slot.
  template <typename Pfn>
  Pfn F(api::Slot slot) const {
    return reinterpret_cast<Pfn>(source_.Function(slot));
  }
  GLint Integer(GLenum pname) const { return IntegerOf(GetIntegerv, pname); }
  // Errors the reading raised, so that the app's (or the next read's) are its own.
  void ClearErrors() const { DrainGlErrors(GetError); }
  // A driver object name as the stream names it.
  uint64_t Stream(api::ObjectClass object, GLint driver) const {
    return driver == 0 ? 0 : source_.StreamName(object, static_cast<uint64_t>(static_cast<GLuint>(driver)));
  }
  void Note(const std::string& line) { notes_.push_back(line); }
  // A glGen* of one name, as the stream names it.
  void Generate(api::Slot slot, uint64_t name) {
    const GLuint value = static_cast<GLuint>(name);
    calls_.Add(slot).Arg(1).Out(&value, sizeof value);
  }

  // Objects the snapshot makes for itself (shaders to relink programs from,
  // the surface's texture and framebuffer) get stream names no app uses;
  // they are deleted again before the snapshot ends.
  static constexpr uint64_t kScratchNames = 0xfff00000u;

  const SnapshotSource& source_;
  CallList& calls_;
  std::vector<std::string>& notes_;
  const PFNGLGETINTEGERVPROC GetIntegerv;
  const PFNGLGETERRORPROC GetError;
};

}  // namespace strata::snapshot
