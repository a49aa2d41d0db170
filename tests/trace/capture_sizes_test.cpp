// The capture-size helpers against a real GLES 3.2 context (Mesa, surfaceless):
// hand-computed byte counts, and the driver itself as the referee: a pixel
// buffer object of exactly the computed size must be accepted and one byte
// less refused; a query must write exactly the counted values.

#include "stream/capture_sizes.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "strata/api/parameters.h"
#include "stream/driver_capture_state.h"

namespace strata::capture {
namespace {

// The state is the driver's own here, as for the tracer and the executor.
void* const* DriverFunctions() {
  static void* functions[api::kFunctionCount];
  for (int slot = 0; slot < api::kFunctionCount; ++slot) {
    const char* name = api::kFunctions[slot].name;
    void* f = dlsym(RTLD_DEFAULT, name);
    functions[slot] = f ? f : reinterpret_cast<void*>(eglGetProcAddress(name));
  }
  return functions;
}
DriverCaptureState g_state(DriverFunctions());
const CaptureSizes sizes(g_state);
const CaptureSizes capacity(g_state, true);

class CaptureSizesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    display_ = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (display_ == EGL_NO_DISPLAY || !eglInitialize(display_, nullptr, nullptr)) {
      display_ = EGL_NO_DISPLAY;
      return;
    }
    eglBindAPI(EGL_OPENGL_ES_API);
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
                                     EGL_NONE};
    EGLConfig config = nullptr;
    EGLint count = 0;
    if (!eglChooseConfig(display_, config_attribs, &config, 1, &count) || count < 1) return;
    const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE};
    context_ = eglCreateContext(display_, config, EGL_NO_CONTEXT, context_attribs);
    if (context_ == EGL_NO_CONTEXT) return;
    const EGLint pbuffer_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
    surface_ = eglCreatePbufferSurface(display_, config, pbuffer_attribs);
    current_ = eglMakeCurrent(display_, surface_, surface_, context_) == EGL_TRUE;
  }

  static void TearDownTestSuite() {
    if (display_ == EGL_NO_DISPLAY) return;
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (surface_ != EGL_NO_SURFACE) eglDestroySurface(display_, surface_);
    if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
    eglTerminate(display_);
  }

  void SetUp() override {
    // Mesa's llvmpipe (a dependency the set-up script installs) always has one:
    // without it every rule below would go untested, so that is a failure, not a skip.
    ASSERT_TRUE(current_) << "cannot make a surfaceless GLES 3.2 context (eglGetError 0x" << std::hex
                          << eglGetError() << "): the capture rules cannot be checked";
    ResetPixelStore();
    while (glGetError() != GL_NO_ERROR) {
    }
  }

  void TearDown() override {
    if (current_) {
      ResetPixelStore();
      EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR)) << "a helper or the test left a GL error";
    }
  }

  static void ResetPixelStore() {
    for (GLenum pname : {GL_UNPACK_ROW_LENGTH, GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_PIXELS, GL_UNPACK_SKIP_ROWS,
                         GL_UNPACK_SKIP_IMAGES, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_PIXELS, GL_PACK_SKIP_ROWS}) {
      glPixelStorei(pname, 0);
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
  }

  static GLuint Compile(GLenum type, const char* source) {
    GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    return shader;
  }

  // A framebuffer whose colour attachment is a new RGBA8 renderbuffer of size x size, bound.
  static void BindColorFramebuffer(GLsizei size, GLuint* renderbuffer, GLuint* framebuffer) {
    glGenRenderbuffers(1, renderbuffer);
    glBindRenderbuffer(GL_RENDERBUFFER, *renderbuffer);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, size, size);
    glGenFramebuffers(1, framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, *framebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, *renderbuffer);
  }

  static GLuint Link(std::initializer_list<GLuint> shaders) {
    GLuint program = glCreateProgram();
    for (GLuint s : shaders) glAttachShader(program, s);
    glLinkProgram(program);
    for (GLuint s : shaders) glDeleteShader(s);
    GLint linked = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    EXPECT_EQ(linked, GL_TRUE);
    return program;
  }

  static EGLDisplay display_;
  static EGLContext context_;
  static EGLSurface surface_;
  static bool current_;
};

EGLDisplay CaptureSizesTest::display_ = EGL_NO_DISPLAY;
EGLContext CaptureSizesTest::context_ = EGL_NO_CONTEXT;
EGLSurface CaptureSizesTest::surface_ = EGL_NO_SURFACE;
bool CaptureSizesTest::current_ = false;

// ---------------------------------------------------------------- strings, counts

TEST(CaptureSizesPure, Strings) {
  EXPECT_EQ(sizes.c_string_bytes(nullptr), 0u);
  EXPECT_EQ(sizes.c_string_bytes(""), 1u);
  EXPECT_EQ(sizes.c_string_bytes("abc"), 4u);
  EXPECT_EQ(sizes.counted_string_bytes(-1, "abc"), 4u);
  EXPECT_EQ(sizes.counted_string_bytes(2, "abc"), 2u);
  EXPECT_EQ(sizes.counted_string_bytes(0, "abc"), 0u);
  EXPECT_EQ(sizes.counted_string_bytes(5, nullptr), 0u);

  char buf[16] = "hello";
  GLsizei length = 5;
  EXPECT_EQ(sizes.out_string_bytes(16, &length, buf), 6u);
  EXPECT_EQ(sizes.out_string_bytes(16, nullptr, buf), 6u);
  EXPECT_EQ(sizes.out_string_bytes(0, &length, buf), 0u);
  EXPECT_EQ(sizes.out_string_bytes(16, &length, nullptr), 0u);
  EXPECT_EQ(sizes.out_string_bytes(3, &length, buf), 3u);  // never past buf_size
  char unterminated[4] = {'a', 'b', 'c', 'd'};
  EXPECT_EQ(sizes.out_string_bytes(4, nullptr, unterminated), 4u);
  length = -7;
  EXPECT_EQ(sizes.out_string_bytes(16, &length, buf), 1u);
}

// A desktop core profile context refuses glGetString(GL_EXTENSIONS): only
// GLES 2's extensions change what the pixel store holds, so only GLES 2 is asked.
TEST(CaptureSizesPure, PixelStoreAsksExtensionsOfGles2Only) {
  EXPECT_TRUE(PixelStoreNeedsExtensions("OpenGL ES 2.0 Mesa 22.3.6"));
  EXPECT_FALSE(PixelStoreNeedsExtensions("OpenGL ES 3.2 Mesa 22.3.6"));
  EXPECT_FALSE(PixelStoreNeedsExtensions("4.5 (Core Profile) Mesa 22.3.6"));
  EXPECT_FALSE(PixelStoreNeedsExtensions(nullptr));
  const PixelStoreCaps core = PixelStoreCapsOf("4.5 (Core Profile) Mesa 22.3.6", nullptr);
  EXPECT_TRUE(core.unpack_subimage && core.unpack_3d && core.pack_subimage);
  const PixelStoreCaps gles2 = PixelStoreCapsOf("OpenGL ES 2.0", "GL_EXT_unpack_subimage");
  EXPECT_TRUE(gles2.unpack_subimage);
  EXPECT_FALSE(gles2.pack_subimage || gles2.unpack_3d);
}

TEST(CaptureSizesPure, Counts) {
  GLsizei written = 3;
  EXPECT_EQ(sizes.out_elements(5, &written), 3u);
  EXPECT_EQ(sizes.out_elements(5, nullptr), 5u);
  EXPECT_EQ(sizes.out_elements(-1, &written), 0u);
  written = 9;
  EXPECT_EQ(sizes.out_elements(5, &written), 5u);
  EXPECT_EQ(sizes.bounded_count(5, &written), 5u);
  written = 2;
  EXPECT_EQ(sizes.bounded_count(5, &written), 2u);
  EXPECT_EQ(sizes.bounded_bytes(100, 10), 10u);
  EXPECT_EQ(sizes.bounded_bytes(5, 10), 5u);
  EXPECT_EQ(sizes.bounded_bytes(5, -1), 0u);
}

// Before a call, the executor sizes output buffers by the room the call may
// write, whatever the length pointers hold.
TEST(CaptureSizesPure, CapacityModeGivesTheRoom) {
  char buf[16] = "hi";
  GLsizei length = 2;
  EXPECT_EQ(capacity.out_string_bytes(16, &length, buf), 16u);
  EXPECT_EQ(capacity.out_string_bytes(16, nullptr, buf), 16u);
  EXPECT_EQ(capacity.out_string_bytes(0, &length, buf), 0u);
  GLsizei written = 1;
  EXPECT_EQ(capacity.out_elements(7, &written), 7u);
  EXPECT_EQ(capacity.bounded_count(9, &written), 9u);
  EXPECT_EQ(sizes.out_elements(7, &written), 1u);
}

// Widths and heights from an untrusted stream must not wrap a size to a small one.
TEST(CaptureSizesPure, HugeImagesSaturate) {
  EXPECT_EQ(sizes.pixel_bytes(GL_RGBA, GL_FLOAT), 16u);
  const size_t huge = sizes.pack_image_bytes(0x7fffffff, 0x7fffffff, GL_RGBA, GL_FLOAT);
  EXPECT_GE(huge, size_t{0x7fffffff} * 0x7fffffff);
}

TEST(CaptureSizesPure, IndexBytes) {
  EXPECT_EQ(sizes.index_bytes(10, GL_UNSIGNED_BYTE), 10u);
  EXPECT_EQ(sizes.index_bytes(10, GL_UNSIGNED_SHORT), 20u);
  EXPECT_EQ(sizes.index_bytes(10, GL_UNSIGNED_INT), 40u);
  EXPECT_EQ(sizes.index_bytes(0, GL_UNSIGNED_INT), 0u);
  EXPECT_EQ(sizes.index_bytes(-3, GL_UNSIGNED_INT), 0u);
  EXPECT_EQ(sizes.index_bytes(10, GL_FLOAT), 0u);
}

TEST(CaptureSizesPure, PathLists) {
  // Fixed-size names and coordinates: count x the type's bytes, nothing read.
  EXPECT_EQ(CaptureSizes::path_list_bytes(5, GL_UNSIGNED_BYTE, nullptr), 5u);
  EXPECT_EQ(CaptureSizes::path_list_bytes(5, GL_SHORT, nullptr), 10u);
  EXPECT_EQ(CaptureSizes::path_list_bytes(5, 0x1408 /* GL_3_BYTES_NV */, nullptr), 15u);
  EXPECT_EQ(CaptureSizes::path_list_bytes(5, GL_FLOAT, nullptr), 20u);
  EXPECT_EQ(CaptureSizes::path_list_bytes(0, GL_FLOAT, nullptr), 0u);
  EXPECT_EQ(CaptureSizes::path_list_bytes(-1, GL_FLOAT, nullptr), 0u);
  EXPECT_EQ(CaptureSizes::path_list_bytes(5, GL_RGBA, nullptr), 0u);
  // UTF-8: "a", U+00E9, U+20AC, U+1F600 are 1 + 2 + 3 + 4 bytes.
  const char utf8[] = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80zz";
  EXPECT_EQ(CaptureSizes::path_list_bytes(4, GL_UTF8_NV, utf8), 10u);
  EXPECT_EQ(CaptureSizes::path_list_bytes(2, GL_UTF8_NV, utf8), 3u);
  // A zero or malformed character ends the list; so does NULL.
  EXPECT_EQ(CaptureSizes::path_list_bytes(9, GL_UTF8_NV, "ab"), 2u);
  EXPECT_EQ(CaptureSizes::path_list_bytes(3, GL_UTF8_NV, "a\xC3z"), 2u);
  EXPECT_EQ(CaptureSizes::path_list_bytes(3, GL_UTF8_NV, nullptr), 0u);
  // UTF-16: a surrogate pair is one character.
  const uint16_t utf16[] = {0x61, 0xD83D, 0xDE00, 0x62, 0};
  EXPECT_EQ(CaptureSizes::path_list_bytes(3, GL_UTF16_NV, utf16), 8u);
  EXPECT_EQ(CaptureSizes::path_list_bytes(9, GL_UTF16_NV, utf16), 8u);
  const uint16_t lone[] = {0xD83D, 0x62, 0};
  EXPECT_EQ(CaptureSizes::path_list_bytes(2, GL_UTF16_NV, lone), 2u);
}

TEST(CaptureSizesPure, PathTransformValues) {
  EXPECT_EQ(CaptureSizes::path_transform_values(GL_NONE), 0u);
  EXPECT_EQ(CaptureSizes::path_transform_values(GL_TRANSLATE_X_NV), 1u);
  EXPECT_EQ(CaptureSizes::path_transform_values(GL_TRANSLATE_2D_NV), 2u);
  EXPECT_EQ(CaptureSizes::path_transform_values(GL_TRANSLATE_3D_NV), 3u);
  EXPECT_EQ(CaptureSizes::path_transform_values(GL_AFFINE_2D_NV), 6u);
  EXPECT_EQ(CaptureSizes::path_transform_values(GL_TRANSPOSE_AFFINE_3D_NV), 12u);
  EXPECT_EQ(CaptureSizes::path_transform_values(GL_FLOAT), 0u);
}

TEST(CaptureSizesPure, AttribLists) {
  const EGLint list[] = {EGL_WIDTH, 1, EGL_HEIGHT, 2, EGL_NONE, 99};
  EXPECT_EQ(sizes.egl_attrib_list_bytes(list), 5 * sizeof(EGLint));
  const EGLint empty[] = {EGL_NONE};
  EXPECT_EQ(sizes.egl_attrib_list_bytes(empty), sizeof(EGLint));
  EXPECT_EQ(sizes.egl_attrib_list_bytes(nullptr), 0u);
  // A value equal to EGL_NONE is not the terminator.
  const EGLint value_none[] = {EGL_RENDERABLE_TYPE, EGL_NONE, EGL_NONE};
  EXPECT_EQ(sizes.egl_attrib_list_bytes(value_none), 3 * sizeof(EGLint));
  const EGLAttrib list64[] = {EGL_GL_COLORSPACE, EGL_GL_COLORSPACE_SRGB, EGL_NONE};
  EXPECT_EQ(sizes.egl_attrib64_list_bytes(list64), 3 * sizeof(EGLAttrib));
  EXPECT_EQ(sizes.egl_attrib64_list_bytes(nullptr), 0u);
}

// Catches: EXT_texture_storage_compression's list scanned as EGL's (EGL_NONE
// never ends it), its values taken for the terminator, or a list that lost
// its GL_NONE read past the bound.
TEST(CaptureSizesPure, GlAttribLists) {
  const GLint list[] = {0x96C0 /* GL_SURFACE_COMPRESSION_EXT */, 0x96C2, GL_NONE, 99};
  EXPECT_EQ(CaptureSizes::gl_attrib_list_bytes(list), 3 * sizeof(GLint));
  const GLint empty[] = {GL_NONE};
  EXPECT_EQ(CaptureSizes::gl_attrib_list_bytes(empty), sizeof(GLint));
  EXPECT_EQ(CaptureSizes::gl_attrib_list_bytes(nullptr), 0u);
  const GLint value_none[] = {0x96C0, GL_NONE, 0x96C0, 0x96C1, GL_NONE};
  EXPECT_EQ(CaptureSizes::gl_attrib_list_bytes(value_none), 5 * sizeof(GLint));
  const GLint egl_none_is_no_end[] = {EGL_NONE, 1, GL_NONE};
  EXPECT_EQ(CaptureSizes::gl_attrib_list_bytes(egl_none_is_no_end), 3 * sizeof(GLint));
  // No terminator within the bound: read up to it and no further (the
  // vector ends one word past it, so a scan past the bound reads garbage
  // or faults under a sanitizer).
  const size_t bound_words = 2 * CaptureSizes::kMaxAttribPairs + 1;
  std::vector<GLint> endless(bound_words, 0x96C0);
  EXPECT_EQ(CaptureSizes::gl_attrib_list_bytes(endless.data()), bound_words * sizeof(GLint));
  std::vector<GLint> at_the_bound(bound_words, 0x96C0);
  at_the_bound.back() = GL_NONE;
  EXPECT_EQ(CaptureSizes::gl_attrib_list_bytes(at_the_bound.data()), bound_words * sizeof(GLint));
}

TEST(CaptureSizesPure, PixelBytes) {
  EXPECT_EQ(sizes.pixel_bytes(GL_RGBA, GL_UNSIGNED_BYTE), 4u);
  EXPECT_EQ(sizes.pixel_bytes(GL_RGB, GL_UNSIGNED_BYTE), 3u);
  EXPECT_EQ(sizes.pixel_bytes(GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE), 2u);
  EXPECT_EQ(sizes.pixel_bytes(GL_RGB, GL_UNSIGNED_SHORT_5_6_5), 2u);
  EXPECT_EQ(sizes.pixel_bytes(GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV), 4u);
  EXPECT_EQ(sizes.pixel_bytes(GL_RGBA, GL_FLOAT), 16u);
  EXPECT_EQ(sizes.pixel_bytes(GL_RG, GL_HALF_FLOAT), 4u);
  EXPECT_EQ(sizes.pixel_bytes(GL_RGBA, GL_HALF_FLOAT_OES), 8u);
  EXPECT_EQ(sizes.pixel_bytes(GL_RGBA_INTEGER, GL_INT), 16u);
  EXPECT_EQ(sizes.pixel_bytes(GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8), 4u);
  EXPECT_EQ(sizes.pixel_bytes(GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV), 8u);
  EXPECT_EQ(sizes.pixel_bytes(GL_BGRA_EXT, GL_UNSIGNED_BYTE), 4u);
}

// ---------------------------------------------------------------- images, by hand

TEST_F(CaptureSizesTest, UnpackDefaults) {
  EXPECT_EQ(sizes.unpack_image_2d_bytes(3, 2, GL_RGBA, GL_UNSIGNED_BYTE), 24u);
  // RGB rows of 9 bytes are padded to 12, the last one is not.
  EXPECT_EQ(sizes.unpack_image_2d_bytes(3, 2, GL_RGB, GL_UNSIGNED_BYTE), 21u);
  EXPECT_EQ(sizes.unpack_image_bytes(3, 2, 2, GL_RGB, GL_UNSIGNED_BYTE), 12u * 3 + 9);
  EXPECT_EQ(sizes.unpack_image_2d_bytes(0, 2, GL_RGBA, GL_UNSIGNED_BYTE), 0u);
  EXPECT_EQ(sizes.unpack_image_bytes(2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE), 0u);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  EXPECT_EQ(sizes.unpack_image_2d_bytes(3, 2, GL_RGB, GL_UNSIGNED_BYTE), 18u);
}

TEST_F(CaptureSizesTest, UnpackRowLengthAndSkips) {
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 10);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, 2);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, 3);
  // Rows of 40 bytes: 3 skipped + 1 full, then 2 skipped pixels and 4 read.
  EXPECT_EQ(sizes.unpack_image_2d_bytes(4, 2, GL_RGBA, GL_UNSIGNED_BYTE), 4u * 40 + 6 * 4);
}

TEST_F(CaptureSizesTest, Unpack3DImageHeightAndSkipImages) {
  glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, 5);
  glPixelStorei(GL_UNPACK_SKIP_IMAGES, 1);
  // Images of 5 rows of 16 bytes: 1 skipped + 2 full, then 1 row and 1 more.
  EXPECT_EQ(sizes.unpack_image_bytes(4, 2, 3, GL_RGBA, GL_UNSIGNED_BYTE), 3u * 80 + 16 + 16);
  // A 2D upload ignores both.
  EXPECT_EQ(sizes.unpack_image_2d_bytes(4, 2, GL_RGBA, GL_UNSIGNED_BYTE), 32u);
}

TEST_F(CaptureSizesTest, UnpackPackedAndWideTypes) {
  // 5_6_5: 2-byte elements, rows of 6 bytes padded to 8 at alignment 4.
  EXPECT_EQ(sizes.unpack_image_2d_bytes(3, 3, GL_RGB, GL_UNSIGNED_SHORT_5_6_5), 2u * 8 + 6);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
  EXPECT_EQ(sizes.unpack_image_2d_bytes(3, 3, GL_RGB, GL_UNSIGNED_SHORT_5_6_5), 18u);
  // Elements at least as large as the alignment are never padded.
  glPixelStorei(GL_UNPACK_ALIGNMENT, 8);
  EXPECT_EQ(sizes.unpack_image_2d_bytes(1, 2, GL_RGB, GL_FLOAT), 16u + 12);
  EXPECT_EQ(sizes.unpack_image_2d_bytes(3, 2, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV), 48u);
  EXPECT_EQ(sizes.unpack_image_2d_bytes(3, 2, GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE), 8u + 6);
}

TEST_F(CaptureSizesTest, PackState) {
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 100);  // no effect on packing
  glPixelStorei(GL_PACK_ROW_LENGTH, 8);
  glPixelStorei(GL_PACK_SKIP_PIXELS, 1);
  glPixelStorei(GL_PACK_SKIP_ROWS, 2);
  EXPECT_EQ(sizes.pack_image_bytes(2, 2, GL_RGBA, GL_UNSIGNED_BYTE), 3u * 32 + 3 * 4);
  EXPECT_EQ(sizes.pack_image_bytes(0, 2, GL_RGBA, GL_UNSIGNED_BYTE), 0u);
}

// ---------------------------------------------------------------- images, the driver as referee

struct Upload {
  GLenum internal_format;
  GLenum format;
  GLenum type;
};

const Upload kUploads[] = {
    {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE},
    {GL_RGB8, GL_RGB, GL_UNSIGNED_BYTE},
    {GL_R8, GL_RED, GL_UNSIGNED_BYTE},
    {GL_RG8, GL_RG, GL_UNSIGNED_BYTE},
    {GL_RGB565, GL_RGB, GL_UNSIGNED_SHORT_5_6_5},
    {GL_RGBA4, GL_RGBA, GL_UNSIGNED_SHORT_4_4_4_4},
    {GL_RGB5_A1, GL_RGBA, GL_UNSIGNED_SHORT_5_5_5_1},
    {GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV},
    {GL_R11F_G11F_B10F, GL_RGB, GL_UNSIGNED_INT_10F_11F_11F_REV},
    {GL_RGB9_E5, GL_RGB, GL_UNSIGNED_INT_5_9_9_9_REV},
    {GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT},
    {GL_RGB16F, GL_RGB, GL_HALF_FLOAT},
    {GL_RG32F, GL_RG, GL_FLOAT},
    {GL_RGB32F, GL_RGB, GL_FLOAT},
    {GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE},
    {GL_RGB32I, GL_RGB_INTEGER, GL_INT},
    {GL_R16UI, GL_RED_INTEGER, GL_UNSIGNED_SHORT},
    {GL_RGB8_SNORM, GL_RGB, GL_BYTE},
    {GL_LUMINANCE_ALPHA, GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE},
    {GL_LUMINANCE, GL_LUMINANCE, GL_UNSIGNED_BYTE},
    {GL_ALPHA, GL_ALPHA, GL_UNSIGNED_BYTE},
    {GL_BGRA_EXT, GL_BGRA_EXT, GL_UNSIGNED_BYTE},
    {GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT},
    {GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_FLOAT},
    {GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8},
    {GL_DEPTH32F_STENCIL8, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV},
};

struct Store {
  GLint alignment, row_length, image_height, skip_pixels, skip_rows, skip_images;
};

const Store kStores[] = {
    {4, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 0, 0}, {2, 0, 0, 0, 0, 0}, {8, 0, 0, 0, 0, 0},
    {8, 11, 0, 3, 2, 0}, {4, 9, 7, 1, 1, 2}, {1, 13, 6, 5, 3, 1}, {2, 0, 4, 0, 1, 1},
};

void ApplyUnpack(const Store& s) {
  glPixelStorei(GL_UNPACK_ALIGNMENT, s.alignment);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, s.row_length);
  glPixelStorei(GL_UNPACK_IMAGE_HEIGHT, s.image_height);
  glPixelStorei(GL_UNPACK_SKIP_PIXELS, s.skip_pixels);
  glPixelStorei(GL_UNPACK_SKIP_ROWS, s.skip_rows);
  glPixelStorei(GL_UNPACK_SKIP_IMAGES, s.skip_images);
}

// GL error of an upload read from an unpack buffer of `size` bytes.
GLenum UploadFromBuffer(GLenum target, const Upload& u, GLsizei w, GLsizei h, GLsizei d, size_t size) {
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(size), nullptr, GL_STREAM_DRAW);
  while (glGetError() != GL_NO_ERROR) {
  }
  if (target == GL_TEXTURE_2D) {
    glTexImage2D(target, 0, static_cast<GLint>(u.internal_format), w, h, 0, u.format, u.type, nullptr);
  } else {
    glTexImage3D(target, 0, static_cast<GLint>(u.internal_format), w, h, d, 0, u.format, u.type, nullptr);
  }
  const GLenum error = glGetError();
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  return error;
}

TEST_F(CaptureSizesTest, UnpackMatchesDriverBufferChecks) {
  GLuint textures[2];
  glGenTextures(2, textures);
  glBindTexture(GL_TEXTURE_2D, textures[0]);
  glBindTexture(GL_TEXTURE_2D_ARRAY, textures[1]);
  int checked = 0;
  for (const Upload& u : kUploads) {
    for (const Store& s : kStores) {
      for (GLenum target : {GL_TEXTURE_2D, GL_TEXTURE_2D_ARRAY}) {
        const GLsizei w = 5, h = 3, d = target == GL_TEXTURE_2D ? 1 : 2;
        ApplyUnpack(s);
        const size_t size = target == GL_TEXTURE_2D ? sizes.unpack_image_2d_bytes(w, h, u.format, u.type)
                                                    : sizes.unpack_image_bytes(w, h, d, u.format, u.type);
        SCOPED_TRACE(testing::Message() << "format 0x" << std::hex << u.format << " type 0x" << u.type
                                        << " target 0x" << target << std::dec << " alignment " << s.alignment
                                        << " row_length " << s.row_length << " image_height " << s.image_height
                                        << " skip " << s.skip_pixels << "," << s.skip_rows << "," << s.skip_images
                                        << " size " << size);
        ASSERT_GT(size, 0u);
        EXPECT_EQ(UploadFromBuffer(target, u, w, h, d, size), static_cast<GLenum>(GL_NO_ERROR));
        EXPECT_EQ(UploadFromBuffer(target, u, w, h, d, size - 1), static_cast<GLenum>(GL_INVALID_OPERATION));
        ++checked;
      }
    }
  }
  ResetPixelStore();
  glDeleteTextures(2, textures);
  EXPECT_EQ(checked, 2 * static_cast<int>(std::size(kUploads) * std::size(kStores)));
}

TEST_F(CaptureSizesTest, PackMatchesDriverWrites) {
  GLuint renderbuffer = 0, framebuffer = 0;
  BindColorFramebuffer(16, &renderbuffer, &framebuffer);
  ASSERT_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), static_cast<GLenum>(GL_FRAMEBUFFER_COMPLETE));
  glClearColor(0.2f, 0.4f, 0.6f, 0.8f);
  glClear(GL_COLOR_BUFFER_BIT);

  const Store stores[] = {{4, 0, 0, 0, 0, 0}, {8, 7, 0, 2, 1, 0}, {1, 5, 0, 1, 3, 0}, {2, 0, 0, 3, 2, 0}};
  for (const Store& s : stores) {
    for (GLsizei w : {1, 3, 4}) {
      const GLsizei h = 3;
      glPixelStorei(GL_PACK_ALIGNMENT, s.alignment);
      glPixelStorei(GL_PACK_ROW_LENGTH, s.row_length);
      glPixelStorei(GL_PACK_SKIP_PIXELS, s.skip_pixels);
      glPixelStorei(GL_PACK_SKIP_ROWS, s.skip_rows);
      const size_t size = sizes.pack_image_bytes(w, h, GL_RGBA, GL_UNSIGNED_BYTE);
      SCOPED_TRACE(testing::Message() << "w " << w << " alignment " << s.alignment << " row_length " << s.row_length
                                      << " skip " << s.skip_pixels << "," << s.skip_rows << " size " << size);
      // Client memory: the last byte written is the last one counted.
      std::vector<uint8_t> out(size + 64, 0xEE);
      glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, out.data());
      ASSERT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
      EXPECT_NE(out[size - 1], 0xEE);
      for (size_t i = size; i < out.size(); ++i) ASSERT_EQ(out[i], 0xEE) << "byte " << i << " written";
      // A pack buffer of that size is enough, one byte less is not.
      GLuint buffer = 0;
      glGenBuffers(1, &buffer);
      glBindBuffer(GL_PIXEL_PACK_BUFFER, buffer);
      glBufferData(GL_PIXEL_PACK_BUFFER, static_cast<GLsizeiptr>(size), nullptr, GL_STREAM_READ);
      glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
      EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
      glBufferData(GL_PIXEL_PACK_BUFFER, static_cast<GLsizeiptr>(size - 1), nullptr, GL_STREAM_READ);
      glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
      EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_INVALID_OPERATION));
      glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
      glDeleteBuffers(1, &buffer);
    }
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &framebuffer);
  glDeleteRenderbuffers(1, &renderbuffer);
}

// ---------------------------------------------------------------- queries

constexpr GLint kSentinel = 0x7eadbeef;

// Runs `query` on a buffer full of sentinels and returns how many leading
// values it wrote; fails if it wrote anything past `count`.
template <typename Query>
size_t Written(size_t count, Query query, GLint sentinel = kSentinel) {
  std::vector<GLint> buf(count + 32, sentinel);
  query(buf.data());
  size_t last = 0;
  for (size_t i = 0; i < buf.size(); ++i) {
    if (buf[i] != sentinel) last = i + 1;
  }
  return last;
}

TEST_F(CaptureSizesTest, GetValueCountByName) {
  EXPECT_EQ(sizes.get_value_count(GL_VIEWPORT), 4u);
  EXPECT_EQ(sizes.get_value_count(GL_SCISSOR_BOX), 4u);
  EXPECT_EQ(sizes.get_value_count(GL_COLOR_CLEAR_VALUE), 4u);
  EXPECT_EQ(sizes.get_value_count(GL_COLOR_WRITEMASK), 4u);
  EXPECT_EQ(sizes.get_value_count(GL_DEPTH_RANGE), 2u);
  EXPECT_EQ(sizes.get_value_count(GL_ALIASED_POINT_SIZE_RANGE), 2u);
  EXPECT_EQ(sizes.get_value_count(GL_MAX_VIEWPORT_DIMS), 2u);
  EXPECT_EQ(sizes.get_value_count(GL_BLEND_COLOR), 4u);
  EXPECT_EQ(sizes.get_value_count(GL_TEXTURE_BORDER_COLOR), 4u);
  EXPECT_EQ(sizes.get_value_count(GL_CURRENT_VERTEX_ATTRIB), 4u);
  EXPECT_EQ(sizes.get_value_count(GL_PRIMITIVE_BOUNDING_BOX), 8u);
  EXPECT_EQ(sizes.get_value_count(GL_MAX_TEXTURE_SIZE), 1u);
  EXPECT_EQ(sizes.get_value_count(GL_TEXTURE_MIN_FILTER), 1u);
  EXPECT_EQ(sizes.get_indexed_value_count(GL_MAX_COMPUTE_WORK_GROUP_COUNT), 1u);
  EXPECT_EQ(sizes.get_indexed_value_count(GL_COLOR_WRITEMASK), 4u);
  // EXT_window_rectangles (not on llvmpipe): a rectangle per index.
  EXPECT_EQ(sizes.get_indexed_value_count(GL_WINDOW_RECTANGLE_EXT), 4u);
  EXPECT_EQ(sizes.get_value_count(GL_WINDOW_RECTANGLE_MODE_EXT), 1u);
  // EXT_memory_object's UUIDs: 16 bytes, whatever the getter's values.
  EXPECT_EQ(sizes.get_value_bytes(GL_DEVICE_UUID_EXT, sizeof(GLubyte)), 16u);
  EXPECT_EQ(sizes.get_value_bytes(GL_DRIVER_UUID_EXT, sizeof(GLint)), 16u);
  EXPECT_EQ(sizes.get_indexed_value_bytes(GL_DEVICE_UUID_EXT, sizeof(GLint64)), 16u);
  EXPECT_EQ(sizes.get_value_bytes(GL_VIEWPORT, sizeof(GLint)), 4 * sizeof(GLint));
  // OES_matrix_get (GLES 1.1; not on llvmpipe): a whole matrix, 16 values
  // (GLES/glext.h's GL_MODELVIEW_, GL_PROJECTION_, GL_TEXTURE_MATRIX_FLOAT_AS_INT_BITS_OES).
  for (GLenum matrix_bits : {0x898Du, 0x898Eu, 0x898Fu}) EXPECT_EQ(sizes.get_value_count(matrix_bits), 16u);
  GLint formats = 0;
  glGetIntegerv(GL_NUM_COMPRESSED_TEXTURE_FORMATS, &formats);
  EXPECT_GT(formats, 0);
  EXPECT_EQ(sizes.get_value_count(GL_COMPRESSED_TEXTURE_FORMATS), static_cast<size_t>(formats));
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
  EXPECT_EQ(sizes.get_value_count(GL_PROGRAM_BINARY_FORMATS), static_cast<size_t>(formats));
}

// Catches: a count in api/parameters.txt that is not what the driver writes
// (a capture that cuts a query's answer short or reads past it). Every
// GLES 2+ pname of the table that glGetIntegerv, glGetTexParameteriv or
// glGetVertexAttribiv takes here writes exactly its count.
// Asks `get` (a query of pname and an int array, as glGetIntegerv) of every
// GLES token of the registry in the current context; each the driver answers
// without an error must write `count(pname)` values. Returns how many it answered.
template <typename Get, typename Count>
int CheckEveryPnameTheDriverAnswers(const char* query, Get get, Count count_of) {
  const strata::api::EnumGroup& tokens = strata::api::kEnumGroups[strata::api::kGlNames];
  int answered = 0;
  for (uint32_t i = 0; i < tokens.count; ++i) {
    const strata::api::EnumMember& token = strata::api::kEnumMembers[tokens.first + i];
    // EXT_memory_object_win32's: Mesa 22.3's glGetIntegerv of them calls a
    // driver hook llvmpipe lacks, and crashes.
    if (token.value == 0x9599 /* GL_DEVICE_LUID_EXT */ || token.value == 0x959A /* GL_DEVICE_NODE_MASK_EXT */) continue;
    while (glGetError() != GL_NO_ERROR) {
    }
    const size_t count = count_of(token.value);
    // Twice, with other sentinels, so that a value equal to one is still seen written.
    auto ask = [&](GLint* p) { get(token.value, p); };
    const size_t written = std::max(Written(count, ask), Written(count, ask, ~kSentinel));
    if (glGetError() != GL_NO_ERROR) continue;  // not a pname of this query, or not this context's
    ++answered;
    EXPECT_EQ(written, count) << query << "(" << token.name << ", 0x" << std::hex << token.value << ")";
  }
  return answered;
}

int CheckEveryPnameTheDriverAnswers() {
  return CheckEveryPnameTheDriverAnswers(
      "glGetIntegerv", [](GLenum pname, GLint* p) { glGetIntegerv(pname, p); },
      [](GLenum pname) { return sizes.get_value_bytes(pname, sizeof(GLint)) / sizeof(GLint); });
}

// Catches: a pname the driver answers with several values that the table
// lacks (its count then defaults to 1, and a traced or remote query keeps one
// value of them: OES_matrix_get's matrices on NVIDIA were such), or one whose
// count is more than the driver writes (a trace reads past the app's buffer,
// a remote client writes past it: EXT_memory_object's UUIDs as integers).
TEST_F(CaptureSizesTest, EveryPnameTheDriverAnswersWritesItsCount) {
  EXPECT_GT(CheckEveryPnameTheDriverAnswers(), 250) << "the registry's tokens were not asked";
}

// The same in a GLES 1.1 context, which answers the fixed-function pnames
// (matrices, lights, arrays) a GLES 3 context refuses.
TEST_F(CaptureSizesTest, EveryPnameAGles1ContextAnswersWritesItsCount) {
  const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  ASSERT_TRUE(eglChooseConfig(display_, config_attribs, &config, 1, &configs) && configs == 1);
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 1, EGL_NONE};
  EGLContext gles1 = eglCreateContext(display_, config, EGL_NO_CONTEXT, context_attribs);
  ASSERT_NE(gles1, EGL_NO_CONTEXT);
  const EGLint pbuffer_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display_, config, pbuffer_attribs);
  int answered = 0;
  if (eglMakeCurrent(display_, surface, surface, gles1)) {
    answered = CheckEveryPnameTheDriverAnswers();
    // GLES 1.1's own queries, of light 0, the front material and the texture environment.
    using GetOf = void (*)(GLenum, GLenum, GLfloat*);
    auto counted = [](GLenum pname) { return sizes.gles1_value_count(pname); };
    for (const auto& [name, of, least] : {std::tuple{"glGetLightfv", 0x4000u /* GL_LIGHT0 */, 8},
                                          std::tuple{"glGetMaterialfv", GLenum{GL_FRONT}, 5},
                                          std::tuple{"glGetTexEnvfv", 0x2300u /* GL_TEXTURE_ENV */, 10}}) {
      const auto get = reinterpret_cast<GetOf>(eglGetProcAddress(name));
      if (get == nullptr) {  // not an ASSERT: the GLES 3.2 context must be made current again below
        ADD_FAILURE() << "eglGetProcAddress(" << name << ") gave nothing";
        continue;
      }
      const GLenum object = of;
      EXPECT_GE(CheckEveryPnameTheDriverAnswers(
                    name, [&](GLenum pname, GLint* p) { get(object, pname, reinterpret_cast<GLfloat*>(p)); }, counted),
                least)
          << name;
    }
  } else {
    ADD_FAILURE() << "cannot make a GLES 1.1 context current (eglGetError 0x" << std::hex << eglGetError() << ")";
  }
  eglMakeCurrent(display_, surface_, surface_, context_);
  eglDestroySurface(display_, surface);
  eglDestroyContext(display_, gles1);
  EXPECT_GT(answered, 150) << "the registry's tokens were not asked";
}

// The same for the queries of an object's parameters, each of an object
// that has them: a texture, a sampler, a buffer, a renderbuffer, a
// framebuffer, a program, a shader, vertex attribute 0 and a query target.
TEST_F(CaptureSizesTest, EveryPnameAnObjectsQueryAnswersWritesItsCount) {
  GLuint texture = 0, sampler = 0, buffer = 0, renderbuffer = 0, framebuffer = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4);
  glGenSamplers(1, &sampler);
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, 64, nullptr, GL_STATIC_DRAW);
  BindColorFramebuffer(4, &renderbuffer, &framebuffer);
  const char* const vertex = "#version 300 es\nin vec4 p;\nvoid main() { gl_Position = p; }\n";
  const char* const fragment = "#version 300 es\nout highp vec4 c;\nvoid main() { c = vec4(1); }\n";
  const GLuint shader = Compile(GL_VERTEX_SHADER, vertex);
  const GLuint program = Link({Compile(GL_VERTEX_SHADER, vertex), Compile(GL_FRAGMENT_SHADER, fragment)});
  auto counted = [](GLenum pname) { return sizes.get_value_count(pname); };
  struct Query {
    const char* name;
    std::function<void(GLenum, GLint*)> get;
    int least;  // pnames it must answer at least
  };
  const Query queries[] = {
      {"glGetTexParameteriv", [](GLenum n, GLint* p) { glGetTexParameteriv(GL_TEXTURE_2D, n, p); }, 25},
      {"glGetTexLevelParameteriv", [](GLenum n, GLint* p) { glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, n, p); }, 18},
      {"glGetSamplerParameteriv", [&](GLenum n, GLint* p) { glGetSamplerParameteriv(sampler, n, p); }, 12},
      {"glGetBufferParameteriv", [](GLenum n, GLint* p) { glGetBufferParameteriv(GL_ARRAY_BUFFER, n, p); }, 8},
      {"glGetRenderbufferParameteriv", [](GLenum n, GLint* p) { glGetRenderbufferParameteriv(GL_RENDERBUFFER, n, p); },
       8},
      {"glGetFramebufferAttachmentParameteriv",
       [](GLenum n, GLint* p) { glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, n, p); },
       8},
      {"glGetProgramiv", [&](GLenum n, GLint* p) { glGetProgramiv(program, n, p); }, 16},
      {"glGetShaderiv", [&](GLenum n, GLint* p) { glGetShaderiv(shader, n, p); }, 5},
      {"glGetVertexAttribiv", [](GLenum n, GLint* p) { glGetVertexAttribiv(0, n, p); }, 10},
      {"glGetQueryiv", [](GLenum n, GLint* p) { glGetQueryiv(GL_ANY_SAMPLES_PASSED, n, p); }, 2},
  };
  for (const Query& query : queries) {
    SCOPED_TRACE(query.name);
    EXPECT_GE(CheckEveryPnameTheDriverAnswers(query.name, query.get, counted), query.least);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &framebuffer);
  glDeleteRenderbuffers(1, &renderbuffer);
  glDeleteBuffers(1, &buffer);
  glDeleteSamplers(1, &sampler);
  glDeleteTextures(1, &texture);
  glDeleteShader(shader);
  glDeleteProgram(program);
}

TEST_F(CaptureSizesTest, EveryParameterOfTheTableWritesItsCount) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  int checked = 0;
  for (const strata::api::Parameter& parameter : strata::api::kParameters) {
    if (parameter.since == 0) continue;  // GLES 1.1's, an extension's, desktop GL's
    SCOPED_TRACE(parameter.name);
    while (glGetError() != GL_NO_ERROR) {
    }
    const size_t count = sizes.get_value_count(parameter.pname);
    size_t written = 0;
    if (parameter.getters & strata::api::kGetGet) {
      written = Written(count, [&](GLint* p) { glGetIntegerv(parameter.pname, p); });
    } else if (parameter.getters & strata::api::kGetTexture) {
      written = Written(count, [&](GLint* p) { glGetTexParameteriv(GL_TEXTURE_2D, parameter.pname, p); });
    } else if (parameter.getters & strata::api::kGetVertexAttrib) {
      written = Written(count, [&](GLint* p) { glGetVertexAttribiv(0, parameter.pname, p); });
    } else {
      continue;
    }
    if (glGetError() != GL_NO_ERROR) continue;  // not this context's (a limit of a stage it lacks)
    EXPECT_EQ(written, count);
    ++checked;
  }
  glDeleteTextures(1, &texture);
  EXPECT_GT(checked, 100) << "the table's pnames were not asked";
}

TEST_F(CaptureSizesTest, GetValueCountMatchesDriverWrites) {
  for (GLenum pname : {GL_VIEWPORT, GL_SCISSOR_BOX, GL_COLOR_CLEAR_VALUE, GL_COLOR_WRITEMASK, GL_DEPTH_RANGE,
                       GL_ALIASED_LINE_WIDTH_RANGE, GL_ALIASED_POINT_SIZE_RANGE, GL_MAX_VIEWPORT_DIMS, GL_BLEND_COLOR,
                       GL_COMPRESSED_TEXTURE_FORMATS, GL_PROGRAM_BINARY_FORMATS, GL_PRIMITIVE_BOUNDING_BOX,
                       GL_MAX_TEXTURE_SIZE, GL_ACTIVE_TEXTURE, GL_NUM_EXTENSIONS, GL_MAJOR_VERSION}) {
    SCOPED_TRACE(testing::Message() << "pname 0x" << std::hex << pname);
    const size_t count = sizes.get_value_count(pname);
    EXPECT_EQ(Written(count, [&](GLint* p) { glGetIntegerv(pname, p); }), count);
    EXPECT_EQ(Written(count, [&](GLint* p) { glGetFloatv(pname, reinterpret_cast<GLfloat*>(p)); }), count);
  }
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  // Indexed: one value per index where glGetIntegerv would give three.
  EXPECT_EQ(Written(sizes.get_indexed_value_count(GL_MAX_COMPUTE_WORK_GROUP_COUNT),
                    [](GLint* p) { glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 1, p); }),
            1u);
  const size_t mask = sizes.get_indexed_value_count(GL_COLOR_WRITEMASK);
  std::vector<GLboolean> booleans(mask + 8, 0x55);
  glGetBooleani_v(GL_COLOR_WRITEMASK, 0, booleans.data());
  for (size_t i = 0; i < booleans.size(); ++i) EXPECT_EQ(booleans[i] != 0x55, i < mask) << i;
  // Texture and vertex-attribute parameters.
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  for (GLenum pname : {GL_TEXTURE_BORDER_COLOR, GL_TEXTURE_MIN_FILTER, GL_TEXTURE_SWIZZLE_R}) {
    const size_t count = sizes.get_value_count(pname);
    EXPECT_EQ(Written(count, [&](GLint* p) { glGetTexParameteriv(GL_TEXTURE_2D, pname, p); }), count) << pname;
  }
  glDeleteTextures(1, &texture);
  for (GLenum pname : {GL_CURRENT_VERTEX_ATTRIB, GL_VERTEX_ATTRIB_ARRAY_SIZE}) {
    const size_t count = sizes.get_value_count(pname);
    EXPECT_EQ(Written(count, [&](GLint* p) { glGetVertexAttribfv(0, pname, reinterpret_cast<GLfloat*>(p)); }),
              count)
        << pname;
  }
  // glGetProgramiv(GL_COMPUTE_WORK_GROUP_SIZE) writes three.
  GLuint program = Link({Compile(GL_COMPUTE_SHADER, "#version 310 es\nlayout(local_size_x = 2, local_size_y = 3) "
                                                    "in;\nvoid main() {}\n")});
  const size_t count = sizes.get_value_count(GL_COMPUTE_WORK_GROUP_SIZE);
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(Written(count, [&](GLint* p) { glGetProgramiv(program, GL_COMPUTE_WORK_GROUP_SIZE, p); }), count);
  glDeleteProgram(program);
}

// ---------------------------------------------------------------- uniforms

const char* kVertex = R"(#version 300 es
uniform float f;
uniform vec3 v;
uniform mat4 m;
uniform vec2 arr[3];
uniform mat3 marr[2];
uniform ivec4 iv;
uniform mat2x3 m23;
layout(std140) uniform Block { vec4 a; vec4 b; mat4 c; };
void main() {
  gl_Position = m * vec4(v * f, 1.0) + vec4(arr[0], arr[1]) + vec4(arr[2], 0.0, 0.0) +
                vec4(marr[0] * marr[1] * v, 0.0) + vec4(iv) + a + b + c[0] + vec4(m23 * vec2(1.0), 0.0);
}
)";
const char* kFragment = R"(#version 300 es
precision mediump float;
uniform sampler2D s;
out vec4 o;
void main() { o = texture(s, vec2(0.0)); }
)";

TEST_F(CaptureSizesTest, UniformValueCount) {
  GLuint program = Link({Compile(GL_VERTEX_SHADER, kVertex), Compile(GL_FRAGMENT_SHADER, kFragment)});
  struct Expect {
    const char* name;
    size_t count;
  };
  for (const Expect& e : {Expect{"f", 1}, Expect{"v", 3}, Expect{"m", 16}, Expect{"arr", 2}, Expect{"arr[0]", 2},
                          Expect{"arr[1]", 2}, Expect{"arr[2]", 2}, Expect{"marr[1]", 9}, Expect{"iv", 4},
                          Expect{"m23", 6}, Expect{"s", 1}}) {
    const GLint location = glGetUniformLocation(program, e.name);
    SCOPED_TRACE(testing::Message() << e.name << " at " << location);
    ASSERT_GE(location, 0);
    EXPECT_EQ(sizes.uniform_value_count(program, location), e.count);
    // The driver writes exactly that many.
    EXPECT_EQ(Written(e.count, [&](GLint* p) { glGetUniformfv(program, location, reinterpret_cast<GLfloat*>(p)); }),
              e.count);
  }
  EXPECT_EQ(sizes.uniform_value_count(program, -1), 0u);
  EXPECT_EQ(sizes.uniform_value_count(program, 4000), 0u);
  EXPECT_EQ(sizes.uniform_value_count(program + 1000, 0), 0u);  // not a program: no GL error either

  const GLuint block = glGetUniformBlockIndex(program, "Block");
  ASSERT_NE(block, GL_INVALID_INDEX);
  EXPECT_EQ(sizes.uniform_block_value_count(program, block, GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES), 3u);
  EXPECT_EQ(sizes.uniform_block_value_count(program, block, GL_UNIFORM_BLOCK_DATA_SIZE), 1u);
  const size_t indices = sizes.uniform_block_value_count(program, block, GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES);
  EXPECT_EQ(Written(indices,
                    [&](GLint* p) { glGetActiveUniformBlockiv(program, block, GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES, p); }),
            indices);
  glDeleteProgram(program);
}

TEST_F(CaptureSizesTest, OutStringsMatchDriver) {
  GLuint shader = Compile(GL_FRAGMENT_SHADER, "#version 300 es\nthis does not compile\n");
  char log[1024];
  GLsizei length = -1;
  glGetShaderInfoLog(shader, sizeof log, &length, log);
  ASSERT_GT(length, 0);
  EXPECT_EQ(sizes.out_string_bytes(sizeof log, &length, log), std::strlen(log) + 1);
  EXPECT_EQ(sizes.out_string_bytes(sizeof log, nullptr, log), std::strlen(log) + 1);
  // A short buffer: the GL truncates, the count follows.
  glGetShaderInfoLog(shader, 8, &length, log);
  EXPECT_EQ(length, 7);
  EXPECT_EQ(sizes.out_string_bytes(8, &length, log), 8u);
  glDeleteShader(shader);
}

}  // namespace
}  // namespace strata::capture
