#include "inspect/gl_state_reader.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include "stream/call_printer.h"
#include "strata/api/functions.h"

namespace strata::inspect {

GlFunctions::GlFunctions(const host::HostDriver& driver)
    : GetIntegerv(driver.Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)),
      GetFloatv(driver.Get<PFNGLGETFLOATVPROC>(api::glGetFloatv)),
      GetBooleanv(driver.Get<PFNGLGETBOOLEANVPROC>(api::glGetBooleanv)),
      IsEnabled(driver.Get<PFNGLISENABLEDPROC>(api::glIsEnabled)),
      GetError(driver.Get<PFNGLGETERRORPROC>(api::glGetError)),
      ActiveTexture(driver.Get<PFNGLACTIVETEXTUREPROC>(api::glActiveTexture)),
      GetString(driver.Get<PFNGLGETSTRINGPROC>(api::glGetString)),
      GetIntegeri_v(driver.Get<PFNGLGETINTEGERI_VPROC>(api::glGetIntegeri_v)) {}

namespace {
constexpr StateValue kShared[] = {
    STRATA_STATE_VALUE(GL_VIEWPORT, 4, kInt),
    STRATA_STATE_VALUE(GL_SCISSOR_BOX, 4, kInt),
    STRATA_STATE_VALUE(GL_DEPTH_RANGE, 2, kFloat),
    STRATA_STATE_VALUE(GL_COLOR_CLEAR_VALUE, 4, kFloat),
    STRATA_STATE_VALUE(GL_DEPTH_CLEAR_VALUE, 1, kFloat),
    STRATA_STATE_VALUE(GL_STENCIL_CLEAR_VALUE, 1, kInt),
    STRATA_STATE_VALUE(GL_COLOR_WRITEMASK, 4, kBool),
    STRATA_STATE_VALUE(GL_DEPTH_WRITEMASK, 1, kBool),
    STRATA_STATE_VALUE(GL_DEPTH_FUNC, 1, kEnum),
    STRATA_STATE_VALUE(GL_CULL_FACE_MODE, 1, kEnum),
    STRATA_STATE_VALUE(GL_FRONT_FACE, 1, kEnum),
    STRATA_STATE_VALUE(GL_STENCIL_FUNC, 1, kEnum),
    STRATA_STATE_VALUE(GL_STENCIL_REF, 1, kInt),
    STRATA_STATE_VALUE(GL_STENCIL_VALUE_MASK, 1, kInt),
    STRATA_STATE_VALUE(GL_STENCIL_WRITEMASK, 1, kInt),
    STRATA_STATE_VALUE(GL_STENCIL_FAIL, 1, kEnum),
    STRATA_STATE_VALUE(GL_STENCIL_PASS_DEPTH_FAIL, 1, kEnum),
    STRATA_STATE_VALUE(GL_STENCIL_PASS_DEPTH_PASS, 1, kEnum),
    STRATA_STATE_VALUE(GL_LINE_WIDTH, 1, kFloat),
    STRATA_STATE_VALUE(GL_POLYGON_OFFSET_FACTOR, 1, kFloat),
    STRATA_STATE_VALUE(GL_POLYGON_OFFSET_UNITS, 1, kFloat),
    STRATA_STATE_VALUE(GL_PACK_ALIGNMENT, 1, kInt),
    STRATA_STATE_VALUE(GL_UNPACK_ALIGNMENT, 1, kInt),
    STRATA_STATE_VALUE(GL_ACTIVE_TEXTURE, 1, kEnum),
};
}  // namespace
const std::span<const StateValue> kSharedValues(kShared);

std::string EnumText(GLenum value) {
  // As state, 0 is "none" (GL_TEXTURE_COMPARE_MODE, GL_READ_BUFFER of no buffer).
  return value == 0 ? "GL_NONE" : stream::GlEnumText(value);
}

std::string EnumTextInGroup(const char* group, GLenum value) {
  for (uint16_t g = 0; g < api::kEnumGroupCount; ++g) {
    if (std::strcmp(api::kEnumGroups[g].name, group) != 0) continue;
    if (const char* name = api::EnumNameInGroup(g, value)) return name;
  }
  return EnumText(value);
}

void WriteValues(const GlFunctions& gl, std::span<const StateValue> values, JsonWriter& json,
                 const StreamNames& names) {
  for (const StateValue& value : values) {
    gl.ClearErrors();
    std::vector<GLint> ints(static_cast<size_t>(value.count) + 4, 0);
    std::vector<GLfloat> floats(static_cast<size_t>(value.count) + 4, 0);
    std::vector<GLboolean> bools(static_cast<size_t>(value.count) + 4, 0);
    switch (value.kind) {
      case ValueKind::kFloat: gl.GetFloatv(value.pname, floats.data()); break;
      case ValueKind::kBool: gl.GetBooleanv(value.pname, bools.data()); break;
      default: gl.GetIntegerv(value.pname, ints.data()); break;
    }
    if (gl.GetError() != GL_NO_ERROR) continue;  // not a state of this context (an extension's)
    json.Key(value.name);
    if (value.count > 1) json.BeginArray();
    for (int i = 0; i < value.count; ++i) {
      switch (value.kind) {
        case ValueKind::kInt: json.Int(ints[i]); break;
        case ValueKind::kFloat: json.Float(floats[i]); break;
        case ValueKind::kBool: json.Bool(bools[i] != GL_FALSE); break;
        case ValueKind::kEnum: json.String(EnumText(static_cast<GLenum>(ints[i]))); break;
        case ValueKind::kBuffer: json.UInt(names(api::ObjectClass::kBuffer, static_cast<GLuint>(ints[i]))); break;
        case ValueKind::kTexture: json.UInt(names(api::ObjectClass::kTexture, static_cast<GLuint>(ints[i]))); break;
        case ValueKind::kBlendFactor:
          json.String(EnumTextInGroup("BlendingFactor", static_cast<GLenum>(ints[i])));
          break;
      }
    }
    if (value.count > 1) json.EndArray();
  }
}

void WriteCapabilities(const GlFunctions& gl, std::span<const GLenum> capabilities, JsonWriter& json) {
  for (GLenum capability : capabilities) {
    gl.ClearErrors();
    const bool enabled = gl.IsEnabled(capability) != GL_FALSE;
    if (gl.GetError() != GL_NO_ERROR) continue;
    json.Key(EnumText(capability)).Bool(enabled);
  }
}

}  // namespace strata::inspect
