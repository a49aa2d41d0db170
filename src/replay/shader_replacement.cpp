#include "replay/shader_replacement.h"

#include <GLES3/gl32.h>

#include <fstream>
#include <memory>
#include <sstream>

#include "common/gl_queries.h"
#include "common/shader_stages.h"
#include "host/executor.h"
#include "strata/api/functions.h"
#include "strata/api/replay.h"

namespace strata::replay {
namespace {

using api::ObjectClass;

std::string StageName(GLenum type) {
  switch (type) {
    case GL_VERTEX_SHADER: return "vertex";
    case GL_FRAGMENT_SHADER: return "fragment";
    case GL_COMPUTE_SHADER: return "compute";
    case GL_GEOMETRY_SHADER: return "geometry";
    case GL_TESS_CONTROL_SHADER: return "tessellation control";
    case GL_TESS_EVALUATION_SHADER: return "tessellation evaluation";
    default: return "unknown";
  }
}

// The host driver's shader and program functions.
struct ShaderFunctions {
  explicit ShaderFunctions(const host::HostDriver& d)
      : CreateShader(d.Get<PFNGLCREATESHADERPROC>(api::glCreateShader)),
        ShaderSource(d.Get<PFNGLSHADERSOURCEPROC>(api::glShaderSource)),
        CompileShader(d.Get<PFNGLCOMPILESHADERPROC>(api::glCompileShader)),
        DeleteShader(d.Get<PFNGLDELETESHADERPROC>(api::glDeleteShader)),
        GetShaderiv(d.Get<PFNGLGETSHADERIVPROC>(api::glGetShaderiv)),
        GetShaderInfoLog(d.Get<PFNGLGETSHADERINFOLOGPROC>(api::glGetShaderInfoLog)),
        AttachShader(d.Get<PFNGLATTACHSHADERPROC>(api::glAttachShader)),
        DetachShader(d.Get<PFNGLDETACHSHADERPROC>(api::glDetachShader)),
        GetAttachedShaders(d.Get<PFNGLGETATTACHEDSHADERSPROC>(api::glGetAttachedShaders)),
        LinkProgram(d.Get<PFNGLLINKPROGRAMPROC>(api::glLinkProgram)),
        GetProgramiv(d.Get<PFNGLGETPROGRAMIVPROC>(api::glGetProgramiv)),
        GetProgramInfoLog(d.Get<PFNGLGETPROGRAMINFOLOGPROC>(api::glGetProgramInfoLog)),
        ProgramParameteri(d.Get<PFNGLPROGRAMPARAMETERIPROC>(api::glProgramParameteri)),
        GetError(d.Get<PFNGLGETERRORPROC>(api::glGetError)) {}
  PFNGLCREATESHADERPROC CreateShader;
  PFNGLSHADERSOURCEPROC ShaderSource;
  PFNGLCOMPILESHADERPROC CompileShader;
  PFNGLDELETESHADERPROC DeleteShader;
  PFNGLGETSHADERIVPROC GetShaderiv;
  PFNGLGETSHADERINFOLOGPROC GetShaderInfoLog;
  PFNGLATTACHSHADERPROC AttachShader;
  PFNGLDETACHSHADERPROC DetachShader;
  PFNGLGETATTACHEDSHADERSPROC GetAttachedShaders;
  PFNGLLINKPROGRAMPROC LinkProgram;
  PFNGLGETPROGRAMIVPROC GetProgramiv;
  PFNGLGETPROGRAMINFOLOGPROC GetProgramInfoLog;
  PFNGLPROGRAMPARAMETERIPROC ProgramParameteri;  // GLES 3.1; null before
  PFNGLGETERRORPROC GetError;

  std::string ShaderLog(GLuint shader) const {
    GLint length = 0;
    GetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<size_t>(length > 0 ? length : 0), '\0');
    if (length > 0) GetShaderInfoLog(shader, length, nullptr, log.data());
    return Trimmed(log);
  }
  std::string ProgramLog(GLuint program) const {
    GLint length = 0;
    GetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
    std::string log(static_cast<size_t>(length > 0 ? length : 0), '\0');
    if (length > 0) GetProgramInfoLog(program, length, nullptr, log.data());
    return Trimmed(log);
  }
  bool Compiled(GLuint shader) const {
    GLint ok = GL_FALSE;
    GetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    return ok == GL_TRUE;
  }
  bool Linked(GLuint program) const {
    GLint ok = GL_FALSE;
    GetProgramiv(program, GL_LINK_STATUS, &ok);
    return ok == GL_TRUE;
  }
  std::vector<GLuint> Attached(GLuint program) const {
    GLint count = 0;
    GetProgramiv(program, GL_ATTACHED_SHADERS, &count);
    std::vector<GLuint> shaders(static_cast<size_t>(count > 0 ? count : 0));
    GLsizei written = 0;
    if (count > 0) GetAttachedShaders(program, count, &written, shaders.data());
    shaders.resize(static_cast<size_t>(written));
    return shaders;
  }
  GLenum TypeOf(GLuint shader) const {
    GLint type = 0;
    GetShaderiv(shader, GL_SHADER_TYPE, &type);
    return static_cast<GLenum>(type);
  }
  void SetSource(GLuint shader, const std::string& source) const {
    const GLchar* text = source.c_str();
    const GLint length = static_cast<GLint>(source.size());
    ShaderSource(shader, 1, &text, &length);
  }
  static std::string Trimmed(std::string log) {
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n' || log.back() == ' ')) log.pop_back();
    return log.empty() ? "(the driver gives no log)" : log;
  }
};

// A program's shader swapped for one made from a replacement, for one link.
struct Swap {
  GLuint program = 0, original = 0, ours = 0;
  ShaderReplacement* replacement = nullptr;
};

class Replacer {
 public:
  explicit Replacer(std::vector<ShaderReplacement>& replacements) : replacements_(replacements) {}

  bool Before(host::Executor& executor, const stream::DecodedCall& call, std::string* error) {
    if (call.slot != api::glLinkProgram || call.args.empty()) return true;
    PutBack(Gl(executor));  // a link the executor refused got no After
    const uint32_t thread = static_cast<uint32_t>(call.thread);
    const uint64_t program = call.args[0].u;
    for (ShaderReplacement& r : replacements_) {
      if (r.name != program) continue;
      const ShaderFunctions& gl = Gl(executor);
      const GLuint host = static_cast<GLuint>(executor.HostName(thread, ObjectClass::kProgram, program));
      const GLenum stage = ShaderStageOfFile(r.path);
      if (stage == 0) {
        *error = "--replace-shader " + std::to_string(program) + "=" + r.path + ": " + std::to_string(program) +
                 " is a program (linked at call " + std::to_string(call.sequence) +
                 "): name the stage FILE replaces by its extension (.vert, .frag, .comp, .geom, .tesc, .tese), or "
                 "give the shader's name instead";
        return false;
      }
      GLuint original = 0;
      for (GLuint shader : gl.Attached(host)) {
        if (gl.TypeOf(shader) == stage) original = shader;
      }
      if (original == 0) {
        *error = "--replace-shader " + std::to_string(program) + "=" + r.path + ": program " + std::to_string(program) +
                 " has no " + StageName(stage) + " shader attached when it is linked (call " +
                 std::to_string(call.sequence) + ")";
        DrainGlErrors(gl.GetError);
        return false;
      }
      const GLuint ours = Compile(gl, stage, r, "program " + std::to_string(program) + "'s " + StageName(stage) + " shader",
                                  error);
      if (ours == 0) return false;
      gl.DetachShader(host, original);
      gl.AttachShader(host, ours);
      swaps_.push_back({host, original, ours, &r});
      DrainGlErrors(gl.GetError);
    }
    return true;
  }

  bool After(host::Executor& executor, const stream::DecodedCall& call, uint64_t frame, std::string* error) {
    const uint32_t thread = static_cast<uint32_t>(call.thread);
    if (call.slot == api::glShaderSource && !call.args.empty()) {
      return SourceSet(executor, thread, call, error);
    }
    if (call.slot == api::glCompileShader && !call.args.empty()) {
      ShaderReplacement* r = Find(call.args[0].u, ShaderReplacement::Met::kShader);
      if (r == nullptr) return true;
      const ShaderFunctions& gl = Gl(executor);
      const GLuint host = static_cast<GLuint>(executor.HostName(thread, ObjectClass::kShader, call.args[0].u));
      const bool compiled = gl.Compiled(host);
      const std::string log = compiled ? "" : gl.ShaderLog(host);
      DrainGlErrors(gl.GetError);
      if (!compiled) {
        *error = "--replace-shader: shader " + std::to_string(r->name) + " from " + r->path +
                 " does not compile (call " + std::to_string(call.sequence) + ", frame " + std::to_string(frame) +
                 "); the driver says:\n" + log;
        return false;
      }
      if (first_loop_) ++r->uses;
      return true;
    }
    if (call.slot == api::glLinkProgram && !call.args.empty()) return Linked(executor, thread, call, error);
    if (call.slot == api::glCreateShaderProgramv && call.has_reply) return Relink(executor, thread, call, error);
    if (call.slot == api::glProgramBinary && !call.args.empty() && Find(call.args[0].u, ShaderReplacement::Met::kNot)) {
      *error = "--replace-shader: program " + std::to_string(call.args[0].u) +
               " is loaded from a binary (glProgramBinary, call " + std::to_string(call.sequence) +
               "): it has no source to replace";
      return false;
    }
    return true;
  }

  void Finish() { first_loop_ = false; }

 private:
  const ShaderFunctions& Gl(host::Executor& executor) {
    if (!gl_) gl_ = std::make_unique<ShaderFunctions>(executor.driver());
    return *gl_;
  }

  // The replacement of `name`, if any; `as` (unless kNot) notes what the trace made it.
  ShaderReplacement* Find(uint64_t name, ShaderReplacement::Met as) {
    for (ShaderReplacement& r : replacements_) {
      if (r.name != name) continue;
      if (as != ShaderReplacement::Met::kNot && first_loop_) r.met = as;
      return &r;
    }
    return nullptr;
  }

  // The program's own shaders attached again (the linked program keeps what it was linked from).
  void PutBack(const ShaderFunctions& gl) {
    for (const Swap& swap : swaps_) {
      gl.DetachShader(swap.program, swap.ours);
      gl.AttachShader(swap.program, swap.original);
      gl.DeleteShader(swap.ours);
    }
    swaps_.clear();
  }

  GLuint Compile(const ShaderFunctions& gl, GLenum stage, const ShaderReplacement& r, const std::string& what,
                 std::string* error) {
    const GLuint shader = gl.CreateShader(stage);
    gl.SetSource(shader, r.source);
    gl.CompileShader(shader);
    if (gl.Compiled(shader)) return shader;
    *error = "--replace-shader: " + what + " from " + r.path + " does not compile; the driver says:\n" +
             gl.ShaderLog(shader);
    gl.DeleteShader(shader);
    DrainGlErrors(gl.GetError);
    return 0;
  }

  bool SourceSet(host::Executor& executor, uint32_t thread, const stream::DecodedCall& call, std::string* error) {
    ShaderReplacement* r = Find(call.args[0].u, ShaderReplacement::Met::kShader);
    if (r == nullptr) return true;
    const ShaderFunctions& gl = Gl(executor);
    const GLuint host = static_cast<GLuint>(executor.HostName(thread, ObjectClass::kShader, call.args[0].u));
    const GLenum type = gl.TypeOf(host), stage = ShaderStageOfFile(r->path);
    if (stage != 0 && type != 0 && stage != type) {
      *error = "--replace-shader " + std::to_string(r->name) + "=" + r->path + ": " + r->path + " is a " +
               StageName(stage) + " shader by its name, shader " + std::to_string(r->name) + " a " + StageName(type) +
               " shader";
      DrainGlErrors(gl.GetError);
      return false;
    }
    gl.SetSource(host, r->source);
    DrainGlErrors(gl.GetError);
    return true;
  }

  bool Linked(host::Executor& executor, uint32_t thread, const stream::DecodedCall& call, std::string* error) {
    const ShaderFunctions& gl = Gl(executor);
    const uint64_t program = call.args[0].u;
    const GLuint host = static_cast<GLuint>(executor.HostName(thread, ObjectClass::kProgram, program));
    std::string from;
    for (const Swap& swap : swaps_) {
      if (first_loop_) swap.replacement->met = ShaderReplacement::Met::kProgram, ++swap.replacement->uses;
      from += (from.empty() ? "" : ", ") + swap.replacement->path;
    }
    PutBack(gl);
    // A replaced shader linked into this program.
    for (GLuint shader : gl.Attached(host)) {
      const uint64_t name = executor.StreamName(thread, ObjectClass::kShader, shader);
      for (const ShaderReplacement& r : replacements_) {
        if (r.name == name && r.met == ShaderReplacement::Met::kShader) {
          from += (from.empty() ? "" : ", ") + r.path + " (shader " + std::to_string(name) + ")";
        }
      }
    }
    if (from.empty()) return true;
    const bool linked = gl.Linked(host);
    const std::string log = linked ? "" : gl.ProgramLog(host);
    DrainGlErrors(gl.GetError);
    if (linked) return true;
    *error = "--replace-shader: program " + std::to_string(program) + " does not link with " + from + " (call " +
             std::to_string(call.sequence) + "); the driver says:\n" + log;
    return false;
  }

  // glCreateShaderProgramv made and linked the program from its recorded
  // source: it is relinked, separable as it was, from the replacement.
  bool Relink(host::Executor& executor, uint32_t thread, const stream::DecodedCall& call, std::string* error) {
    const uint64_t program = call.result.u;
    ShaderReplacement* r = Find(program, ShaderReplacement::Met::kProgram);
    if (r == nullptr || call.args.empty()) return true;
    const ShaderFunctions& gl = Gl(executor);
    const GLenum type = static_cast<GLenum>(call.args[0].u), stage = ShaderStageOfFile(r->path);
    if (stage != 0 && stage != type) {
      *error = "--replace-shader " + std::to_string(program) + "=" + r->path + ": " + r->path + " is a " +
               StageName(stage) + " shader by its name, program " + std::to_string(program) + " was made from a " +
               StageName(type) + " shader (glCreateShaderProgramv, call " + std::to_string(call.sequence) + ")";
      return false;
    }
    if (gl.ProgramParameteri == nullptr) {
      *error = "--replace-shader: program " + std::to_string(program) +
               " comes from glCreateShaderProgramv, which the host driver lacks";
      return false;
    }
    const GLuint host = static_cast<GLuint>(executor.HostName(thread, ObjectClass::kProgram, program));
    const GLuint ours = Compile(gl, type, *r, "program " + std::to_string(program) + "'s " + StageName(type) + " shader",
                                error);
    if (ours == 0) return false;
    gl.AttachShader(host, ours);
    gl.ProgramParameteri(host, GL_PROGRAM_SEPARABLE, GL_TRUE);
    gl.LinkProgram(host);
    gl.DetachShader(host, ours);
    gl.DeleteShader(ours);
    const bool linked = gl.Linked(host);
    const std::string log = linked ? "" : gl.ProgramLog(host);
    DrainGlErrors(gl.GetError);
    if (!linked) {
      *error = "--replace-shader: program " + std::to_string(program) + " does not link with " + r->path + " (call " +
               std::to_string(call.sequence) + "); the driver says:\n" + log;
      return false;
    }
    if (first_loop_) ++r->uses;
    return true;
  }

  std::vector<ShaderReplacement>& replacements_;
  std::unique_ptr<ShaderFunctions> gl_;
  std::vector<Swap> swaps_;  // of the glLinkProgram running now
  bool first_loop_ = true;
};

}  // namespace

bool ParseShaderReplacement(const std::string& text, ShaderReplacement* replacement, std::string* error) {
  const size_t equals = text.find('=');
  const std::string name = text.substr(0, equals);
  if (equals == std::string::npos || name.empty() || name.size() > 10 ||
      name.find_first_not_of("0123456789") != std::string::npos || equals + 1 == text.size()) {
    *error = "--replace-shader takes NAME=FILE, NAME a shader's or program's number as strata dump prints it, not '" +
             text + "'";
    return false;
  }
  replacement->name = std::stoull(name);
  replacement->path = text.substr(equals + 1);
  std::ifstream in(replacement->path, std::ios::binary);
  std::ostringstream contents;
  contents << in.rdbuf();
  if (!in.good() && !in.eof()) {
    *error = "--replace-shader: cannot read " + replacement->path;
    return false;
  }
  if (!in.is_open()) {
    *error = "--replace-shader: cannot read " + replacement->path;
    return false;
  }
  replacement->source = contents.str();
  if (replacement->source.empty()) {
    *error = "--replace-shader: " + replacement->path + " is empty";
    return false;
  }
  return true;
}

ReplayOptions::CallHooks ShaderReplacementHooks(std::vector<ShaderReplacement>& replacements) {
  auto replacer = std::make_shared<Replacer>(replacements);
  ReplayOptions::CallHooks hooks;
  hooks.before = [replacer](host::Executor& executor, const stream::DecodedCall& call, uint64_t, std::string* error) {
    return replacer->Before(executor, call, error);
  };
  hooks.after = [replacer](host::Executor& executor, const stream::DecodedCall& call, uint64_t frame,
                           std::string* error) { return replacer->After(executor, call, frame, error); };
  hooks.finish = [replacer](host::Executor&, const ReplayOptions::RunOn&, std::string*) {
    replacer->Finish();
    return true;
  };
  return hooks;
}

}  // namespace strata::replay
