"""The versioned JSON codec: every state, command and event round-trips exactly, and decoding is strict.

Strict decoding is the edges' input validation: a wrong type, an unknown field or a missing one raises
InvalidCommand naming the field's path (`effects[0].amount`), so clients can point at the bad input.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from shared_rules import (
    Adjust,
    Arrive,
    Choose,
    ChooseTownSize,
    Effect,
    EndTownStay,
    EnterCard,
    InvalidCommand,
    Reroll,
    RollDice,
    RollHazard,
    RuleOptions,
    Session,
    apply,
    decode_command,
    decode_event,
    decode_hero,
    decode_state,
    encode,
    encode_event,
    encode_state,
    new_session,
)
from shared_rules.codec import SCHEMA_VERSION, decode, decode_checked, decode_content
from shared_rules.content.adventure import EnemySheet, ThreatDoc
from shared_rules.errors import ContentError
from shared_rules.events import Change, Event, EventType
from shared_rules.state import Carry, Phase
from tests.rules.table import Table, hero, item

COMMANDS = [
    ChooseTownSize("large", dice=((1,), (6,))),
    RollHazard(dice=((3, 5),)),
    Arrive(destroyed_slots=2, dice=((6, 6),)),
    EndTownStay(),
    Adjust("a", (Effect("add_item", name="Watch", tags=("personal", "dark_stone"), hourglass=1),), reason="card"),
    RollDice((1, 2, 3), prompt="p3"),
    RollDice(None),
    Choose("ford", prompt="p1"),
    Reroll((0, 2)),
    EnterCard("Broken ribs", (Effect("change", "health_mod", -1),), prompt="p2"),
]


def through_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


def rich_hero(hero_id: str) -> Any:
    return hero(
        hero_id,
        agility=4,
        grit=1,
        max_grit=3,
        xp=250,
        gold=75,
        corruption=3,
        dark_stone=2,
        mutations=("Tentacle", "Extra Eye"),
        keywords=("Law", "Holy"),
        items=(item("Pocket Watch", "personal", "dark_stone", hourglass=1, upgrades=2), item("Horse", "transport")),
        side_bag=("Tonic", "Bandages"),
        bag_torn=True,
        unwanted_attention=2,
        wanted=1,
        scratch_deal=True,
    )


def states() -> list[Session]:
    """Sessions in every phase, with and without a pending prompt."""
    fresh = new_session([rich_hero("a"), hero("b")], seed=2**64 - 1)
    travelling = apply(fresh, ChooseTownSize("large")).state
    t = Table.travelling([rich_hero("a"), hero("b")], rerolls=True, hazards=2)
    t.hazard(12)  # Bleached Bones: stops at a's Agility test
    asked = t.state
    t.roll(1, 1, 1, 1)
    offered = t.state  # a Grit re-roll offer with a Roll inside the prompt
    arrival = replace(travelling, phase=Phase.ARRIVAL, carry=Carry(destroyed_on_arrival=2, dying_marshal=True))
    in_town = apply(arrival, Arrive(destroyed_slots=1)).state
    return [fresh, travelling, asked, offered, arrival, in_town]


# ---- round trips --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("index", range(6))
def test_states_round_trip_exactly(index: int) -> None:
    state = states()[index]
    data = encode_state(state)
    assert data["schema"] == SCHEMA_VERSION
    assert decode_state(through_json(data)) == state
    assert encode_state(decode_state(through_json(data))) == data


def test_a_pending_prompt_survives_the_round_trip_and_can_be_answered() -> None:
    offered = states()[3]
    assert offered.pending is not None and offered.pending.prompt.kind == "reroll"
    again = decode_state(through_json(encode_state(offered)))
    assert apply(again, Reroll((0,))) == apply(offered, Reroll((0,)))


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.type)
def test_commands_round_trip_exactly(command: Any) -> None:
    data = through_json(encode(command))
    assert data["type"] == command.type
    assert decode_command(data) == command


def test_events_round_trip_exactly() -> None:
    t = Table.travelling([rich_hero("a")])
    t.hazard(12)
    t.roll(1, 1, 1, 1)  # fails: the Side Bag is torn already, events with rolls and changes
    events = [*t.events, Event(EventType.CHANGED, "flag", "a", "X", (Change("bag_torn", False, True),))]
    assert any(e.roll is not None for e in events) and any(e.changes for e in events)
    for event in events:
        back = decode_event(through_json(encode_event(event)))
        assert back == event
        assert [type(c.before) for c in back.changes] == [type(c.before) for c in event.changes]


def test_a_bool_change_stays_a_bool() -> None:
    back = decode_event(through_json(encode_event(Event(EventType.CHANGED, "x", changes=(Change("bag_torn", False, True),)))))
    assert back.changes[0].before is False and back.changes[0].after is True


def test_hero_round_trips() -> None:
    sheet = rich_hero("a")
    assert decode_hero(through_json(encode(sheet))) == sheet


def test_item_tags_encode_sorted_so_equal_states_encode_equal() -> None:
    one = encode(item("Watch", "personal", "dark_stone"))
    two = encode(item("Watch", "dark_stone", "personal"))
    assert one == two and one["tags"] == ["dark_stone", "personal"]


# ---- strict decoding ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"type": "choose_town_size"}, "size"),
        ({"type": "choose_town_size", "size": 3}, "size"),
        ({"type": "choose_town_size", "size": "small", "colour": "red"}, "colour"),
        ({"type": "arrive", "destroyed_slots": True}, "destroyed_slots"),
        ({"type": "arrive", "destroyed_slots": "2"}, "destroyed_slots"),
        ({"type": "arrive", "destroyed_slots": 2.0}, "destroyed_slots"),
        ({"type": "arrive", "destroyed_slots": 2**70}, "destroyed_slots"),
        ({"type": "roll_hazard", "dice": [[3, 5], [True]]}, "dice[1][0]"),
        ({"type": "roll_hazard", "dice": [True]}, "dice[0]"),
        ({"type": "roll_hazard", "dice": [2**70]}, "dice[0]"),
        ({"type": "roll", "faces": "3"}, "faces"),
        ({"type": "roll_hazard", "dice": "35"}, "dice"),
        ({"type": "roll", "faces": ["1"]}, "faces[0]"),
        ({"type": "reroll", "indices": [0, None]}, "indices[1]"),
        ({"type": "choose", "option": None}, "option"),
        ({"type": "choose", "option": "x" * 2001}, "option"),
        ({"type": "adjust", "hero": "a", "effects": {}}, "effects"),
        ({"type": "adjust", "hero": "a", "effects": [{"op": "change", "amount": "5"}]}, "effects[0].amount"),
        ({"type": "adjust", "hero": "a", "effects": [{"op": "change", "size": 1}]}, "effects[0].size"),
        ({"type": "adjust", "hero": "a", "effects": [{"amount": 1}]}, "effects[0].op"),
        ({"type": "adjust", "hero": "a", "effects": [{"op": "add_item", "tags": "gear"}]}, "effects[0].tags"),
        ({"type": "adjust", "effects": []}, "hero"),
        ({"type": "teleport"}, "type"),
        ({"size": "small"}, "type"),
        ({"type": None}, "type"),
        ({"type": []}, "type"),
        ({"type": {"a": 1}}, "type"),
    ],
)
def test_bad_commands_name_the_field(data: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidCommand) as error:
        decode_command(data)
    assert error.value.field == field
    assert field.split("[")[0].split(".")[0] in error.value.message


def test_a_d36_may_be_typed_as_its_number_FT_DICE_01() -> None:
    assert decode_command({"type": "roll_hazard", "dice": [35]}) == RollHazard(dice=((3, 5),))
    assert decode_command({"type": "roll", "faces": 62}) == RollDice((6, 2))
    assert decode_command({"type": "choose_town_size", "size": "small", "dice": [4, [2]]}).dice == ((4,), (2,))
    state = new_session([hero("a")], seed=1)
    travelling = apply(state, ChooseTownSize("medium")).state
    outcome = apply(travelling, decode_command({"type": "roll_hazard", "dice": [24]}))
    assert outcome.state.travel is not None and outcome.state.travel.hazards == (24,)


@pytest.mark.parametrize("data", [None, [], "arrive", 3, True])
def test_a_command_is_an_object(data: Any) -> None:
    with pytest.raises(InvalidCommand) as error:
        decode_command(data)
    assert error.value.field == "body"


def test_decode_command_under_a_path_names_the_full_path() -> None:
    with pytest.raises(InvalidCommand) as error:
        decode_command({"type": "arrive", "destroyed_slots": "x"}, "commands[3]")
    assert error.value.field == "commands[3].destroyed_slots"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(schema=2), "schema"),
        (lambda d: d.pop("schema"), "schema"),
        (lambda d: d.update(phase="camping"), "phase"),
        (lambda d: d.update(rng=-1.5), "rng"),
        (lambda d: d.update(mystery=1), "mystery"),
        (lambda d: d["heroes"][0].update(gold="lots"), "heroes[0].gold"),
        (lambda d: d["heroes"][0]["items"][0].update(tags=["hat"]), "heroes[0].items[0].tags[0]"),
        (lambda d: d["heroes"][0]["skills"].pop("luck") and d["heroes"][0]["skills"].update(wit=3),
         "heroes[0].skills.wit"),
        (lambda d: d["heroes"][1].pop("id"), "heroes[1].id"),
        (lambda d: d.update(heroes=None), "heroes"),
        (lambda d: d["options"].update(offer_grit_rerolls=1), "options.offer_grit_rerolls"),
        (lambda d: d["pending"]["command"].update(type="teleport"), "pending.command.type"),
        (lambda d: d["pending"]["prompt"].update(die="d7"), "pending.prompt.die"),
        (lambda d: d["pending"]["checkpoint"]["heroes"][0].update(xp=None), "pending.checkpoint.heroes[0].xp"),
    ],
)  # fmt: skip
def test_bad_states_name_the_field(change: Any, field: str) -> None:
    data = through_json(encode_state(states()[2]))  # a pending prompt inside
    change(data)
    with pytest.raises(InvalidCommand) as error:
        decode_state(data)
    assert error.value.field == field


@pytest.mark.parametrize("data", [None, [], "state", {"schema": "1"}])
def test_a_state_is_an_object_with_the_schema_version(data: Any) -> None:
    with pytest.raises(InvalidCommand) as error:
        decode_state(data)
    assert error.value.field == "schema"


def test_rule_options_round_trip() -> None:
    options = RuleOptions(dice="table", offer_grit_rerolls=False, horror_hit_sanity=2, plus_one_is_permanent=False)
    state = new_session([hero("a")], options=options)
    assert decode_state(through_json(encode_state(state))).options == options


def test_a_roll_answer_takes_its_faces_in_faces_never_in_dice() -> None:
    """Typed faces under `dice` of a `roll` answer would be dropped and the server would roll instead (issue 20):
    refused naming `dice`; the empty `dice` every logged roll answer carries still reads."""
    with pytest.raises(InvalidCommand) as refused:
        decode_command({"type": "roll", "dice": [[2]]})
    assert refused.value.field == "dice" and "faces" in refused.value.message
    assert decode_command({"type": "roll", "faces": [2], "prompt": "p1", "dice": []}) == RollDice((2,), "p1")
    assert encode(RollDice((2,), "p1"))["dice"] == []  # the log keeps writing it, as before


# ---- content: the fields' limits ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "where", "words"),
    [
        ({"name": "Ghoul", "health": 0}, "enemies.g.health", "0 is not within 1..999"),
        ({"name": " ", "health": 3}, "enemies.g.name", "a non-blank string"),
        ({"name": "Ghoul", "health": 3, "size": "huge"}, "enemies.g.size", "'huge' is not one of ['', 'large', 'xl']"),
        ({"name": "Ghoul", "health": True}, "enemies.g.health", "expected a whole number"),
        ({"name": "Ghoul"}, "enemies.g.health", "required"),
    ],
)
def test_content_is_decoded_within_its_fields_limits_naming_the_path(data: Any, where: str, words: str) -> None:
    with pytest.raises(InvalidCommand) as caught:
        decode_checked(EnemySheet, data, "enemies.g")
    assert caught.value.field == where and caught.value.message == f"{where}: {words}"


def test_a_content_refusal_is_a_content_error_naming_the_path() -> None:
    assert decode(EnemySheet, {"name": "Ghoul", "health": 0}).health == 0  # states and commands: no limits read
    with pytest.raises(ContentError) as caught:
        decode_content(ThreatDoc, {"name": "Ambush", "enemies": []}, "threats.low[0]")
    assert caught.value.field == "threats.low[0].enemies"
    assert caught.value.message == "threats.low[0].enemies: at least 1 item(s), got 0"
    with pytest.raises(ContentError, match=r"^content pack: expected an object$"):
        decode_content(ThreatDoc, [], "")


def test_an_event_logged_with_a_whole_list_or_skill_sheet_still_reads_back() -> None:
    """Before, a `changed` event held a hero's whole Mutation list (or skill sheet) in before/after: a log with one
    now reads back as the one name (or level) that moved, so an old table's history and offline file open."""
    older = {"type": "changed", "text": "Ann: mutations ('Claw',) -> ('Claw', 'Tentacle')", "hero": "a",
             "changes": [{"field": "mutations", "before": ["Claw"], "after": ["Claw", "Tentacle"]}]}
    assert decode_event(older).changes == (Change("mutations", "", "Tentacle"),)
    lost = {**older, "changes": [{"field": "keywords", "before": ["Law", "Holy"], "after": ["Holy"]}]}
    assert decode_event(lost).changes == (Change("keywords", "Law", ""),)
    sheet = {"agility": 2, "cunning": 2, "spirit": 2, "strength": 2, "lore": 2, "luck": 2}
    skill = {**older, "changes": [{"field": "skills", "before": sheet, "after": {**sheet, "luck": 4}}]}
    assert decode_event(skill).changes == (Change("skills", 2, 4),)
