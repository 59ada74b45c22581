"""Buying, selling and Side Bag tokens in town with typed-in dice: the pack's prices or the card's typed in, Side Bag
capacity (FF-HERO-08), the Blacksmith's repair (FT-TRAVEL-D12), the Dark Stone Convoy (FT-TRAVEL-D24), Specialty Town
Extra Options (FT-TOWN-08), and the tokens themselves (FT-BAG-01..07, FF-BAG-01/02)."""

from __future__ import annotations

import pytest

from shared_rules import Effect, IllegalCommand
from shared_rules.commands import Buy, UseToken
from shared_rules.engine import legal_commands
from shared_rules.state import Carry, ItemTag
from tests.rules.stay.packs import frontier
from tests.rules.stay.town import TownTable, effect, illegal, invalid, two_d6
from tests.rules.table import hero, item


def use(t: TownTable, hero_id: str, token: str, *dice: tuple[int, ...], effects: tuple[Effect, ...] = ()) -> None:
    t.do(UseToken(hero_id, token, effects, dice=dice))


# ---- buying -------------------------------------------------------------------------------------------------------
def test_buying_at_pack_prices_tokens_items_and_services(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=400, sanity_damage=3)], pack=frontier(monkeypatch),
                          slots=("Street Market",), day=True)  # fmt: skip
    t.visit("a", "Street Market", two_d6(5))
    assert t.legal("buy", "a") == ("Exotic Herbs", "Spice", "Rifle", "Hot Bath")
    t.buy("a", "Exotic Herbs")
    t.buy("a", "Rifle")
    t.buy("a", "Hot Bath")
    a = t.hero("a")
    assert a.gold == 400 - 35 - 300 - 5 and a.side_bag == ("Exotic Herbs",) and a.sanity_damage == 1
    rifle = a.items[0]
    assert rifle.name == "Rifle" and rifle.tags == frozenset({ItemTag.GEAR}) and rifle.hourglass == 1
    assert "purchase" in t.types()


def test_a_pack_that_lists_shops_sells_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=400)], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Saloon", two_d6(5))
    with illegal(field="ware", rule="R-STAY-15", table=t):  # the pack's shop list (a reading, issue 20)
        t.buy("a", "Rifle", price=10, kind="item")
    with invalid(field="price", table=t):
        t.buy("a", "Tequila", price=1)  # the pack says $40
    with invalid(field="kind", table=t):
        t.buy("a", "Tequila", kind="item")


def test_without_a_pack_the_table_gives_the_ware_and_its_price() -> None:
    t = TownTable.in_town([hero("a", gold=100)], slots=("Street Market",), day=True)
    t.visit("a", "Street Market", two_d6(5))
    t.card("Nothing much")
    assert t.legal("buy", "a") == ()
    note = next(c.note for c in legal_commands(t.state) if c.type == "buy")  # what buy takes, field by field
    assert all(f"`{name}`" in note for name in ("ware", "price", "kind", "tags", "effects")) and "FT-TOWN-07" in note
    with invalid(field="price", table=t):
        t.buy("a", "Tequila")
    with invalid(field="kind", table=t):
        t.buy("a", "Saddle", price=20)
    t.buy("a", "Tequila", price=30)  # a printed token: a token
    t.buy("a", "Saddle", price=20, kind="item", tags=("transport",))
    t.buy("a", "Shave", price=5, kind="service", effects=(effect("xp", 1),))
    a = t.hero("a")
    assert a.gold == 45 and a.side_bag == ("Tequila",) and a.items[0].tags == frozenset({ItemTag.TRANSPORT})
    assert a.xp == 1


def test_buying_needs_the_gold_and_room_in_the_side_bag_A8_FF_HERO_08(monkeypatch: pytest.MonkeyPatch) -> None:
    bag = ("Tonic", "Sake", "Bandages")
    t = TownTable.in_town([hero("a", gold=39), hero("b", gold=100, side_bag=bag, bag_torn=True)],
                          pack=frontier(monkeypatch), day=True)  # fmt: skip
    t.visit("a", "Saloon", two_d6(5))
    t.visit("b", "Saloon", two_d6(5))
    with illegal(field="price", rule="A8", table=t):
        t.buy("a", "Tequila")
    with illegal(field="ware", rule="FF-HERO-08", table=t):  # a torn bag holds 3
        t.buy("b", "Tequila")
    assert t.legal("buy", "a") is None and t.legal("buy", "b") is None  # nothing they may buy now


def test_buying_happens_on_a_visit_FT_TOWN_07(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=100)], pack=frontier(monkeypatch), day=True)
    with illegal(field="hero", rule="R-STAY-15", table=t):
        t.buy("a", "Tequila")
    t.visit("a", "Saloon", two_d6(5))
    t.leave("a")
    with illegal(field="hero", rule="R-STAY-15", table=t):
        t.buy("a", "Tequila")


def test_the_blacksmith_mends_a_torn_side_bag_for_500_FT_TRAVEL_D12() -> None:
    t = TownTable.in_town([hero("a", gold=600, bag_torn=True)], slots=("Blacksmith",), day=True)
    t.visit("a", "Blacksmith", two_d6(5))
    t.card("Nothing much")
    assert t.legal("buy", "a") == ("Repair Side Bag",)
    t.buy("a", "Repair Side Bag")
    assert not t.hero("a").bag_torn and t.hero("a").gold == 100 and t.hero("a").side_bag_capacity == 5


def test_extra_options_of_a_specialty_town_FT_TOWN_08(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=100), hero("b", gold=100)], pack=frontier(monkeypatch),
                          slots=("Saloon", "Smuggler's Den"), town_type="Outlaw Town", day=True)  # fmt: skip
    t.visit("a", "Saloon", two_d6(5))
    t.visit("b", "Smuggler's Den", two_d6(5))
    assert t.legal("buy", "a") == ("Tequila", "Fine Cigar")  # an Extra Option sold anywhere
    assert t.legal("buy", "b") == ("Fine Cigar", "Moonshine")  # and one only at its Location
    with illegal(field="ware", table=t):
        t.buy("a", "Moonshine")
    t.buy("b", "Moonshine")
    assert t.hero("b").side_bag == ("Moonshine",)


# ---- selling ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("convoy", "paid"), [(0, 100), (25, 150)])
def test_dark_stone_convoy_pays_25_more_a_shard_FT_TRAVEL_D24(monkeypatch: pytest.MonkeyPatch, convoy: int,
                                                              paid: int) -> None:  # fmt: skip
    t = TownTable.in_town([hero("a", dark_stone=3)], pack=frontier(monkeypatch), day=True,
                          carry=Carry(dark_stone_bonus=convoy))  # fmt: skip
    t.visit("a", "Frontier Outpost", two_d6(5))
    t.sell("a", "Dark Stone", count=2)
    assert t.hero("a").gold == paid and t.hero("a").dark_stone == 1
    assert ("FT-TRAVEL-D24" in t.rules()) is bool(convoy)


def test_selling_items_and_what_cannot_be_sold(monkeypatch: pytest.MonkeyPatch) -> None:
    charm, pistol = item("Lucky Charm", "gear"), item("Old Pistol", "gear", "starting")
    t = TownTable.in_town([hero("a", items=(charm, pistol), dark_stone=1)], pack=frontier(monkeypatch), day=True)
    t.visit("a", "Frontier Outpost", two_d6(5))
    assert t.legal("sell", "a") == ("Dark Stone", "lucky-charm")
    with illegal(field="ware", rule="FF-HERO-07", table=t):
        t.sell("a", "Old Pistol", price=10)
    with illegal(field="count", table=t):
        t.sell("a", "Dark Stone", count=2)
    t.sell("a", "Lucky Charm")
    assert t.hero("a").gold == 30 and t.hero("a").items == (pistol,)


def test_a_token_named_like_a_starting_item_is_the_one_sold_FF_HERO_07() -> None:
    oil = item("Lantern Oil", "gear", "starting")  # found by hypothesis: legal_commands listed the token for sale
    t = TownTable.in_town([hero("a", items=(oil,), side_bag=("Lantern Oil",))], slots=("Church",), day=True)
    t.visit("a", "Church", two_d6(5))
    t.card("Nothing much")
    assert "Lantern Oil" in t.legal("sell", "a")
    t.sell("a", "Lantern Oil", price=15)
    assert t.hero("a").side_bag == () and t.hero("a").items == (oil,) and t.hero("a").gold == 15


def test_without_a_pack_the_table_prices_a_sale_FT_TRAVEL_D24() -> None:
    t = TownTable.in_town([hero("a", dark_stone=2)], slots=("Church",), day=True, carry=Carry(dark_stone_bonus=25))
    t.visit("a", "Church", two_d6(5))
    t.card("Nothing much")
    with invalid(field="price", table=t):
        t.sell("a", "dark_stone")
    t.sell("a", "dark_stone", count=2, price=40)  # the card's $40 plus the Convoy's $25, a shard
    assert t.hero("a").gold == 130


# ---- the tokens (FT-BAG, FF-BAG) ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("token", "rule"), [("Spice", "FT-BAG-01"), ("Potion", "FT-BAG-02"), ("Hatchet", "FT-BAG-03"),
                                             ("Lantern Oil", "FT-BAG-04"), ("Fine Cigar", "FT-BAG-07"),
                                             ("Fire Sake", "FF-BAG-01")])  # fmt: skip
def test_fight_tokens_are_kept_for_the_adventure(token: str, rule: str) -> None:
    t = TownTable.in_town([hero("a", side_bag=(token,))])
    assert t.legal("use_token", "a") is None
    with illegal(field="token", rule=rule, table=t) as error:
        use(t, "a", token)
    assert "Adventure" in error.value.message


def test_exotic_herbs_remove_d3_corruption_FT_BAG_05() -> None:
    t = TownTable.in_town([hero("a", corruption=4, side_bag=("Exotic Herbs", "Tequila"))])
    assert t.legal("use_token", "a") == ("Exotic Herbs", "Tequila")  # at any time in town, dawn included
    use(t, "a", "Exotic Herbs", (5,))  # a D3 of 3
    assert t.hero("a").corruption == 1 and t.hero("a").side_bag == ("Tequila",)


def test_tequila_heals_2d6_sanity_damage_FT_BAG_06() -> None:
    t = TownTable.in_town([hero("a", sanity_damage=6, side_bag=("Tequila",))], day=True)
    use(t, "a", "Tequila", (2, 3))
    assert t.hero("a").sanity_damage == 1 and t.hero("a").side_bag == ()
    assert any(e.type == "token_used" and e.rule == "FT-BAG-06" for e in t.events)


def test_core_tokens_take_their_effect_from_the_pack_or_the_table_FF_BAG_02(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", wounds=3, side_bag=("Bandages", "Bomb", "Whiskey"))], pack=frontier(monkeypatch))
    assert t.legal("use_token", "a") == ("Bandages", "Whiskey")
    use(t, "a", "Bandages")
    assert t.hero("a").wounds == 1
    with illegal(field="token", rule="FF-BAG-02", table=t):
        use(t, "a", "Bomb")
    with invalid(field="effects", rule="FF-BAG-02", table=t):
        use(t, "a", "Whiskey")
    use(t, "a", "Whiskey", effects=(effect("sanity_damage", -1),))
    assert t.hero("a").side_bag == ("Bomb",)


def test_a_printed_token_takes_no_typed_effect_and_a_missing_one_is_refused() -> None:
    t = TownTable.in_town([hero("a", side_bag=("Tequila",))])
    with invalid(field="effects", rule="FT-BAG-06", table=t):
        use(t, "a", "Tequila", effects=(effect("xp", 5),))
    with illegal(field="token", rule="FF-HERO-08", table=t):
        use(t, "a", "Exotic Herbs")
    with pytest.raises(IllegalCommand):  # not while a prompt waits for something else
        t.start_day()
        use(t, "a", "Tequila", (1, 1))


def test_a_bought_token_can_be_used_at_once_FT_BAG_05(monkeypatch: pytest.MonkeyPatch) -> None:
    t = TownTable.in_town([hero("a", gold=50, corruption=2)], pack=frontier(monkeypatch), slots=("Street Market",),
                          day=True)  # fmt: skip
    t.visit("a", "Street Market", two_d6(5))
    t.do(Buy("a", "Exotic Herbs"))
    use(t, "a", "Exotic Herbs", (1,))
    assert t.hero("a").corruption == 1 and t.hero("a").gold == 15
