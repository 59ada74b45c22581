"""Play an Adventure's turn loop with a policy, through the engine's rules exactly as a table would, for simulations and
odds: "the chance the Darkness escapes within N turns" for a posse and a Depth Track layout.

A plain table plays (`next_command`): the Old Lantern holder rolls Hold Back the Darkness; heroes activate in
Initiative order; in a Fight each hero attacks the enemy with the least Health left (the house combat procedure,
option `combat` "house"), each enemy strikes the standing hero with the least Health left; out of a Fight the first
hero to activate each turn Looks Through a Door and the others Scavenge while they may; tokens are revealed from the
pack's stack (or `token`). In a Town Mission the Bandits play themselves (`activate_bandits`). Prompts are answered by `default_policy`; the session RNG rolls every die. Pure: no I/O.

    run = play_adventure(start_adventure_state, max_turns=20)
    odds = darkness_odds(sample_heroes(4), layout, turns=10, trials=500, sheets=sample_sheets(4))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..commands import (
    Activate,
    ActivateBandits,
    ActivateEnemy,
    Attack,
    Command,
    EndActivation,
    EnemyStrike,
    HoldBackTheDarkness,
    RevealToken,
    Search,
    SheetEntry,
    StartAdventure,
)
from ..content import pack
from ..dice import seed_state
from ..engine import apply, autoplay, new_session
from ..events import EventType
from ..flow import Ctx, Policy
from ..frozen import evolve, replace
from ..rules.adventure import mission_of, up_next
from ..rules.adventure.explore import hero_tile
from ..rules.adventure.turn import to_reveal
from ..simulate import default_policy, trial_seed
from ..state import ExplorationToken, Hero, RuleOptions, Session, TrackSpace, TurnStep

PLAIN_TOKEN = ExplorationToken(doors=1)  # what `next_command` reveals when the pack has no tokens: a quiet room


@dataclass(frozen=True, slots=True)
class AdventureRun:
    """One Adventure played: the last state, the turns begun, and how it ended (None: still under way)."""

    state: Session
    turns: int
    ending: str | None
    won: bool
    escaped_on: int | None  # the turn the Darkness escaped (FF-DEPTH-09)


def next_command(state: Session, *, token: ExplorationToken = PLAIN_TOKEN) -> Command:
    """What a plain table does next in the Adventure (see the module docstring)."""
    adv = state.adventure
    assert adv is not None
    if adv.step is TurnStep.START:
        return _made(HoldBackTheDarkness)
    if adv.step is TurnStep.EXPLORATION:
        return _made(RevealToken, to_reveal(state)[0], None if pack(state.pack).adventure.exploration_tokens else token)
    act = adv.activation
    heroes = [m.id for m in adv.heroes]
    if act is None:
        figure = up_next(state)[0]
        if figure in heroes:
            return _made(Activate, figure)
        if adv.figure(figure).kind == "bandit" and mission_of(state).board == "town":
            return _made(ActivateBandits)  # the Bandits' Shootout AI (or a Mission's Bandits) plays them
        targets = [h for h in heroes if not state.hero(h).knocked_out]
        target = min(targets, key=lambda h: (state.hero(h).health_left, heroes.index(h)))
        return _made(ActivateEnemy, figure, None, _strikes(target))
    hero = act.figure
    on_board = [f for f in adv.enemies if f.place is None or not f.place.tile.startswith("entry:")]  # FT-M5-06
    if adv.in_fight and on_board:
        enemy = min(on_board, key=lambda f: (f.health_left, f.id))
        return _made(Attack, hero, enemy.id)
    place = hero_tile(state, hero)
    blocked = any(t.face_down and place.on(t.id) for t in adv.tiles)
    mission = mission_of(state)
    if not blocked and mission.board == "fortress" and not [h for h in adv.activated if h in heroes]:
        return _made(Search, hero, "door")
    limit = mission.scavenge_limit(state)
    tiles = {t.id: t for t in adv.tiles}
    tile = tiles.get(place.tile)
    if not blocked and tile is not None and limit != 0 and (limit is None or tile.scavenged < limit):
        return _made(Search, hero, "scavenge")
    return _made(EndActivation, hero)


@lru_cache(maxsize=4096)
def _made(kind: Callable[..., Command], *args: Any) -> Command:
    """`kind(*args)`, made once: commands are frozen values, and a bulk run sends the same few (Activate h1, Search
    h2 "door" ...) thousands of times."""
    return kind(*args)


@lru_cache(maxsize=256)
def _strikes(target: str) -> tuple[EnemyStrike, ...]:
    return (EnemyStrike(target),)


ENDED = frozenset({EventType.ADVENTURE_ENDED.value})  # the one event a quiet run keeps: how the Adventure ended


def play_adventure(state: Session, *, policy: Policy = default_policy, max_turns: int = 30, quiet: bool = True,
                   token: ExplorationToken = PLAIN_TOKEN,
                   choose: Callable[[Session], Command] | None = None) -> AdventureRun:  # fmt: skip
    """Play from an Adventure under way until it ends or turn `max_turns` is over; every prompt goes to `policy`.

    The commands run on one autoplay context (`engine.autoplay`), as a bulk journey's do: the same rules and dice
    as through `apply()`, without an Outcome, a pending record and a copy of the state per command (a quiet run
    keeps only the event that says how the Adventure ended)."""
    escaped_on = None
    turn = state.adventure.turn if state.adventure is not None else 0
    reason: str | None = None
    won = False
    ctx = Ctx(state, state.rng, quiet=quiet, keep=ENDED)
    commands = 0
    rng_first = policy is default_policy  # which answers no roll and no draw: the RNG is asked first
    while (adventure := ctx.state.adventure) is not None and adventure.turn <= max_turns:
        turn = adventure.turn
        command = choose(ctx.state) if choose is not None else next_command(ctx.state, token=token)
        # a decision the policy leaves is a RuntimeError: a prompt here is a bug
        autoplay(ctx, command, policy, rng_first=rng_first)
        commands += 1
        for event in ctx.events:
            if event.type is EventType.ADVENTURE_ENDED and event.changes:
                reason = str(event.changes[0].after)
                won = bool(event.changes[1].after)
                escaped_on = turn if reason == "darkness" else None
        ctx.events.clear()
    state = evolve(ctx.state, {"rng": ctx.rng, "step": state.step + commands})
    turns = state.adventure.turn if state.adventure is not None else turn
    return AdventureRun(state, turns, reason, won, escaped_on)


def start(heroes: Sequence[Hero], *, lantern: str | None = None, mission: str = "lost_contact", track: str = "",
          layout: Sequence[TrackSpace] = (), sheets: Sequence[SheetEntry] = (), seed: int = 0,
          options: RuleOptions | None = None, pack_name: str = "default") -> Session:  # fmt: skip
    """A session with an Adventure set up, its dice rolled by the RNG (dice "server", combat "house")."""
    opts = replace(options or RuleOptions(), dice="server", combat="house")
    state = new_session(tuple(heroes), options=opts, seed=seed, pack=pack_name)
    command = StartAdventure(lantern or heroes[0].id, mission, track, tuple(layout), tuple(sheets))
    outcome = apply(state, command, policy=default_policy, quiet=True)
    return outcome.state


def darkness_odds(heroes: Sequence[Hero], *, turns: int, trials: int, seed: int = 0, track: str = "",
                  layout: Sequence[TrackSpace] = (), sheets: Sequence[SheetEntry] = (), mission: str = "lost_contact",
                  pack_name: str = "default", options: RuleOptions | None = None) -> dict[str, Any]:  # fmt: skip
    """The chance the Darkness escapes within `turns` turns (FF-DEPTH-09), from `trials` Adventures played by
    `next_command` and `default_policy`; also how the others ended and the turn each escape came."""
    if turns < 1 or trials < 1:
        raise ValueError(f"turns and trials must be >= 1, got turns={turns}, trials={trials}")
    base = start(heroes, mission=mission, track=track, layout=layout, sheets=sheets, options=options,
                 pack_name=pack_name)  # fmt: skip
    escapes: dict[int, int] = {}
    endings: dict[str, int] = {}
    for index in range(trials):
        first = start(heroes, mission=mission, track=track, layout=layout, sheets=sheets, options=options,
                      pack_name=pack_name, seed=trial_seed(seed, index)) if index else replace(
            base, rng=seed_state(trial_seed(seed, 0)))  # fmt: skip
        run = play_adventure(first, max_turns=turns)
        key = run.ending or "under_way"
        endings[key] = endings.get(key, 0) + 1
        if run.escaped_on is not None:
            escapes[run.escaped_on] = escapes.get(run.escaped_on, 0) + 1
    escaped = sum(escapes.values())
    return {"trials": trials, "turns": turns, "escaped": escaped, "escaped_within": escaped / trials,
            "escape_turns": dict(sorted(escapes.items())), "endings": dict(sorted(endings.items()))}
