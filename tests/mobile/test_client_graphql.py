"""The phone's GraphQL documents are valid against the committed schema, use no deprecated field and no JSON
scalar (every value the app reads is typed), and its conversions round-trip the engine's values."""

from __future__ import annotations

import graphql
from graphql.validation import NoDeprecatedCustomRule

from mobile.client import QUERIES, command_input, from_graphql, to_graphql
from scripts.export_schemas import GRAPHQL
from shared_rules.codec import decode, decode_command, encode
from shared_rules.dice import DieKind, Roll
from shared_rules.prompts import Prompt, PromptKind

SCHEMA = graphql.build_schema(GRAPHQL.read_text())


def _json_fields(document: graphql.DocumentNode) -> list[str]:
    """The fields of the document whose type is the JSON scalar."""
    found: list[str] = []
    info = graphql.TypeInfo(SCHEMA)

    class Visitor(graphql.Visitor):
        def enter_field(self, node: graphql.FieldNode, *_: object) -> None:
            definition = info.get_field_def()
            if definition is not None and graphql.get_named_type(definition.type).name == "JSON":
                found.append(node.name.value)

    graphql.visit(document, graphql.TypeInfoVisitor(info, Visitor()))
    return found


def test_every_document_is_valid_typed_and_current() -> None:
    for name, text in QUERIES.items():
        document = graphql.parse(text)
        assert graphql.validate(SCHEMA, document) == [], name
        assert graphql.validate(SCHEMA, document, [NoDeprecatedCustomRule]) == [], name
        assert _json_fields(document) == [], name


def test_commands_and_values_cross_the_typed_door_both_ways() -> None:
    command = decode_command({"type": "adjust", "hero": "anna", "reason": "",
                              "effects": [{"op": "add_item", "name": "Lantern", "tags": ["gear"]}]})
    assert command_input(command) == {"adjust": {"hero": "anna", "effects": [
        {"op": "add_item", "amount": 0, "name": "Lantern", "tags": ["gear"], "hourglass": 0,
         "darkStoneUpgrades": 0}], "dice": []}}
    prompt = Prompt("p1", PromptKind.ROLL, "Roll", "roll", die=DieKind.TWO_D6, dice_count=2,
                    roll=Roll("test", DieKind.INJURY_3D6, (1, 2, 3)))
    typed = to_graphql(encode(prompt))  # what the server's typed fields carry, with its enum names
    typed["die"], typed["rolled"] = "_2d6", {**typed.pop("roll"), "kind": "_3d6_drop_lowest"}
    assert decode(Prompt, from_graphql(Prompt, typed)) == prompt
