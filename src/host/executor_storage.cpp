// The storage budget (storage_budget.h) from the executor's side: which
// calls set how many bytes of which object. The object is the one bound on
// the host at the call's target, asked of the driver only where the context
// has that binding (asking for another would raise an error the stream's
// glGetError would see).
#include <GLES/gl.h>
#include <GLES/glext.h>
#include <GLES3/gl32.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "common/sized_formats.h"
#include "host/executor.h"
#include "strata/api/parameters.h"
#include "strata/api/traits.h"
#include "stream/capture_sizes.h"

namespace strata::host {

using Kind = StorageBudget::Kind;
using api::ObjectClass;

namespace {

// a * b, or UINT64_MAX when it does not fit (refused by any limit).
uint64_t Times(uint64_t a, uint64_t b) {
  uint64_t product;
  return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

uint64_t Positive(const Word& w) { return w.i > 0 ? static_cast<uint64_t>(w.i) : 0; }

uint32_t ImageOf(GLenum target, const Word& level) {
  const uint32_t face = target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z
                            ? target - GL_TEXTURE_CUBE_MAP_POSITIVE_X
                            : 0;
  return face * 1024 + static_cast<uint32_t>(std::clamp<int64_t>(level.i, 0, 1023));
}

// Every level of an immutable texture: each halves width and height (and
// the depth of a 3D texture, not the layers of an array).
uint64_t StorageBytes(GLenum target, uint64_t levels, GLenum format, uint64_t width, uint64_t height,
                      uint64_t depth) {
  // An unknown format counts as the widest texel there is.
  const uint64_t sixteenths = SixteenthsPerTexel(format) != 0 ? SixteenthsPerTexel(format) : 256;
  const bool halves_depth = target == GL_TEXTURE_3D;
  const uint64_t faces = target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
  uint64_t texels = 0;
  for (uint64_t level = 0; level < std::min<uint64_t>(levels, 32); ++level) {
    const uint64_t layer = Times(std::max<uint64_t>(width >> level, 1), std::max<uint64_t>(height >> level, 1));
    const uint64_t level_texels = Times(layer, halves_depth ? std::max<uint64_t>(depth >> level, 1) : depth);
    texels = texels + level_texels < texels ? UINT64_MAX : texels + level_texels;
  }
  return Times(Times(texels, faces), sixteenths) / 16;
}

}  // namespace

// Runs only for calls whose traits SlotTraits::counts_storage (executor.cpp)
// asks for (storage=, deletes= of buffers, textures, renderbuffers): a
// function added to StorageFits must have one.
bool Executor::WithinStorageBudget(const stream::DecodedCall& call, Thread& thread, const std::vector<Word>& args) {
  Context* context = thread.current;
  if (context == nullptr) return true;

  // Deleted objects give their storage back.
  Kind deleted;
  switch (api::kTraits[call.slot].deletes) {
    case ObjectClass::kBuffer: deleted = Kind::kBuffer; break;
    case ObjectClass::kTexture: deleted = Kind::kTexture; break;
    case ObjectClass::kRenderbuffer: deleted = Kind::kRenderbuffer; break;
    default: deleted = static_cast<Kind>(0xff);
  }
  if (deleted != static_cast<Kind>(0xff)) {
    const auto* names = static_cast<const GLuint*>(args[1].p);
    const uint64_t count = std::min<uint64_t>(Positive(args[0]), call.args[1].in.size() / sizeof(GLuint));
    for (uint64_t i = 0; names != nullptr && i < count; ++i) storage_->Forget(context->shared.get(), deleted, names[i]);
    return true;
  }

  uint64_t bytes = 0;
  if (StorageFits(call.slot, *context, args.data(), &bytes)) return true;
  context->refused_error = GL_OUT_OF_MEMORY;
  Problem(call, "it asks for " + std::to_string(bytes) + " bytes of storage, past the memory budget (" +
                    std::to_string(storage_->used()) + " of " + std::to_string(storage_->limit()) +
                    " bytes in use): GL_OUT_OF_MEMORY");
  return false;
}

bool Executor::FastBufferStorage(Thread& thread, int slot, const Word* args) {
  Context* context = thread.current;
  if (context == nullptr) return true;
  uint64_t bytes = 0;
  return !AnyMapping(*context) && (!storage_ || StorageFits(slot, *context, args, &bytes));
}

// By core function: an alias is its core.
bool Executor::StorageFits(int slot, Context& context, const Word* args, uint64_t* bytes_asked) {
  auto target = [&](int i) { return static_cast<GLenum>(args[i].u); };
  // A 3D variant's depth parameter (after width and height, the registry
  // says) shifts the ones after it by one.
  const int core = api::kTraits[slot].core;  // an alias is its core (CoreOf, for a slot known valid)
  const api::FunctionInfo& info = api::kFunctions[core];
  const bool three_d = info.param_count > 5 && std::strcmp(info.params[5].name, "depth") == 0;
  const int d = three_d ? 1 : 0;
  const uint64_t depth = three_d ? Positive(args[5]) : 1;

  Kind kind = Kind::kTexture;  // every texture call names its target first
  GLenum binding = 0;
  uint32_t image = StorageBudget::kWholeObject;
  uint64_t bytes = 0;
  switch (core) {
    case api::glBufferData:
    case api::glBufferStorageEXT:  // (target, size, data, usage or flags)
      kind = Kind::kBuffer;
      binding = api::BufferBindingOf(target(0));
      if (context.version < 3 && api::BufferBindingNeedsGles3(binding)) binding = 0;
      bytes = Positive(args[1]);
      break;
    case api::glTexImage2D:
    case api::glTexImage3D:  // (target, level, internalformat, width, height, [depth,] border, format, type, pixels)
      image = ImageOf(target(0), args[1]);
      bytes = Times(Times(Times(Positive(args[3]), Positive(args[4])), depth),
                    std::max<uint64_t>(capture::CaptureSizes::pixel_bytes(target(6 + d), target(7 + d)), 1));
      break;
    case api::glCompressedTexImage2D:
    case api::glCompressedTexImage3D:  // (target, level, internalformat, width, height, [depth,] border, imageSize, data)
      image = ImageOf(target(0), args[1]);
      bytes = Positive(args[6 + d]);
      break;
    case api::glTexStorage2D:
    case api::glTexStorage3D:  // (target, levels, internalformat, width, height, [depth])
      bytes = StorageBytes(target(0), Positive(args[1]), target(2), Positive(args[3]), Positive(args[4]), depth);
      break;
    case api::glTexStorage2DMultisample:
    case api::glTexStorage3DMultisample:  // (target, samples, internalformat, width, height, [depth,] fixed)
      bytes = Times(StorageBytes(target(0), 1, target(2), Positive(args[3]), Positive(args[4]), depth),
                    std::max<uint64_t>(Positive(args[1]), 1));
      break;
    case api::glRenderbufferStorage:  // (target, internalformat, width, height)
      kind = Kind::kRenderbuffer;
      binding = GL_RENDERBUFFER_BINDING;
      bytes = StorageBytes(GL_TEXTURE_2D, 1, target(1), Positive(args[2]), Positive(args[3]), 1);
      break;
    case api::glRenderbufferStorageMultisample:  // (target, samples, internalformat, width, height)
      kind = Kind::kRenderbuffer;
      binding = GL_RENDERBUFFER_BINDING;
      bytes = Times(StorageBytes(GL_TEXTURE_2D, 1, target(2), Positive(args[3]), Positive(args[4]), 1),
                    std::max<uint64_t>(Positive(args[1]), 1));
      break;
    default:
      return true;
  }
  *bytes_asked = bytes;
  if (kind == Kind::kTexture) binding = api::TextureBindingOf(target(0));
  // Before GLES 3 a context has 2D and cube map textures only (their bindings are the ones it may ask).
  if (kind == Kind::kTexture && context.version < 3 && binding != GL_TEXTURE_BINDING_2D &&
      binding != GL_TEXTURE_BINDING_CUBE_MAP) {
    binding = 0;
  }
  GLint bound = 0;
  if (binding != 0) driver_.Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)(binding, &bound);
  // Nothing bound there (or a target the context lacks): the driver raises the error, and allocates nothing.
  if (bound == 0) return true;
  return storage_->Set(context.shared.get(), kind, static_cast<uint32_t>(bound), image, bytes);
}

}  // namespace strata::host
