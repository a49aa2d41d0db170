"""The API model: EGL and GLES functions read from the Khronos registries.

One Function per entry point, with its C signature and the API versions and
extensions that provide it. Everything Strata generates starts from here.
"""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

import data_file

# Versions we cover, in the order they are reported. The key is the registry
# (api, number) pair; the value is the label users see. The registry calls
# GLES 1.1 common profile "GL_VERSION_ES_CM_1_0" with number 1.0.
VERSIONS = {
    ("egl", "1.0"): "EGL 1.0",
    ("egl", "1.1"): "EGL 1.1",
    ("egl", "1.2"): "EGL 1.2",
    ("egl", "1.3"): "EGL 1.3",
    ("egl", "1.4"): "EGL 1.4",
    ("egl", "1.5"): "EGL 1.5",
    ("gles1", "1.0"): "GLES 1.1",
    ("gles2", "2.0"): "GLES 2.0",
    ("gles2", "3.0"): "GLES 3.0",
    ("gles2", "3.1"): "GLES 3.1",
    ("gles2", "3.2"): "GLES 3.2",
}
EXTENSION_SETS = {"egl": "EGL extensions", "gles1": "GLES 1 extensions", "gles2": "GLES 2+ extensions"}

# Bit layout of Function.api_mask; the C++ side receives the same table.
API_BITS = list(VERSIONS.values()) + list(EXTENSION_SETS.values())

# Which exported library carries a function, by the API that defines it.
LIBRARY_OF_API = {"egl": "egl", "gles1": "glesv1", "gles2": "glesv2"}


# How a value of each scalar type is shown (ArgKind in the generated C++).
_SCALAR_KINDS = {
    "kEnum": {"GLenum", "EGLenum"},
    "kBitfield": {"GLbitfield"},
    "kBoolean": {"GLboolean", "EGLBoolean"},
    "kFloat": {"GLfloat", "GLclampf"},
    "kDouble": {"GLdouble", "GLclampd"},
    "kUInt": {"GLuint", "GLuint64", "GLuint64EXT", "GLushort", "GLubyte", "EGLuint64KHR", "EGLTimeKHR", "EGLTime",
              "EGLTimeNV", "EGLuint64NV", "GLhalfNV"},
    "kInt": {"GLint", "GLsizei", "GLintptr", "GLsizeiptr", "GLshort", "GLbyte", "GLfixed", "GLclampx", "GLint64",
             "GLint64EXT", "EGLint", "EGLAttrib", "EGLAttribKHR", "EGLNativeFileDescriptorKHR", "EGLsizeiANDROID",
             "EGLnsecsANDROID", "GLvdpauSurfaceNV"},
    "kHandle": {"GLsync", "GLeglImageOES", "GLeglClientBufferEXT", "GLDEBUGPROC", "GLDEBUGPROCKHR", "EGLDisplay",
                "EGLConfig", "EGLSurface", "EGLContext", "EGLImage", "EGLImageKHR", "EGLSync", "EGLSyncKHR",
                "EGLSyncNV", "EGLClientBuffer", "EGLStreamKHR", "EGLDeviceEXT", "EGLOutputLayerEXT",
                "EGLOutputPortEXT", "EGLLabelKHR", "EGLObjectKHR", "EGLNativeDisplayType", "EGLNativeWindowType",
                "EGLNativePixmapType", "EGLDEBUGPROCKHR", "EGLSetBlobFuncANDROID", "EGLGetBlobFuncANDROID",
                "GLVULKANPROCNV", "__eglMustCastToProperFunctionPointerType"},
}


# Scalar types of at most 32 bits (the others are 64-bit, or pointer-sized).
_NARROW_SCALARS = {"GLenum", "EGLenum", "GLbitfield", "GLboolean", "EGLBoolean", "GLfloat", "GLclampf", "GLuint",
                   "GLushort", "GLubyte", "GLhalfNV", "GLint", "GLsizei", "GLshort", "GLbyte", "GLfixed", "GLclampx",
                   "EGLint"}


def fits_in_32_bits(c_type: str) -> bool:
    """A scalar C type of at most 32 bits, e.g. "GLenum" (not "GLintptr", "GLdouble" or a pointer)."""
    return " ".join(c_type.split()) in _NARROW_SCALARS


def kind_of_type(c_type: str) -> str:
    """ArgKind of a C type as written in the registry, e.g. "const GLchar *" -> "kString"."""
    t = " ".join(c_type.replace("*", " * ").split())
    if "*" in t:
        return "kString" if t in ("const GLchar *", "const char *", "const GLubyte *") else "kPointer"
    if t == "void":
        return "kVoid"
    for kind, names in _SCALAR_KINDS.items():
        if t in names:
            return kind
    raise ValueError(f"no argument kind for C type '{c_type}': add it to _SCALAR_KINDS in api/registry.py")


@dataclasses.dataclass
class Param:
    name: str
    decl: str  # full C declaration including the name, e.g. "const GLfloat *v"
    object_class: str | None = None  # gl.xml's class: the kind of GL object name it holds ("texture", ...)
    group: str | None = None  # gl.xml's group: the enum group its values come from ("PrimitiveType", ...)

    @property
    def type(self) -> str:
        return self.decl[: self.decl.rfind(self.name)].strip()

    @property
    def kind(self) -> str:
        return kind_of_type(self.type)


@dataclasses.dataclass
class Function:
    name: str
    return_type: str
    params: list[Param]
    api_mask: int = 0
    apis: set[str] = dataclasses.field(default_factory=set)  # "egl", "gles1", "gles2"
    extensions: list[str] = dataclasses.field(default_factory=list)
    lengths: dict[str, str | None] = dataclasses.field(default_factory=dict)  # gl.xml's len per parameter
    return_class: str | None = None  # gl.xml's class of the returned object name
    return_group: str | None = None  # gl.xml's enum group of the returned value ("ErrorCode", ...)
    hot: bool = False  # listed in hot_functions.txt: called around every draw
    alias: str | None = None  # the registry's <alias>: the function this one is another name of

    def signature(self) -> str:
        params = ", ".join(p.decl for p in self.params) or "void"
        return f"{self.return_type} {self.name}({params})"

    def param_list(self) -> str:
        return ", ".join(p.decl for p in self.params) or "void"

    def arg_list(self) -> str:
        return ", ".join(p.name for p in self.params)

    def pointer_type(self) -> str:
        return f"{self.return_type} (*)({self.param_list()})"

    def is_gl(self) -> bool:
        return not self.name.startswith("egl")

    def in_version(self, label: str) -> bool:
        return bool(self.api_mask & (1 << API_BITS.index(label)))


@dataclasses.dataclass
class Model:
    functions: list[Function]  # hot functions first (hot_functions.txt), then by name; the index is the dispatch slot
    types: list[str]  # C type declarations, in dependency order
    lengths: dict[tuple[str, str], str | None] = dataclasses.field(default_factory=dict)  # gl.xml's len per param
    # Functions outside the selection that a selected one is an alias of
    # (desktop GL's glMultiDrawArrays for glMultiDrawArraysEXT): their facts
    # (traits, capture rules) are written once, under the name the registry
    # gives the function, for all its aliases.
    cores: dict[str, Function] = dataclasses.field(default_factory=dict)
    enums: dict[str, int] = dataclasses.field(default_factory=dict)  # every GL and EGL token's value, by name

    def enum(self, name: str) -> str:
        """A token's value as C++ that needs no header, e.g. "0x8074u /* GL_VERTEX_ARRAY */"."""
        if name not in self.enums:
            raise ValueError(f"{name}: not a token of the registries")
        return f"0x{self.enums[name]:x}u /* {name} */"

    def by_name(self) -> dict[str, Function]:
        return {f.name: f for f in self.functions}

    def core_of(self, fn: Function) -> Function | None:
        """The function `fn` is a registry alias of (selected or not), or None."""
        if fn.alias is None:
            return None
        return self.by_name().get(fn.alias) or self.cores.get(fn.alias)


def _text(element: ET.Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _parse_commands(root: ET.Element) -> dict[str, Function]:
    commands = {}
    for cmd in root.find("commands").findall("command"):
        proto = cmd.find("proto")
        name = proto.find("name").text
        return_type = _text(proto)[: -len(name)].strip()
        params = [Param(p.find("name").text, _text(p), p.get("class"), p.get("group")) for p in cmd.findall("param")]
        alias = cmd.find("alias")
        commands[name] = Function(name, return_type, params, return_class=proto.get("class"),
                                  return_group=proto.get("group"), alias=alias.get("name") if alias is not None else None)
        commands[name].lengths = {p.find("name").text: p.get("len") for p in cmd.findall("param")}
    return commands


def _enum_values(root: ET.Element) -> dict[str, int]:
    values = {}
    for block in root.findall("enums"):
        for e in block.findall("enum"):
            try:
                values[e.get("name")] = int(e.get("value"), 0)
            except (TypeError, ValueError):
                continue  # an EGL_CAST(...) value: no token the tables name
    return values


def _required_commands(block: ET.Element) -> list[str]:
    return [c.get("name") for c in block.iter("command")]


def _type_declarations(root: ET.Element, skip_defined_by_include: bool) -> list[str]:
    """C text of the registry's type declarations, without #includes."""
    out = []
    for t in root.find("types").findall("type"):
        text = "".join(t.itertext())
        if "#include" in text or not text.strip():
            continue  # headers are included explicitly by the generated file
        name = t.findtext("name") or t.get("name") or ""
        if text.lstrip().startswith("struct") and "{" in text:
            # A struct body would clash with the system header's definition.
            text = f"struct {name};"
        if skip_defined_by_include and t.get("requires") == "eglplatform" and "typedef" not in text:
            continue
        out.append(text.replace("<apientry/>", "").strip())
    return out


def read_hot_functions(path: str) -> list[str]:
    """The names in hot_functions.txt, in order (one a line; '#' starts a comment)."""
    return [text for _, text in data_file.lines(path)]


def load(gl_xml: str, egl_xml: str, hot_functions: list[str] = ()) -> Model:
    gl_root = ET.parse(gl_xml).getroot()
    egl_root = ET.parse(egl_xml).getroot()
    commands = {**_parse_commands(gl_root), **_parse_commands(egl_root)}
    selected: dict[str, Function] = {}

    def add(name: str, api: str, label: str, extension: str | None = None):
        fn = selected.setdefault(name, commands[name])
        fn.api_mask |= 1 << API_BITS.index(label)
        fn.apis.add(api)
        if extension and extension not in fn.extensions:
            fn.extensions.append(extension)

    for root in (gl_root, egl_root):
        for feature in root.findall("feature"):
            label = VERSIONS.get((feature.get("api"), feature.get("number")))
            if label is None:
                continue
            for req in feature.findall("require"):
                for name in _required_commands(req):
                    add(name, feature.get("api"), label)
        for ext in root.find("extensions").findall("extension"):
            supported = set(ext.get("supported", "").split("|"))
            for api, label in EXTENSION_SETS.items():
                if api not in supported:
                    continue
                for req in ext.findall("require"):
                    if req.get("api") not in (None, api):
                        continue
                    for name in _required_commands(req):
                        add(name, api, label, ext.get("name"))

    types = ["/* GL */"] + _type_declarations(gl_root, False) + ["/* EGL */"] + _type_declarations(egl_root, True)
    unknown = [name for name in hot_functions if name not in selected]
    if unknown or len(set(hot_functions)) != len(hot_functions):
        raise ValueError("hot functions not in the registry's selection, or listed twice: "
                         + ", ".join(unknown or sorted({n for n in hot_functions if hot_functions.count(n) > 1})))
    rank = {name: i for i, name in enumerate(hot_functions)}
    for name in rank:
        selected[name].hot = True
    functions = sorted(selected.values(), key=lambda f: (rank.get(f.name, len(rank)), f.name))
    lengths = {(f.name, p): l for f in functions for p, l in f.lengths.items()}
    # An alias of an alias names the first: every alias points at a function that is none.
    for fn in functions:
        seen = {fn.name}
        while fn.alias in commands and commands[fn.alias].alias is not None and commands[fn.alias].alias not in seen:
            seen.add(fn.alias)
            fn.alias = commands[fn.alias].alias
    cores = {fn.alias: commands[fn.alias] for fn in functions
             if fn.alias is not None and fn.alias in commands and fn.alias not in selected}
    enum_values = {**_enum_values(egl_root), **_enum_values(gl_root)}
    return Model(functions, types, lengths, cores, enum_values)
