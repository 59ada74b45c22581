"""A choice each hero makes in turn, answered once "the same for everyone" (`Choose.everyone`, issue 18).

The rulebook asks each Hero (FT-TRAVEL-D46 "each Hero may search", FT-TRAVEL-D52 "each Bandit left takes ..."); the
table may give one answer that stands for the rest of the posse's alike prompts of the same hazard. Each hero's
answer is still its own recorded answer and `answered` event, the dice stay each hero's own, and it is one command
(one step of the log for undo).
"""

from __future__ import annotations

import pytest

from shared_rules import Choose, IllegalCommand, InvalidCommand, RollDice, apply
from shared_rules.commands import HeroFaces, HeroOption
from shared_rules.dice import DieKind
from tests.rules.table import Table, hero, item


def test_one_loss_for_everyone_answers_each_later_bandit_of_every_hero_with_its_own_event_FT_TRAVEL_D52() -> None:
    t = Table.travelling([hero("a", gold=100, dark_stone=1), hero("b", gold=100, dark_stone=2), hero("c", gold=0)])
    t.hazard(52)
    t.roll(3)  # a: 3 defeated, 2 left
    assert t.prompt is not None and t.prompt.alike and t.prompt.hero == "a"
    t.do(Choose("gold", everyone=True))  # Lose $25 for a's two Bandits and everyone's after
    assert t.prompt is not None and (t.prompt.hero, t.prompt.kind) == ("b", "roll")  # b's own D6 is still typed
    t.roll(4)  # b: 4 defeated, 1 left: the standing answer takes $25, no question
    assert t.prompt is not None and (t.prompt.hero, t.prompt.kind) == ("c", "roll")
    t.roll(4)  # c: 1 left, no Gold and no other choice: nothing to lose (A8)
    assert t.prompt is None
    assert (t.hero("a").gold, t.hero("b").gold, t.hero("b").dark_stone) == (50, 75, 2)
    answered = [(e.hero, e.text) for e in t.events if e.type == "answered"]
    assert [who for who, _ in answered] == ["a", "a", "b"]  # each hero's answer is its own event
    assert all(text.endswith("(the same for everyone)") for _, text in answered)


def test_a_standing_answer_stops_where_its_option_is_not_offered_and_the_hero_is_asked_FT_TRAVEL_D52() -> None:
    t = Table.travelling([hero("a", gold=100, dark_stone=1),
                          hero("b", gold=0, dark_stone=2, items=(item("Lantern", "gear"),))])
    t.hazard(52)
    t.roll(4)  # a: 1 left
    t.do(Choose("gold", everyone=True))
    t.roll(3)  # b: 2 left, no Gold: the standing "gold" does not fit, b chooses
    assert t.prompt is not None and (t.prompt.hero, t.prompt.kind) == ("b", "choice")
    assert [o.key for o in t.prompt.options] == ["dark_stone", "item:lantern"]
    assert t.hero("a").gold == 75


def test_everyone_joins_the_search_but_each_hero_rolls_their_own_test_FT_TRAVEL_D46() -> None:
    t = Table.travelling([hero("a", cunning=1, grit=2), hero("b", cunning=1, grit=1)])
    t.hazard(46)
    assert t.prompt is not None and t.prompt.alike
    t.do(Choose("search", everyone=True))
    assert t.prompt is not None and (t.prompt.hero, t.prompt.kind) == ("a", "roll")
    t.roll(2)  # a fails Cunning 5+: all Grit discarded
    assert t.prompt is not None and (t.prompt.hero, t.prompt.kind) == ("b", "roll")  # b was not asked again
    t.roll(1)
    assert t.prompt is None and (t.hero("a").grit, t.hero("b").grit) == (0, 0)


def test_everyone_on_a_question_not_asked_alike_is_refused_naming_the_field() -> None:
    t = Table.travelling([hero("a"), hero("b")])
    t.hazard(42)  # Raging River: one choice for the posse (FT-TRAVEL-D42)
    assert t.prompt is not None and not t.prompt.alike
    with pytest.raises(InvalidCommand) as refused:
        t.do(Choose("ford", everyone=True))
    assert refused.value.field == "everyone" and refused.value.rule == "FT-TRAVEL-D42"


def test_a_replayed_pending_answers_the_same_after_a_reload_FT_TRAVEL_D52() -> None:
    from shared_rules import codec

    t = Table.travelling([hero("a", gold=100, dark_stone=1), hero("b", gold=100, dark_stone=1)])
    t.hazard(52)
    t.roll(3)
    t.do(Choose("gold", everyone=True))
    t.state = codec.decode(type(t.state), codec.encode(t.state))  # the stored table, read back
    assert t.state.pending is not None and t.state.pending.standing
    t.roll(3)  # b: 2 left, both answered by the standing "gold"
    assert t.prompt is None and (t.hero("a").gold, t.hero("b").gold) == (50, 50)
    with pytest.raises(IllegalCommand):  # nothing waits now
        apply(t.state, Choose("gold"))


# ---- a test every Hero takes in turn, typed for the whole posse at once -----------------------------------------
def test_the_prompt_names_who_takes_the_same_test_next_and_their_dice_FT_TRAVEL_D12() -> None:
    t = Table.travelling([hero("a", agility=3), hero("b", agility=1), hero("c", agility=2)])
    t.hazard(12)  # Bleached Bones: each Hero tests Agility 5+
    assert t.prompt is not None and t.prompt.hero == "a"
    assert [(x.hero, x.dice) for x in t.prompt.then] == [("b", 1), ("c", 2)]


def test_the_posse_s_dice_typed_at_once_resolve_each_hero_s_own_test_FT_TRAVEL_D12() -> None:
    t = Table.travelling([hero("a", agility=3), hero("b", agility=1), hero("c", agility=2)])
    t.hazard(12)
    t.do(RollDice((5, 1, 1), then=(HeroFaces("b", (6,)), HeroFaces("c", (2, 3)))))
    assert t.prompt is None  # a and b pass, c fails: Side Bag torn, nothing more to ask
    assert (t.hero("a").xp, t.hero("b").xp, t.hero("c").xp, t.hero("c").bag_torn) == (10, 10, 0, True)
    assert [e.hero for e in t.events if e.type == "test"] == ["a", "b", "c"]  # each hero's own test event


def test_a_failed_hero_with_grit_is_still_offered_the_re_roll_then_the_next_hero_s_typed_dice_count_FF_GRIT_01() -> None:
    t = Table.travelling([hero("a", spirit=1, grit=1), hero("b", spirit=1)], rerolls=True)
    t.hazard(53)  # Circling Vultures: each Hero tests Spirit 5+
    t.do(RollDice((2,), then=(HeroFaces("b", (6,)),)))  # a fails, b passes
    assert t.prompt is not None and (t.prompt.hero, t.prompt.kind) == ("a", "reroll")
    t.keep()
    assert t.prompt is not None and (t.prompt.hero, t.prompt.kind) == ("a", "roll")  # a's D3 Sanity Damage
    t.roll(3)  # D3 = 2
    assert t.prompt is not None and (t.prompt.hero, t.prompt.kind) == ("b", "roll")  # b's D3 heal, not the test
    assert t.prompt.die is DieKind.D3
    t.roll(1)
    assert t.prompt is None and t.hero("a").sanity_damage == 2 and t.hero("b").xp == 10


def test_faces_typed_for_a_hero_not_named_or_with_the_wrong_dice_are_refused_before_anything_FT_TRAVEL_D12() -> None:
    t = Table.travelling([hero("a", agility=1), hero("b", agility=2)])
    t.hazard(12)
    before = t.state
    with pytest.raises(InvalidCommand) as stranger:
        t.do(RollDice((5,), then=(HeroFaces("z", (5, 5)),)))
    assert stranger.value.field == "then[0].hero"
    with pytest.raises(InvalidCommand) as short:
        t.do(RollDice((5,), then=(HeroFaces("b", (5,)),)))  # b rolls 2 dice
    assert short.value.field == "then[0].faces"
    assert t.state is before


def test_a_test_whose_successes_are_counted_names_nobody_next_FT_TRAVEL_D64() -> None:
    t = Table.travelling([hero("a"), hero("b")])
    t.hazard(64)  # Search Party: the helpers' successes are summed, each count matters
    t.do(Choose("help", everyone=True))
    assert t.prompt is not None and t.prompt.kind == "roll" and t.prompt.then == ()


# ---- a choice every Hero makes in turn, answered for each of them at once ---------------------------------------
def test_each_hero_s_answer_given_at_once_is_their_own_and_only_they_are_asked_nothing_FT_TRAVEL_D46() -> None:
    t = Table.travelling([hero("a", cunning=1), hero("b", cunning=1), hero("c", cunning=1)])
    t.hazard(46)  # Wrecked Train: each Hero may search
    assert t.prompt is not None and t.prompt.next_heroes == ("b", "c")
    t.do(Choose("pass", then=(HeroOption("b", "search"), HeroOption("c", "pass"))))
    assert t.prompt is not None and (t.prompt.hero, t.prompt.kind) == ("b", "roll")  # only b searches: b's test
    t.roll(1)
    assert t.prompt is None
    answered = [(e.hero, e.text.rsplit("(", 1)[1]) for e in t.events if e.type == "answered"]
    assert answered == [("a", "chosen)"), ("b", "chosen for the posse at once)"), ("c", "chosen for the posse at once)")]


def test_an_answer_for_a_hero_not_asked_next_or_not_offered_is_refused_naming_the_field_FT_TRAVEL_D46() -> None:
    t = Table.travelling([hero("a"), hero("b")])
    t.hazard(46)
    with pytest.raises(InvalidCommand) as stranger:
        t.do(Choose("pass", then=(HeroOption("a", "pass"),)))  # a answers this one, not next
    assert stranger.value.field == "then[0].hero" and stranger.value.rule == "FT-TRAVEL-D46"
    with pytest.raises(InvalidCommand) as unknown:
        t.do(Choose("pass", then=(HeroOption("b", "fly"),)))
    assert unknown.value.field == "then[0].option"


def test_a_test_of_one_hero_names_nobody_next_FT_TRAVEL_D66() -> None:
    t = Table.travelling([hero("a", scratch_deal=False), hero("b")])
    t.hazard(66)
    t.roll(6)  # the Shadowy Traveler meets the roller only
    t.choose("refuse")
    assert t.prompt is not None and t.prompt.kind == "choice" and t.prompt.next_heroes == ()
