#include "host/bound_objects.h"

#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include "common/shader_stages.h"

namespace strata::host {

using api::ObjectClass;

ObjectClass ObjectBoundAt(uint64_t pname) {
  // glGetProgramPipelineiv: the program of each stage.
  if (IsShaderStage(static_cast<GLenum>(pname))) return ObjectClass::kProgram;
  switch (pname) {
    case GL_ARRAY_BUFFER_BINDING:
    case GL_ELEMENT_ARRAY_BUFFER_BINDING:
    case GL_COPY_READ_BUFFER_BINDING:
    case GL_COPY_WRITE_BUFFER_BINDING:
    case GL_PIXEL_PACK_BUFFER_BINDING:
    case GL_PIXEL_UNPACK_BUFFER_BINDING:
    case GL_TRANSFORM_FEEDBACK_BUFFER_BINDING:
    case GL_UNIFORM_BUFFER_BINDING:
    case GL_ATOMIC_COUNTER_BUFFER_BINDING:
    case GL_SHADER_STORAGE_BUFFER_BINDING:
    case GL_DRAW_INDIRECT_BUFFER_BINDING:
    case GL_DISPATCH_INDIRECT_BUFFER_BINDING:
    case GL_TEXTURE_BUFFER_BINDING:
    case GL_VERTEX_BINDING_BUFFER:
    case GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING:
      return ObjectClass::kBuffer;
    case GL_TEXTURE_BINDING_2D:
    case GL_TEXTURE_BINDING_3D:
    case GL_TEXTURE_BINDING_CUBE_MAP:
    case GL_TEXTURE_BINDING_2D_ARRAY:
    case GL_TEXTURE_BINDING_2D_MULTISAMPLE:
    case GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY:
    case GL_TEXTURE_BINDING_CUBE_MAP_ARRAY:
    case GL_TEXTURE_BINDING_BUFFER:
    case GL_TEXTURE_BINDING_EXTERNAL_OES:
    case GL_IMAGE_BINDING_NAME:
      return ObjectClass::kTexture;
    case GL_DRAW_FRAMEBUFFER_BINDING:
    case GL_READ_FRAMEBUFFER_BINDING:
      return ObjectClass::kFramebuffer;
    case GL_RENDERBUFFER_BINDING:
      return ObjectClass::kRenderbuffer;
    case GL_CURRENT_PROGRAM:
    case GL_ACTIVE_PROGRAM:
      return ObjectClass::kProgram;
    case GL_PROGRAM_PIPELINE_BINDING:
      return ObjectClass::kProgramPipeline;
    case GL_VERTEX_ARRAY_BINDING:
      return ObjectClass::kVertexArray;
    case GL_SAMPLER_BINDING:
      return ObjectClass::kSampler;
    case GL_TRANSFORM_FEEDBACK_BINDING:
      return ObjectClass::kTransformFeedback;
    case GL_CURRENT_QUERY:
      return ObjectClass::kQuery;
    default:
      return ObjectClass::kNone;
  }
}

}  // namespace strata::host
