"""`brimstone travel` as a real subprocess: the default policy end to end, and a table typing its answers."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from services import cli
from shared_rules import RuleOptions, new_session
from shared_rules.content import TRAVEL_HAZARDS
from shared_rules.simulate import play_journey, sample_heroes

ROOT = Path(__file__).resolve().parents[2]


def _travel(*args: str, answers: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli", "travel", *args], cwd=ROOT, input=answers,
                          capture_output=True, text=True, timeout=120)


def test_auto_plays_the_same_journey_as_the_engine_with_the_default_policy() -> None:
    done = _travel("--heroes", "4", "--size", "large", "--seed", "7", "--auto")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    end = play_journey(new_session(sample_heroes(4), options=RuleOptions(), seed=7), "large").state
    assert end.travel is not None and end.town is not None
    assert f"{len(end.travel.rollers)} Travel Hazards on the road to a Large Town" in out
    for number, result in enumerate(end.travel.hazards, start=1):
        assert f"== Travel Hazard {number}: {result} {TRAVEL_HAZARDS[result].name} ==" in out
    assert f"Large {end.town.town_type} (Town type 2D6 = {end.town.type_roll})" in out
    for slot in end.town.slots:
        assert f"  {slot.number}. {slot.location}" in out
    for hero in end.heroes:
        assert f"{hero.name} ({hero.hero_class})" in out and f"XP {hero.xp}" in out
    assert "\n> " not in out  # nothing was asked


def test_a_table_types_its_dice_and_answers_and_refused_ones_are_asked_again() -> None:
    answers = "\n".join([
        "9 9",  # refused: a D36 die shows 1-6
        "11",  # Possession, rolled by Hanzo
        "2",  # 1-3: the Madness chart
        "sanity_damage +2",  # the card, as an effect
        "1 2",  # Bleached Bones, rolled by Kasumi
        "5 5 5",  # Hanzo: Agility 3 dice, passes
        "1 1 1 1",  # Kasumi: Agility 4 dice, fails
        "0 0",  # refused: a die named twice
        "0 1",  # re-roll two dice for 1 Grit
        "6 1",  # ... and passes
        "3 4",  # the Specialty Town type: 7
        "12",  # refused: there are 11 Building tokens
        "1", "1", "1", "1", "1", "1",  # the six Building tokens
    ]) + "\n"
    done = _travel("--heroes", "2", "--size", "medium", "--seed", "3", "--table-dice", answers=answers)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "2 Travel Hazards on the road to a Medium Town" in out
    assert "a d36 die cannot show 9" in out and out.count("Hanzo: roll D36 for Travel Hazard 1 of 2") == 2
    assert "== Travel Hazard 1: 11 Possession ==" in out and "== Travel Hazard 2: 12 Bleached Bones ==" in out
    assert "Hanzo takes 2 Sanity Damage (0 -> 2)" in out
    assert "named twice" in out and "Kasumi loses 1 Grit (1 -> 0)" in out
    assert "type a number from 1 to 11" in out
    assert "Medium Standard Frontier Town (Town type 2D6 = 7)" in out
    for number, building in enumerate(["Blacksmith", "Church", "Doc's Office", "Frontier Outpost", "Gambling Hall",
                                       "Indian Trading Post"], start=1):
        assert f"  {number}. {building}" in out
    assert out.count("XP 10 (+10)") == 2


def test_input_ending_mid_journey_is_an_error_not_a_hang() -> None:
    done = _travel("--heroes", "1", "--size", "large", "--seed", "1", "--table-dice", answers="")
    assert done.returncode == 1
    assert "the input ended" in done.stderr


def test_a_posse_file_in_the_codec_form(tmp_path: Path) -> None:
    posse = tmp_path / "posse.json"
    posse.write_text('[{"id": "z", "name": "Zed", "skills": {"agility": 3, "cunning": 2, "spirit": 2, '
                     '"strength": 2, "lore": 2, "luck": 2}}]')
    done = _travel("--posse", str(posse), "--size", "medium", "--seed", "2", "--auto")
    assert done.returncode == 0, done.stderr
    assert "The posse (1): Zed" in done.stdout and "1 Travel Hazard on the road to a Medium Town" in done.stdout
    posse.write_text('[{"id": "z", "name": "Zed", "charm": 9}]')
    refused = _travel("--posse", str(posse), "--auto")
    assert refused.returncode == 2 and "posse[0]" in refused.stderr


def test_travel_never_imports_the_service_stack() -> None:
    code = ("import io, sys; from services.cli import main; "
            "rc = main(['travel', '--heroes', '1', '--size', 'small', '--auto'], stdin=io.StringIO(), out=io.StringIO()); "
            "assert rc == 0; assert not {'litestar', 'strawberry', 'redis', 'rq'} & set(sys.modules), sys.modules")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("command", "module"), [("serve", "services.api.serve"), ("worker", "services.jobs.worker")])
def test_serve_and_worker_pass_their_arguments_through(
    monkeypatch: pytest.MonkeyPatch, command: str, module: str
) -> None:
    calls: list[tuple[str, list[str]]] = []

    def fake_import(name: str) -> SimpleNamespace:
        return SimpleNamespace(main=lambda argv: calls.append((name, argv)))

    monkeypatch.setattr(cli, "import_module", fake_import)
    assert cli.main([command, "--redis", "redis://x", "--port", "9"], stdin=io.StringIO(), out=io.StringIO()) == 0
    assert calls == [(module, ["--redis", "redis://x", "--port", "9"])]


# ---- the table-dice traps (issue 11) ----------------------------------------------------------------------------
def test_slot_numbers_stay_slot_numbers_after_a_building_is_destroyed_FT_TOWN_05() -> None:
    from shared_rules import Option, Prompt
    from shared_rules.prompts import PromptKind

    standing = [("1", "1 Saloon"), ("3", "3 Church"), ("4", "4 Blacksmith"), ("5", "5 Doc's Office")]  # 2 is gone
    prompt = Prompt("p9", PromptKind.CHOICE, "Draw at random: a Random Building Slot to destroy", "choose", None,
                    "FT-TOWN-05", tuple(Option(k, v) for k, v in standing), purpose="a Random Building Slot")
    assert cli.answer_for(prompt, "4").option == "4"  # slot 4, not the 4th standing slot (which is 5)
    assert "  4. Blacksmith" in cli.question_for(prompt) and "  2." not in cli.question_for(prompt)
    with pytest.raises(ValueError, match="1, 3, 4, 5"):
        cli.answer_for(prompt, "2")


def test_a_card_line_mixing_a_description_and_an_effect_keeps_both() -> None:
    from shared_rules import Effect, Prompt
    from shared_rules.prompts import PromptKind

    prompt = Prompt("p3", PromptKind.CARD, "Hanzo: roll once on the Madness chart", "enter_card", "h1", "FT-TRAVEL-D11",
                    chart="madness")
    entered = cli.answer_for(prompt, "Paranoia, sanity_damage +2")
    assert entered.text == "Paranoia" and entered.effects == (Effect("change", "sanity_damage", 2),)  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="not a change the rules know"):
        cli.answer_for(prompt, "Paranoia, sanity +2")  # asked again, never shown as applied
    assert cli.answer_for(prompt, "Paranoia").effects == ()  # type: ignore[union-attr]


def test_a_mixed_card_line_is_applied_in_a_journey() -> None:
    answers = "\n".join(["11", "2", "Paranoia, sanity +2", "Paranoia, sanity_damage +2"]) + "\n"
    out = io.StringIO()
    code = cli.main(["travel", "--heroes", "2", "--size", "medium", "--seed", "3", "--table-dice"],
                    stdin=io.StringIO(answers), out=out)
    text = out.getvalue()
    assert code == 1  # the answers ran out later on: only the card matters here
    assert "not a change the rules know" in text
    assert "Hanzo: Paranoia" in text and "Hanzo takes 2 Sanity Damage (0 -> 2)" in text
