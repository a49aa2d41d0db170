#pragma once
// Client-side vertex arrays of vertex array object 0: what an app pointed the
// GL at in its own memory, and which bytes of it a draw reads. The tracer and
// the remote client both capture those bytes before each draw (as memory
// records); this is their one account of the arrays and of the ranges.

#include <GLES3/gl32.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "strata/api/traits.h"

namespace strata::capture {

struct ClientArray {
  bool enabled = false;
  bool client = false;  // the pointer is app memory (no GL_ARRAY_BUFFER was bound)
  GLint size = 4;       // components
  GLenum type = GL_FLOAT;
  GLsizei stride = 0;
  GLuint divisor = 0;
  const void* pointer = nullptr;
};

// A call that changes the client-side arrays, whatever its function: its
// client-array trait (api/function_traits.txt) says which parts it gives.
struct ArrayCall {
  api::ClientArrayOp op = api::ClientArrayOp::kNone;
  GLuint index = 0;  // a generic attribute (pointer, enable, disable, divisor)
  GLenum array = 0;  // a GLES 1 array (its pointer, enable- and disable-state), or the client-active texture unit
  GLint size = 0;    // components (a GLES 1 array without a size parameter: the trait's)
  GLenum type = 0;
  GLsizei stride = 0;
  const void* pointer = nullptr;
  GLuint divisor = 0;
};

class ClientArrays {
 public:
  // Generic attributes by index; GLES 1's named arrays at fixed slots of
  // the same table (they never meet in one context).
  static constexpr int kSlots = 32;  // at most 32: one bit each in in_client_memory_
  // GLES 1's arrays, spelled out to keep this header on GLES 3's.
  static constexpr GLenum kVertexArray = 0x8074, kNormalArray = 0x8075, kColorArray = 0x8076,
                          kTexCoordArray = 0x8078, kPointSizeArrayOes = 0x8B9C, kMatrixIndexArrayOes = 0x8844,
                          kWeightArrayOes = 0x86AD;
  // The slot of a GLES 1 array (GL_VERTEX_ARRAY, ..., GL_TEXTURE_COORD_ARRAY
  // of the client's active texture unit, GL_POINT_SIZE_ARRAY_OES,
  // OES_matrix_palette's GL_MATRIX_INDEX_ARRAY_OES and GL_WEIGHT_ARRAY_OES), or -1.
  int Gles1Slot(GLenum array) const;

  // Each ignores a slot out of range.
  void SetPointer(int slot, GLint size, GLenum type, GLsizei stride, const void* pointer, bool client);
  void Enable(int slot, bool enabled);
  void SetDivisor(int slot, GLuint divisor);
  // glVertexPointer, glColorPointer, glNormalPointer (3 components),
  // glTexCoordPointer (the client's active unit), glPointSizePointerOES (1),
  // glMatrixIndexPointerOES, glWeightPointerOES.
  void SetGles1Pointer(GLenum array, GLint size, GLenum type, GLsizei stride, const void* pointer, bool client);
  // glClientActiveTexture (GLES 1).
  void SetClientActiveTexture(GLenum texture);
  // Any of the above, as a call gives it; `array_buffer_bound`: a buffer is
  // bound to GL_ARRAY_BUFFER, so a pointer is an offset into it.
  void Apply(const ArrayCall& call, bool array_buffer_bound);

  // Whether an enabled array reads app memory: asked before every draw, so
  // kept as a mask rather than found by walking the 32 slots' cache lines.
  bool AnyInClientMemory() const { return in_client_memory_ != 0; }
  // The spans of app memory a draw over vertices [first, end) and
  // `instances` instances reads, overlapping ones merged so that each byte
  // goes out once.
  std::vector<std::pair<const uint8_t*, size_t>> Ranges(int64_t first, int64_t end, int64_t instances) const;

 private:
  void Recount(int slot);
  // First: a tracer's draw reads it beside its own fields (ContextState).
  uint32_t in_client_memory_ = 0;  // bit per slot: enabled, in app memory, not null
  GLuint client_active_texture_ = 0;
  ClientArray arrays_[kSlots];
};

// The lowest and highest of `count` indices of `type` at `data` (GL_UNSIGNED_BYTE,
// _SHORT or _INT); false for no index or another type.
bool IndexBounds(const void* data, size_t count, GLenum type, uint32_t* lowest, uint32_t* highest);

// What a draw says of the vertices it reads, whatever its function (its
// draw trait's parts): per draw of a multi-draw, else one.
struct DrawCall {
  GLsizei draws = 1;
  const GLint* firsts = nullptr;   // an arrays draw's first vertex, per draw
  const GLsizei* counts = nullptr;  // vertices or indices, per draw
  GLenum type = 0;                  // an indexed draw's index type
  const void* const* indices = nullptr;  // its indices (app memory, or offsets into the element buffer), per draw
  const GLint* base_vertices = nullptr;  // per draw, or none
  int64_t instances = 1;           // instances read, from instance 0 (a base instance's included)
};

// Reads the bounds of `count` indices of `type` at `indices` (app memory or
// an offset into the bound element buffer, as the reader knows); false
// where it cannot.
class IndexReader {
 public:
  virtual bool Bounds(const void* indices, GLsizei count, GLenum type, uint32_t* lowest, uint32_t* highest) = 0;

 protected:
  ~IndexReader() = default;
};

// The vertices [first, end) a draw reads; false where it reads none or they
// cannot be known.
bool VertexSpan(const DrawCall& draw, IndexReader& indices, int64_t* first, int64_t* end);

// The spans of app memory a multi-draw's index arrays take (drawn from app
// memory: no element buffer bound), overlapping ones merged.
std::vector<std::pair<const uint8_t*, size_t>> IndexArrays(const DrawCall& draw);

}  // namespace strata::capture
