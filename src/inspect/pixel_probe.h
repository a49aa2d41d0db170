#pragma once
// What pixel history asks of the host driver at one pixel, in the current
// context, leaving every binding, mask and pack setting as it found them:
// the colour of an image there (the surface, or a texture level or layer,
// or a renderbuffer, read through a framebuffer of its own), the depth and
// stencil of the bound draw framebuffer there (GL_NV_read_depth,
// GL_NV_read_stencil), and which fragment test stops a draw there, by
// running the draw again with writes off, scissored to the pixel, inside
// GL_ANY_SAMPLES_PASSED queries.

#include <GLES3/gl32.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "host/host_driver.h"

namespace strata::inspect {

enum class ColorKind { kNone, kUnorm8, kFloat, kInt, kUint };

struct PixelValue {
  ColorKind color_kind = ColorKind::kNone;  // kNone: not read (color_unread says why)
  std::array<double, 4> color{};            // 0-255 for kUnorm8
  bool has_depth = false, has_stencil = false;
  double depth = 0;
  uint32_t stencil = 0;
  std::string color_unread, depth_stencil_unread;

  bool SameColor(const PixelValue& o) const { return color_kind == o.color_kind && color == o.color; }
  bool SameDepth(const PixelValue& o) const { return has_depth == o.has_depth && (!has_depth || depth == o.depth); }
  bool SameStencil(const PixelValue& o) const {
    return has_stencil == o.has_stencil && (!has_stencil || stencil == o.stencil);
  }
};

// An image a pixel lives in, by host names.
struct ImageRef {
  enum class Kind { kSurface, kTexture, kRenderbuffer } kind = Kind::kSurface;
  GLuint name = 0;
  GLenum target = GL_TEXTURE_2D;  // a texture's: GL_TEXTURE_2D, a cube map face, or a layered target
  GLint level = 0, layer = 0;
};

// What stopped a draw's fragment at a pixel.
enum class FragmentVerdict { kNoFragment, kScissor, kStencil, kDepth, kPassed };

class PixelProbe {
 public:
  // `version`: the current context's GLES version (executor's CurrentVersion).
  PixelProbe(const host::HostDriver& driver, int version);
  ~PixelProbe();

  // The colour of `image` at (x, y), GL window coordinates of the image.
  void ReadColor(const ImageRef& image, int x, int y, PixelValue* value);
  // The depth and stencil of the bound draw framebuffer at (x, y), where it has them.
  void ReadDepthStencil(int x, int y, PixelValue* value);
  // Puts depth and stencil of the bound draw framebuffer at (x, y) back to
  // `value`'s (a scissored clear), where it has them.
  void WriteDepthStencil(int x, int y, const PixelValue& value);

  // Why the bound state forbids running a draw again to test it (the app's
  // own occlusion query or transform feedback would count it), or "".
  std::string WhyNotTestable();
  // Whether the rasterizer discards every fragment (GL_RASTERIZER_DISCARD).
  bool RasterizerDiscards();
  // Runs `redraw` up to three times at (x, y): tests off (is there a
  // fragment at all), the stencil test as the app set it, then depth too.
  FragmentVerdict Test(int x, int y, const std::function<void()>& redraw);
  // Whether the colour mask keeps draw buffer 0 (or every buffer) from being written.
  bool ColorMaskedOff();

  // Whether (x, y) is inside the scissor box (whether or not the test is on).
  bool InsideScissor(int x, int y);

  GLint Integer(GLenum pname);
  bool Enabled(GLenum capability);

 private:
  struct Functions;
  std::unique_ptr<Functions> gl_;
  const int version_;
  bool reads_depth_ = false, reads_stencil_ = false;
};

// "(255, 0, 0, 255)", "depth 0.5", ... for people.
std::string DescribeColor(const PixelValue& value);

}  // namespace strata::inspect
