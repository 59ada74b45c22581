"""OpenAPI (JSON Schema 2020-12) components generated from the API model: one component per engine object in two
flavours (outputs, and `...Input` for what clients send), named enums, and the command union discriminated by
`type` with one schema and one example per command.

Outputs list every field as required (the codec always writes them); inputs require only fields without a default,
refuse unknown ones and carry the limits the server enforces, so a request that fits the schema is refused only by
the game's rules (409), never as malformed (422).
"""

from __future__ import annotations

from typing import Any

from services.contract.model import (
    FACE_MAX,
    FACE_MIN,
    INT_MAX,
    INT_MIN,
    SHORTHAND,
    STR_MAX,
    Commands,
    EnumType,
    Faces,
    FieldSpec,
    ListOf,
    MapOf,
    Model,
    Node,
    Nullable,
    ObjectRef,
    ObjectType,
    Scalar,
    Tagged,
    model,
)
from services.contract.refs import REF, Schema, ref
from shared_rules.commands import COMMAND_TYPES


def _runs(values: tuple[int, ...]) -> list[tuple[int, int]]:
    """Consecutive runs of sorted whole numbers: (1..8, 11..16, 21..26, ...)."""
    runs: list[tuple[int, int]] = []
    for value in values:
        if runs and value == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], value)
        else:
            runs.append((value, value))
    return runs


FACE = {"type": "integer", "minimum": FACE_MIN, "maximum": FACE_MAX}


class Generator:
    """Walks the model into components; `inputs` picks the flavour clients send."""

    def __init__(self, found: Model, *, inputs: bool) -> None:
        self.model = found
        self.inputs = inputs
        self.components: dict[str, Schema] = {}

    def name(self, obj: ObjectType) -> str:
        return f"{obj.name}Input" if self.inputs else obj.name

    # -- nodes ---------------------------------------------------------------------------------------------------
    def schema(self, node: Node) -> Schema:
        if isinstance(node, Scalar):
            return self._scalar(node)
        if isinstance(node, EnumType):
            self.components.setdefault(node.name, self.enum(node))
            return ref(node.name)
        if isinstance(node, ListOf):
            out: Schema = {"type": "array", "items": self.schema(node.item)}
            if node.unique:
                out["uniqueItems"] = True
            if node.min_items is not None:
                out["minItems"] = node.min_items
            if node.max_items is not None:
                out["maxItems"] = node.max_items
            return out
        if isinstance(node, MapOf):
            return {"type": "object", "additionalProperties": self.schema(node.value)}
        if isinstance(node, Nullable):
            return {"anyOf": [self.schema(node.inner), {"type": "null"}]}
        if isinstance(node, Faces):
            return self.faces()
        if isinstance(node, ObjectRef):
            return ref(self.object(self.model.object(node.cls)))
        if isinstance(node, Commands):
            return ref(self.commands())
        if isinstance(node, Tagged):
            return ref(self.tagged(node))
        raise TypeError(f"no JSON Schema for {node!r}")

    def tagged(self, node: Tagged) -> str:
        """One of several objects with a `type` of their own, discriminated by it."""
        name = f"{node.name}Input" if self.inputs else node.name
        if name not in self.components:
            self.components[name] = {}
            members = {self.model.object(cls).tag: self.object(self.model.object(cls)) for cls in node.members}
            schema: Schema = {"oneOf": [ref(member) for member in members.values()],
                              "discriminator": {"propertyName": "type",
                                                "mapping": {tag: REF + member for tag, member in members.items()}}}
            if node.description:
                schema = {"description": node.description, **schema}
            self.components[name] = schema
        return name

    def _scalar(self, node: Scalar) -> Schema:
        limits = node.limits
        if node.kind == "integer":
            out: Schema = {"type": "integer"}
            low = limits.minimum if limits.minimum is not None else (INT_MIN if self.inputs else None)
            high = limits.maximum if limits.maximum is not None else (INT_MAX if self.inputs else None)
            if low is not None:
                out["minimum"] = low
            if high is not None:
                out["maximum"] = high
            return out
        if node.kind == "string":
            out = {"type": "string"}
            if limits.min_length is not None:
                out["minLength"] = limits.min_length
            longest = limits.max_length if limits.max_length is not None else (STR_MAX if self.inputs else None)
            if longest is not None:
                out["maxLength"] = longest
            if limits.pattern:
                out["pattern"] = limits.pattern
            return out
        if node.kind == "scalar":
            return {"type": ["integer", "string", "boolean"]}
        if node.kind == "json":
            return {}
        return {"type": node.kind}

    @staticmethod
    def enum(node: EnumType) -> Schema:
        out: Schema = {"type": "string", "enum": list(node.values)}
        if node.description:
            out["description"] = node.description
        return out

    def faces(self) -> Schema:
        """One roll's faces; typed in, also as one number (a die's face, or a D36 as 35)."""
        if not self.inputs:
            return ref(self._component("Faces", {
                "type": "array", "items": FACE, "description": "The faces of one roll, one per physical die."}))
        ranges = [{"minimum": low, "maximum": high} for low, high in _runs(SHORTHAND)]
        return ref(self._component("FacesInput", {
            "x-rule": "FF-DICE-01",
            "description": "The faces of one roll, one per physical die (e.g. [3, 5]), or the roll as one number: a "
                           "die's face, or a D36 / 2D6 as tens and ones (35 is 3 and 5).",
            "anyOf": [{"type": "array", "items": FACE},
                      {"type": "integer", "anyOf": ranges,
                       "description": "one roll as one number: a die's face, or two dice as tens and ones (35)"}],
        }))

    def _component(self, name: str, schema: Schema) -> str:
        self.components.setdefault(name, schema)
        return name

    # -- objects -------------------------------------------------------------------------------------------------
    def object(self, obj: ObjectType) -> str:
        name = self.name(obj)
        if name in self.components:
            return name
        self.components[name] = {}  # placeholder while the fields are walked
        properties: Schema = {}
        required: list[str] = []
        if obj.tag is not None:
            properties["type"] = {"type": "string", "const": obj.tag, "default": obj.tag,
                                  "description": "the command (the discriminator)"}
            required.append("type")
        for spec in obj.fields:
            if spec.output_only and self.inputs:
                continue
            properties[spec.name] = self._property(spec)
            if spec.required or not self.inputs:
                required.append(spec.name)
        schema: Schema = {"type": "object"}
        if obj.description:
            schema["description"] = obj.description
        schema |= {"properties": properties, "required": required, "additionalProperties": False}
        if obj.tag is not None:
            schema["examples"] = [example_object(self.model, obj, complete=not self.inputs)]
        self.components[name] = schema
        return name

    def _property(self, spec: FieldSpec) -> Schema:
        out = self.schema(spec.node)
        if spec.description:
            out = {**out, "description": spec.description}
        if self.inputs and not spec.required:
            out = {**out, "default": spec.default}
        if spec.rule:
            out = {**out, "x-rule": spec.rule}
        if spec.deprecated:
            out = {**out, "deprecated": True,
                   "description": f"{spec.description + ' ' if spec.description else ''}Deprecated: {spec.deprecated}"}
        return out

    def commands(self) -> str:
        """The union of every registered command, discriminated by `type`."""
        name = "CommandInput" if self.inputs else "Command"
        if name not in self.components:
            self.components[name] = {}
            members = {obj.tag: self.object(obj) for obj in self.model.commands() if obj.tag}
            self.components[name] = {
                "description": "Any engine command: `type` picks it; `dice` (optional) queues the faces of the next "
                               "rolls the rules ask for, e.g. {\"type\": \"roll_hazard\", \"dice\": [[3, 5]]}.",
                "oneOf": [ref(member) for member in members.values()],
                "discriminator": {"propertyName": "type",
                                  "mapping": {tag: REF + member for tag, member in members.items()}},
            }
        return name


# ---- examples: built from the model, so they always fit the schemas --------------------------------------------


def example_value(found: Model, node: Node, complete: bool = False) -> Any:
    if isinstance(node, Scalar):
        limits = node.limits
        if node.kind == "integer":
            low = limits.minimum if limits.minimum is not None else 1
            return max(low, min(1, limits.maximum if limits.maximum is not None else 1))
        if node.kind == "string":
            return "x" * max(1, limits.min_length or 1)
        if node.kind == "number":
            return 0.5
        if node.kind == "boolean":
            return True
        return 1
    if isinstance(node, EnumType):
        return next(value for value in node.values if value)
    if isinstance(node, ListOf):
        return [example_value(found, node.item, complete) for _ in range(max(1, node.min_items or 0))]
    if isinstance(node, MapOf):
        return {}
    if isinstance(node, Nullable):
        return example_value(found, node.inner, complete)
    if isinstance(node, Faces):
        return [4]
    if isinstance(node, ObjectRef):
        return example_object(found, found.object(node.cls), complete=complete)
    first = found.commands()[0]
    return example_object(found, first, complete=complete)


def example_object(found: Model, obj: ObjectType, *, complete: bool = False) -> dict[str, Any]:
    """The fields an object needs (and those the engine gives an example for), with example values; `complete`
    (an output, which always carries every field) adds the others at their defaults."""
    out: dict[str, Any] = {"type": obj.tag} if obj.tag is not None else {}
    for spec in obj.fields:
        if spec.example is not None:
            out[spec.name] = spec.example
        elif spec.required:
            out[spec.name] = example_value(found, spec.node, complete)
        elif complete:
            out[spec.name] = spec.default
    return out


def engine_components() -> dict[str, Schema]:
    """Schemas of the engine's values: outputs (State, Event, Prompt, LegalCommand, Command, LogCommand,
    SimulationResult ...) and inputs (HeroInput, RuleOptionsInput, CommandInput ...), and the enums they share."""
    from services.contract import hosting, records, summary
    from shared_rules import events, prompts, state
    from shared_rules.engine import LegalCommand

    found = model()
    out = Generator(found, inputs=False)
    inp = Generator(found, inputs=True)
    for root in (state.Session, state.Hero, state.RuleOptions, events.Event, prompts.Prompt, LegalCommand,
                 summary.SimulationResult, *hosting.ROOTS):
        out.schema(found.node(root))
    out.commands()
    out.schema(found.node(records.LogCommand, {"enum": "LogCommand", "description": records.LOG_COMMAND}))
    for given in (state.Hero, state.RuleOptions):
        inp.object(found.object(given))
    inp.commands()
    assert set(COMMAND_TYPES) <= set(out.components["Command"]["discriminator"]["mapping"])
    merged = {**out.components, **inp.components}
    return dict(sorted(merged.items()))
