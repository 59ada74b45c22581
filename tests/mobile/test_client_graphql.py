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


def test_the_odds_documents_fit_the_schema_and_a_job_is_polled_until_answered() -> None:
    from typing import Any

    from mobile.client import ODDS_ASK, ODDS_POLL, BackendError, GraphQLBackend, TableInfo

    for text in (ODDS_ASK, ODDS_POLL):
        assert graphql.validate(SCHEMA, graphql.parse(text)) == []
    backend = GraphQLBackend("http://127.0.0.1:9")
    backend._table = TableInfo("T1", "tok", "T1", backend.base)
    answers = [{"runOdds": {"jobId": "j1", "status": "queued"}}, {"odds": {"jobId": "j1", "status": "running"}},
               {"odds": {"jobId": "j1", "status": "finished", "answer": {"question": "town_size"}}}]
    sent: list[tuple[str, dict[str, Any]]] = []

    def execute(query: str, variables: dict[str, Any]) -> dict[str, Any]:
        sent.append((query, variables))
        return answers.pop(0)

    backend._execute = execute  # type: ignore[method-assign]
    assert backend.ask_odds("town_size", {}, 500, precision=0.01, poll=0) == {"question": "town_size"}
    assert sent[0][1] == {"q": "town_size", "s": "T1", "p": {}, "t": 500, "r": 0.01} and sent[2][1] == {"j": "j1"}
    answers[:] = [{"runOdds": {"jobId": "j2", "status": "failed", "error": "trials: over the cap"}}]
    try:
        backend.ask_odds("town_size", {}, 500, poll=0)
    except BackendError as error:
        assert "over the cap" in str(error)
    else:
        raise AssertionError("a failed job must be an error")


def test_the_town_stay_and_adventure_commands_the_new_screens_send_fit_the_schema() -> None:
    """What the Stay and Adventure screens send goes through the same typed CommandInput as the road's commands."""
    from graphql.execution.values import get_variable_values

    from mobile.client import QUERIES
    from shared_rules.commands import (
        Activate,
        ActivateEnemy,
        AddEnemies,
        Attack,
        BoostMove,
        Buy,
        EndActivation,
        EndDay,
        EndTownStay,
        EndVisit,
        Flee,
        HoldBackTheDarkness,
        NewEnemy,
        PayOffWarrants,
        PlayDevilsWheel,
        RevealToken,
        Search,
        Sell,
        SheetEntry,
        StartAdventure,
        StartDay,
        UseToken,
        VisitLocation,
        WheelRoll,
        WheelStop,
        WoundEnemy,
    )
    from shared_rules.state import ExplorationToken, SpaceMark, TrackSpace

    send = graphql.parse(QUERIES["send"]).definitions[0]
    assert isinstance(send, graphql.OperationDefinitionNode)
    sent = [StartDay(), EndDay(), EndTownStay(), VisitLocation("ann", "Saloon"), EndVisit("ann"),
            Buy("ann", "Whiskey", price=15, kind="token"), Sell("ann", "Dark Stone"), PayOffWarrants("ann"),
            PlayDevilsWheel("ann"), WheelRoll("ann", (0, 2)), WheelStop("ann"), UseToken("ann", "Tequila"),
            HoldBackTheDarkness(dice=((5, 3),)), Activate("ann"), ActivateEnemy("void-hound-1"), EndActivation("ann"),
            BoostMove("ann"), Search("ann", "scavenge"), RevealToken("tile-1", ExplorationToken(2, 0, False, True)),
            Flee(("ann", "bob")), AddEnemies((NewEnemy("Void Hound", count=2, health=3, initiative=4),)),
            WoundEnemy("void-hound-1", 1, reason="at the table"), Attack("ann", target="void-hound-1"),
            StartAdventure("ann", "lost_contact", "", (TrackSpace(0, 3), TrackSpace(1, 1, SpaceMark.BLOOD_SPATTER)),
                           (SheetEntry("ann", initiative=4, max_fury=3),))]
    for command in sent:
        checked = get_variable_values(SCHEMA, send.variable_definitions or (), {"id": "T1",
                                                                               "command": command_input(command)})
        assert not isinstance(checked, list), (command.type, checked)  # a list: the schema's refusals
