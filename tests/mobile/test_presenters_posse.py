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


# ---- at a glance, typed, pending, locked while a prompt waits ------------------------------------------------------
def test_a_compact_row_per_hero_with_badges_as_icon_and_word(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann", wounds=8, gold=150, xp=60, wanted=1, unwanted_attention=2),
                                     hero("bo", "Bo", sanity_damage=10)])
    posse = PossePresenter(table)
    rows = {r.hero_id: r for r in posse.view().rows}
    ann, bo = rows["ann"], rows["bo"]
    assert (ann.health, ann.sanity, ann.grit, ann.money) == ("2/10", "10/10", "1/2", "$150 · 60 XP")
    assert [(b.icon, b.text) for b in ann.badges] == [("♥", "Near death"), ("★", "Wanted!"), ("◉", "UA 2")]
    assert [(b.icon, b.text) for b in bo.badges] == [("✖", "KO")] and ann.health_tone == "danger"
    assert posse.view().cards == ()
    posse.toggle("bo")
    assert [c.hero_id for c in posse.view().cards] == ["bo"] and rows["bo"].expanded is False
    assert posse.view().rows[1].expanded


def test_this_phones_heroes_come_first(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann"), hero("bo", "Bo")])
    table.claim({"bo"})
    assert [(r.hero_id, r.mine) for r in PossePresenter(table).view().rows] == [("bo", True), ("ann", False)]


def test_a_typed_number_is_sent_as_the_change_from_the_value_shown(tmp_path: Path) -> None:
    table = offline_table(tmp_path, [hero("ann", "Ann", gold=150, xp=60)])
    posse = PossePresenter(table)
    assert posse.set_value("ann", "xp", "1370") and posse.set_value("ann", "gold", "$95")
    assert posse.set_value("ann", "health", "7")  # 3 Wounds
    ann = table.read.hero("ann")
    assert (ann.xp, ann.gold, ann.wounds) == (1370, 95, 3)
    assert "Gold -$55" in table.read.log[-2].events[0].text
    assert not posse.set_value("ann", "xp", "lots") and table.notice is not None


def test_a_change_waiting_to_be_sent_shows_on_its_tile(tmp_path: Path) -> None:
    from tests.mobile.test_presenters_table import flaky_table

    table, backend = flaky_table(tmp_path)
    backend.down = True
    posse = PossePresenter(table)
    posse.adjust("ann", "gold", +1)
    posse.adjust("ann", "gold", +1)
    posse.adjust("ann", "health", -1)
    shown = tiles(posse, "ann")
    assert shown["gold"].pending == "+$50 waiting" and shown["health"].pending == "-1 waiting"  # type: ignore[attr-defined]
    assert posse.view().waiting == 3


def test_while_a_prompt_waits_the_numbers_say_why_they_cannot_change(tmp_path: Path) -> None:
    from mobile.presenters.travel import TravelPresenter

    table = offline_table(tmp_path, [hero("ann", "Ann")])
    posse = PossePresenter(table)
    assert posse.view().locked == ""
    TravelPresenter(table).choose_size("small")
    assert posse.view().locked.startswith("Changes wait until the table answers: Ann: roll D6")
