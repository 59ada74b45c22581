"""Missions: ONE turn engine, many missions. A mission is a set of hooks the turn engine calls at fixed points.

The core Adventure (rules/adventure) runs the turn (FF-TURN-01): flee window, Hold Back the Darkness, activations
in Initiative order, Room Exploration, End of the Turn; the Depth Track; Searches; Fights; the end. A mission
changes it only through the hooks of `Mission` below, each with the core's behaviour as its default:

- its own set-up (`setup`, `starting_grit`), on the Fortress or the Town Adventure Board (`board`);
- its use of the Depth Track (`hbtd_target`, `resolve_hbtd`, `after_hbtd`, `darkness_entered`): Town Missions
  repurpose the markers, and `rules.adventure.depth.move_darkness` / `move_party` move them;
- reinforcements and other effects at turn points (`start_of_turn`, `after_hbtd`, `end_of_turn_effects` +
  `end_of_turn`, which the heroes order, FF-TURN-04);
- the board (`check_move`, `after_move`, `hero_attacked`, `scavenge_limit`, `initiative`), extra figures (Bandits, Townsfolk: `Figure`s with a
  `side` and a `place`, added with `rules.adventure.fight.add_figures`), kills (`figure_killed`), Clues
  (`token_revealed`), Fights (`enemies_arrived`, `fight_over`);
- win and loss checks (`check_end`) and the reward or failure (`finish`).

A mission keeps its numbers in `Adventure.counters` (`common.set_counter`). Register one with `register`; the
`mission` of `start_adventure` names it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final

from ...commands import EnemyStrike
from ...flow import Ctx, Steps
from ...prompts import Option
from ...state import ExplorationToken, Figure, MapTile, Session, TrackSpace
from .common import party_ids
from .strike import take_strike

if TYPE_CHECKING:
    from ...commands import Move
    from ...dice import Roll

FORTRESS, TOWN = "fortress", "town"


@dataclass(frozen=True, slots=True)
class Ending:
    """How an Adventure ends: won or failed, why (a short key), the rule, and words for the log."""

    won: bool
    reason: str
    rule: str
    text: str


class Mission:
    """The hooks of one mission; every default is the core rules' behaviour (so `Mission()` plays the core turn).

    Hooks that resolve rules are generators (`Steps`) run with `yield from` inside the command that reaches them,
    so they may roll, ask, and change the state through `ctx` like any rule.
    """

    key: ClassVar[str] = ""
    title: ClassVar[str] = ""
    board: ClassVar[str] = FORTRESS  # TOWN: no Exploration, fully lit, immediate Growing Dread (FT-BOARD-01)
    may_flee: ClassVar[bool] = True  # FF-END-04 (Town Overrun and the Duel say no)

    # ---- set-up ----------------------------------------------------------------------------------------------
    def setup(self, ctx: Ctx) -> Steps[None]:
        """After the core set-up (FF-SETUP-01): place the mission's figures, move markers, set counters."""
        yield from ()

    def set_up_text(self, ctx: Ctx, heroes: int, lantern: str, names: str, entrance: int) -> str:
        """What the set-up placed, for the `adventure_started` event: the Mines' Fortress set-up (FF-SETUP-01)."""
        return (f"{self.title}: {heroes} Hero(es); decks and the 12 Exploration Tokens shuffled; {lantern} carries the Old Lantern; the "
                f"Darkness on Darkness Start (space 0), the Hero Party on the Entrance (space {entrance}); the Entrance "
                f"tile placed; the Heroes placed on its Starting Area in Initiative order: {names}")  # fmt: skip

    def playing(self, heroes: list[str], lantern: str) -> list[str]:
        """The Heroes who play the Mission (every Hero; a Solo Mission's one): the scaling counts them (FF-SCALE-01)."""
        return heroes

    def scaling_text(self, threat: str, revive: int, playing: int) -> str:
        """The scaling of this Mission by Hero count (FF-SCALE-01: the Threat deck and the Revive Tokens)."""
        return f"{playing} Hero(es): {threat.capitalize()} Threats, {revive} Revive Token(s)"

    def scaling_threat(self, threat: str, playing: int) -> str:
        """The Threat level `scaling_text` names, as data (`low`, `med`, `high`); "" when the Mission draws none."""
        return threat


    def starting_grit(self, state: Session, hero_id: str) -> int:
        """Each hero starts with 1 Grit; 0 after a failure that says so (FF-GRIT-05, A6)."""
        return 0 if state.carry.no_grit_next_adventure else 1

    # ---- the Depth Track -------------------------------------------------------------------------------------
    def hbtd_target(self, state: Session) -> int | None:
        """What Hold Back the Darkness needs (the Stage of the Hero Party marker, FF-DEPTH-04); None: no roll."""
        adv = state.adventure
        assert adv is not None
        return adv.track.target(adv.party)

    def resolve_hbtd(self, ctx: Ctx, roll: Roll, target: int) -> Steps[bool]:
        """Resolve the roll the mission's way; False lets the core do it (doubles, hold, the Darkness moves)."""
        yield from ()
        return False

    def after_hbtd(self, ctx: Ctx, roll: Roll | None) -> Steps[None]:
        """Right after Hold Back the Darkness (Shootout reinforcements, Townsfolk movement)."""
        yield from ()

    def darkness_entered(self, ctx: Ctx, space: TrackSpace) -> Steps[bool]:
        """The Darkness entered a marked space; True when the mission's effect replaces the card (FF-DEPTH-07/08)."""
        yield from ()
        return False

    @property
    def depth_event_chart(self) -> str:
        """The chart Depth Events use (FF-DEPTH-05; the Town board has its own, FT-BOARD-01)."""
        return "town_depth_event" if self.board == TOWN else "depth_event"

    # ---- the turn --------------------------------------------------------------------------------------------
    def start_of_turn(self, ctx: Ctx) -> Steps[None]:
        """At the start of each turn after the first, before the flee window (a Prisoner on the run moves)."""
        yield from ()

    def enemy_strike(self, ctx: Ctx, figure: Figure, strike: EnemyStrike) -> Steps[None]:
        """Hits an enemy's activation lands on a hero (`activate_enemy`): saves and Damage (FF-HERO-04/05)."""
        yield from take_strike(ctx, figure, strike)

    def initiative(self, state: Session, figure_id: str, base: int) -> int:
        """A figure's Initiative this turn (the Duel adds a D6 the mission rolled at the start of the turn)."""
        return base

    def end_of_turn_effects(self, state: Session) -> tuple[Option, ...]:
        """The mission's End of the Turn effects this turn; the heroes choose their order (FF-TURN-04)."""
        return ()

    def end_of_turn(self, ctx: Ctx, key: str) -> Steps[None]:
        """Resolve one End of the Turn effect named by `end_of_turn_effects`."""
        yield from ()

    # ---- the board -------------------------------------------------------------------------------------------
    def check_move(self, state: Session, hero_id: str, command: Move) -> None:
        """Refuse a move the board forbids (IllegalCommand naming the field and rule); the Town board's geometry."""

    def after_move(self, ctx: Ctx, hero_id: str) -> Steps[None]:
        """A hero finished a Move (Hanging High's alert roll, picking up Money Bags)."""
        yield from ()

    def hero_attacked(self, ctx: Ctx, hero_id: str) -> Steps[None]:
        """A hero made an Attack (Hanging High: the Marshals are Alerted, the crowd scatters)."""
        yield from ()

    def scavenge_limit(self, state: Session) -> int | None:
        """Scavenges per Map Tile (FF-SCAV-02, FF-SCALE-02: 1/2/3 by posse size); 0: none (Town board, FT-SCAV-01);
        None: no limit (Town Overrun)."""
        if self.board == TOWN:
            return 0
        size = len(party_ids(state))
        return 1 if size <= 2 else 2 if size <= 4 else 3

    # ---- exploration and fights ------------------------------------------------------------------------------
    def token_revealed(self, ctx: Ctx, tile: MapTile, token: ExplorationToken) -> Steps[bool]:
        """A token with a Clue was revealed; True when it is the Objective: its Doors and Encounter/Attack are
        ignored (its Growing Dread still counts, FF-EXPL-06)."""
        yield from ()
        return False

    def enemies_arrived(self, ctx: Ctx, figures: tuple[Figure, ...]) -> Steps[None]:
        """Enemies were put on the board."""
        yield from ()

    def figure_killed(self, ctx: Ctx, figure: Figure, by: str) -> Steps[None]:
        """A figure was killed (by a hero's id, or "" for a card or event)."""
        yield from ()

    def fight_over(self, ctx: Ctx) -> Steps[None]:
        """No enemy is left on the board."""
        yield from ()

    # ---- the end ---------------------------------------------------------------------------------------------
    def check_end(self, state: Session) -> Ending | None:
        """The mission's own win or loss, checked after every step (the core checks the Darkness and all KO'd)."""
        return None

    def finish(self, ctx: Ctx, ending: Ending) -> Steps[None]:
        """The reward or the failure's cost (before the end of every Adventure: heal, Grit back to 1)."""
        yield from ()


MISSIONS: Final[dict[str, Mission]] = {}


def register(mission: Mission) -> Mission:
    """Make a mission playable by its key (`start_adventure` names it)."""
    if not mission.key:
        raise TypeError(f"{type(mission).__name__}: a mission needs a key")
    MISSIONS[mission.key] = mission
    return mission


def mission_of(state: Session) -> Mission:
    adv = state.adventure
    assert adv is not None
    return MISSIONS[adv.mission]
