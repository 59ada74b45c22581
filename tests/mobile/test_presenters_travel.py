"""The travel flow through the presenters, offline on the engine with no server: size, hazards, prompts, arrival.

Every die is entered the way a player taps it (the dice presenter's face pad), so this is the table's own path
through FT-TRAVEL-01..04, FT-TRAVEL-D12/D24/D42 and the town construction (FT-TOWN-02/03/05).
"""

from __future__ import annotations

from pathlib import Path

from mobile.presenters.dice import PromptPresenter
from mobile.presenters.town import TownPresenter
from mobile.presenters.travel import TravelPresenter, group_changes, last_round
from shared_rules import Phase
from shared_rules.content import TOWN_SIZES
from shared_rules.state import TownSize
from tests.mobile.helpers import hero, offline_table


def tap(dice: PromptPresenter, *faces: int) -> None:
    """Enter the faces on the pad and send them as "I rolled"."""
    for face in faces:
        dice.tap_face(face)
    assert dice.send_faces(), dice.table.notice


def test_travel_to_a_large_town_with_prompts_offline_FT_TRAVEL_01_to_04(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann", agility=2, strength=2),
                                     hero("bob", "Bob", agility=1, strength=1)])
    travel, dice = TravelPresenter(table), PromptPresenter(table)

    view = travel.view()
    assert view.phase == "between_adventures" and [s.size for s in view.sizes] == ["small", "medium", "large"]
    assert all(s.enabled for s in view.sizes) and view.action == ""
    travel.choose_size("large")

    # FT-TRAVEL-02 Large: one hazard each, and a D6 each where 1-3 adds one more
    assert dice.view().kind == "roll" and dice.view().who == "Ann"
    assert travel.view().action == "" and "D6" in travel.view().prompt_waiting
    tap(dice, 2)  # Ann: adds one
    tap(dice, 5)  # Bob: adds none
    view = travel.view()
    assert view.phase == "travel" and view.hazard_total == 3 and view.hazard_done == 0
    assert [row.roller for row in view.hazards] == ["Ann", "Ann", "Bob"]
    assert [row.state for row in view.hazards] == ["next", "waiting", "waiting"]
    assert view.action == "roll_hazard" and "Ann" in view.action_label and "1 of 3" in view.action_label
    assert any("3 Travel Hazards" in line for who in view.changes for line in who.lines)

    # Hazard 1: the D36 shows 2 (tens) and 4 (ones): Dark Stone Convoy, for the posse (FT-TRAVEL-D24)
    travel.act()
    entry = dice.view().roll
    assert entry is not None and [s.colour for s in entry.slots] == ["red", "white"]
    tap(dice, 2, 4)
    view = travel.view()
    assert view.hazards[0].result == "24 Dark Stone Convoy" and view.hazards[0].state == "done"
    assert [c.who for c in view.changes] == ["Posse"] and "Dark Stone Convoy" in view.changes[0].lines[0]

    # Hazard 2: Bleached Bones, each hero tests Agility 5+ (FT-TRAVEL-D12)
    travel.act()
    tap(dice, 1, 2)
    assert dice.view().who == "Ann" and dice.view().roll is not None and len(dice.view().roll.slots) == 2
    tap(dice, 5, 1)  # Ann passes: +10 XP
    assert len(dice.view().roll.slots) == 1  # Bob has Agility 1: one die
    tap(dice, 3)  # Bob fails: Side Bag torn
    state = table.snapshot.state
    assert state.hero("ann").xp == 10 and state.hero("bob").bag_torn
    view = travel.view()
    by_who = {c.who: c.lines for c in view.changes}
    assert any("XP" in line for line in by_who["Ann"])
    assert "Bob's Side Bag is torn (holds 3 tokens)" in by_who["Bob"]  # words, not "bag torn False -> True"
    assert view.result == "12 Bleached Bones" and view.effect.startswith("Agility 5+ test")  # the whole hazard
    assert "Bob: the Side Bag holds 3 tokens until it is repaired" in view.todo

    # Hazard 3, Bob's: Raging River, the posse fords (FT-TRAVEL-D42); both test Strength 5+
    travel.act()
    assert dice.view().who == "Bob"
    tap(dice, 4, 2)
    choice = dice.view()
    assert choice.kind == "choice" and {key for key, _ in choice.options} == {"turn_back", "ford"}
    dice.choose("ford")
    tap(dice, 6, 1)  # Ann
    tap(dice, 2)  # Bob: fails, but has no hourglass items to lose
    view = travel.view()
    assert view.phase == "arrival" and view.hazard_done == 3 and view.action == "arrive"
    assert [row.result for row in view.hazards] == ["24 Dark Stone Convoy", "12 Bleached Bones", "42 Raging River"]

    # Arrival: 2D6 for the town type (FT-TOWN-02), Building tokens drawn (FT-TOWN-03), one slot destroyed (FT-TOWN-05)
    travel.step_destroyed(+1)
    travel.step_destroyed(+1)
    travel.step_destroyed(-1)
    assert travel.view().destroyed_slots == 1
    travel.act()
    tap(dice, 4, 5)  # 9: Mining Town
    draws = 0
    while (prompt := dice.view()).kind == "choice":
        assert prompt.draw, prompt.question
        dice.draw_for_me()
        draws += 1
    assert table.snapshot.state.phase is Phase.TOWN
    town = TownPresenter(table).view()
    assert town.in_town and town.title == "Mining Town"
    assert len(town.slots) == TOWN_SIZES[TownSize.LARGE].locations
    assert town.destroyed_count == 1 and draws == TOWN_SIZES[TownSize.LARGE].locations + 1
    assert len({row.location for row in town.slots}) == len(town.slots)
    assert any("Dark Stone Convoy" in line for line in town.carry)
    assert travel.view().action == "end_town_stay"


def test_raging_river_turning_back_skips_the_rest_and_makes_a_small_town_FT_TRAVEL_D42(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann"), hero("bob", "Bob")])
    travel, dice = TravelPresenter(table), PromptPresenter(table)
    travel.choose_size("medium")  # FT-TRAVEL-02 Medium: exactly one each, no roll
    assert travel.view().hazard_total == 2 and dice.view().kind == "none"
    travel.act()
    tap(dice, 4, 2)
    dice.choose("turn_back")
    view = travel.view()
    assert view.phase == "arrival" and [row.state for row in view.hazards] == ["done", "skipped"]
    assert "Small" in view.headline


def test_roll_for_me_lets_the_session_roll_and_says_so(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")])
    travel, dice = TravelPresenter(table), PromptPresenter(table)
    travel.choose_size("small")
    dice.roll_for_me()
    rolled = [e for step in table.snapshot.log for e in step.events if e.type == "rolled"]
    assert rolled and rolled[-1].roll is not None and rolled[-1].roll.source == "server"
    assert table.snapshot.pending is None


def test_server_dice_option_needs_no_prompts_for_the_hazard_count(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann"), hero("bob", "Bob")], dice="server")
    travel = TravelPresenter(table)
    travel.choose_size("large")
    total = travel.view().hazard_total
    assert 2 <= total <= 4 and table.snapshot.pending is None  # FT-TRAVEL-02: N..2N


def test_changes_are_grouped_by_hero_with_the_posse_last(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann"), hero("bob", "Bob")])
    travel, dice = TravelPresenter(table), PromptPresenter(table)
    travel.choose_size("medium")
    travel.act()
    tap(dice, 1, 3)  # 13 Dark Dreams: each hero tests Spirit 6+
    tap(dice, 6, 1)  # Ann passes: +10 XP, Recover 1 Grit
    tap(dice, 2, 2)  # Bob fails: D6 Sanity Damage
    tap(dice, 4)
    round_ = last_round(table.snapshot.log)
    assert round_[0].command == "roll_hazard" and all(s.command == "roll" for s in round_[1:])
    groups = group_changes([e for s in round_ for e in s.events], {"ann": "Ann", "bob": "Bob"})
    assert [g.who for g in groups][:2] == ["Ann", "Bob"]
    assert table.snapshot.state.hero("bob").sanity_damage == 4
    assert any("Sanity Damage" in line for line in dict((g.who, g.lines) for g in groups)["Bob"])


def test_the_d36_is_typed_on_the_travel_screen_and_sent_with_the_hazard(tmp_path: Path) -> None:
    from tests.mobile.helpers import Clock

    clock = Clock()
    table = offline_table(tmp_path, [hero("ann", "Ann")], clock=clock)
    travel = TravelPresenter(table)
    travel.choose_size("medium")
    assert travel.view().hazard_dice == (None, None)
    travel.tap_hazard_die(2)
    travel.tap_hazard_die(6)
    assert travel.view().hazard_dice == (2, 6) and travel.view().sending
    clock.run()
    view = travel.view()
    assert view.result == "26 Void Storm" and "Corruption" in view.effect
    assert "Give Ann 1 Corruption Point" in view.todo and table.snapshot.version == 2  # one command, no prompt


def test_a_hazard_waiting_on_an_answer_is_shown_in_progress_not_resolved(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann"), hero("bo", "Bo")])
    travel, dice = TravelPresenter(table), PromptPresenter(table)
    travel.choose_size("medium")
    travel.act()
    tap(dice, 1, 2)  # Bleached Bones: Ann's test waits
    rows = travel.view().hazards
    assert [(r.state, r.result) for r in rows] == [("next", "12 Bleached Bones: in progress"), ("waiting", "to roll")]


def test_after_an_undo_what_changed_says_it_was_taken_back(tmp_path: Path) -> None:
    from mobile.presenters.log import LogPresenter

    table = offline_table(tmp_path, [hero("ann", "Ann")])
    travel = TravelPresenter(table)
    travel.choose_size("medium")
    LogPresenter(table).undo_last()
    view = travel.view()
    assert view.changes_title == "Taken back" and view.changes and view.changes[0].lines == ("A step was taken back",)


def test_a_spanish_phone_reads_the_road_its_rows_and_what_to_do_at_the_table_FT_TRAVEL_01_to_04(
        tmp_path: Path) -> None:
    """The Road screen's heading, size notes, hazard rows, the D36 button and the table's to-do list are the app's
    words in the player's language (the hazard met is found from the event's facts, never its English line)."""
    from mobile import i18n
    from tests.mobile.helpers import Clock

    clock = Clock()
    table = offline_table(tmp_path, [hero("ann", "Ann"), hero("bo", "Bo")], clock=clock)
    travel = TravelPresenter(table)
    i18n.set_language("es")
    try:
        view = travel.view()
        assert [s.label for s in view.sizes] == ["Pueblo pequeño", "Pueblo mediano", "Pueblo grande"]
        assert view.sizes[2].note.startswith("8 edificios · 1 peligro por héroe")
        travel.choose_size("medium")
        view = travel.view()
        assert view.headline == "Camino de un Pueblo mediano: peligro 1 de 2"
        assert view.action_label.startswith("Peligro 1 de 2: Ann tira el D36")
        assert [row.result for row in view.hazards] == ["siguiente", "por tirar"]
        travel.tap_hazard_die(2)
        travel.tap_hazard_die(6)
        clock.run()  # 26 Void Storm: each hero gains a Corruption Point (FT-TRAVEL-D26)
        view = travel.view()
        assert view.result == "26 Void Storm" and view.changes_title == "Qué cambió"
        assert "Da a Ann 1 Punto de Corrupción" in view.todo
        english = ("road", "hazard", "Hazard", "Give", "Take", "changed", "Town", "roll", "Posse")
        shown = [view.headline, view.action_label, view.changes_title, *view.todo, *(r.result for r in view.hazards),
                 *(s.label for s in view.sizes), *(s.note for s in view.sizes), *(c.who for c in view.changes)]
        assert not [text for text in shown if any(word in text for word in english)]
    finally:
        i18n.set_language("en")
