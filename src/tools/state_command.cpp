// strata state TRACE CALL: the GL state a call met, replayed up to it.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/json_writer.h"
#include "inspect/gl_state.h"
#include "view/state_page.h"
#include "replay/replayer.h"
#include "stream/call_printer.h"
#include "tools/command.h"
#include "tools/command_line.h"
#include "tools/install_paths.h"

namespace strata::tools {
namespace {

constexpr char kUsage[] = R"(usage: strata state [options] TRACE CALL

Replays TRACE headless up to call number CALL (the number `strata dump`
prints; CALL itself does not run) and prints, as JSON, the GL state of the
context CALL would run on:
  call           CALL's function and thread
  context        the GLES version asked for and the host's
  capabilities   every glEnable capability
  values         viewport, scissor, depth, stencil, blend, cull, color mask,
                 clear values, pixel store, hints
  bindings       buffers per target (and indexed), textures and samplers per
                 unit, framebuffers, renderbuffer, VAO, transform feedback,
                 program, queries in progress
  program        the current program: its shaders' sources, each active
                 uniform's name, type and value, its attributes
  vertex_attributes   each enabled or used attribute: layout, buffer, current value
  textures       each bound texture: parameters, and each level's size and format
  samplers       each bound sampler object: its parameters
  buffers        each bound buffer: size, usage, where it is bound
  draw_framebuffer    its attachments
A GLES 1.1 context gets its fixed-function state instead: matrices, lights,
material, texture units with their environments, fog, client arrays.
Objects are named as the trace names them. docs/inspect.md has the details.

options:
  -o, --output DIR   also write the bound textures' images (PNG, every level,
                     face and layer a renderable format allows), the bound
                     buffers' bytes and the draw framebuffer's image into DIR;
                     the JSON says which could not be read back, and why
  --html PAGE        also write the state as an HTML page (images from -o shown)
  -h, --help         show this help

Exit status: 0, or 1 when the trace cannot be replayed to CALL (it ends
before, or no context is current where CALL runs), 2 for bad usage.
)";

}  // namespace

int StateCommandMain(int argc, char** argv) {
  std::string output_dir, page;
  CommandLine args("strata state", kUsage, {{"help", 'h', false}, {"output", 'o', true}, {"html", 0, true}}, argc,
                   argv);
  while (args.Next()) {
    if (args.Is("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (args.Is("output")) {
      output_dir = args.value();
    } else if (args.Is("html")) {
      page = args.value();
    }
  }
  if (args.failed()) return 2;
  if (args.operands().size() != 2) {
    std::fprintf(stderr, "strata state: error: give a trace and a call number\n%s", kUsage);
    return 2;
  }
  const std::string& trace = args.operands()[0];
  const std::string& call_text = args.operands()[1];
  if (call_text.empty() || call_text.size() > 19 || call_text.find_first_not_of("0123456789") != std::string::npos) {
    std::fprintf(stderr, "strata state: error: CALL is a call number (as strata dump prints it), not '%s'\n",
                 call_text.c_str());
    return 2;
  }
  const uint64_t call = std::stoull(call_text);

  JsonWriter json;
  inspect::GlStateFiles files;
  std::string stop_error;
  replay::ReplayOptions options;
  options.strata_lib_dir = StrataLibraryDirectory();
  options.check = false;
  options.progress = true;
  options.stop_before_call = call;
  options.at_stop = [&](host::Executor& executor, const stream::DecodedCall& at) {
    const uint32_t thread = static_cast<uint32_t>(at.thread);
    if (executor.CurrentVersion(thread) == 0) {
      stop_error = "call " + std::to_string(at.sequence) + " (" + std::string(at.name) +
                   ") runs with no context current on its thread: there is no GL state to show";
      return;
    }
    json.BeginObject();
    json.Key("call").BeginObject().Key("sequence").UInt(at.sequence).Key("function").String(at.name);
    json.Key("thread").UInt(at.thread).Key("text").String(stream::FormatCall(at)).EndObject();
    json.Key("state");
    inspect::GlStateOptions state_options;
    state_options.output_dir = output_dir;
    inspect::WriteGlState(executor, thread, state_options, json, &files);
    json.Key("not_read_back").BeginArray();
    for (const std::string& why : files.unread) json.String(why);
    json.EndArray().EndObject();
  };
  replay::ReplayResult result;
  std::string error;
  if (!replay::Replay(trace, options, &result, &error)) {
    std::fprintf(stderr, "strata state: error: %s\n", error.c_str());
    return 1;
  }
  if (!result.stopped) {
    std::fprintf(stderr, "strata state: error: %s ends at call %llu%s: there is no call %llu\n", trace.c_str(),
                 static_cast<unsigned long long>(result.last_sequence),
                 result.warning.empty() ? "" : (" (" + result.warning + ")").c_str(),
                 static_cast<unsigned long long>(call));
    return 1;
  }
  if (!stop_error.empty()) {
    std::fprintf(stderr, "strata state: error: %s\n", stop_error.c_str());
    return 1;
  }
  std::printf("%s\n", json.str().c_str());
  if (!page.empty()) {
    std::ofstream out(page, std::ios::binary | std::ios::trunc);
    // The page's images are the paths -o wrote, relative to here: from the page's folder, here is this.
    std::error_code failed;
    const auto page_dir = std::filesystem::absolute(page).parent_path();
    std::string prefix = std::filesystem::relative(std::filesystem::current_path(), page_dir, failed).string();
    prefix = failed || prefix.empty() ? std::filesystem::current_path().string() + "/" : prefix + "/";
    out << view::StatePage(json.str(), trace, call, prefix);
    if (!out.flush()) {
      std::fprintf(stderr, "strata state: error: cannot write %s\n", page.c_str());
      return 1;
    }
    files.written.push_back(page);
  }
  for (const std::string& path : files.written) std::fprintf(stderr, "strata state: wrote %s\n", path.c_str());
  for (const std::string& why : files.unread) std::fprintf(stderr, "strata state: not read back: %s\n", why.c_str());
  return 0;
}

}  // namespace strata::tools
