"""Content packs on the phone: taken in from a file, its text, a link or another phone's code, checked by the engine's
pack loader (refusals in words next to the field), kept and registered again at the next start; a class sheet fills
in a new hero's starting numbers (FF-HERO-01) and its keywords, and an offline table plays with the pack."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from mobile.presenters.packs import QR_LIMIT, problem_words
from mobile.presenters.start import StartPresenter
from mobile.presenters.table import TableSession
from shared_rules.content import PACKS

PACK = Path(__file__).parent / "data" / "table_pack.json"


@pytest.fixture(autouse=True)
def forget_packs() -> Iterator[None]:
    before = dict(PACKS)
    yield
    PACKS.clear()
    PACKS.update(before)


def presenter(tmp_path: Path) -> tuple[StartPresenter, list[TableSession]]:
    opened: list[TableSession] = []
    start = StartPresenter(online=lambda url: (_ for _ in ()).throw(AssertionError(url)),  # type: ignore[arg-type]
                           offline_dir=tmp_path / "tables", on_open=opened.append)
    return start, opened


def test_a_pack_file_is_taken_in_chosen_and_its_class_sheet_fills_the_numbers_FF_HERO_01(tmp_path: Path) -> None:
    start, opened = presenter(tmp_path)
    assert start.import_pack(str(PACK))
    view = start.view()
    assert view.pack == "our-table" and view.pack_fills and not view.pack_refused
    assert view.pack_message == "Pack our-table taken in: 4 class sheets"
    assert ("our-table", "4 class sheets") in view.packs and view.classes[:4] == (
        "Gunslinger", "U.S. Marshal", "Saloon Girl", "Bandido")
    start.set_name(0, "Wes")
    start.set_class(0, "U.S. Marshal")
    draft = start.drafts[0]
    assert [draft.get(k) for k in ("health", "sanity", "willpower", "strength", "luck")] == [12, 10, 4, 3, 3]
    assert draft.keywords == ("Law",)  # the sheet's keyword
    # Next on the keypad skips what the sheet filled in: only the campaign's numbers are left to type
    assert start.number_order(0) == ("level", "gold", "xp", "grit", "wounds", "sanity_damage", "corruption",
                                     "dark_stone")
    start.set_mode("offline")
    start.create()
    assert opened and opened[0].snapshot.state.pack == "our-table"  # the table plays with the pack


def test_a_pack_taken_in_is_there_at_the_next_start_and_its_offline_table_opens_again(tmp_path: Path) -> None:
    start, opened = presenter(tmp_path)
    assert start.import_pack(PACK.read_text(encoding="utf-8"))  # pasted text
    start.set_name(0, "Wes")
    start.set_mode("offline")
    start.create()
    code = opened[0].backend.table.code  # type: ignore[union-attr]
    del PACKS["our-table"]  # the app closed: only the file in the app's folder is left
    again, reopened = presenter(tmp_path)
    assert "our-table" in again.view().packs[1]
    again.resume_offline(code)
    assert reopened and reopened[0].snapshot.state.pack == "our-table"


def test_a_pack_goes_to_another_phone_as_a_link_or_qr_code(tmp_path: Path) -> None:
    start, _ = presenter(tmp_path / "a")
    start.import_pack(str(PACK))
    link = start.pack_link()
    assert link.startswith("brimstone://pack?d=") and len(link) <= QR_LIMIT
    other, _ = presenter(tmp_path / "b")
    del PACKS["our-table"]
    assert other.import_text(link)  # the camera opened the app with the link, as with a posse
    assert other.view().pack == "our-table" and PACKS["our-table"].hero_classes["Bandido"]["health"] == 14


def test_a_bad_pack_is_refused_in_words_next_to_the_field(tmp_path: Path) -> None:
    start, _ = presenter(tmp_path)
    raw = json.loads(PACK.read_text(encoding="utf-8"))
    raw["hero_classes"]["U.S. Marshal"]["skills"]["luck"] = 14
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(raw), encoding="utf-8")
    assert not start.import_pack(str(bad))
    view = start.view()
    assert view.pack_refused and view.pack == "default"
    assert view.pack_message == "That pack cannot be used. Class sheet U.S. Marshal, skills, luck: 14 is not within 0 to 12"
    assert not start.import_pack(str(tmp_path / "missing.json"))
    assert start.pack_message == "That file cannot be read; check the path"
    assert not start.import_pack("{not json")
    assert start.pack_message == "That is not a content pack (a pack is a .json file)"
    assert not start.import_pack("brimstone://pack?d=AAAA")
    assert start.pack_message == "That pack code is damaged; show it again"
    raw["hero_classes"]["U.S. Marshal"]["skills"]["luck"] = 3
    assert not start.import_pack(json.dumps({**raw, "name": "default"}))
    assert "built-in pack" in start.pack_message
    # the pack file found in the app's folder is offered with one tap
    assert str(bad) in start.view().pack_files


def test_problem_words_say_where_without_paths() -> None:
    assert problem_words("buildings[2].tokens: a whole number, not 'x'") == \
        "Building tokens, no. 3, tokens: a whole number, not x"
    assert problem_words("content pack lacks 'buildings'") == "Content pack lacks buildings"


def test_a_letter_or_a_number_past_the_sheet_is_refused_in_words(tmp_path: Path) -> None:
    start, _ = presenter(tmp_path)
    assert not start.set_stat(0, "gold", "4a") and start.message == "Gold: digits only, a number from 0 to 99999"
    assert not start.set_stat(0, "defense", "9") and start.message == "Defense: a number from 1 to 7"
    assert start.set_stat(0, "defense", "5+") and start.message == "" and start.drafts[0].get("defense") == 5
    assert start.next_number(0, "health") == "sanity" and start.next_number(0, "dark_stone") is None
