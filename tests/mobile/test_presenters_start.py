"""The start screen: entering a posse, and the three ways in (a new table, joining one, playing offline)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mobile.client import ConnectionLost, OfflineBackend, TableBackend
from mobile.presenters.start import MAX_HEROES, HeroDraft, StartPresenter, hero_ids
from mobile.presenters.table import TableSession
from shared_rules import InvalidCommand, new_session
from tests.mobile.helpers import FlakyBackend
from tests.mobile.helpers import hero as hero_


def presenter(tmp_path: Path, online: object = None) -> tuple[StartPresenter, list[TableSession]]:
    opened: list[TableSession] = []

    def refuse(url: str) -> TableBackend:
        raise AssertionError(f"no server expected, asked for {url}")

    start = StartPresenter(online=online or refuse, offline_dir=tmp_path / "tables",  # type: ignore[arg-type]
                           on_open=opened.append)
    return start, opened


def test_a_posse_has_one_to_six_heroes_A48(tmp_path: Path) -> None:
    start, _ = presenter(tmp_path)
    for _ in range(10):
        start.add_hero()
    assert len(start.drafts) == MAX_HEROES and not start.view().can_add_hero
    for _ in range(10):
        start.remove_hero(0)
    assert len(start.drafts) == 1


def test_stats_step_within_their_bounds(tmp_path: Path) -> None:
    start, _ = presenter(tmp_path)
    for _ in range(10):
        start.step_stat(0, "defense", +1)
    start.step_stat(0, "gold", +1)
    start.step_stat(0, "agility", -1)
    draft = start.drafts[0]
    assert (draft.get("defense"), draft.get("gold"), draft.get("agility")) == (7, 25, 1)
    hero = draft.hero("x")
    assert (hero.defense, hero.gold, hero.skills.agility, hero.max_grit) == (7, 25, 1, 2)


def test_a_nameless_hero_is_refused_with_the_engines_message(tmp_path: Path) -> None:
    start, opened = presenter(tmp_path)
    start.set_mode("offline")
    start.create()
    with pytest.raises(InvalidCommand) as engine:
        new_session([HeroDraft().hero("hero-1")])
    assert engine.value.field == "heroes[0].name" and opened == []
    assert start.message == "Hero 1: A hero needs a name"  # the engine's words, naming the hero, no field path


def test_hero_ids_are_unique_and_readable() -> None:
    drafts = (HeroDraft("Ann"), HeroDraft("Ann"), HeroDraft("Dr. Bob"), HeroDraft(""))
    assert hero_ids(drafts) == ["ann", "ann-2", "dr-bob", "hero-4"]


def test_offline_play_opens_a_table_kept_in_a_file_and_it_can_be_resumed(tmp_path: Path) -> None:
    start, opened = presenter(tmp_path)
    start.set_mode("offline")
    start.set_name(0, "Ann")
    start.add_hero()
    start.set_name(1, "Bob")
    start.set_class(1, "Sorceress")
    start.create()
    (table,) = opened
    assert [h.name for h in table.heroes()] == ["Ann", "Bob"] and table.heroes()[1].hero_class == "Sorceress"
    assert table.snapshot.state.options.dice == "table" and start.view().created is None
    saved = start.view().saved
    assert len(saved) == 1 and saved[0][0] == table.snapshot.table.code and "Ann, Bob" in saved[0][1]
    start.resume_offline(saved[0][0])
    assert opened[1].snapshot.state == table.snapshot.state


def test_app_dice_option_turns_off_roll_prompts(tmp_path: Path) -> None:
    start, opened = presenter(tmp_path)
    start.set_mode("offline")
    start.set_name(0, "Ann")
    start.set_table_dice(False)
    start.create()
    assert opened[0].snapshot.state.options.dice == "server"


def test_creating_online_uses_the_server_address_and_shows_code_and_token(tmp_path: Path) -> None:
    asked: list[str] = []

    def online(url: str) -> FlakyBackend:
        asked.append(url)
        return FlakyBackend(OfflineBackend(tmp_path / "server"))

    start, opened = presenter(tmp_path, online)
    start.set_server(" http://10.0.0.5:8000 ")
    start.set_name(0, "Ann")
    start.create()
    assert asked == ["http://10.0.0.5:8000"] and len(opened) == 1
    assert start.view().created == (opened[0].snapshot.table.code, "")


def test_joining_needs_a_code_and_reports_an_unreachable_server(tmp_path: Path) -> None:
    class Down(FlakyBackend):
        def join(self, code: str, token: str) -> object:
            raise ConnectionLost("cannot reach http://nowhere:1: connection refused")

    start, opened = presenter(tmp_path, lambda url: Down(OfflineBackend(tmp_path)))
    start.set_mode("join")
    start.join()
    assert start.message.startswith("code:")
    start.set_join("K7QX2M", "secret")
    start.join()
    assert start.message.startswith("Cannot reach the server") and not start.busy and opened == []


# ---- typed numbers, any class, items and keywords, a posse carried between nights --------------------------------
def test_a_number_is_typed_and_checked_against_the_sheets_bounds(tmp_path: Path) -> None:
    start, _ = presenter(tmp_path)
    assert start.set_stat(0, "xp", "1370") and start.set_stat(0, "gold", "$415")
    assert not start.set_stat(0, "defense", "9") and start.message == "Defense: a number from 1 to 7"
    assert not start.set_stat(0, "agility", "three")
    assert (start.drafts[0].get("xp"), start.drafts[0].get("gold"), start.drafts[0].get("defense")) == (1370, 415, 4)


def test_any_class_by_name_and_the_western_classes_are_offered(tmp_path: Path) -> None:
    start, _ = presenter(tmp_path)
    classes = start.view().classes
    assert {"Samurai Warrior", "Sorceress", "Gunslinger", "Saloon Girl", "U.S. Marshal"} <= set(classes)
    assert start.class_suggestions("slinger") == ("Gunslinger",)
    start.set_class(0, "Cattle Baron")  # a class no list knows is still a class
    assert start.drafts[0].hero("x").hero_class == "Cattle Baron"


def test_a_packs_starting_stats_fill_the_sheet_FF_HERO_01(tmp_path: Path) -> None:
    from shared_rules.content import PACKS, register_pack

    register_pack({"name": "our-table", "version": 1, "buildings": [{"location": "Saloon"}],
                   "hero_classes": {"Gunslinger": {"health": 12, "sanity": 8, "max_grit": 3, "defense": 5,
                                                   "willpower": 4, "skills": {"agility": 4, "luck": 3}}}})
    try:
        start, _ = presenter(tmp_path)
        start.pack = "our-table"
        start.set_class(0, "Gunslinger")
        draft = start.drafts[0]
        assert [draft.get(k) for k in ("health", "sanity", "max_grit", "defense", "agility", "luck")] == \
            [12, 8, 3, 5, 4, 3]
        start.set_class(0, "Saloon Girl")  # the pack has no numbers for her: the sheet keeps what it had
        assert start.drafts[0].get("health") == 12
    finally:
        del PACKS["our-table"]


def test_items_with_their_keywords_and_the_heros_keywords_reach_the_engine(tmp_path: Path) -> None:
    start, opened = presenter(tmp_path)
    start.set_mode("offline")
    start.set_name(0, "Ann")
    start.add_item(0, "Horse", ("transport",))
    start.add_item(0, "Pocket Watch", ("personal",), hourglass=1)
    start.set_keywords(0, "Law, Showman")
    start.set_stat(0, "wounds", "3")
    start.set_stat(0, "corruption", "2")
    start.set_stat(0, "grit", "2")
    start.create()
    ann = opened[0].heroes()[0]
    assert [(i.name, sorted(t.value for t in i.tags), i.hourglass) for i in ann.items] == \
        [("Horse", ["transport"], 0), ("Pocket Watch", ["personal"], 1)]
    assert ann.keywords == ("Law", "Showman") and (ann.wounds, ann.corruption, ann.grit) == (3, 2, 2)


def test_a_posse_exported_as_a_file_or_a_qr_link_comes_back_the_same(tmp_path: Path) -> None:
    start, _ = presenter(tmp_path)
    start.set_name(0, "Ann")
    start.set_class(0, "Gunslinger")
    start.set_stat(0, "xp", "1370")
    start.add_item(0, "Horse", ("transport",))
    start.add_hero()
    start.set_name(1, "Bo")
    file_text, link = start.export_text(), start.export_link()
    assert link.startswith("brimstone://posse?d=") and len(link) < 1500  # fits a QR code a phone camera reads
    for text in (file_text, link):
        other, _ = presenter(tmp_path / "other")
        assert other.import_text(text)
        assert [d.hero(i) for d, i in zip(other.drafts, ("ann", "bo"), strict=True)] == \
            [d.hero(i) for d, i in zip(start.drafts, ("ann", "bo"), strict=True)]
    one, _ = presenter(tmp_path / "one")
    assert one.import_text(start.export_text(1)) and [d.name for d in one.drafts] == ["Bo"]
    assert not one.import_text("hello") and one.message == "That is not an exported hero or posse"


def test_a_join_link_joins_and_the_table_is_remembered_for_next_time(tmp_path: Path) -> None:
    from mobile.presenters.start import join_link

    server = OfflineBackend(tmp_path / "server")
    server.create([hero_("ann", "Ann")], __import__("shared_rules").RuleOptions(), seed=1)
    code = server.table.code  # type: ignore[union-attr]
    asked: list[str] = []

    def online(url: str) -> FlakyBackend:
        asked.append(url)
        return FlakyBackend(OfflineBackend(tmp_path / "server"))

    start, opened = presenter(tmp_path, online)
    assert start.open_link(join_link("http://10.0.0.5:8000", code, "tok en"))
    assert asked == ["http://10.0.0.5:8000"] and start.join_token == "tok en" and len(opened) == 1
    again, opened_again = presenter(tmp_path, online)
    (row,) = again.view().remembered
    assert (row.code, row.server, row.posse) == (code, "http://10.0.0.5:8000", "Ann")
    again.claim(code, ("ann",))
    again.rejoin(code)
    assert len(opened_again) == 1 and opened_again[0].claimed == frozenset({"ann"})
