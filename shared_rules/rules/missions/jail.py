"""Mission 4, Jail Break (FT-M4-01..09): the Bandits blow the Sheriff's Office wall; hold them off until none are
left to come while the Prisoner runs for a Horse and Entry B.

The Darkness marker counts the Bandits remaining (A2): it starts on 5, 8 or 11 by posse size, a kill moves it back
toward Darkness Start, a failed Hold Back the Darkness or an unplaceable Bandit toward the Mine Entrance; its marked
spaces do nothing. The Prisoner, the Dynamite, the Horses and the 3 Bandits stand on the board's `jail_cell`,
`jail_wall_outside`, `jail_break_horses` and `jail_break_bandits` spaces (the diagram is not in the text, (b) 12).
"""

from __future__ import annotations

from ...dice import DieKind
from ...errors import IllegalCommand
from ...events import Fact
from ...flow import Ctx, Steps
from ...frozen import replace
from ...prompts import Asks, Option, Says
from ...state import Figure, Place, Session, Side, TrackSpace
from ..adventure import Ending, register
from ..adventure.board_models import board_pos
from ..adventure.common import adventure, party_ids, put, put_figure, set_counter, update
from ..adventure.depth import move_darkness
from ..adventure.fight import add_figures
from ..board import random_building, shortest_path
from .common import (
    BANDIT,
    TownMission,
    bandit,
    bandits_on_board,
    board_of,
    each_hero_d6_times,
    free_squares,
    ground,
    mission_said,
    no_town,
    place_heroes,
    reinforce,
    walk,
)

SHERIFF = 5
PRISONER = "prisoner"
ENTRIES = {1: "A", 2: "B", 3: "C", 4: "D", 5: "roof", 6: "roof"}  # FT-M4-02


def darkness_start(heroes: int) -> int:
    """FT-M4-06: the Darkness marker starts on space 5 (1-2 Heroes), 8 (3-4) or 11 (5-6)."""
    return 5 if heroes <= 2 else 8 if heroes <= 4 else 11


class JailBreak(TownMission):
    key = "jail_break"
    title = "Jail Break"
    set_up = (  # its Set Up
        "Building 5 is the Sheriff's Office: the Prisoner in its numbered corner space, 2 Dynamite "
        "tokens outside that wall; 3 Horses and 3 Bandits at the centre of Town; each Hero starts in a Random "
        "Building (Law Heroes in the Sheriff's Office), not touching a Door or Window"
    )

    def setup(self, ctx: Ctx) -> Steps[None]:
        board = board_of(ctx.state)
        adv = adventure(ctx)
        start = darkness_start(len(party_ids(ctx.state)))
        if adv.track.entrance <= start:
            raise IllegalCommand(f"layout: Jail Break puts the Darkness on space {start}; this Depth Track's Entrance is "
                                 f"space {adv.track.entrance} (FT-M4-06)", field="layout", rule="FT-M4-06")  # fmt: skip
        update(ctx, darkness=start)
        ctx.emit("mission", f"The Darkness marker starts on space {start}: the Bandits remaining (the Posse marker is "
                 "not used)", rule="FT-M4-06", reason="darkness_starts", number=start)  # fmt: skip
        near_openings = set()
        for a, b in (*board.doors, *board.windows):
            near_openings |= {a, b}
        spots: dict[str, Place] = {}
        used: list[tuple[int, int]] = []
        for hero in party_ids(ctx.state):  # FT-M4-01, A18: Law Heroes (not Wanted) start in the Sheriff's Office
            if ctx.hero(hero).has_keyword("law"):
                number = SHERIFF
            else:
                number = yield from random_building(ctx, f"{ctx.name(hero)}'s starting Building",
                                                    (("reason", "start"), ("name", ctx.name(hero))))  # fmt: skip
            cells = [board.xy(c) for c in board.buildings[number]]
            quiet = [c for c in cells if c not in near_openings and c not in board.spaces["jail_cell"]]
            square = free_squares(board, ctx.state, quiet or cells, 1, also_taken=used)[0]
            used.append(square)
            spots[hero] = ground(board, square)
        place_heroes(ctx, spots)
        cell = board.spaces["jail_cell"][0]
        horses = board.spaces["jail_break_horses"]
        figures = [Figure(PRISONER, "the Prisoner", Side.NEUTRAL, 1, kind=PRISONER, place=ground(board, cell))]
        figures += [Figure(f"horse-{n + 1}", "Horse", Side.NEUTRAL, 1, kind="horse", place=ground(board, horses[2 * n]))
                    for n in range(len(horses) // 2)]  # fmt: skip
        yield from add_figures(ctx, figures, rule="FT-M4-01")
        bandits = [bandit(ctx.state, f"bandit-{n + 1}", ground(board, s))
                   for n, s in enumerate(board.spaces["jail_break_bandits"][:3])]  # fmt: skip
        yield from add_figures(ctx, bandits, rule="FT-M4-01")
        set_counter(ctx, "dynamite", 2)
        ctx.emit("mission", "2 Dynamite tokens burn by the Sheriff's Office wall, beside the Prisoner", rule="FT-M4-03",
                 reason="dynamite_set", count=2)  # fmt: skip

    def blocked(self, state: Session) -> tuple[tuple[int, int], ...]:
        """Each Horse covers 2 spaces and blocks movement (FT-M4-05)."""
        adv = state.adventure
        assert adv is not None
        horses = board_of(state).spaces["jail_break_horses"]
        here = {f.id for f in adv.figures if f.kind == "horse"}
        return tuple(s for n in range(len(horses) // 2) if f"horse-{n + 1}" in here for s in horses[2 * n:2 * n + 2])

    # ---- the track ------------------------------------------------------------------------------------------
    def hbtd_target(self, state: Session) -> int | None:
        """FT-M4-07: 7+ while the Prisoner is in his cell, 8+ once Escaped; no roll once the Darkness is on
        Darkness Start."""
        adv = state.adventure
        assert adv is not None
        if adv.darkness <= 0:
            return None
        return 8 if adv.counter("escaped") else 7

    def darkness_entered(self, ctx: Ctx, space: TrackSpace) -> Steps[bool]:
        yield from ()
        return True  # FT-M4-06: Blood Spatter and Growing Dread spaces are ignored

    def killed(self, ctx: Ctx, figure: Figure, by: str) -> Steps[None]:
        if figure.kind == BANDIT and adventure(ctx).darkness > 0:  # FT-M4-06
            yield from move_darkness(ctx, -1, rule="FT-M4-06", why=f"{figure.name} killed: one Bandit fewer to come")
            if adventure(ctx).darkness == 0:
                ctx.emit("mission", "The Darkness is on Darkness Start: no more Bandits come; kill those left to win",
                         rule="FT-M4-08", reason="no_more_bandits")  # fmt: skip

    # ---- the End of the Turn (the heroes order them, A31) ---------------------------------------------------
    def end_of_turn_effects(self, state: Session) -> tuple[Option, ...]:
        adv = state.adventure
        assert adv is not None
        out = []
        if adv.darkness > 0:
            out.append(Option("reinforcements", "D3 Bandits arrive (D6 with none on the board)",
                              says=Says.REINFORCEMENTS))  # fmt: skip
        if adv.counter("dynamite"):
            out.append(Option("fuse", f"A Dynamite token burns away ({adv.counter('dynamite')} left)",
                              says=Says.FUSE, facts=(Fact("count", adv.counter("dynamite")),)))  # fmt: skip
        if adv.counter("escaped") and PRISONER in {f.id for f in adv.figures}:
            out.append(Option("prisoner", "The Escaped Prisoner moves", says=Says.PRISONER_MOVES))
        return tuple(out)

    def end_of_turn(self, ctx: Ctx, key: str) -> Steps[None]:
        if key == "reinforcements":
            none = not bandits_on_board(ctx.state)
            count = yield from (ctx.d6 if none else ctx.d3)("how many Bandits arrive", rule="FT-M4-02",
                                                            asks=Asks.MISSION_ROLL,
                                                            said=mission_said(ctx, "reinforcements"))  # fmt: skip
            yield from reinforce(ctx, count, ENTRIES, rule="FT-M4-02")
        elif key == "fuse":
            left = adventure(ctx).counter("dynamite") - 1
            set_counter(ctx, "dynamite", left)
            if left:
                ctx.emit("mission", f"A Dynamite token is removed ({left} left)", rule="FT-M4-03", reason="fuse",
                         count=left)  # fmt: skip
            else:
                set_counter(ctx, "escaped", 1)
                ctx.emit("mission", "The last Dynamite token: the wall explodes and the Prisoner is Escaped",
                         rule="FT-M4-03", reason="wall_explodes")  # fmt: skip
        elif key == "prisoner":
            yield from self._prisoner(ctx)

    def _prisoner(self, ctx: Ctx) -> Steps[None]:
        """FT-M4-04/05: [P] spaces through the hole to a Horse (through models); mounted, 2D6 toward Entry B."""
        board = board_of(ctx.state)
        if adventure(ctx).counter("mounted"):
            roll = yield from ctx.roll(DieKind.TWO_D6, "the Prisoner rides for Entry B", chart=True, rule="FT-M4-04",
                                       asks=Asks.MISSION_ROLL,
                                       said=mission_said(ctx, "prisoner_rides", ("where", "entry:B")))  # fmt: skip
            moved, gone = walk(ctx, PRISONER, board.entry_areas["B"].spaces, roll.value, exit_at="B")
            if gone:
                set_counter(ctx, "got_away", 1)
                ctx.emit("mission", "The Prisoner rides off the board at Entry B: he got away", rule="FT-M4-05",
                         reason="prisoner_gone", where="entry:B")  # fmt: skip
            else:
                ctx.emit("mission", f"The Prisoner rides {moved} space(s) toward Entry B", rule="FT-M4-04",
                         reason="prisoner_rides", count=moved, where="entry:B")  # fmt: skip
            return
        peril = yield from ctx.roll(DieKind.PERIL, "the Escaped Prisoner runs (Peril Die)", chart=True, rule="FT-M4-04",
                                    asks=Asks.MISSION_ROLL, said=mission_said(ctx, "prisoner_runs"))  # fmt: skip
        prisoner = adventure(ctx).figure(PRISONER)
        steps = peril.value
        cell = board.spaces["jail_cell"][0]
        if prisoner.place is not None and (prisoner.place.x, prisoner.place.y) == cell:
            hole = board.spaces["jail_wall_outside"][0]  # through the hole in the wall
            put_figure(ctx, replace(prisoner, place=ground(board, hole)))
            steps -= 1
        horses = {s: f"horse-{n // 2 + 1}" for n, s in enumerate(board.spaces["jail_break_horses"])
                  if f"horse-{n // 2 + 1}" in {f.id for f in adventure(ctx).figures}}  # fmt: skip
        pos = board_pos(adventure(ctx).figure(PRISONER).place)
        assert pos is not None
        path = shortest_path(board, pos, list(horses))
        if path is None:
            return
        if steps >= len(path) - 1:
            end = path[-1]
            horse = horses[end]
            adv = adventure(ctx)
            put(ctx, replace(adv, figures=tuple(f for f in adv.figures if f.id != horse)))
            put_figure(ctx, replace(adventure(ctx).figure(PRISONER), place=ground(board, end)))
            set_counter(ctx, "mounted", 1)
            ctx.emit("mission", f"The Prisoner reaches {horse} and mounts", rule="FT-M4-04", reason="prisoner_mounts",
                     number=int(horse.rsplit("-", 1)[-1]))  # fmt: skip

        elif steps > 0:
            put_figure(ctx, replace(adventure(ctx).figure(PRISONER), place=ground(board, path[steps])))
            ctx.emit("mission", f"The Escaped Prisoner runs {peril.value} space(s) for a Horse", rule="FT-M4-04",
                     reason="prisoner_runs_horse", count=peril.value)  # fmt: skip


    # ---- the end --------------------------------------------------------------------------------------------
    def check_end(self, state: Session) -> Ending | None:
        adv = state.adventure
        assert adv is not None
        if adv.counter("got_away"):
            return Ending(False, "got_away", "FT-M4-08", "The Prisoner gets away at Entry B: the Mission is failed")
        if adv.darkness <= 0 and not bandits_on_board(state):
            return Ending(True, "bandits_defeated", "FT-M4-08",
                          "No Bandit is left to come and none stands: the Jail Break is foiled")  # fmt: skip
        return None

    def reward(self, ctx: Ctx) -> Steps[None]:
        for hero in party_ids(ctx.state):
            ctx.change(hero, "xp", 25, rule="FT-M4-09", why="the Jail Break foiled")
        yield from each_hero_d6_times(ctx, "gold", 50, rule="FT-M4-09", why="the Jail Break foiled")

    def failure(self, ctx: Ctx, ending: Ending) -> Steps[None]:
        ctx.carry("FT-M4-09", "The next Adventure adds 1 Growing Dread card at its start", reason="dread_next", count=1,
                  growing_dread_next=1)  # fmt: skip

        no_town(ctx, "FT-M4-09")
        yield from ()


JAIL_BREAK = register(JailBreak())
