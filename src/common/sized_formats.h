#pragma once
// Bytes per texel of the sized internal formats of GLES 3.2 and the common
// extensions (glTexStorage*, glRenderbufferStorage*), for the storage a call
// asks the driver for. Compressed formats count a texel at its share of a
// 4x4 block.

#include <GLES2/gl2ext.h>
#include <GLES3/gl32.h>

#include <cstdint>

namespace strata {

// Bytes per texel times 16 (a compressed texel is 1/2 or 1 byte); 0 when unknown.
inline uint32_t SixteenthsPerTexel(GLenum format) {
  switch (format) {
    case GL_R8: case GL_R8I: case GL_R8UI: case GL_R8_SNORM: case GL_STENCIL_INDEX8:
    case GL_ALPHA8_OES: case GL_LUMINANCE8_OES:
      return 16;
    case GL_RG8: case GL_RG8I: case GL_RG8UI: case GL_RG8_SNORM: case GL_R16F: case GL_R16I: case GL_R16UI:
    case GL_RGB565: case GL_RGBA4: case GL_RGB5_A1: case GL_DEPTH_COMPONENT16: case GL_LUMINANCE8_ALPHA8_OES:
      return 32;
    case GL_RGB8: case GL_SRGB8: case GL_RGB8I: case GL_RGB8UI: case GL_RGB8_SNORM: case GL_DEPTH_COMPONENT24:
      return 48;
    case GL_RGBA8: case GL_SRGB8_ALPHA8: case GL_RGBA8I: case GL_RGBA8UI: case GL_RGBA8_SNORM: case GL_RGB10_A2:
    case GL_RGB10_A2UI: case GL_RG16F: case GL_RG16I: case GL_RG16UI: case GL_R32F: case GL_R32I: case GL_R32UI:
    case GL_R11F_G11F_B10F: case GL_RGB9_E5: case GL_DEPTH_COMPONENT32F: case GL_DEPTH24_STENCIL8:
    case GL_BGRA8_EXT:
      return 64;
    case GL_RGB16F: case GL_RGB16I: case GL_RGB16UI:
      return 96;
    case GL_RGBA16F: case GL_RGBA16I: case GL_RGBA16UI: case GL_RG32F: case GL_RG32I: case GL_RG32UI:
    case GL_DEPTH32F_STENCIL8:
      return 128;
    case GL_RGB32F: case GL_RGB32I: case GL_RGB32UI:
      return 192;
    case GL_RGBA32F: case GL_RGBA32I: case GL_RGBA32UI:
      return 256;
    // ETC2/EAC: 8 or 16 bytes per 4x4 block.
    case GL_COMPRESSED_R11_EAC: case GL_COMPRESSED_SIGNED_R11_EAC: case GL_COMPRESSED_RGB8_ETC2:
    case GL_COMPRESSED_SRGB8_ETC2: case GL_COMPRESSED_RGB8_PUNCHTHROUGH_ALPHA1_ETC2:
    case GL_COMPRESSED_SRGB8_PUNCHTHROUGH_ALPHA1_ETC2: case GL_ETC1_RGB8_OES:
      return 8;
    case GL_COMPRESSED_RG11_EAC: case GL_COMPRESSED_SIGNED_RG11_EAC: case GL_COMPRESSED_RGBA8_ETC2_EAC:
    case GL_COMPRESSED_SRGB8_ALPHA8_ETC2_EAC:
      return 16;
    default:
      return 0;
  }
}

}  // namespace strata
