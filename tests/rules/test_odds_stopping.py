"""Sequential stopping of the odds (shared_rules.odds): each option stops at the first piece boundary where every
chance it reports is within the precision asked for; the answer says the half-width reached and whether it met
the target; the same seed gives the same answer; partial answers come before the final one."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from shared_rules import new_session
from shared_rules.dice import next_random
from shared_rules.odds import QUESTIONS, Choice, Plan, Question, ask, pieces, plan, reached, register, run_chunk
from shared_rules.odds.sample import chance_figure
from shared_rules.simulate import sample_heroes
from shared_rules.state import Session

HEROES = sample_heroes(2)
TRUE = {"often": 0.3, "rarely": 0.04}  # the chance a hero is killed in each option of the invented question


class KnownChance(Question):
    """An invented question whose true chances are known: a hero is killed with chance TRUE[option]."""

    name = "known_chance_for_tests"
    title = "Known chances"

    def options(self, state: Session, params: Mapping[str, Any]) -> tuple[Choice, ...]:
        return tuple(Choice(key, key) for key in TRUE)

    def metrics(self, plan: Plan) -> tuple[str, ...]:
        return ("posse.removed",)

    def categories(self, plan: Plan) -> tuple[str, ...]:
        return ()

    def trial(self, plan: Plan, option: str, rng: int) -> tuple[tuple[int, ...], tuple[str, ...]]:
        return (int(next_random(rng)[1] / 2**64 < TRUE[option]),), ()


@pytest.fixture
def known() -> Iterator[Plan]:
    register(KnownChance())
    try:
        yield plan(new_session(HEROES), KnownChance.name)
    finally:
        del QUESTIONS[KnownChance.name]


def test_pieces_start_small_and_double_up_to_the_chunk() -> None:
    assert pieces(2000, 500) == [(0, 100), (100, 200), (300, 400), (700, 500), (1200, 500), (1700, 300)]
    assert pieces(120, 40) == [(0, 40), (40, 40), (80, 40)]
    assert pieces(0, 500) == []


def test_each_option_stops_once_its_chances_are_within_the_target_and_says_so(known: Plan) -> None:
    result = ask(known, 20_000, seed=3, precision=0.02, chunk=200)
    assert result["precision_met"] and result["complete"]
    assert result["precision"]["target"] == 0.02 and result["precision"]["reached"] <= 0.02
    for option in result["options"]:
        chance = option["chances"]["anyone_killed"]
        assert (chance["ci"][1] - chance["ci"][0]) / 2 <= 0.02 and option["precision"]["met"]
        assert option["precision"]["figure"] == "chance.anyone_killed"
        assert option["trials"] < 20_000
        at_the_boundary_before = option["trials"] - min(200, option["trials"] // 2)
        before = run_chunk(known, option["key"], 0, at_the_boundary_before, seed=3)
        assert reached(known, before)[0] > 0.02  # it stopped at the first boundary within the target
    done = result["done"]
    assert done["rarely"] < done["often"]  # a rare chance is sharp sooner: that option stops first


def test_an_option_out_of_trials_before_its_target_says_the_half_width_it_reached(known: Plan) -> None:
    result = ask(known, 300, seed=3, precision=0.01, chunk=100)
    assert result["complete"] and not result["precision_met"]
    assert result["done"] == {"often": 300, "rarely": 300}
    assert result["precision"]["reached"] > 0.01
    often = next(o for o in result["options"] if o["key"] == "often")
    assert not often["precision"]["met"] and often["precision"]["reached"] == result["precision"]["reached"]
    low, high = often["chances"]["anyone_killed"]["ci"]
    assert (high - low) / 2 == pytest.approx(often["precision"]["reached"])


def test_the_interval_reached_covers_the_true_chance_19_times_in_20(known: Plan) -> None:
    """The stopping rule's interval is sound: over 200 seeds (fixed), each stopping at +-3 points, the true chance
    lies inside the reported 95% interval about 95% of the time (looking at every boundary costs a little)."""
    covered = {key: 0 for key in TRUE}
    runs = 200
    for seed in range(runs):
        result = ask(known, 5_000, seed=seed, precision=0.03, chunk=100)
        assert result["precision_met"]
        for option in result["options"]:
            low, high = option["chances"]["anyone_killed"]["ci"]
            covered[option["key"]] += low <= TRUE[option["key"]] <= high
    assert all(count >= 0.9 * runs for count in covered.values()), covered


def test_the_same_seed_gives_the_same_answer_whatever_the_pieces_run_on() -> None:
    asked = plan(new_session(HEROES), "town_size", {"sizes": ["small", "medium"]})
    first = ask(asked, 2_000, seed=5, precision=0.04, chunk=100)
    assert first == ask(asked, 2_000, seed=5, precision=0.04, chunk=100)
    assert first["precision_met"] and all(n < 2_000 for n in first["done"].values())
    assert first != ask(asked, 2_000, seed=6, precision=0.04, chunk=100)


def test_partial_answers_come_before_the_final_one_and_sharpen() -> None:
    asked = plan(new_session(HEROES), "town_size", {"sizes": ["small", "large"]})
    seen: list[dict[str, Any]] = []
    final = ask(asked, 400, seed=2, chunk=100, partial=seen.append)
    assert len(seen) >= 3 and seen[-1] == final
    assert seen[0]["done"] == {"small": 100, "large": 100} and not seen[0]["complete"]
    assert [a["done"]["large"] for a in seen] == sorted(a["done"]["large"] for a in seen)
    widths = [a["precision"]["reached"] for a in seen]
    assert widths[-1] < widths[0]
    assert final == ask(asked, 400, seed=2)  # seen piece by piece or in one go: the same answer


def test_a_chance_never_seen_is_within_the_target_only_once_enough_trials_say_so() -> None:
    """0 of n: Wilson's interval is [0, ~3.84/n]; +-1 point takes about 190 trials, not one."""
    assert (chance_figure(0, 100)["ci"][1]) / 2 > 0.01
    assert (chance_figure(0, 200)["ci"][1]) / 2 <= 0.01


SHEETS = [{"hero": "h1", "initiative": 4, "max_fury": 3}, {"hero": "h2", "initiative": 6, "deadly_bonus": 2},
          {"hero": "h3", "initiative": 5, "max_ki": 3}, {"hero": "h4", "initiative": 3, "mana": 3, "blast_cost": 1}]


def _track(length: int = 12) -> list[dict[str, Any]]:
    return [{"number": n, "stage": 3 if n < length // 3 else 2 if n < 2 * length // 3 else 1, "mark": "none"}
            for n in range(length)]


def test_will_the_darkness_escape_is_a_question_with_its_chance_FF_DEPTH_09() -> None:
    """darkness_escapes: Lost Contact played N turns from the posse as it is; the chance the Darkness escaped is a
    reported chance, so sequential stopping holds the answer to it too."""
    asked = plan(new_session(sample_heroes(4)), "darkness_escapes", {"layout": _track(), "sheets": SHEETS, "turns": 3})
    assert [c.key for c in asked.options] == ["as_we_play"]
    result = ask(asked, 12, seed=1)
    option = result["options"][0]
    assert option["chances"]["darkness_escaped"]["trials"] == 12
    assert option["expected"]["adventure.turns"]["max"] <= 4  # at most the turns asked, the last one begun
    assert option["precision"]["figure"] is not None and result["complete"]
    assert result == ask(asked, 12, seed=1)


@pytest.mark.parametrize(("params", "field"), [
    ({"layout": _track(), "turns": 0}, "params.turns"),
    ({"layout": _track(), "turns": True}, "params.turns"),
    ({"layout": _track()[:2], "sheets": SHEETS}, "params.layout"),  # a Depth Track of two spaces
    ({"layout": _track()}, "params.sheets[hero=h1].initiative"),  # the pack lacks the Initiative: type it in
    ({"track": 7}, "params.track"),
])
def test_a_darkness_question_the_state_cannot_ask_names_the_field(params: dict[str, Any], field: str) -> None:
    from shared_rules.errors import InvalidCommand

    with pytest.raises(InvalidCommand) as refused:
        plan(new_session(sample_heroes(4)), "darkness_escapes", params)
    assert refused.value.field == field and refused.value.message.startswith(field)
