// Runs as an ordinary EGL/GLES app under `strata run` (see tests/CMakeLists.txt)
// and checks what the loader promises an app: per-thread tables chosen by the
// current context, safe GL calls without a context, and eglGetProcAddress.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "loader/status.h"
#include "strata/api/functions.h"

namespace {

std::string ObjectOf(const void* address) {
  Dl_info info{};
  if (address == nullptr || dladdr(address, &info) == 0 || info.dli_fname == nullptr) return "";
  return info.dli_fname;
}

bool InsideStrata(const void* address) {
  return ObjectOf(address).find("libstrata_loader.so") != std::string::npos;
}

int CurrentTable() {
  auto fn = reinterpret_cast<PFN_strata_loader_current_table>(dlsym(RTLD_DEFAULT, "strata_loader_current_table"));
  return fn ? fn() : -100;
}

// Captures what this process writes to stderr while alive.
class StderrCapture {
 public:
  StderrCapture() {
    std::fflush(stderr);
    saved_ = dup(2);
    std::snprintf(path_, sizeof path_, "/tmp/strata-stderr-XXXXXX");
    int fd = mkstemp(path_);
    dup2(fd, 2);
    close(fd);
  }
  std::string Finish() {
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    std::ifstream in(path_);
    std::stringstream text;
    text << in.rdbuf();
    unlink(path_);
    return text.str();
  }

 private:
  int saved_ = -1;
  char path_[64];
};

int CountOccurrences(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

class LoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(dlsym(RTLD_DEFAULT, "strata_loader_status"), nullptr)
        << "this test must run through `strata run`: Strata's loader is not in the process";
    display_ = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    ASSERT_NE(display_, EGL_NO_DISPLAY);
    ASSERT_TRUE(eglInitialize(display_, nullptr, nullptr));
  }
  void TearDown() override {
    if (display_ != EGL_NO_DISPLAY) {
      eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglTerminate(display_);
    }
  }

  EGLConfig Config(EGLint renderable) {
    const EGLint attribs[] = {EGL_RENDERABLE_TYPE, renderable, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                              EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint count = 0;
    EXPECT_TRUE(eglChooseConfig(display_, attribs, &config, 1, &count));
    EXPECT_EQ(count, 1);
    return config;
  }
  EGLContext Context(EGLint version) {
    EGLConfig config = Config(version == 1 ? EGL_OPENGL_ES_BIT : EGL_OPENGL_ES2_BIT);
    const EGLint attribs[] = {EGL_CONTEXT_CLIENT_VERSION, version, EGL_NONE};
    EGLContext context = eglCreateContext(display_, config, EGL_NO_CONTEXT, attribs);
    EXPECT_NE(context, EGL_NO_CONTEXT);
    return context;
  }
  EGLSurface Pbuffer(EGLint renderable) {
    const EGLint attribs[] = {EGL_WIDTH, 8, EGL_HEIGHT, 8, EGL_NONE};
    EGLSurface surface = eglCreatePbufferSurface(display_, Config(renderable), attribs);
    EXPECT_NE(surface, EGL_NO_SURFACE);
    return surface;
  }
  std::string Version() {
    const GLubyte* s = glGetString(GL_VERSION);
    return s ? reinterpret_cast<const char*>(s) : "";
  }

  EGLDisplay display_ = EGL_NO_DISPLAY;
};

TEST_F(LoaderTest, PublicSymbolsAreStrataTrampolines) {
  std::string gles = ObjectOf(reinterpret_cast<void*>(&glClear));
  std::string egl = ObjectOf(reinterpret_cast<void*>(&eglMakeCurrent));
  EXPECT_NE(gles.find(STRATA_LIB_DIR "/libGLESv2.so.2"), std::string::npos) << gles;
  EXPECT_NE(egl.find(STRATA_LIB_DIR "/libEGL.so.1"), std::string::npos) << egl;
}

TEST_F(LoaderTest, GlCallWithoutContextIsReportedOncePerThreadAndIgnored) {
  ASSERT_EQ(CurrentTable(), 0);
  StderrCapture capture;
  glClear(GL_COLOR_BUFFER_BIT);
  GLenum error = glGetError();
  const GLubyte* version = glGetString(GL_VERSION);
  std::thread([] { glFlush(); glFinish(); }).join();
  std::string err = capture.Finish();
  EXPECT_EQ(error, 0u);
  EXPECT_EQ(version, nullptr);
  EXPECT_EQ(CountOccurrences(err, "no current EGL context"), 2) << err;
  EXPECT_NE(err.find("glClear called on thread"), std::string::npos) << err;
  EXPECT_NE(err.find("glFlush called on thread"), std::string::npos) << err;
}

TEST_F(LoaderTest, TableFollowsTheCurrentContextVersion) {
  EGLContext gles1 = Context(1);
  EGLContext gles3 = Context(3);
  ASSERT_TRUE(eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, gles1));
  EXPECT_EQ(CurrentTable(), 1);
  EXPECT_EQ(Version().rfind("OpenGL ES-CM 1.1", 0), 0u) << Version();
  ASSERT_TRUE(eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, gles3));
  EXPECT_EQ(CurrentTable(), 2);
  EXPECT_EQ(Version().rfind("OpenGL ES 3", 0), 0u) << Version();
  ASSERT_TRUE(eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  EXPECT_EQ(CurrentTable(), 0);
  ASSERT_TRUE(eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, gles1));
  ASSERT_TRUE(eglReleaseThread());
  EXPECT_EQ(CurrentTable(), 0);
  // A failed eglMakeCurrent leaves the table alone.
  ASSERT_TRUE(eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, gles3));
  EXPECT_FALSE(eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, reinterpret_cast<EGLContext>(0x1234)));
  EXPECT_EQ(CurrentTable(), 2);
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display_, gles1);
  eglDestroyContext(display_, gles3);
}

TEST_F(LoaderTest, EachThreadHasItsOwnTable) {
  EGLContext gles1 = Context(1);
  EGLContext gles2 = Context(2);
  std::string v1, v2;
  int t1 = -1, t2 = -1;
  std::thread a([&] {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, gles1);
    t1 = CurrentTable();
    v1 = Version();
    eglReleaseThread();
  });
  std::thread b([&] {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, gles2);
    t2 = CurrentTable();
    v2 = Version();
    eglReleaseThread();
  });
  a.join();
  b.join();
  EXPECT_EQ(t1, 1);
  EXPECT_EQ(t2, 2);
  EXPECT_EQ(v1.rfind("OpenGL ES-CM", 0), 0u) << v1;
  EXPECT_EQ(v2.rfind("OpenGL ES 3", 0), 0u) << v2;
  EXPECT_EQ(CurrentTable(), 0) << "other threads' contexts must not change this thread's table";
  eglDestroyContext(display_, gles1);
  eglDestroyContext(display_, gles2);
}

TEST_F(LoaderTest, GetProcAddressReturnsStrataEntryPointsForEveryKnownFunction) {
  int egl_core = 0, gl = 0;
  for (const auto& info : strata::api::kFunctions) {
    auto address = reinterpret_cast<void*>(eglGetProcAddress(info.name));
    bool egl_core_function = info.is_egl && (info.api_mask & ((strata::api::kEGL1_5 << 1) - 1));
    if (!info.is_egl || egl_core_function) {
      ASSERT_NE(address, nullptr) << info.name;
      (info.is_egl ? egl_core : gl)++;
    }
    if (address != nullptr) {
      EXPECT_TRUE(InsideStrata(address)) << info.name << " -> " << ObjectOf(address);
    }
  }
  EXPECT_EQ(egl_core, 44);
  EXPECT_GT(gl, 1000);
}

TEST_F(LoaderTest, GetProcAddressPointersWork) {
  auto make_current = reinterpret_cast<PFNEGLMAKECURRENTPROC>(eglGetProcAddress("eglMakeCurrent"));
  auto clear_color = reinterpret_cast<PFNGLCLEARCOLORPROC>(eglGetProcAddress("glClearColor"));
  auto clear = reinterpret_cast<PFNGLCLEARPROC>(eglGetProcAddress("glClear"));
  auto read_pixels = reinterpret_cast<PFNGLREADPIXELSPROC>(eglGetProcAddress("glReadPixels"));
  auto gen_textures = reinterpret_cast<PFNGLGENTEXTURESPROC>(eglGetProcAddress("glGenTextures"));
  auto bind_texture = reinterpret_cast<PFNGLBINDTEXTUREPROC>(eglGetProcAddress("glBindTexture"));
  // An extension function: KHR_debug object labels round trip through the driver.
  auto object_label = reinterpret_cast<PFNGLOBJECTLABELKHRPROC>(eglGetProcAddress("glObjectLabelKHR"));
  auto get_object_label = reinterpret_cast<PFNGLGETOBJECTLABELKHRPROC>(eglGetProcAddress("glGetObjectLabelKHR"));
  ASSERT_TRUE(make_current && clear_color && clear && read_pixels && object_label && get_object_label);

  EGLContext context = Context(2);
  EGLSurface surface = Pbuffer(EGL_OPENGL_ES2_BIT);
  ASSERT_TRUE(make_current(display_, surface, surface, context));
  EXPECT_EQ(CurrentTable(), 2) << "eglMakeCurrent from eglGetProcAddress must switch tables too";
  clear_color(0.25f, 0.5f, 0.75f, 1.0f);
  clear(GL_COLOR_BUFFER_BIT);
  unsigned char pixel[4] = {};
  read_pixels(2, 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  EXPECT_NEAR(pixel[0], 64, 1);
  EXPECT_NEAR(pixel[1], 128, 1);
  EXPECT_NEAR(pixel[2], 191, 1);
  EXPECT_EQ(pixel[3], 255);

  GLuint texture = 0;
  gen_textures(1, &texture);
  bind_texture(GL_TEXTURE_2D, texture);
  object_label(GL_TEXTURE, texture, -1, "strata-label");
  char label[32] = {};
  GLsizei length = 0;
  get_object_label(GL_TEXTURE, texture, sizeof label, &length, label);
  EXPECT_STREQ(label, "strata-label");
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(display_, surface);
  eglDestroyContext(display_, context);
}

TEST_F(LoaderTest, UnknownNamesAreForwardedToTheDriver) {
  // glvnd answers any gl* name with a dispatch stub of its own; Mesa knows no such EGL name.
  auto gl_unknown = reinterpret_cast<void*>(eglGetProcAddress("glStrataNoSuchFunctionEXT"));
  EXPECT_NE(gl_unknown, nullptr);
  EXPECT_FALSE(InsideStrata(gl_unknown)) << ObjectOf(gl_unknown);
  EXPECT_EQ(reinterpret_cast<void*>(eglGetProcAddress("eglStrataNoSuchFunctionEXT")), nullptr);
  EXPECT_EQ(reinterpret_cast<void*>(eglGetProcAddress(nullptr)), nullptr);
}

}  // namespace
