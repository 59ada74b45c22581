"""The Devil's Wheel with typed-in dice (FT-WHEEL-01..05, A16, FT-FAQ-08): where it is played, three rolls at most
with free pick-ups and never a Grit re-roll, scoring where the dice lie, the payout, the Devil's Head jackpots, the
room's jackpot, and the Unwanted Attention that follows (FT-UA-02)."""

from __future__ import annotations

import pytest

from shared_rules import Effect, IllegalCommand
from shared_rules.commands import EndVisit, PlayDevilsWheel, Reroll, WheelRoll, WheelStop
from shared_rules.state import DieLie, Wheel, WheelDie
from tests.rules.stay.packs import frontier
from tests.rules.stay.town import TownTable, illegal, invalid, two_d6
from tests.rules.table import hero


def at_the_hall(monkeypatch: pytest.MonkeyPatch, *heroes: str, **kw: object) -> TownTable:
    posse = [hero(h, gold=100, grit=1, max_grit=2) for h in heroes]
    t = TownTable.in_town(posse, pack=frontier(monkeypatch), day=True, rerolls=True, **kw)  # type: ignore[arg-type]
    for h in heroes:
        t.visit(h, "Gambling Hall", two_d6(5))
    return t


# ---- where and how it is played ----------------------------------------------------------------------------------
def test_the_wheel_is_played_at_the_gambling_hall_for_its_stake_FT_WHEEL_01(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=100), hero("b", gold=5)], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Saloon", two_d6(5))
    with illegal(field="hero", rule="FT-WHEEL-01", table=t):
        t.wheel("a", (1, 2, 3), "ooo")
    assert t.legal("play_devils_wheel", "a") is None
    t.visit("b", "Gambling Hall", two_d6(5))
    assert t.legal("play_devils_wheel", "b") == ()
    with illegal(field="stake", rule="A8", table=t):  # the pack's stake is $10
        t.wheel("b", (1, 2, 3), "ooo")


def test_three_rolls_at_most_any_dice_picked_up_no_fourth_FT_WHEEL_02(monkeypatch: pytest.MonkeyPatch) -> None:
    t = at_the_hall(monkeypatch, "a")
    t.wheel("a", (2, 5, 6), "ocC")
    wheel = t.stay.wheel
    assert wheel is not None and wheel.rolls == 1 and [d.face for d in wheel.dice] == [2, 5, 6]
    assert t.hero("a").gold == 90
    assert t.legal("wheel_roll", "a") == ("0", "1", "2") and t.legal("end_visit", "a") is None
    t.reroll_wheel("a", (0, 1), (6, 1), "Coo")  # die 2 stayed, but was knocked off the card by the new dice
    wheel = t.stay.wheel
    assert wheel is not None and wheel.rolls == 2 and [d.face for d in wheel.dice] == [6, 1, 6]
    assert [d.lies for d in wheel.dice] == [DieLie.ON_CARDS, DieLie.OFF, DieLie.OFF]  # FT-FAQ-08: as they lie
    t.reroll_wheel("a", (1,), (3,), "CCo")  # the third roll is the last: it scores the round
    assert t.stay.wheel is None and t.stay.open_visit("a") is not None
    with illegal(field="hero", rule="FT-WHEEL-02", table=t) as error:  # a fourth Wheel roll
        t.do(WheelRoll("a", (2,), dice=((4,),)))
    assert "at most 3 rolls" in error.value.message


def test_wheel_dice_are_never_offered_a_grit_re_roll_FT_WHEEL_02_FT_GRIT_02(monkeypatch: pytest.MonkeyPatch) -> None:
    t = at_the_hall(monkeypatch, "a")
    t.wheel("a", (1, 1, 1), "ooo")
    assert t.prompt is None and t.hero("a").grit == 1
    rolls = [e.roll for e in t.events if e.roll is not None and "Wheel" in e.roll.purpose]
    assert rolls and all(r.chart for r in rolls)  # chart rolls: no Grit (FF-GRIT-04)
    with pytest.raises(IllegalCommand):
        t.do(Reroll((0,)))


def test_pick_ups_are_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    t = at_the_hall(monkeypatch, "a")
    t.wheel("a", (1, 2, 3), "ooo")
    for bad in ((), (0, 0), (3,), (-1,)):
        with invalid(field="pick_up", rule="FT-WHEEL-02", table=t):
            t.do(WheelRoll("a", bad, dice=((4,),)))
    with invalid(field="lies", table=t):
        t.do(WheelRoll("a", (0,), lies=(DieLie.OFF,), dice=((4,),)))
    with illegal(field="type", rule="R-STAY-12", table=t):  # no end of the Day mid-round (a reading, issue 20)
        t.end_day()
    with illegal(field="type", rule="R-STAY-12", table=t):
        t.do(EndVisit("a"))


def test_the_table_is_asked_where_each_die_lies_when_not_told_FT_WHEEL_03(monkeypatch: pytest.MonkeyPatch) -> None:
    t = at_the_hall(monkeypatch, "a")
    t.do(PlayDevilsWheel("a", dice=((4, 4, 4),)))
    assert t.prompt is not None and t.prompt.rule == "FT-WHEEL-03"
    assert [o.key for o in t.prompt.options] == ["off", "card_edge", "head_edge", "on_cards", "on_head"]
    for where in ("off", "card_edge", "on_cards"):
        t.choose(where)
    wheel = t.stay.wheel
    assert wheel is not None and wheel.score == 0 + 4 + 8


# ---- scoring (FT-WHEEL-03/04) ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("faces", "lies", "score"), [((4, 5, 6), "cCo", 14), ((6, 6, 6), "CCC", 36),
                                                      ((3, 3, 3), "ooo", 0), ((2, 5, 1), "hHc", 2 + 10 + 1)])  # fmt: skip
def test_partly_on_a_card_is_the_face_entirely_on_is_double_off_is_nothing_FT_WHEEL_03_A16(
    faces: tuple[int, int, int], lies: str, score: int
) -> None:
    letters = {"o": DieLie.OFF, "c": DieLie.CARD_EDGE, "h": DieLie.HEAD_EDGE, "C": DieLie.ON_CARDS,
               "H": DieLie.ON_HEAD}  # fmt: skip
    wheel = Wheel("a", 1, tuple(WheelDie(f, letters[x]) for f, x in zip(faces, lies, strict=True)))
    assert wheel.score == score


@pytest.mark.parametrize(("faces", "lies", "won"), [((4, 5, 6), "cCo", 25), ((6, 6, 4), "CCo", 100),
                                                    ((1, 1, 2), "ccc", 0)])  # fmt: skip
def test_the_score_is_paid_from_the_gambling_hall_chart_FT_WHEEL_04(monkeypatch: pytest.MonkeyPatch,
                                                                    faces: tuple[int, int, int], lies: str,
                                                                    won: int) -> None:  # fmt: skip
    t = at_the_hall(monkeypatch, "a")
    t.wheel("a", faces, lies)
    t.stop_wheel("a")
    assert t.hero("a").gold == 90 + won and t.stay.wheel is None
    t.leave("a")
    assert t.hero("a").unwanted_attention == (1 if won else 0)  # FT-UA-02: Gold gained at the Gambling Hall


def test_without_the_card_the_table_enters_the_payout_FT_WHEEL_04() -> None:
    t = TownTable.in_town([hero("a", gold=0)], slots=("Gambling Hall",), day=True)
    t.visit("a", "Gambling Hall", two_d6(5))
    t.card("Nothing much")
    t.wheel("a", (6, 6, 6), "CCC")  # no stake on a card nobody typed: $0
    t.stop_wheel("a")
    assert t.prompt is not None and t.prompt.chart == "devils_wheel" and "36" in t.prompt.question
    t.card("Big winner", Effect("change", "gold", 250))
    assert t.hero("a").gold == 250
    t.leave("a")
    assert t.hero("a").unwanted_attention == 1


def test_one_round_a_visit_R_STAY_05(monkeypatch: pytest.MonkeyPatch) -> None:
    t = at_the_hall(monkeypatch, "a")
    t.wheel("a", (1, 1, 1), "ooo")
    t.stop_wheel("a")
    assert t.legal("play_devils_wheel", "a") is None
    with illegal(field="hero", rule="R-STAY-05", table=t):
        t.wheel("a", (1, 1, 1), "ooo")
    more = at_the_hall(monkeypatch, "a", wheel_rounds_per_visit=2)
    more.wheel("a", (1, 1, 1), "ooo")
    more.stop_wheel("a")
    more.wheel("a", (1, 1, 1), "ooo")
    assert more.stay.wheel is not None


# ---- the Devil's Head (FT-WHEEL-05) -----------------------------------------------------------------------------------
def test_a_bite_is_corruption_ignoring_willpower_FT_WHEEL_05(monkeypatch: pytest.MonkeyPatch) -> None:
    t = at_the_hall(monkeypatch, "a")
    t.wheel("a", (1, 1, 5), "ooH")
    t.do(WheelStop("a", dice=((3,),)))
    assert t.prompt is not None and [o.key for o in t.prompt.options] == ["try", "pass"]
    t.choose("try")
    assert t.hero("a").corruption == 3
    assert not any(e.roll and "Willpower" in e.roll.purpose for e in t.events)


def test_each_die_on_the_head_may_try_and_a_try_may_be_declined_A16(monkeypatch: pytest.MonkeyPatch) -> None:
    t = at_the_hall(monkeypatch, "a")
    t.wheel("a", (2, 3, 4), "hHo")  # two dice on the Head: two tries
    t.stop_wheel("a")
    t.choose("pass")
    assert t.prompt is not None and t.prompt.rule == "FT-WHEEL-05"
    t.choose("pass")
    assert t.prompt is None and t.hero("a").corruption == 0


def test_a_jackpot_gives_the_artifact_and_pays_the_room_FT_WHEEL_05(monkeypatch: pytest.MonkeyPatch) -> None:
    t = at_the_hall(monkeypatch, "a", "b", "c")
    t.leave("c")  # c has left the Hall: not in the room
    t.wheel("a", (1, 1, 6), "ooh")  # 6 points: the house wins; the die partly on the Head may try (A16)
    t.do(WheelStop("a", dice=((5,), (4,))))  # the jackpot 5; b's share D6 4
    t.choose("try")
    assert t.prompt is not None and t.prompt.chart == "artifact" and "5" in t.prompt.question
    t.card("Idol of the Void", Effect("add_item", name="Idol of the Void", tags=("artifact",)))
    assert [i.name for i in t.hero("a").items] == ["Idol of the Void"]
    assert t.hero("b").gold == 100 + 100 and t.hero("c").gold == 100  # D6 x $25 to every other hero there
    t.leave("a")
    t.leave("b")
    assert [h.unwanted_attention for h in t.state.heroes] == [0, 1, 0]  # only b gained Gold at the Gambling Hall
