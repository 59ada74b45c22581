"""The start screen: entering a posse, and the three ways in (a new table, joining one, playing offline)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mobile.client import ConnectionLost, OfflineBackend, TableBackend
from mobile.presenters.start import MAX_HEROES, HeroDraft, StartPresenter, hero_ids
from mobile.presenters.table import TableSession
from shared_rules import InvalidCommand, new_session
from tests.mobile.helpers import FlakyBackend


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
    assert start.message == engine.value.message and opened == []


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
    assert "cannot reach" in start.message and not start.busy and opened == []
