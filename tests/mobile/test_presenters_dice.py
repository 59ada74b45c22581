"""Dice entry, Grit re-rolls, choices and cards: what the prompt screen lets a player do, and what it refuses.

Refusals carry the engine's own message (validate_faces, check_effects), so they are compared with what the
engine says for the same input rather than with text written here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mobile.presenters.dice import ONES_COLOUR, TENS_COLOUR, PromptPresenter, RerollDie, describe_effect
from mobile.presenters.travel import TravelPresenter
from mobile.presenters.words import plain
from shared_rules import DieKind, Effect, InvalidCommand, Prompt, RollDice, RulesError, apply
from shared_rules.dice import PERIL_FACES, validate_faces
from shared_rules.effects import check_effects
from tests.mobile.helpers import Clock, hero, offline_table, table_waiting_on


def tap(dice: PromptPresenter, *faces: int) -> None:
    for face in faces:
        dice.tap_face(face)
    assert dice.send_faces(), dice.table.notice


def on_the_road(tmp_path: Path, *heroes_: object, rerolls: bool = False) -> tuple[PromptPresenter, TravelPresenter]:
    table = offline_table(tmp_path, list(heroes_), rerolls=rerolls)  # type: ignore[arg-type]
    travel, dice = TravelPresenter(table), PromptPresenter(table)
    travel.choose_size("medium")
    travel.act()
    return dice, travel


# ---- D36: a tens die and a ones die of different colours (FT-DICE-01) ----------------------------------------
def test_d36_is_a_red_tens_die_then_a_white_ones_die_FT_DICE_01(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann"))
    entry = dice.view().roll
    assert entry is not None
    assert [(s.label, s.colour) for s in entry.slots] == [(f"Tens ({TENS_COLOUR})", TENS_COLOUR),
                                                        (f"Ones ({ONES_COLOUR})", ONES_COLOUR)]
    assert TENS_COLOUR != ONES_COLOUR and entry.pad == (1, 2, 3, 4, 5, 6)
    assert entry.pad_colour == TENS_COLOUR and entry.slots[0].selected
    dice.tap_face(3)
    entry = dice.view().roll
    assert entry.pad_colour == ONES_COLOUR and entry.slots[1].selected and not entry.complete
    dice.tap_face(5)
    assert dice.view().roll.reading == "D36 = 35" and dice.view().roll.complete
    dice.select_die(0)  # the tens die was misread: tap it and put it right
    dice.tap_face(4)
    assert dice.view().roll.reading == "D36 = 45"
    dice.clear_dice()
    assert [s.face for s in dice.view().roll.slots] == [None, None]


def test_a_d36_entry_becomes_the_hazard_with_that_number(tmp_path: Path) -> None:
    dice, travel = on_the_road(tmp_path, hero("ann", "Ann"))
    tap(dice, 2, 4)
    assert travel.view().hazards[0].result.startswith("24 ")


# ---- the Peril Die offers only 3, 4, 5, 6 (FF-DICE-04) ---------------------------------------------------------
def peril_prompt() -> Prompt:
    return Prompt("p9", "roll", "Roll the Peril Die for the Escaped Prisoner's move", "roll", None, "FF-DICE-04",
                  purpose="Escaped Prisoner moves", die=DieKind.PERIL, dice_count=1)


def test_peril_die_pad_offers_only_its_faces_FF_DICE_04() -> None:
    table, backend = table_waiting_on(peril_prompt(), [hero("ann", "Ann")])
    dice = PromptPresenter(table)
    entry = dice.view().roll
    assert entry is not None and entry.pad == tuple(sorted(set(PERIL_FACES))) == (3, 4, 5, 6)
    assert [s.label for s in entry.slots] == ["Peril Die"] and entry.slots[0].colour not in (TENS_COLOUR, ONES_COLOUR)
    dice.tap_face(5)
    assert dice.send_faces()
    assert backend.sent == [RollDice((5,), prompt="p9")]


def test_peril_face_two_is_refused_with_the_engines_message_FF_DICE_04() -> None:
    table, backend = table_waiting_on(peril_prompt(), [hero("ann", "Ann")])
    dice = PromptPresenter(table)
    assert not dice.send_raw([2])
    with pytest.raises(InvalidCommand) as engine:
        validate_faces(DieKind.PERIL, [2], 1, field="faces", purpose="Escaped Prisoner moves")
    assert table.notice is not None and table.notice.text == plain(engine.value.message)
    assert table.notice.rule == "FF-DICE-04" and backend.sent == [] and "faces[" not in table.notice.text


# ---- pools: as many dice as the skill (FF-DICE-06), the count checked (FF-DICE-01) -------------------------------
def test_a_skill_test_pool_has_one_die_per_skill_point_FF_DICE_06(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann", agility=4), hero("bob", "Bob", agility=1))
    tap(dice, 1, 2)  # 12 Bleached Bones: Agility 5+ each
    entry = dice.view().roll
    assert [s.label for s in entry.slots] == ["Die 1", "Die 2", "Die 3", "Die 4"]
    assert "Agility 5+" in dice.view().question


def test_too_few_dice_are_refused_with_the_engines_message_and_nothing_is_sent(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann", agility=3))
    tap(dice, 1, 2)
    table = dice.table
    before = table.snapshot.version
    dice.tap_face(6)
    dice.tap_face(6)
    assert not dice.send_faces()
    with pytest.raises(InvalidCommand) as engine:
        apply(table.snapshot.state, RollDice((6, 6)))
    assert table.notice is not None and table.notice.text == plain(engine.value.message)
    assert table.notice.rule == "FF-DICE-01" and table.snapshot.version == before
    dice.tap_face(5)
    assert dice.send_faces() and table.snapshot.state.hero("ann").xp == 10


def test_a_new_prompt_starts_with_empty_dice(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann"), hero("bob", "Bob"))
    tap(dice, 1, 2)
    assert [s.face for s in dice.view().roll.slots] == [None, None]
    dice.tap_face(4)
    assert [s.face for s in dice.view().roll.slots] == [4, None]  # kept while the same prompt waits


# ---- Grit re-roll offers (FF-GRIT-01/02) -----------------------------------------------------------------------
def test_grit_reroll_taps_dice_to_reroll_and_costs_one_grit_FF_GRIT_01(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann", agility=2, grit=1), rerolls=True)
    tap(dice, 1, 2)  # Bleached Bones
    tap(dice, 2, 4)  # no success at 5+: the test failed, so Grit is offered
    offer = dice.view()
    assert offer.kind == "reroll" and offer.reroll is not None
    assert [(d.face, d.success, d.locked) for d in offer.reroll.dice] == [(2, False, False), (4, False, False)]
    assert not offer.reroll.can_reroll and offer.reroll.grit == 1
    dice.toggle_die(0)
    assert dice.view().reroll.can_reroll and dice.view().reroll.reroll_label == "Re-roll 1 die (1 Grit)"
    dice.toggle_die(1)
    dice.toggle_die(1)  # tapped twice: back to keep
    dice.reroll()
    again = dice.view()
    assert again.kind == "roll" and len(again.roll.slots) == 1 and "re-roll" in again.question
    tap(dice, 5)
    ann = dice.table.snapshot.state.hero("ann")
    assert ann.grit == 0 and ann.xp == 10


def test_keeping_the_dice_spends_no_grit_FF_GRIT_01(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann", agility=2, grit=1), rerolls=True)
    tap(dice, 1, 2)
    tap(dice, 1, 1)
    dice.keep()
    ann = dice.table.snapshot.state.hero("ann")
    assert ann.grit == 1 and ann.bag_torn and dice.view().kind == "none"


def test_a_die_already_rerolled_is_locked_FF_GRIT_02() -> None:
    from shared_rules import Roll

    roll = Roll("Bleached Bones: Agility 5+ test", DieKind.POOL, (1, 3), "ann", "table", 5, rerolled=(0,))
    prompt = Prompt("p4", "reroll", "Ann: spend 1 Grit to re-roll?", "reroll", "ann", "FF-GRIT-01",
                    purpose=roll.purpose, roll=roll)
    table, backend = table_waiting_on(prompt, [hero("ann", "Ann", grit=2)])
    dice = PromptPresenter(table)
    assert [d.locked for d in dice.view().reroll.dice] == [True, False]
    dice.toggle_die(0)
    assert not dice.view().reroll.can_reroll
    dice.toggle_die(1)
    dice.reroll()
    assert [c.indices for c in backend.sent] == [(1,)]  # type: ignore[attr-defined]


# ---- choices and draws -------------------------------------------------------------------------------------------
def test_a_draw_at_random_can_be_drawn_by_the_phone_FT_TOWN_03(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")])
    travel, dice = TravelPresenter(table), PromptPresenter(table)
    travel.choose_size("small")
    tap(dice, 6)  # no hazard: straight to arrival
    travel.act()
    tap(dice, 3, 4)
    draw = dice.view()
    assert draw.kind == "choice" and draw.draw and len(draw.options) > 1
    keys = {key for key, _ in draw.options}
    dice.draw_for_me()
    answered = [e for e in table.snapshot.log[-1].events if e.type == "answered"]
    assert answered and answered[0].text.endswith("(drawn)")
    assert any(label in answered[0].text for _, label in draw.options) and keys


def test_a_choice_sends_the_key_of_the_option(tmp_path: Path) -> None:
    dice, travel = on_the_road(tmp_path, hero("ann", "Ann"))
    tap(dice, 4, 2)
    assert dice.view().draw is False  # a decision, not a draw: no "draw for me"
    dice.choose("turn_back")
    assert dice.table.snapshot.state.travel.turned_back


# ---- cards the rulebooks lack: the table enters what the card says ----------------------------------------------
def test_a_card_prompt_takes_text_and_effects_checked_by_the_engine_FT_TRAVEL_D11(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann"))
    tap(dice, 1, 1)  # 11 Possession: -1 Sanity for good, a D6 of 1-3 means a Madness roll
    tap(dice, 2)
    card = dice.view()
    assert card.kind == "card" and card.card is not None and card.card.chart == "madness"
    assert "sanity_damage" in dict(card.card.fields)
    dice.set_card_field("sanity_damage")
    dice.step_amount(+1)
    dice.add_change()
    dice.add_named("add_mutation", "Third Eye")
    bad = Effect("remove_item", name="Lucky Coin")
    dice.add_named("remove_item", "Lucky Coin")  # Ann has no such item: the engine says so
    with pytest.raises(RulesError) as engine:
        check_effects(dice.table.snapshot.state, "ann", (bad,))
    assert dice.table.notice is not None and dice.table.notice.text == plain(engine.value.message)
    assert dice.view().card.effects == ("+2 Sanity Damage", "gains Mutation Third Eye")
    dice.remove_effect(1)
    dice.set_card_text("Paranoia")
    assert dice.send_card()
    ann = dice.table.snapshot.state.hero("ann")
    assert ann.sanity_damage == 2 and ann.sanity_mod == -1 and ann.mutations == ()
    assert any(e.type == "card" and "Paranoia" in e.text for e in dice.table.snapshot.log[-1].events)


def test_an_empty_card_is_not_sent(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann"))
    tap(dice, 1, 1)
    tap(dice, 1)
    version = dice.table.snapshot.version
    assert not dice.send_card() and dice.table.notice is not None and dice.table.notice.field == "text"
    assert dice.table.snapshot.version == version


def test_effects_read_in_words() -> None:
    assert describe_effect(Effect("change", "gold", -50)) == "-$50 Gold"
    assert describe_effect(Effect("change", "health_mod", 1)) == "+1 Max Health"
    assert describe_effect(Effect("add_item", name="Hat")) == "gains item Hat"


# ---- fewer taps: send on the last die, "how many hit?", keep after a pass, draw all ------------------------------
def test_the_last_die_sends_after_a_short_window_unless_held(tmp_path: Path) -> None:
    clock = Clock()
    table = offline_table(tmp_path, [hero("ann", "Ann")], clock=clock)
    travel, dice = TravelPresenter(table), PromptPresenter(table)
    travel.choose_size("medium")
    travel.act()
    dice.tap_face(4)
    assert not dice.view().roll.sending and not clock.calls
    dice.tap_face(3)  # the ones die: the last one
    assert dice.view().roll.sending and table.snapshot.pending is not None
    dice.hold()  # "wait": 43 was a mis-tap
    assert clock.run() == 0 and table.snapshot.pending is not None
    dice.select_die(1)
    dice.tap_face(2)  # corrected; all dice were already in, so nothing goes out by itself
    assert not clock.calls and dice.send_faces()
    assert table.read.travel.hazards == (42,)


def test_a_mistap_then_the_window_passes_and_the_faces_go_out(tmp_path: Path) -> None:
    clock = Clock()
    table = offline_table(tmp_path, [hero("ann", "Ann")], clock=clock)
    travel, dice = TravelPresenter(table), PromptPresenter(table)
    travel.choose_size("medium")
    travel.act()
    dice.tap_face(2)
    dice.tap_face(4)
    assert clock.run() == 1 and table.read.travel.hazards == (24,)


def test_how_many_hit_is_one_tap_for_a_skill_test_FF_DICE_06(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann", agility=4))
    tap(dice, 1, 2)  # Bleached Bones: Agility 5+
    entry = dice.view().roll
    assert entry.hits == (0, 1, 2, 3, 4) and entry.target == 5
    assert dice.send_hits(2)
    rolled = [e for e in dice.table.snapshot.log[-1].events if e.type == "rolled"][0]
    assert rolled.roll is not None and rolled.roll.successes == 2 and dice.table.read.hero("ann").xp == 10


def test_where_the_rule_counts_the_ones_the_hits_and_the_ones_are_two_taps_FT_TRAVEL_D16(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann", cunning=3, sanity_base=10))
    tap(dice, 1, 6)  # Shadows Out of Time: each 1 costs Sanity, so one "how many hit?" is not enough
    entry = dice.view().roll
    assert not dice.send_hits(1) and entry.hits == entry.ones == (0, 1, 2, 3)
    assert dice.count("ones", 2) and dice.view().roll.ones_chosen == 2 and dice.table.snapshot.pending is not None
    assert not dice.count("hits", 2)  # 2 hits and 2 ones are more than the 3 dice: refused, nothing sent
    assert dice.table.snapshot.pending is not None and dice.view().roll.hits_chosen is None
    assert dice.count("hits", 1)  # a 6, two 1s: passes, and 2 Sanity lost for good
    assert dice.table.snapshot.pending is None
    assert dice.table.read.hero("ann").sanity_mod == -2 and dice.table.read.session.carry.extra_revive_tokens == 1


def test_a_reroll_offer_marks_hits_and_misses_and_rerolls_the_misses_in_one_tap(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann", agility=3, grit=1), rerolls=True)
    tap(dice, 1, 2)
    tap(dice, 1, 4, 2)  # a miss each: failed, so Grit is offered
    offer = dice.view().reroll
    assert [d.mark for d in offer.dice] == ["✗", "✗", "✗"] and not offer.passed
    assert RerollDie(0, 6, True, False, False).mark == "✓"
    dice.reroll_misses()
    again = dice.view()
    assert again.kind == "roll" and len(again.roll.slots) == 3 and again.roll.hits == (0, 1, 2, 3)


def test_draw_all_draws_every_building_at_arrival_in_one_tap_FT_TOWN_03(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")])
    travel, dice = TravelPresenter(table), PromptPresenter(table)
    travel.choose_size("small")
    tap(dice, 6)
    travel.act()
    tap(dice, 3, 4)
    assert dice.view().draw
    dice.draw_all()
    assert table.snapshot.pending is None and table.read.town is not None
    assert len(table.read.town.slots) >= 2 and not dice.view().drawing_all


def test_another_phones_prompt_is_shown_as_theirs_until_taken_over(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann"), hero("bo", "Bo")])
    table.claim({"bo"})
    travel, dice = TravelPresenter(table), PromptPresenter(table)
    travel.choose_size("medium")
    travel.act()  # Ann rolls the first hazard: not this phone's
    assert not dice.view().mine
    dice.take_over()
    assert dice.view().mine


def test_a_2d6_chart_roll_is_one_tap_on_its_total_FF_DICE_05(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")])
    travel, dice = TravelPresenter(table), PromptPresenter(table)
    travel.choose_size("small")
    tap(dice, 6)
    travel.act()  # arrive: the Specialty Town type is 2D6 (FT-TOWN-02)
    assert dice.view().roll.totals == tuple(range(2, 13))
    assert dice.send_total(11)
    assert table.read.log[-1].events[0].roll.value == 11  # type: ignore[union-attr]


def test_rerolled_misses_and_how_many_hit_now_is_one_tap_FF_GRIT_01(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann", agility=3, grit=1), rerolls=True)
    tap(dice, 1, 2)
    tap(dice, 1, 2, 3)  # no hit
    offer = dice.view().reroll
    assert offer.misses == 3 and offer.after_hits == (0, 1, 2, 3) and not offer.passed
    dice.reroll_misses_hits(1)
    ann = dice.table.read.hero("ann")
    assert ann.grit == 0 and ann.xp == 10 and dice.table.snapshot.pending is None  # passed on the re-roll


# ---- one tap for the posse (issue 18) ---------------------------------------------------------------------------
def test_a_choice_each_hero_makes_is_answered_for_everyone_in_one_tap_and_undone_as_one_step_FT_TRAVEL_D46(
        tmp_path: Path) -> None:
    from mobile.presenters.log import LogPresenter

    dice, _ = on_the_road(tmp_path, hero("ann", "Ann"), hero("bo", "Bo"))
    tap(dice, 4, 6)  # Wrecked Train: each Hero may search
    assert dice.view().alike and dice.view().who == "Ann"
    dice.choose("pass", everyone=True)
    assert dice.table.snapshot.pending is None  # Bo was not asked again
    answered = [e for e in dice.table.snapshot.log[-1].events if e.type == "answered"]
    assert [e.hero for e in answered] == ["ann", "bo"]  # each hero's own answer, said in the log
    assert all(e.text.endswith("(the same for everyone)") for e in answered)
    log = LogPresenter(dice.table)
    assert "the same for everyone" in log.view().undo_last_label  # undo says what it takes back
    log.undo_last()
    assert dice.table.snapshot.pending is not None and dice.table.snapshot.pending.hero == "ann"


def test_a_choice_asked_of_the_posse_once_offers_no_everyone_FT_TRAVEL_D42(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann"), hero("bo", "Bo"))
    tap(dice, 4, 2)  # Raging River: one choice for the posse
    assert not dice.view().alike
    dice.choose("turn_back", everyone=True)  # nothing to stand for: not sent
    assert dice.table.snapshot.pending is not None and not dice.table.outbox


def test_a_test_every_hero_takes_is_sent_for_the_whole_posse_in_one_tap_FT_TRAVEL_D12(tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann", agility=2), hero("bo", "Bo", agility=1),
                          hero("cy", "Cy", agility=3))
    tap(dice, 1, 2)  # Bleached Bones: each Hero tests Agility 5+
    entry = dice.view().roll
    assert [(r.name, r.dice, r.passed) for r in entry.posse] == [("Ann", 2, True), ("Bo", 1, True), ("Cy", 3, True)]
    dice.toggle_passed("bo")
    assert [r.passed for r in dice.view().roll.posse] == [True, False, True]
    assert dice.send_posse()
    assert dice.table.snapshot.pending is None
    read = dice.table.read
    assert [read.hero(h).xp for h in ("ann", "bo", "cy")] == [10, 0, 10] and read.hero("bo").bag_torn


def test_each_hero_s_answer_to_a_choice_they_all_make_is_set_on_one_screen_and_sent_at_once_FT_TRAVEL_D46(
        tmp_path: Path) -> None:
    dice, _ = on_the_road(tmp_path, hero("ann", "Ann"), hero("bo", "Bo", cunning=1), hero("cy", "Cy"))
    tap(dice, 4, 6)  # Wrecked Train: each Hero may search
    assert [(r.name, r.option) for r in dice.view().asked] == [("Ann", "search"), ("Bo", "search"), ("Cy", "search")]
    dice.turn_pick("ann")
    dice.turn_pick("cy")
    assert [r.option for r in dice.view().asked] == ["pass", "search", "pass"]
    dice.send_asked()
    pending = dice.table.snapshot.pending
    assert pending is not None and (pending.hero, pending.kind) == ("bo", "roll")  # Bo's own Cunning test
    answered = [e.hero for e in dice.table.snapshot.log[-1].events if e.type == "answered"]
    assert answered == ["ann", "bo"]  # Cy's answer is logged when the rule reaches Cy, after Bo's test


def test_a_spanish_phone_s_card_editor_names_the_values_what_a_card_gives_and_the_chart_in_spanish(
        tmp_path: Path) -> None:
    from mobile import i18n

    dice, _ = on_the_road(tmp_path, hero("ann", "Ann"))
    tap(dice, 1, 1)  # 11 Possession, then a Madness roll: the card editor
    tap(dice, 2)
    i18n.set_language("es")
    try:
        card = dice.view().card
        assert card is not None
        labels, ops = dict(card.fields), dict(card.named_ops)
        assert labels["corruption"] == "Corrupción" and labels["grit"] == "Temple" and labels["agility"] != "Agility"
        assert labels["dark_stone"] == "Piedra Oscura" and labels["wounds"] != "Wounds"
        assert ops["add_item"] == "gana objeto" and ops["add_mutation"] == "gana Mutación"
        assert card.hint == "Roba una carta del mazo o tabla Locura y escribe lo que dice."
        english = {"XP", "Gold", "Wounds", "Sanity Damage", "Grit", "Corruption", "Dark Stone", "Max Health",
                   "Agility", "Strength", "gains item", "loses item", "gains token", "gains keyword"}  # fmt: skip
        assert not english & (set(labels.values()) | set(ops.values())), english & set(labels.values())
        dice.add_named("add_mutation", "Third Eye")
        assert dice.view().card.effects == ("gana Mutación Third Eye",)
    finally:
        i18n.set_language("en")
    assert dict(dice.view().card.fields)["corruption"] == "Corruption"  # the language switch applies at once
