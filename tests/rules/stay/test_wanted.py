"""Wanted! and Most Wanted! with typed-in dice (FT-WANTED-01..03, A17, FT-FAQ-09): becoming Wanted on a Location
Event, escalating, the Outlaw keyword, and Paying Off Your Warrants at the Sheriff's Office."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared_rules import Adjust, Effect
from shared_rules.commands import PayOffWarrants
from shared_rules.state import Slot
from tests.rules.stay.packs import frontier
from tests.rules.stay.town import TownTable, illegal, invalid, two_d6
from tests.rules.table import hero


def pay(t: TownTable, hero_id: str, *dice: tuple[int, ...], price: int | None = None) -> None:
    t.do(PayOffWarrants(hero_id, price=price, dice=dice))


def test_wanted_again_is_most_wanted_and_no_further_FT_WANTED_01_A17(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", keywords=("Law",)), hero("b", wanted=1), hero("c", wanted=2)],
                          pack=frontier(monkeypatch), day=True)  # fmt: skip
    for who in ("a", "b", "c"):
        t.visit(who, "Saloon", (5, 6))  # 11: mistaken for a rustler
    assert [h.wanted for h in t.state.heroes] == [1, 2, 2]  # Wanted!, Most Wanted!, and Most Wanted! stays (A17)
    assert t.hero("a").has_keyword("Outlaw") and not t.hero("a").has_keyword("Law")  # FT-WANTED-03


def test_paying_off_is_the_days_visit_to_the_sheriff_and_clears_both_levels_FT_WANTED_02(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = TownTable.in_town([hero("a", keywords=("Law",), wanted=1, gold=150), hero("m", wanted=2, gold=300)],
                          pack=frontier(monkeypatch), day=True)  # fmt: skip
    assert t.legal("pay_off_warrants", "a") == ()
    pay(t, "a", two_d6(5))  # $100 for Wanted!, then the visit goes on: its Location Event is rolled
    a = t.hero("a")
    assert a.wanted == 0 and a.gold == 50 and a.keywords == ("Law",) and a.has_keyword("Law")  # FT-WANTED-03
    visit = t.stay.open_visit("a")
    assert visit is not None and visit.location == "Sheriff's Office"
    assert "FT-WANTED-02" in t.rules() and "rolled" in t.types()
    pay(t, "m", two_d6(5))  # Most Wanted!: $300 (A17: both levels cleared)
    assert t.hero("m").wanted == 0 and t.hero("m").gold == 0
    with illegal(field="hero", rule="R-STAY-01", table=t):  # the visit of the Day is spent
        t.visit("a", "Saloon", two_d6(5))


def test_an_outlaw_by_keyword_pays_and_is_shown_the_door_FT_WANTED_02(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("o", keywords=("Outlaw",), wanted=1, gold=100)], pack=frontier(monkeypatch), day=True)
    pay(t, "o")
    assert t.hero("o").wanted == 0 and t.hero("o").has_keyword("Outlaw")
    assert t.stay.open_visit("o") is None and "rolled" not in t.types()


def test_warrants_cannot_be_paid_without_being_wanted_or_the_gold_FT_WANTED_02(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=500), hero("w", wanted=1, gold=99)], pack=frontier(monkeypatch), day=True)
    with illegal(field="hero", rule="FT-WANTED-02", table=t):
        pay(t, "a")
    with illegal(field="price", rule="A8", table=t):
        pay(t, "w")
    with invalid(field="price", table=t):  # the pack says $100
        pay(t, "w", price=50)
    assert t.legal("pay_off_warrants", "a") is None


def test_without_a_pack_the_table_gives_the_cards_price_FT_WANTED_02() -> None:
    t = TownTable.in_town([hero("w", wanted=1, gold=80)], day=True)
    with invalid(field="price", rule="FT-WANTED-02", table=t):
        pay(t, "w")
    pay(t, "w", two_d6(5), price=75)
    assert t.hero("w").gold == 5 and t.hero("w").wanted == 0
    assert t.prompt is not None and t.prompt.chart == "location:Sheriff's Office"


def test_no_sheriffs_office_no_paying_off_FT_WANTED_02(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("w", wanted=1, gold=500)], pack=frontier(monkeypatch), slots=("Saloon",), day=True)
    with illegal(field="hero", rule="FT-TOWN-03", table=t):
        pay(t, "w")
    assert t.legal("pay_off_warrants", "w") is None
    burnt = TownTable.in_town([hero("w", wanted=1, gold=500)], pack="frontier", day=True)
    assert burnt.state.town is not None
    burnt.state = replace(burnt.state, town=replace(burnt.state.town, slots=(Slot(1, "Sheriff's Office", True),)))
    with illegal(field="hero", rule="FT-TOWN-04", table=burnt):
        pay(burnt, "w")


def test_a_hero_made_wanted_at_the_sheriffs_office_may_pay_at_once_FT_WANTED_02(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = TownTable.in_town([hero("a", gold=100)], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Sheriff's Office", two_d6(5))
    t.do(Adjust("a", (Effect("change", "wanted", 1),), reason="the card said so"))
    assert t.legal("pay_off_warrants", "a") == ()
    pay(t, "a")
    assert t.hero("a").wanted == 0 and t.hero("a").gold == 0
    assert t.stay.open_visit("a") is not None  # still the same visit
