"""Expanded Bounty (FT-BOUNTY-01..03, A19, FT-FAQ-05/06): posting at the Frontier Outpost (its chart or a Low Threat card)
and the Sheriff's Office, the Bounties carried out of town, and how a kill is paid (the adventure area's hook)."""

from __future__ import annotations

import pytest

from shared_rules.commands import BountyTarget, EndTownStay, SetBounty
from shared_rules.flow import Ctx
from shared_rules.rules.stay import bounty_payouts, close_bounties, settle_kill
from shared_rules.state import Bounty
from tests.rules.stay.packs import frontier
from tests.rules.stay.town import TownTable, illegal, invalid, two_d6
from tests.rules.table import hero


def post(t: TownTable, hero_id: str, method: str, *targets: BountyTarget) -> None:
    t.do(SetBounty(hero_id, method, targets))


def test_a_low_threat_card_bounty_is_10_times_health_killer_or_all_by_xp_FT_BOUNTY_01_A19() -> None:
    t = TownTable.in_town([hero("a"), hero("b")], slots=("Frontier Outpost",), day=True)
    t.visit("a", "Frontier Outpost", two_d6(5))
    t.card("Nothing much")
    assert t.legal("set_bounty", "a") == ("chart", "threat_card")
    post(t, "a", "threat_card", BountyTarget("Bandit", health=4), BountyTarget("Stranglers", health=6, all_heroes=True))
    assert t.state.carry.bounties == (Bounty("outpost", "Bandit", 40, False, "a"),
                                      Bounty("outpost", "Stranglers", 60, True, "a"))  # fmt: skip
    assert any("paid to every Hero" in text for text in t.texts())


def test_the_bounty_card_can_be_drawn_from_the_packs_low_threat_deck_FT_BOUNTY_01(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = TownTable.in_town([hero("a")], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Frontier Outpost", two_d6(5))
    post(t, "a", "threat_card")
    assert t.prompt is not None and [o.key for o in t.prompt.options] == ["Bandit Gang", "Void Swarm"]
    t.choose("Void Swarm")
    assert [(b.enemy, b.gold, b.all_heroes) for b in t.state.carry.bounties] == [("Void Spider", 20, False),
                                                                                ("Stranglers", 60, True)]  # fmt: skip


def test_the_outpost_chart_bounty_is_typed_and_checked_FT_BOUNTY_01() -> None:
    t = TownTable.in_town([hero("a")], slots=("Frontier Outpost", "Saloon"), day=True)
    t.visit("a", "Frontier Outpost", two_d6(5))
    t.card("Nothing much")
    with invalid(field="enemies", table=t):
        post(t, "a", "chart")
    with invalid(field="enemies[0].gold", table=t):
        post(t, "a", "chart", BountyTarget("Void Spider"))
    with invalid(field="enemies[0].gold", rule="FT-BOUNTY-01", table=t):  # a card's Bounty is computed, not typed
        post(t, "a", "threat_card", BountyTarget("Void Spider", health=2, gold=100))
    with invalid(field="enemies[0].health", table=t):
        post(t, "a", "threat_card", BountyTarget("Void Spider"))
    with illegal(field="method", rule="FT-BOUNTY-02", table=t):  # the Sheriff's Bounty is at the Sheriff's Office
        post(t, "a", "sheriff", BountyTarget("Bandit", gold=50))
    post(t, "a", "chart", BountyTarget("Void Spider", gold=75))
    assert t.state.carry.bounties == (Bounty("outpost", "Void Spider", 75, False, "a"),)


def test_the_sheriffs_bounty_stands_beside_the_outposts_FT_BOUNTY_02() -> None:
    t = TownTable.in_town([hero("a"), hero("b"), hero("c")], slots=("Frontier Outpost", "Sheriff's Office", "Saloon"),
                          day=True)  # fmt: skip
    t.visit("a", "Frontier Outpost", two_d6(5))
    t.card("Nothing much")
    post(t, "a", "chart", BountyTarget("Void Spider", gold=75))
    t.visit("b", "Sheriff's Office", two_d6(5))
    t.card("Nothing much")
    assert t.legal("set_bounty", "b") == ("sheriff",)
    post(t, "b", "sheriff", BountyTarget("Bandit", gold=50))
    t.visit("c", "Saloon", two_d6(5))
    t.card("Nothing much")
    with illegal(field="method", rule="FT-BOUNTY-01", table=t):
        post(t, "c", "chart", BountyTarget("Bandit", gold=50))
    post(t, "a", "threat_card", BountyTarget("Bandit", health=4))  # a new Outpost Bounty replaces the old one
    assert {(b.source, b.enemy, b.gold) for b in t.state.carry.bounties} == {("sheriff", "Bandit", 50),
                                                                             ("outpost", "Bandit", 40)}  # fmt: skip


def test_bounties_stay_open_after_the_town_stay() -> None:
    t = TownTable.in_town([hero("a")], slots=("Sheriff's Office",), day=True)
    t.visit("a", "Sheriff's Office", two_d6(5))
    t.card("Nothing much")
    post(t, "a", "sheriff", BountyTarget("Bandit", gold=50))
    t.do(EndTownStay())
    assert t.state.carry.bounties == (Bounty("sheriff", "Bandit", 50, False, "a"),)


BOUNTIES = (Bounty("outpost", "Bandit", 40), Bounty("sheriff", "Bandit", 50),
            Bounty("outpost", "Stranglers", 60, all_heroes=True))  # fmt: skip


def test_a_kill_pays_every_bounty_on_its_record_sheet_and_the_gangs_FT_BOUNTY_03_FT_FAQ_05_FT_FAQ_06() -> None:
    heroes = ["a", "b", "c"]
    # an Infamous Bandit uses the Bandit Record Sheet (FT-FAQ-05): Outpost + Sheriff + the Gang's own $100 (FT-FAQ-06)
    assert bounty_payouts(BOUNTIES, "Bandit", "a", heroes, gang_bounty=100) == {"a": 190}
    assert bounty_payouts(BOUNTIES, "bandit", "b", heroes) == {"b": 90}
    assert bounty_payouts(BOUNTIES, "Stranglers", "c", heroes) == {"a": 60, "b": 60, "c": 60}  # variable XP: all
    assert bounty_payouts(BOUNTIES, "Void Spider", "a", heroes) == {}


def test_the_adventure_area_settles_and_closes_the_bounties_FT_BOUNTY_03() -> None:
    t = TownTable.in_town([hero("a"), hero("b")])
    from dataclasses import replace

    state = replace(t.state, carry=replace(t.state.carry, bounties=BOUNTIES))
    ctx = Ctx(state, 0)
    assert settle_kill(ctx, "Stranglers", "b") == {"a": 60, "b": 60}
    assert settle_kill(ctx, "Bandit", "a", gang_bounty=25) == {"a": 115}
    assert [ctx.hero(h).gold for h in ("a", "b")] == [175, 60]
    close_bounties(ctx)
    assert ctx.state.carry.bounties == ()
    assert {e.rule for e in ctx.events if e.type == "bounty_paid"} == {"FT-BOUNTY-03", "FT-BOUNTY-01"}
