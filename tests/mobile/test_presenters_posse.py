"""Hero cards: the numbers a player checks most, and one tap to change one (an `adjust` command)."""

from __future__ import annotations

from pathlib import Path

from mobile.presenters.posse import STATS, TOKENS, PossePresenter, card
from tests.mobile.helpers import hero, offline_table


def tiles(posse: PossePresenter, hero_id: str) -> dict[str, object]:
    found = next(c for c in posse.cards() if c.hero_id == hero_id)
    return {t.key: t for t in found.tiles}


def test_a_card_shows_every_value_the_brief_lists(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann", wounds=3, sanity_damage=1, grit=1, max_grit=3, gold=120,
                                          xp=45, corruption=2, dark_stone=3, unwanted_attention=1, wanted=2,
                                          mutations=("Tentacle",), side_bag=("Tonic", "Bandages"))])
    posse = PossePresenter(table)
    (ann,) = posse.cards()
    shown = {t.key: t.value for t in ann.tiles}
    assert shown == {"health": "7/10", "sanity": "9/10", "grit": "1/3", "gold": "$120", "xp": "45",
                     "corruption": "2", "dark_stone": "3", "unwanted_attention": "1", "wanted": "Most Wanted!"}
    assert [t.key for t in ann.tiles] == [key for key, *_ in STATS]
    assert ann.mutations == ("Tentacle",) and ann.tokens == ("Tonic", "Bandages") and ann.bag_text == "2/5"


def test_one_tap_sends_an_adjust_and_the_card_follows(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann"), hero("bob", "Bob")])
    posse = PossePresenter(table)
    posse.adjust("bob", "gold", +1)
    posse.adjust("bob", "health", -1)  # takes a Wound
    posse.adjust("bob", "xp", +1)
    bob = table.snapshot.state.hero("bob")
    assert (bob.gold, bob.wounds, bob.xp) == (25, 1, 10)
    assert tiles(posse, "bob")["health"].value == "9/10"  # type: ignore[attr-defined]
    assert [s.command for s in table.snapshot.log[-3:]] == ["adjust"] * 3
    assert "Gold" in table.snapshot.log[-3].events[0].text and table.snapshot.log[-3].events[0].rule == "MANUAL"
    posse.adjust("bob", "health", +1)  # healed
    assert table.snapshot.state.hero("bob").wounds == 0
    assert table.snapshot.state.hero("ann") == hero("ann", "Ann")


def test_buttons_stop_at_the_bounds_the_engine_keeps(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann", grit=2, max_grit=2, wanted=2)])
    t = tiles(PossePresenter(table), "ann")
    assert not t["health"].can_raise and t["health"].can_lower  # type: ignore[attr-defined]
    assert not t["gold"].can_lower and t["gold"].can_raise  # type: ignore[attr-defined]
    assert not t["grit"].can_raise  # type: ignore[attr-defined]
    assert not t["wanted"].can_raise and t["wanted"].tone == "warn"  # type: ignore[attr-defined]


def test_low_health_is_marked_danger() -> None:
    assert {t.key: t.tone for t in card(hero("a", wounds=8)).tiles}["health"] == "danger"
    assert {t.key: t.tone for t in card(hero("a", wounds=5)).tiles}["health"] == "warn"
    assert "KO'd" in card(hero("a", wounds=10)).badges


def test_side_bag_tokens_are_added_and_removed_by_name_FF_HERO_08(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann", side_bag=("Tonic",) * 4)])
    posse = PossePresenter(table)
    editor = posse.open_list("ann", "tokens")
    assert editor.can_add and editor.suggestions == TOKENS and editor.note.startswith("Side Bag 4/5")
    posse.add("Bandages")
    posse.sync()
    assert table.snapshot.state.hero("ann").side_bag[-1] == "Bandages"
    assert posse.editor is not None and not posse.editor.can_add and posse.editor.note.endswith("full")
    posse.remove("Tonic")
    assert table.snapshot.state.hero("ann").side_bag.count("Tonic") == 3


def test_mutations_are_added_and_removed_by_name(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")])
    posse = PossePresenter(table)
    posse.open_list("ann", "mutations")
    posse.add("  Extra Arm ")
    posse.add("")  # nothing typed
    assert table.notice is not None and table.notice.field == "name"
    assert table.snapshot.state.hero("ann").mutations == ("Extra Arm",)
    posse.remove("Extra Arm")
    assert table.snapshot.state.hero("ann").mutations == ()
    posse.close_list()
    assert posse.editor is None


def test_removing_what_is_not_there_shows_the_engines_refusal(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann")])
    posse = PossePresenter(table)
    posse.open_list("ann", "tokens")
    posse.remove("Dynamite")
    assert table.notice is not None and "Dynamite" in table.notice.text and table.snapshot.version == 0
