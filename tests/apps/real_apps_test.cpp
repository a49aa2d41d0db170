// Real applications from Debian packages, on EGL/GLES in X11 windows (the
// test runs under xvfb-run): each traced with `--capture swap` and replayed
// `--strict --verify` with every frame equal, and run through a renderer
// (`strata serve` on a private address) with its frames, read back through
// the wire by the tracer above the remote driver, equal to a native run's
// where the program draws the same frames every run. docs/replay.md lists
// the programs and the flags that make them deterministic.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "stream/framebuffer_record.h"
#include "stream/record_reader.h"
#include "support/process.h"
#include "support/renderer.h"
#include "support/scratch.h"

namespace {

using strata::test::ProcessOptions;
using strata::test::ProcessResult;
using strata::test::RunProcess;
using Env = std::map<std::string, std::string>;

long Number(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stol(m[1]);
}

ProcessOptions Options(const Env& env) {
  ProcessOptions options;
  options.set_env = env;
  // GTK looks for a session bus it cannot have here: say so at once.
  options.set_env["DBUS_SESSION_BUS_ADDRESS"] = "disabled:";
  options.timeout_seconds = 120;
  return options;
}

// `strata trace --capture swap` of the program: the frame count it reports.
long Trace(const std::string& trace, const std::vector<std::string>& program, const Env& env) {
  std::vector<std::string> argv = {STRATA_CLI, "trace", "-o", trace, "--capture", "swap", "--"};
  argv.insert(argv.end(), program.begin(), program.end());
  ProcessResult r = RunProcess(argv, Options(env));
  EXPECT_EQ(r.exit_code, 0) << strata::test::Describe(argv) << "\n" << r.out << r.err;
  EXPECT_EQ(r.err.find("incomplete"), std::string::npos) << r.err;
  return Number(r.err, R"(iB, (\d+) frames)");
}

// `strata replay --strict --verify`: every call agrees and every captured
// framebuffer (at least `frames`) is equal.
void ExpectReplaysToEveryFrame(const std::string& trace, long frames) {
  ProcessResult r = RunProcess({STRATA_CLI, "replay", "--strict", "--verify", trace});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("all agree"), std::string::npos) << r.out;
  EXPECT_GE(Number(r.out, R"(verify: all (\d+) framebuffers match)"), frames) << r.out;
  EXPECT_EQ(r.out.find("not run"), std::string::npos) << r.out;
}

// The program through a renderer, traced above the remote driver: its frames
// are the renderer's, read back through the wire.
void TraceRemotely(const strata::test::Renderer& renderer, const std::string& trace,
                   const std::vector<std::string>& program, Env env) {
  env["STRATA_TRACE"] = "file:" + trace;
  env["STRATA_TRACE_CAPTURE"] = "swap";
  std::vector<std::string> argv = {STRATA_CLI, "run", "--remote", renderer.address(), "--layers",
                                   "libstrata_trace.so", "--"};
  argv.insert(argv.end(), program.begin(), program.end());
  ProcessResult r = RunProcess(argv, Options(env));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err << "\nrenderer:\n" << renderer.Log();
  EXPECT_EQ(r.err.find("strata remote: error"), std::string::npos) << r.err << "\nrenderer:\n" << renderer.Log();
}

// `strata diff --images` of every captured frame.
void ExpectSameImages(const std::string& native, const std::string& remote, long count) {
  std::vector<std::string> argv = {STRATA_CLI, "diff", "--images", "-o",
                                   strata::test::ScratchPath("differing-" + std::to_string(count))};
  argv.insert(argv.end(), {native, remote});
  ProcessResult r = RunProcess(argv);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(Number(r.err, R"((\d+) frames compared \(captured\): 0 differ, 0 only in A, 0 only in B)"), count)
      << r.out << r.err;
}

// The surface images a trace captured at its swaps from frame `first` on, in
// order: each its frame number, size and pixels (RGBA8).
struct FrameImage {
  uint64_t frame;
  uint64_t width, height;
  std::string pixels;
  bool operator==(const FrameImage& other) const {
    return width == other.width && height == other.height && pixels == other.pixels;
  }
};

std::vector<FrameImage> FrameImages(const std::string& trace, uint64_t first) {
  std::vector<FrameImage> images;
  std::string error;
  auto reader = strata::stream::RecordReader::Open(trace, &error);
  EXPECT_NE(reader, nullptr) << error;
  if (reader == nullptr) return images;
  strata::stream::Record record;
  std::vector<uint8_t> rgba;
  while (reader->Next(&record)) {
    if (record.type != strata::stream::RecordType::kFramebuffer) continue;
    strata::stream::FramebufferImage image;
    EXPECT_TRUE(strata::stream::DecodeFramebufferAsRgba(record.payload, &image, &rgba)) << trace;
    if (image.framebuffer != 0 || image.final_frame || image.frame < first) continue;
    images.push_back({image.frame, image.width, image.height, std::string(image.pixels.begin(), image.pixels.end())});
  }
  return images;
}

// A program that draws its last frame again when X exposes or resizes its
// window (mpv) does so as often as the server asks, which differs from run
// to run: the two runs must show the same images, each pixel-equal, in the
// same order, a repeat of the image before allowed in either. mpv's window
// also starts at another size and is resized to the video's: the images at
// the final size are compared, and the first of them may be a redraw, at the
// new size, of the video frame shown before the resize (mpv draws it when the
// resize comes before the next frame is decoded, more often on a loaded
// machine), which the other run need not have.
void ExpectSameImagesInOrder(const std::string& native, const std::string& remote, uint64_t first) {
  auto shown = [](std::vector<FrameImage> images) {
    if (!images.empty()) {
      const uint64_t width = images.back().width, height = images.back().height;
      std::erase_if(images, [&](const FrameImage& i) { return i.width != width || i.height != height; });
    }
    images.erase(std::unique(images.begin(), images.end()), images.end());
    return images;
  };
  std::vector<FrameImage> a = shown(FrameImages(native, first)), b = shown(FrameImages(remote, first));
  EXPECT_GE(a.size(), 5u) << "the native run shows its frames";
  if (a.size() == b.size() + 1 && a.size() > 1 && a[1] == b[0]) a.erase(a.begin());
  if (b.size() == a.size() + 1 && b.size() > 1 && b[1] == a[0]) b.erase(b.begin());
  EXPECT_EQ(a.size(), b.size()) << "images (repeats dropped): " << a.size() << " natively, " << b.size()
                                << " through the renderer";
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) EXPECT_TRUE(a[i] == b[i]) << "image " << i << " differs";
}

// A window that starts small and takes its size from another thread while
// the program draws (glimagesink) shows its first frames at the small size
// for as long as that thread takes, which differs from run to run and with
// the load on the machine. Of frames `first` to `last`, each run must draw at
// least `at_least` at width x height, none at another size after the first
// at that size, and every frame both runs drew at that size pixel-equal.
void ExpectSameImagesAtSize(const std::string& native, const std::string& remote, uint64_t first,
                            uint64_t last, uint64_t width, uint64_t height, size_t at_least) {
  auto at_size = [&](const std::string& trace, const char* run) {
    std::map<uint64_t, FrameImage> frames;
    for (FrameImage& image : FrameImages(trace, first)) {
      if (image.frame > last) break;
      if (image.width == width && image.height == height) {
        frames.emplace(image.frame, std::move(image));
      } else {
        EXPECT_TRUE(frames.empty()) << run << ": frame " << image.frame << " is " << image.width << "x"
                                    << image.height << " after a frame at " << width << "x" << height;
      }
    }
    EXPECT_GE(frames.size(), at_least) << run << ": frames " << first << "-" << last << " at " << width << "x"
                                       << height;
    return frames;
  };
  const auto a = at_size(native, "natively"), b = at_size(remote, "through the renderer");
  size_t compared = 0;
  for (const auto& [frame, image] : a) {
    const auto other = b.find(frame);
    if (other == b.end()) continue;
    EXPECT_TRUE(image == other->second) << "frame " << frame << " differs";
    ++compared;
  }
  EXPECT_GE(compared, at_least - 1) << "frames both runs drew at " << width << "x" << height;
}

TEST(RealApps, DisplayIsAvailable) { ASSERT_NE(getenv("DISPLAY"), nullptr) << "run under xvfb-run"; }

// mpv (Debian's mpv) playing a test pattern it generates itself (libavfilter's
// testsrc) through its GPU output on GLES over EGL on X11. --untimed and
// --no-audio make it show every video frame once, so runs draw the same
// frames. Catches: a window resized after its surface was made (mpv sizes it
// to the video after making its context) replayed at its first size (10 of
// 11 frames differed, with no call disagreeing), or captured past the back
// buffer the driver draws into.
const std::vector<std::string> kMpv = {
    "mpv", "--no-config", "--untimed", "--no-audio", "--no-osc", "--osd-level=0", "--vo=gpu", "--gpu-api=opengl",
    "--opengl-es=yes", "--gpu-context=x11egl", "--frames=10", "av://lavfi:testsrc=size=320x240:rate=25"};

TEST(RealApps, MpvTracesReplaysAndRendersRemotely) {
  const std::string native = strata::test::ScratchPath("mpv.strace");
  const long frames = Trace(native, kMpv, {});
  EXPECT_GE(frames, 10);
  ExpectReplaysToEveryFrame(native, frames);
  strata::test::Renderer renderer(STRATA_CLI);
  const std::string remote = strata::test::ScratchPath("mpv-remote.strace");
  TraceRemotely(renderer, remote, kMpv, {});
  ExpectSameImagesInOrder(native, remote, 0);
}

// GTK 4's demos (gtk-4-examples), rendered by GSK's GL renderer on GLES over
// EGL (GDK_DEBUG=gl-egl: on Xvfb GTK 4.8 gives EGL up and takes GLX otherwise;
// gl-gles: GLES only).
// css_blendmodes draws the same frame every run (images, text, blend-mode
// shaders); fishbowl animates by the clock, so only its replay is compared.
// --autoquit ends each after a moment.
const Env kGtk = {{"GDK_DEBUG", "gl-egl,gl-gles"}};

TEST(RealApps, Gtk4DemosTraceReplayAndRenderRemotely) {
  const std::vector<std::string> blend = {"gtk4-demo", "--run=css_blendmodes", "--autoquit"};
  const std::string native = strata::test::ScratchPath("gtk-blend.strace");
  const long frames = Trace(native, blend, kGtk);
  EXPECT_GE(frames, 1);
  ExpectReplaysToEveryFrame(native, frames);
  strata::test::Renderer renderer(STRATA_CLI);
  const std::string remote = strata::test::ScratchPath("gtk-blend-remote.strace");
  TraceRemotely(renderer, remote, blend, kGtk);
  ExpectSameImages(native, remote, frames);

  const std::string fishbowl = strata::test::ScratchPath("gtk-fishbowl.strace");
  const long animated = Trace(fishbowl, {"gtk4-demo", "--run=fishbowl", "--autoquit"}, kGtk);
  EXPECT_GE(animated, 3);
  ExpectReplaysToEveryFrame(fishbowl, animated);
}

// GStreamer's GL elements (gstreamer1.0-gl) on GLES over EGL on X11: a test
// pattern uploaded through persistently mapped pixel buffers, converted from
// YUV and twirled by shaders into glimagesink's window. sync=false shows
// every buffer; an 8-bit config (GST_GL_CONFIG) as an X11 window has; the
// smpte75 pattern is the same in every buffer. Catches: mapped buffers
// followed by target instead of by buffer (GStreamer maps three through
// GL_PIXEL_PACK_BUFFER: replayed frames green, the remote client aborted),
// a process whose GL thread starts after its first ended refused by the
// renderer, and a remote window resized at the swap or at the first draw
// into a framebuffer object rather than at the first draw into the window.
const Env kGstreamer = {{"GST_GL_API", "gles2"}, {"GST_GL_PLATFORM", "egl"}, {"GST_GL_WINDOW", "x11"},
                        {"GST_GL_CONFIG", "gst-gl-context-config,red-size=8,green-size=8,blue-size=8,alpha-size=8"}};
const std::vector<std::string> kGstLaunch = {
    "gst-launch-1.0", "-q", "videotestsrc", "num-buffers=10", "pattern=smpte75", "!",
    "video/x-raw,width=320,height=240,format=I420", "!", "glupload", "!", "glcolorconvert", "!", "gleffects",
    "effect=twirl", "!", "glimagesink", "sync=false"};

TEST(RealApps, GstreamerGlTracesReplaysAndRendersRemotely) {
  const std::string native = strata::test::ScratchPath("gst.strace");
  const long frames = Trace(native, kGstLaunch, kGstreamer);
  EXPECT_GE(frames, 10);
  ExpectReplaysToEveryFrame(native, frames);
  strata::test::Renderer renderer(STRATA_CLI);
  const std::string remote = strata::test::ScratchPath("gst-remote.strace");
  TraceRemotely(renderer, remote, kGstLaunch, kGstreamer);
  // glimagesink's window starts at 1x1 and takes the video's size from
  // another thread while the first frames draw (one natively on a quiet
  // machine, more under load, in either run). After the ten buffers it may
  // draw the last one again as its window is exposed or closed, as often as
  // the X server asks. So the frames of the ten buffers drawn at 320x240
  // are compared: at least eight in each run.
  ExpectSameImagesAtSize(native, remote, 0, 9, 320, 240, 8);
}

}  // namespace
