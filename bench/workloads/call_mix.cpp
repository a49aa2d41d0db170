// Call mixes shaped like programs we did not write (issue 19), on a GLES 3
// context and a 64x64 pbuffer, headless. Each frame ends with a 128x128
// texture upload, a 64x64 glReadPixels and a swap, as a real frame would.
//   --mode cheap:    30 draws a frame, each after 200 groups of glUniform4f,
//                    glEnable(GL_BLEND), glBlendFunc, glDisable(GL_BLEND),
//                    glBindBuffer: a call-bound program's state churn.
//   --mode draws:    500 small draws a frame, each glUseProgram,
//                    glBindVertexArray, glBindTexture, glUniform2f,
//                    glUniform4f, glDrawArrays.
//   --mode upload:   16 glTexSubImage2D of 256x256 RGBA a frame, each drawn.
//   --mode contexts: four contexts sharing one surface, each made current
//                    in turn for 50 small draws, eight times a frame.
// It prints the calls made in the timed loop and calls per second; the calls
// are counted here, in the program, not by the layer under test. A second
// line splits the loop's time: the app thread on a CPU and waiting for one
// (the kernel's schedstat), and the CPU time of all the process's threads,
// which tells work added to the app thread from work competing with it.
#include <GLES3/gl3.h>

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "headless_egl.h"

namespace {

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "call_mix: error: %s\n", what);
  std::exit(1);
}

// The calling thread's time on a CPU and waiting on a run queue, in seconds
// (zeros where the kernel keeps no schedstat).
struct ThreadTimes {
  double on_cpu = 0, waiting = 0;
  long migrations = 0, preempted = 0;  // moves between CPUs; involuntary switches
};
ThreadTimes CallingThreadTimes() {
  ThreadTimes times;
  if (FILE* f = std::fopen("/proc/thread-self/schedstat", "r")) {
    unsigned long long on_cpu = 0, waiting = 0;
    if (std::fscanf(f, "%llu %llu", &on_cpu, &waiting) == 2) {
      times.on_cpu = on_cpu / 1e9;
      times.waiting = waiting / 1e9;
    }
    std::fclose(f);
  }
  // A move to another CPU leaves the thread's caches behind (the L2 is per core).
  if (FILE* f = std::fopen("/proc/thread-self/sched", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f)) {
      long value = 0;
      if (std::sscanf(line, "se.nr_migrations : %ld", &value) == 1) times.migrations = value;
      if (std::sscanf(line, "nr_involuntary_switches : %ld", &value) == 1) times.preempted = value;
    }
    std::fclose(f);
  }
  return times;
}

// CPU seconds (user and system) of every thread of the process so far.
double ProcessCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

constexpr int kSurfaceSize = 64;
constexpr int kFrameTextureSize = 128;

GLuint Program(const char* fragment_color) {
  const char* vs =
      "#version 300 es\n"
      "layout(location = 0) in vec2 p; uniform vec2 offset; out vec2 uv;\n"
      "void main() { uv = p; gl_Position = vec4(p * 0.1 + offset, 0.0, 1.0); }";
  std::string fs = std::string(
                       "#version 300 es\nprecision mediump float; uniform vec4 color; uniform sampler2D image;\n"
                       "in vec2 uv; out vec4 result;\nvoid main() { result = ") +
                   fragment_color + "; }";
  const char* fs_text = fs.c_str();
  GLuint program = glCreateProgram();
  for (auto [type, source] : {std::pair{GL_VERTEX_SHADER, vs}, std::pair{GL_FRAGMENT_SHADER, fs_text}}) {
    GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    glAttachShader(program, shader);
    glDeleteShader(shader);
  }
  glLinkProgram(program);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) Fail("link failed");
  return program;
}

// The objects one context draws with: two programs, two VAOs, two textures,
// four buffers, made once.
struct Scene {
  GLuint programs[2] = {};
  GLint offsets[2] = {}, colors[2] = {};
  GLuint vaos[2] = {};
  GLuint textures[2] = {};
  GLuint buffers[4] = {};
  GLuint frame_texture = 0;

  void Make() {
    programs[0] = Program("color * texture(image, uv)");
    programs[1] = Program("color + 0.5 * texture(image, uv)");
    for (int i = 0; i < 2; ++i) {
      offsets[i] = glGetUniformLocation(programs[i], "offset");
      colors[i] = glGetUniformLocation(programs[i], "color");
    }
    const GLfloat triangle[] = {-1, -1, 1, -1, 0, 1};
    glGenBuffers(4, buffers);
    for (GLuint buffer : buffers) {
      glBindBuffer(GL_ARRAY_BUFFER, buffer);
      glBufferData(GL_ARRAY_BUFFER, sizeof triangle, triangle, GL_STATIC_DRAW);
    }
    glGenVertexArrays(2, vaos);
    for (int i = 0; i < 2; ++i) {
      glBindVertexArray(vaos[i]);
      glBindBuffer(GL_ARRAY_BUFFER, buffers[i]);
      glEnableVertexAttribArray(0);
      glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    }
    std::vector<uint32_t> texels(16 * 16, 0xff8040c0u);
    glGenTextures(2, textures);
    for (GLuint texture : textures) {
      glBindTexture(GL_TEXTURE_2D, texture);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
    }
    glGenTextures(1, &frame_texture);
    glBindTexture(GL_TEXTURE_2D, frame_texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, kFrameTextureSize, kFrameTextureSize, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 nullptr);
    glUseProgram(programs[0]);
    glBindVertexArray(vaos[0]);
  }
};

long CheapDraws(const Scene& scene) {
  long calls = 0;
  for (int draw = 0; draw < 30; ++draw) {
    for (int group = 0; group < 200; ++group) {
      glUniform4f(scene.colors[0], (group & 255) / 255.0f, 0.5f, 0.25f, 1.0f);
      glEnable(GL_BLEND);
      glBlendFunc(GL_SRC_ALPHA, (group & 1) ? GL_ONE_MINUS_SRC_ALPHA : GL_ONE);
      glDisable(GL_BLEND);
      glBindBuffer(GL_ARRAY_BUFFER, scene.buffers[group & 3]);
    }
    glDrawArrays(GL_TRIANGLES, 0, 3);
    calls += 200 * 5 + 1;
  }
  return calls;
}

long SmallDraws(const Scene& scene, int count, int phase) {
  for (int i = 0; i < count; ++i) {
    int which = (i + phase) & 1;
    glUseProgram(scene.programs[which]);
    glBindVertexArray(scene.vaos[which]);
    glBindTexture(GL_TEXTURE_2D, scene.textures[(i >> 1) & 1]);
    glUniform2f(scene.offsets[which], ((i * 37) % 200) / 100.0f - 1.0f, ((i * 91) % 200) / 100.0f - 1.0f);
    glUniform4f(scene.colors[which], (i & 255) / 255.0f, 0.5f, 0.25f, 1.0f);
    glDrawArrays(GL_TRIANGLES, 0, 3);
  }
  return 6L * count;
}

long Uploads(const Scene& scene, std::vector<uint32_t>& texels, int frame) {
  constexpr int kSize = 256;
  glBindTexture(GL_TEXTURE_2D, scene.textures[0]);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, kSize, kSize, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  for (int i = 0; i < 16; ++i) {
    for (size_t t = 0; t < texels.size(); t += 97) texels[t] = static_cast<uint32_t>((frame * 16 + i) * 2654435761u + t);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kSize, kSize, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
    glDrawArrays(GL_TRIANGLES, 0, 3);
  }
  return 2 + 16 * 2;
}

// The per-frame end every mode shares: an upload, a readback, a swap.
long EndFrame(EGLDisplay display, EGLSurface surface, const Scene& scene, std::vector<uint32_t>& frame_texels,
              std::vector<uint32_t>& pixels, int frame) {
  for (size_t t = 0; t < frame_texels.size(); t += 61) frame_texels[t] = static_cast<uint32_t>(frame + t);
  glBindTexture(GL_TEXTURE_2D, scene.frame_texture);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kFrameTextureSize, kFrameTextureSize, GL_RGBA, GL_UNSIGNED_BYTE,
                  frame_texels.data());
  glReadPixels(0, 0, kSurfaceSize, kSurfaceSize, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  eglSwapBuffers(display, surface);
  glClear(GL_COLOR_BUFFER_BIT);
  return 5;
}

}  // namespace

int main(int argc, char** argv) {
  std::string mode = "cheap";
  int frames = 100;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--mode") && i + 1 < argc) {
      mode = argv[++i];
    } else if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) {
      frames = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--help")) {
      std::puts("usage: call_mix [--mode cheap|draws|upload|contexts] [--frames N]\n"
                "GLES 3 call mixes on a 64x64 pbuffer; prints the calls made and calls per second.");
      return 0;
    } else {
      Fail("unknown argument (see --help)");
    }
  }
  if (mode != "cheap" && mode != "draws" && mode != "upload" && mode != "contexts")
    Fail("--mode is cheap, draws, upload or contexts");
  if (frames < 1) Fail("--frames must be at least 1");

  HeadlessEgl egl("call_mix", 3, kSurfaceSize, kSurfaceSize);
  EGLDisplay display = egl.display;
  EGLSurface surface = egl.surface;

  const int context_count = mode == "contexts" ? 4 : 1;
  std::vector<EGLContext> contexts;
  std::vector<Scene> scenes(context_count);
  for (int i = 0; i < context_count; ++i) {
    contexts.push_back(egl.MakeCurrentContext());
    scenes[i].Make();
  }

  std::vector<uint32_t> upload_texels(256 * 256);
  std::vector<uint32_t> frame_texels(kFrameTextureSize * kFrameTextureSize);
  std::vector<uint32_t> pixels(kSurfaceSize * kSurfaceSize);
  long calls = 0;
  const ThreadTimes thread_start = CallingThreadTimes();
  const double cpu_start = ProcessCpuSeconds();
  auto start = std::chrono::steady_clock::now();
  for (int frame = 0; frame < frames; ++frame) {
    if (mode == "cheap") {
      calls += CheapDraws(scenes[0]);
    } else if (mode == "draws") {
      calls += SmallDraws(scenes[0], 500, frame);
    } else if (mode == "upload") {
      calls += Uploads(scenes[0], upload_texels, frame);
    } else {
      for (int turn = 0; turn < 8; ++turn) {
        int which = turn % context_count;
        eglMakeCurrent(display, surface, surface, contexts[which]);
        calls += 1 + SmallDraws(scenes[which], 50, turn);
      }
    }
    calls += EndFrame(display, surface, scenes[mode == "contexts" ? context_count - 1 : 0], frame_texels, pixels,
                      frame);
  }
  glFinish();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("call_mix: %s, %d frames, %ld calls in %.4f s, %.3f M calls/s\n", mode.c_str(), frames, calls,
              seconds, calls / seconds / 1e6);
  const ThreadTimes thread_end = CallingThreadTimes();
  std::printf(
      "call_mix: app thread %.4f s on a CPU, %.4f s waiting for one, %ld moves between CPUs, %ld preemptions; "
      "all threads %.4f s of CPU\n",
      thread_end.on_cpu - thread_start.on_cpu, thread_end.waiting - thread_start.waiting,
      thread_end.migrations - thread_start.migrations, thread_end.preempted - thread_start.preempted,
      ProcessCpuSeconds() - cpu_start);
  egl.Close();
  return 0;
}
