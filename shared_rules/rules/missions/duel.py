"""Mission 6, High Noon Duel (FT-M6-01..06): one Hero (the Old Lantern holder) against one Bandit in the middle
of the street, 5 spaces apart, the Buildings locked. No Hold Back the Darkness, no Fleeing; each turn both add a
D6 to their Initiative; on turn 1 nobody moves ("Draw!"). The opponent's Health and Damage are multiplied by the
Hero's Level (x2 at Level 1); which Elite or Brutal abilities it has at each Level is not in the rulebooks (A52):
the table applies them from its Record Sheet.
"""

from __future__ import annotations

from ...errors import IllegalCommand
from ...flow import Ctx, Steps
from ...frozen import replace
from ...prompts import Asks
from ...state import Session
from ..adventure import Ending, register
from ..adventure.common import adventure, party_ids, put, set_counter
from ..adventure.fight import add_figures
from .common import TownMission, bandit, bandits_on_board, board_of, ground, mission_said, place_heroes, shootout

OPPONENT = "bandit-1"


class HighNoonDuel(TownMission):
    key = "high_noon_duel"
    title = "High Noon Duel"
    set_up = (  # its Set Up
        "a Solo Mission: the Hero and 1 Bandit in the centre of the street, 5 spaces apart"
    )
    may_flee = False  # FT-M6-02

    def playing(self, heroes: list[str], lantern: str) -> list[str]:
        """A Solo Mission: only the duelist (the Old Lantern holder) plays, so the scaling counts one Hero (R-MIS-16)."""
        return [lantern]

    def setup(self, ctx: Ctx) -> Steps[None]:
        adv = adventure(ctx)
        hero = adv.lantern  # the Random Hero of the Mission table (FT-MIS-00) holds the Old Lantern
        others = [m.id for m in adv.heroes if m.id != hero]
        put(ctx, replace(adv, heroes=tuple(m for m in adv.heroes if m.id == hero)))
        if others:
            ctx.emit("mission", f"{ctx.name(hero)} duels alone; {', '.join(ctx.name(o) for o in others)} watch",
                     hero=hero, rule="FT-M6-01", reason="duels_alone",
                     name=", ".join(ctx.name(o) for o in others))  # fmt: skip
        board = board_of(ctx.state)
        place_heroes(ctx, {hero: ground(board, board.spaces["duel_hero"][0])})
        level = ctx.hero(hero).level
        times = 2 if level <= 1 else level  # FT-M6-05
        opponent = bandit(ctx.state, OPPONENT, ground(board, board.spaces["duel_bandit"][0]), name="the Duelist", numbered=False,
                          health_times=times, damage_times=times)  # fmt: skip
        yield from add_figures(ctx, [opponent], rule="FT-M6-01")
        ctx.emit("mission", f"The opponent: Bandit sheet, Health and Damage x{times} (Level {level}); Elite/Brutal "
                 "by Level as the table decides (A52)", rule="FT-M6-05", reason="opponent", count=times,
                 value=level)  # fmt: skip

        yield from self.start_of_turn(ctx)

    def hbtd_target(self, state: Session) -> int | None:
        return None  # FT-M6-02: no Hold Back the Darkness

    def start_of_turn(self, ctx: Ctx) -> Steps[None]:
        """FT-M6-03: the Hero and the opponent each add a D6 to their Initiative this turn."""
        hero = party_ids(ctx.state)[0]
        mine = yield from ctx.d6(f"{ctx.name(hero)}'s Initiative this turn (+D6)", hero=hero, rule="FT-M6-03",
                                 asks=Asks.MISSION_ROLL, said=mission_said(ctx, "initiative"))  # fmt: skip
        theirs = yield from ctx.d6("the opponent's Initiative this turn (+D6)", rule="FT-M6-03",
                                   asks=Asks.MISSION_ROLL, said=mission_said(ctx, "opponent_initiative"))  # fmt: skip
        set_counter(ctx, "hero_initiative", mine)
        set_counter(ctx, "opponent_initiative", theirs)

    def initiative(self, state: Session, figure_id: str, base: int) -> int:
        adv = state.adventure
        assert adv is not None
        bonus = adv.counter("opponent_initiative") if figure_id == OPPONENT else adv.counter("hero_initiative")
        return base + bonus

    def check_move(self, state: Session, hero_id: str, command: object) -> None:
        adv = state.adventure
        assert adv is not None
        if adv.turn == 1:
            raise IllegalCommand("spaces: \"Draw!\": no model moves on turn 1 (the Move roll is still made, a 1 "
                                 "Recovers Grit) (FT-M6-04)", field="spaces", rule="FT-M6-04")  # fmt: skip
        to = getattr(command, "to", None)
        if to is not None and to.tile.startswith("building-"):
            raise IllegalCommand("to: the Buildings are locked in a Duel (FT-M6-01)", field="to", rule="FT-M6-01")
        super().check_move(state, hero_id, command)

    def bandits_act(self, ctx: Ctx, ids: list[str], corrections: dict[str, str]) -> Steps[None]:
        if adventure(ctx).turn == 1:  # FT-M6-04: no model moves on turn 1; the opponent still shoots if it can
            yield from shootout(ctx, ids, corrections, still=True)
            return
        yield from super().bandits_act(ctx, ids, corrections)

    def check_end(self, state: Session) -> Ending | None:
        if not bandits_on_board(state):
            return Ending(True, "opponent_defeated", "FT-M6-06", "The opponent falls: the Duel is won")
        return None

    def reward(self, ctx: Ctx) -> Steps[None]:
        hero = party_ids(ctx.state)[0]
        level = ctx.hero(hero).level
        ctx.change(hero, "xp", 25 * level, rule="FT-M6-06", why="the High Noon Duel won")
        yield from ()

    def failure(self, ctx: Ctx, ending: Ending) -> Steps[None]:
        ctx.carry("FT-M6-06", "The next Adventure begins with no Grit", reason="no_grit", no_grit_next_adventure=True)

        yield from ()


HIGH_NOON_DUEL = register(HighNoonDuel())
