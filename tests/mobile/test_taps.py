"""Taps at a real table, counted (issue 11's targets): at most 8 taps per Travel Hazard on average with physical dice
over 25 seeded journeys, and at most 60 taps to enter a four-hero posse in the middle of a campaign.

The journeys are played through the presenters exactly as the screens offer them (mobile/taps.py); the figures
are printed so a run shows them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mobile.presenters.start import StartPresenter
from mobile.taps import run
from shared_rules.content import PACKS, register_pack


def test_a_hazard_takes_at_most_8_taps_on_average_with_physical_dice_over_25_journeys(
        capsys: pytest.CaptureFixture[str]) -> None:
    tally = run(25, first_seed=1)
    with capsys.disabled():
        print(f"\n[taps] {tally.summary()}")
    assert tally.journeys == 25 and len(tally.per_hazard) > 100
    assert tally.mean <= 8.0, tally.summary()


class Hands:
    """Counts what a player touches on the start screen: a control is one tap, and the keys of a typed number are
    counted apart (letters of names are not counted: a name is typed once per campaign)."""

    def __init__(self, start: StartPresenter) -> None:
        self.start = start
        self.taps = 0
        self.keys = 0

    def number(self, index: int, key: str, value: int) -> None:
        self.taps += 1  # the number on the sheet: the keypad opens
        self.keys += len(str(value)) + 1  # its digits, then "next"
        assert self.start.set_stat(index, key, str(value)), self.start.message

    def hero(self, index: int, name: str, hero_class: str, numbers: dict[str, int]) -> None:
        if index:
            self.taps += 1
            self.start.add_hero()
        self.taps += 1
        self.start.set_name(index, name)
        self.taps += 2  # the class field, then the class in the list under it
        self.start.set_class(index, hero_class)
        for key, value in numbers.items():
            self.number(index, key, value)


MID_CAMPAIGN = (  # four heroes after a few Adventures: what has moved since their sheets were new
    ("Hank", "Gunslinger", {"level": 3, "xp": 1370, "gold": 415, "grit": 1, "wounds": 2, "corruption": 2,
                            "dark_stone": 3}),
    ("Lou", "Saloon Girl", {"level": 2, "xp": 620, "gold": 150, "grit": 2, "sanity_damage": 3, "corruption": 1}),
    ("Reverend Cole", "Preacher", {"level": 3, "xp": 1180, "gold": 90, "grit": 1, "corruption": 4,
                                   "dark_stone": 1}),
    ("Kenji", "Samurai Warrior", {"level": 2, "xp": 740, "gold": 275, "grit": 2, "wounds": 4}),
)
TABLE_PACK = {  # a table's own pack with its class sheets' numbers (made up for this test: not rulebook data)
    "name": "test-table-sheets", "version": 1, "buildings": [{"location": "Saloon"}],
    "hero_classes": {
        "Gunslinger": {"health": 10, "sanity": 10, "max_grit": 2, "defense": 4, "willpower": 5,
                       "skills": {"agility": 3, "cunning": 2, "spirit": 2, "strength": 2, "lore": 2, "luck": 4}},
        "Saloon Girl": {"health": 8, "sanity": 12, "max_grit": 2, "defense": 5, "willpower": 4,
                        "skills": {"agility": 4, "cunning": 4, "spirit": 3, "strength": 1, "lore": 2, "luck": 3}},
        "Preacher": {"health": 10, "sanity": 12, "max_grit": 2, "defense": 5, "willpower": 3,
                     "skills": {"agility": 2, "cunning": 2, "spirit": 5, "strength": 2, "lore": 3, "luck": 2}},
        "Samurai Warrior": {"health": 14, "sanity": 8, "max_grit": 2, "defense": 4, "willpower": 5,
                            "skills": {"agility": 3, "cunning": 2, "spirit": 2, "strength": 5, "lore": 1,
                                       "luck": 2}},
    },
}


def test_a_four_hero_mid_campaign_posse_takes_at_most_60_taps(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    register_pack(TABLE_PACK)
    try:
        start = StartPresenter(online=lambda url: None, offline_dir=tmp_path / "tables",  # type: ignore[arg-type,return-value]
                               pack="test-table-sheets")
        hands = Hands(start)
        for index, (name, hero_class, numbers) in enumerate(MID_CAMPAIGN):
            hands.hero(index, name, hero_class, numbers)
        hands.taps += 1  # "play offline"
        start.set_mode("offline")
        opened: list[object] = []
        start.on_open = opened.append
        start.create()
        assert opened and start.posse() is not None
        typed = hands.taps

        # the next night: the posse exported at the end of this one comes back from its file or QR code
        link = start.export_link()
        again = StartPresenter(online=lambda url: None, offline_dir=tmp_path / "again")  # type: ignore[arg-type,return-value]
        import_taps = 3  # "import a posse", the file (or the camera's QR link), "play offline"
        assert again.import_text(link) and [d.name for d in again.drafts] == [m[0] for m in MID_CAMPAIGN]

        # no pack for these classes: every number of the four sheets is typed too
        bare = StartPresenter(online=lambda url: None, offline_dir=tmp_path / "bare")  # type: ignore[arg-type,return-value]
        full = Hands(bare)
        for index, (name, hero_class, numbers) in enumerate(MID_CAMPAIGN):
            sheet = TABLE_PACK["hero_classes"][hero_class]  # type: ignore[index]
            values = {k: sheet[k] for k in ("health", "sanity", "max_grit", "defense", "willpower")} | sheet["skills"]
            full.hero(index, name, hero_class, {**values, **numbers})
        full.taps += 1
        with capsys.disabled():
            print(f"\n[taps] four-hero mid-campaign posse: {typed} taps (+{hands.keys} keys on the number pad) with "
                  f"the classes' sheets in a pack; {import_taps} taps from last night's export; {full.taps} taps "
                  f"(+{full.keys} keys) typing every number of four sheets")
        assert typed <= 60
    finally:
        del PACKS["test-table-sheets"]


def test_a_town_day_and_an_adventure_turn_in_taps(capsys: pytest.CaptureFixture[str]) -> None:
    """A common stay Day (4 heroes each visit once, the Day ends) and a common Adventure turn (Hold Back the
    Darkness, 4 activations), played on the Stay and Adventure screens with physical dice (mobile/taps.py)."""
    from mobile.taps import phases

    days, turns = phases(5, first_seed=1)
    day, turn = sum(days) / len(days), sum(turns) / len(turns)
    with capsys.disabled():
        print(f"\n[taps] stay day (4 heroes): {day:.1f} taps over {len(days)} days; adventure turn (4 heroes): "
              f"{turn:.1f} taps over {len(turns)} turns")
    assert len(days) >= 3 and len(turns) >= 3
    assert day <= 8 * 4 and turn <= 2 + 3 * 4 + 2  # per hero: the place, its dice, its card, leave; per model 3
