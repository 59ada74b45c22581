"""Properties over whole Adventures: random posses and seeds, a plain table's commands mixed with random class spends
and random answers to every prompt. After every step values stay in bounds, the state round-trips through the codec,
legal_commands agrees with the prompt; the same commands replay to the same states; an Adventure always ends."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules import (
    RuleOptions,
    RulesError,
    apply,
    decode_command,
    decode_state,
    encode_state,
    legal_commands,
    new_session,
)
from shared_rules.autoplay.adventure import next_command
from shared_rules.commands import (
    CastSpell,
    Choose,
    Command,
    EnterCard,
    Reroll,
    RingBell,
    RollDice,
    StartAdventure,
    UseTactic,
)
from shared_rules.dice import PERIL_FACES, DieKind, face_range
from shared_rules.prompts import Prompt
from shared_rules.simulate import sample_heroes
from shared_rules.state import Session
from tests.rules.adventure import pack
from tests.rules.test_properties import GARBAGE

MAX_STEPS = 4000
SETTINGS = settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


def answer(rnd: random.Random, prompt: Prompt) -> Command:
    if prompt.kind == "roll":
        assert prompt.die is not None
        pool = PERIL_FACES if prompt.die is DieKind.PERIL else face_range(prompt.die)
        return RollDice(tuple(rnd.choice(pool) for _ in range(prompt.dice_count)))
    if prompt.kind == "choice":
        return Choose(rnd.choice(prompt.options).key)
    if prompt.kind == "reroll":
        assert prompt.roll is not None and prompt.hero is not None
        assert not prompt.roll.chart  # FF-GRIT-04: never a chart roll
        free = [i for i in range(len(prompt.roll.faces)) if i not in prompt.roll.rerolled]
        assert free  # FF-GRIT-02
        return Reroll(tuple(i for i in free if rnd.random() < 0.5))
    return EnterCard("", ())


def spend(rnd: random.Random, state: Session) -> Command | None:
    """Now and then a class spend a hero may make at any time (it may well be refused)."""
    legal = [c for c in legal_commands(state) if c.type in ("cast_spell", "ring_bell", "use_tactic")]
    if not legal or rnd.random() > 0.15:
        return None
    pick = rnd.choice(legal)
    assert pick.hero is not None
    if pick.type == "cast_spell":
        return CastSpell(pick.hero, rnd.choice(("Fire Lash", "Stone Skin")), extra_mana=rnd.choice((0, 0, 1)))
    if pick.type == "ring_bell":
        return RingBell(pick.hero)
    return UseTactic(pick.hero, rnd.choice(("Iron Wall", "Battle Cry")))


def check(state: Session) -> None:
    assert decode_state(json.loads(json.dumps(encode_state(state)))) == state
    for hero in state.heroes:
        assert 0 <= hero.grit <= hero.max_grit and 0 <= hero.wounds <= hero.max_health
        assert 0 <= hero.sanity_damage <= hero.max_sanity and hero.xp >= 0
    adv = state.adventure
    if adv is None:
        return
    assert 0 <= adv.darkness <= adv.track.entrance and 0 <= adv.party <= adv.track.entrance
    assert adv.revive_tokens >= 0 and adv.growing_dread >= 0
    for member in adv.heroes:
        sheet = member.sheet
        assert 0 <= member.fury <= max(sheet.max_fury, 0) and 0 <= member.ki <= sheet.max_ki
        assert 0 <= member.mana <= sheet.mana and member.arcane_powder >= 0
    assert all(0 <= f.wounds < f.health for f in adv.figures)
    assert len({f.id for f in adv.figures}) == len(adv.figures)
    if state.pending is not None:
        (legal,) = legal_commands(state)
        assert legal.type == state.pending.prompt.answer_with


def play(seed: int, heroes: int, options: dict[str, Any]) -> tuple[Session, list[Command], list[Session]]:
    rnd = random.Random(seed)
    opts = RuleOptions(**{"dice": "server", "combat": "house", **options})
    state = replace(new_session(sample_heroes(heroes), options=opts, seed=seed), pack=pack.register())
    state = apply(state, StartAdventure("h1", track="fortress")).state
    start, commands, states = state, [], []
    for _ in range(MAX_STEPS):
        if state.adventure is None:
            break
        if state.pending is not None:
            command = answer(rnd, state.pending.prompt)
        else:
            command = spend(rnd, state) or next_command(state)
        try:
            outcome = apply(state, command)
        except RulesError:
            assert isinstance(command, (CastSpell, RingBell, UseTactic)), command
            continue
        check(outcome.state)
        commands.append(command)
        states.append(outcome.state)
        state = outcome.state
    assert state.adventure is None, "the Adventure did not end"
    return start, commands, states


@SETTINGS
@given(seed=st.integers(0, 2**32), heroes=st.integers(1, 4), rerolls=st.booleans(),
       ties=st.sampled_from(("heroes_first", "enemies_first")), dice=st.sampled_from(("server", "table")))  # fmt: skip
def test_adventures_keep_every_value_in_bounds_and_always_end(seed: int, heroes: int, rerolls: bool, ties: str,
                                                              dice: str) -> None:  # fmt: skip
    play(seed, heroes, {"offer_grit_rerolls": rerolls, "initiative_ties": ties, "dice": dice})


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_the_same_commands_replay_to_the_same_states(seed: int) -> None:
    start, commands, states = play(seed, 3, {})
    state = start
    for command, expected in zip(commands, states, strict=True):
        state = apply(state, command).state
        assert state == expected


@SETTINGS
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60), garbage=st.lists(GARBAGE, min_size=1, max_size=25))
def test_garbage_in_an_adventure_raises_only_rules_errors(seed: int, steps: int, garbage: list[Any]) -> None:
    """Any JSON thrown at a table mid-Adventure (a Fight on, a prompt perhaps waiting) is refused with a RulesError
    naming a field, or accepted keeping every bound; the state given is never changed."""
    start, commands, states = play(seed, 2, {"dice": "table"})
    state = states[min(steps, len(states) - 1)] if states else start
    for data in garbage:
        before = encode_state(state)
        try:
            outcome = apply(state, decode_command(data))
        except RulesError:
            pass
        else:
            check(outcome.state)
        assert encode_state(state) == before
