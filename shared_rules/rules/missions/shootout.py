"""Mission 1, Shootout in the Streets (FT-M1-01..08): defeat the Bandits while reinforcements keep coming until
the assault is broken.

The Posse marker counts kills down the track (1 step, 2 with 1-2 Heroes); a Hold Back the Darkness total strictly
higher than its space breaks the assault (A3); then the Heroes kill the rest to win.
"""

from __future__ import annotations

from ...dice import Roll
from ...flow import Ctx, Steps
from ...prompts import Asks
from ...state import Figure, Session, Side, SpaceMark, TrackSpace
from ..adventure import Ending, register
from ..adventure.board_models import board_pos
from ..adventure.common import adventure, party_ids, set_counter
from ..adventure.fight import add_figures
from ..board import entry_front, has_cover, in_range
from .common import (
    BANDIT,
    TownMission,
    bandit,
    bandits_on_board,
    board_of,
    broken,
    each_hero_d6_times,
    free_squares,
    ground,
    kill_track,
    mission_said,
    no_town,
    place_heroes,
    reinforce,
    shoot,
    weapon,
)

ENTRIES = {1: "C", 2: "D", 3: "A", 4: "roof", 5: "roof", 6: "roof"}  # FT-M1-04


class Shootout(TownMission):
    key = "shootout_in_the_streets"
    title = "Shootout in the Streets"
    set_up = (  # its Set Up
        "the Heroes start at Entry Area B (its three spaces or the three in front of it); "
        "3 Bandits at Entry Area D"
    )

    def setup(self, ctx: Ctx) -> Steps[None]:
        """FT-M1-01: the Heroes at Entry B (its 3 spaces or the 3 in front), 3 Bandits at Entry D."""
        board = board_of(ctx.state)
        area = board.entry_areas["B"].spaces
        squares = [*area, *entry_front(board, "B")]
        place_heroes(ctx, {h: ground(board, s) for h, s in zip(party_ids(ctx.state), squares, strict=False)})
        spots = free_squares(board, ctx.state, board.entry_areas["D"].spaces, 3)
        figures = [bandit(ctx.state, f"bandit-{n + 1}", ground(board, s)) for n, s in enumerate(spots)]
        yield from _arrive(ctx, figures, "FT-M1-01")

    # ---- the track ------------------------------------------------------------------------------------------
    def resolve_hbtd(self, ctx: Ctx, roll: Roll, target: int) -> Steps[bool]:
        """The break check on the total (strictly higher, A3; on doubles too, A4); the Darkness moves as normal."""
        if not adventure(ctx).counter("broken"):
            broken(ctx, roll, strict=True, rule="FT-M1-06",
                   what="the assault is broken: no more reinforcements, kill every Bandit left to win")  # fmt: skip
        yield from ()
        return False

    def after_hbtd(self, ctx: Ctx, roll: Roll | None) -> Steps[None]:
        """FT-M1-03/04: D3 new Bandits (D6 with none on the board), each entering by a D6; they act this turn."""
        if adventure(ctx).counter("broken"):
            return
        none = not bandits_on_board(ctx.state)
        count = yield from (ctx.d6 if none else ctx.d3)("how many Bandits reinforce" + (" (none on the board)"
                                                                                       if none else ""), rule="FT-M1-03",
                                                        asks=Asks.MISSION_ROLL,
                                                        said=mission_said(ctx, "reinforcements"))  # fmt: skip
        per = 2 if len(party_ids(ctx.state)) >= 5 else 1  # FT-M1-05
        yield from reinforce(ctx, count, ENTRIES, rule="FT-M1-04", darkness_each=per)

    def darkness_entered(self, ctx: Ctx, space: TrackSpace) -> Steps[bool]:
        """FT-M1-07: no cards; Blood Spatter: every Rooftop Bandit shoots now (or D3 Bandits climb Random Rooftops);
        Growing Dread: the Bandits gain an Elite ability (the table picks it from the Record Sheet)."""
        if space.mark is SpaceMark.BLOOD_SPATTER:
            up = [f for f in bandits_on_board(ctx.state) if f.place is not None and f.place.tile.startswith("roof:")]
            if up:
                for figure in up:
                    yield from _free_shot(ctx, figure)
            else:
                count = yield from ctx.d3("Blood Spatter: Bandits on Random Rooftops", rule="FT-M1-07",
                                          asks=Asks.MISSION_ROLL, said=mission_said(ctx, "rooftop_bandits"))  # fmt: skip
                yield from reinforce(ctx, count, {n: "roof" for n in range(1, 7)}, rule="FT-M1-07",
                                     darkness_each=2 if len(party_ids(ctx.state)) >= 5 else 1)  # fmt: skip
        else:
            elite = adventure(ctx).counter("elite") + 1
            set_counter(ctx, "elite", elite)
            ctx.emit("mission", f"Growing Dread: every Bandit gains an Elite ability from the Record Sheet for the rest "
                     f"of the game ({elite} so far)", rule="FT-M1-07", reason="elite", count=elite)  # fmt: skip
        return True

    def killed(self, ctx: Ctx, figure: Figure, by: str) -> Steps[None]:
        """FT-M1-06: each Bandit killed moves the Posse marker 1 step, 2 with 1-2 Heroes."""
        if figure.kind == BANDIT:
            set_counter(ctx, "kills", adventure(ctx).counter("kills") + 1)
            kill_track(ctx, 2 if len(party_ids(ctx.state)) <= 2 else 1, rule="FT-M1-06", why=f"{figure.name} killed")
        yield from ()

    def check_end(self, state: Session) -> Ending | None:
        adv = state.adventure
        assert adv is not None
        if adv.counter("broken") and not any(f.side is Side.ENEMY for f in adv.figures):
            return Ending(True, "bandits_defeated", "FT-M1-02",
                          "The assault is broken and every Bandit is defeated: the Shootout is won")  # fmt: skip
        return None

    def reward(self, ctx: Ctx) -> Steps[None]:
        for hero in party_ids(ctx.state):  # FT-M1-08
            ctx.change(hero, "xp", 50, rule="FT-M1-08", why="Shootout in the Streets won")
            ctx.change(hero, "gold", 100, rule="FT-M1-08", why="Shootout in the Streets won")
        yield from ()

    def failure(self, ctx: Ctx, ending: Ending) -> Steps[None]:
        yield from each_hero_d6_times(ctx, "gold", 50, rule="FT-M1-08", why="the Shootout is lost", sign=-1)
        no_town(ctx, "FT-M1-08")


def _arrive(ctx: Ctx, figures: list[Figure], rule: str) -> Steps[None]:
    yield from add_figures(ctx, figures, rule=rule)


def _free_shot(ctx: Ctx, figure: Figure) -> Steps[None]:
    """A Rooftop Bandit's free Attack: a Random Hero in Range and Line of Sight of its Rifle."""
    board = board_of(ctx.state)
    pos = board_pos(figure.place)
    assert pos is not None
    pool = []
    for hero in party_ids(ctx.state):
        hp = board_pos(adventure(ctx).hero(hero).place)
        if hp is not None and not ctx.hero(hero).knocked_out and in_range(board, pos, hp, weapon(figure).range):
            pool.append((hero, ctx.name(hero)))
    if not pool:
        ctx.emit("mission", f"{figure.name} ({figure.id}) on {figure.place.tile if figure.place else ''} has no Hero "
                 "in Range and sight", rule="FT-M1-07", reason="no_hero_in_sight", figure=figure.name)  # fmt: skip

        return
    hero = yield from ctx.draw(f"Blood Spatter: {figure.id}'s target (a Random Hero in Range and sight)", pool,
                               rule="FT-M1-07", asks=Asks.TARGET_HERO,
                               said=(("figure", figure.id), ("reason", "in_sight")))  # fmt: skip
    hp = board_pos(adventure(ctx).hero(hero).place)
    assert hp is not None
    yield from shoot(ctx, figure, hero, in_cover=has_cover(board, hp, pos), rule="FT-M1-07")


SHOOTOUT = register(Shootout())
