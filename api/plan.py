"""The plan of each function, worked out once for every emitter: its
registry signature, its slot, its traits (function_traits.txt), the capture
rule of each parameter (annotations.txt, parsed once), and the name its
hand-written hooks go by. Emitters render plans through their templates;
none of them looks at a rule's text or a function's name to decide what
its code does.
"""

from __future__ import annotations

import dataclasses

import annotations as ann
import registry
import traits as tr

CAPTURE_OF_DIRECTION = {"in": "kIn", "out": "kOut", "inout": "kInOut"}


@dataclasses.dataclass
class ParamPlan:
    param: registry.Param
    index: int
    rule: ann.Rule | None

    @property
    def name(self) -> str:
        return self.param.name

    @property
    def pointer(self) -> bool:
        return self.param.kind in ("kPointer", "kString")

    @property
    def capture(self) -> str:
        """Which bytes a call record carries for it (api::Capture, docs/trace-format.md)."""
        if self.rule is None or not self.rule.captures:
            return "kNone"
        if self.rule.is_strings:
            return "kStringsIn"
        return CAPTURE_OF_DIRECTION[self.rule.direction]

    @property
    def carries_in(self) -> bool:
        return self.rule is not None and self.rule.carries_in

    @property
    def carries_out(self) -> bool:
        return self.rule is not None and self.rule.carries_out


@dataclasses.dataclass
class FunctionPlan:
    f: registry.Function
    slot: int
    traits: tr.Traits
    params: list[ParamPlan]
    covered: bool  # every pointer parameter has a capture rule
    hook: str      # the name its hand-written hooks go by: its core's for an alias

    @property
    def name(self) -> str:
        return self.f.name

    @property
    def returns(self) -> bool:
        return self.f.return_type != "void"

    @property
    def result_kind(self) -> str:
        return registry.kind_of_type(self.f.return_type)

    @property
    def pointers(self) -> list[ParamPlan]:
        return [p for p in self.params if p.pointer]

    @property
    def sizes_needed(self) -> bool:
        """A rule of a pointer parameter is a byte count of the arguments (CaptureSizes is asked)."""
        return any(p.rule is not None and p.rule.sized for p in self.pointers)

    @property
    def args(self) -> str:
        return self.f.arg_list()

    @property
    def param_list(self) -> str:
        return self.f.param_list()

    @property
    def pointer_type(self) -> str:
        return self.f.pointer_type()


def build(model: registry.Model, rules: dict, uncovered: set, traits: dict[str, tr.Traits]) -> list[FunctionPlan]:
    """Every function's plan, by slot."""
    names = {f.name for f in model.functions}
    plans = []
    for slot, f in enumerate(model.functions):
        t = traits[f.name]
        params = [ParamPlan(p, i, rules.get((f.name, p.name))) for i, p in enumerate(f.params)]
        hook = t.core if t.core in names else f.name
        plans.append(FunctionPlan(f, slot, t, params, f.name not in uncovered, hook))
    return plans
