"""Mission 3, Bank Robbery (FT-M3-01..10): stop the Robbers escaping from Building 7, the Bank.

The Robbers ignore the Shootout rules: each runs [P] spaces for its Escape Exit and fires after all have moved
(FT-M3-03/04); the Bandit inside the Bank shoots every Hero it can see from a Door or Window, then D3 new Robbers
come out of the Corner Door (FT-M3-05/06, A29/A30). Kills and Money Bags move the Posse marker; a Hold Back the
Darkness total at or above its space ends the robbery (A3). The Money Bags' printed numbers are not in the rulebooks
((b) 13): the table says what the flipped Bag shows.
"""

from __future__ import annotations

from ...dice import DieKind, Roll
from ...errors import IllegalCommand
from ...events import Fact
from ...flow import Ctx, Steps
from ...frozen import replace
from ...prompts import Asks, Option, Part, Says
from ...state import Figure, Place, Session, Side, SpaceMark, TrackSpace
from ..adventure import Ending, register
from ..adventure.board_models import board_pos
from ..adventure.common import adventure, member, party_ids, put, set_counter, standing
from ..adventure.depth import move_darkness
from ..adventure.fight import add_figures
from ..board import adjacent, has_cover, in_range, openings_of, random_building
from .common import (
    BANDIT,
    TownMission,
    bandit,
    bandits_on_board,
    board_of,
    broken,
    each_hero_d6_times,
    free_models,
    free_squares,
    ground,
    kill_track,
    mission_said,
    no_town,
    place_heroes,
    shoot,
    taken,
    walk,
)

BANK = 7
EXITS = ("A", "B", "C", "D")
BAGS = 8
HOSTAGES = 3
INSIDE = "bandit-1"  # the Bandit inside the Bank (one of the 6 models, replaced when killed, FT-M3-05)


def robber_bonus(heroes: int) -> tuple[int, int]:
    """FT-M3-02: (Health multiplier, extra Shots/Combat) by posse size."""
    return (1, 1) if heroes <= 2 else (2, 1) if heroes <= 4 else (3, 2)


class BankRobbery(TownMission):
    key = "bank_robbery"
    title = "Bank Robbery"
    set_up = (  # its Set Up
        "Building 7 is the Bank: 8 Money Bag markers, 3 Townsfolk markers and 1 Bandit in it; each "
        "Hero starts in a Random Building other than the Bank; Entry Areas A-D are the Bank Robbers' Escape "
        "Exits; Heroes may not enter the Bank"
    )

    def setup(self, ctx: Ctx) -> Steps[None]:
        board = board_of(ctx.state)
        spots: dict[str, Place] = {}
        used: list[tuple[int, int]] = []
        for hero in party_ids(ctx.state):  # FT-M3-01: a Random Building, never the Bank (re-roll a 7)
            number = BANK
            while number == BANK:
                number = yield from random_building(ctx, f"{ctx.name(hero)}'s starting Building (re-roll a 7)",
                                                    (("reason", "start_reroll"), ("name", ctx.name(hero)),
                                                     ("number", BANK)))  # fmt: skip
            square = free_squares(board, ctx.state, [board.xy(c) for c in board.buildings[number]], 1,
                                  also_taken=used)[0]  # fmt: skip
            used.append(square)
            spots[hero] = ground(board, square)
        place_heroes(ctx, spots)
        set_counter(ctx, "bags", BAGS)
        set_counter(ctx, "hostages", HOSTAGES)
        corner = board.spaces["bank_corner_door"][0]
        cells = [board.xy(c) for c in board.buildings[BANK] if board.xy(c) != corner]
        inside = free_squares(board, ctx.state, cells, 1)[0]
        yield from add_figures(ctx, [self._inside(ctx.state, ground(board, inside))], rule="FT-M3-01")
        ctx.emit("mission", "The Bank (Building 7): 8 Money Bags, 3 Hostages and a Bandit inside; Entries A-D are the "
                 "Escape Exits; Heroes may never enter the Bank", rule="FT-M3-01", reason="bank_set_up")  # fmt: skip

    def _inside(self, state: Session, place: Place) -> Figure:
        return bandit(state, INSIDE, place, name="the Bandit in the Bank", heading="bank", numbered=False)

    def _robber(self, state: Session, model: str, place: Place, exit_: str) -> Figure:
        times, extra = robber_bonus(len(party_ids(state)))
        figure = bandit(state, model, place, name="Bank Robber", health_times=times, heading=exit_)
        return replace(figure, combat=figure.combat + extra)

    def check_move(self, state: Session, hero_id: str, command: object) -> None:
        to = getattr(command, "to", None)
        if to is not None and to.tile == f"building-{BANK}":
            raise IllegalCommand("to: Heroes may never enter the Bank (FT-M3-01)", field="to", rule="FT-M3-01")
        super().check_move(state, hero_id, command)

    # ---- the track ------------------------------------------------------------------------------------------
    def resolve_hbtd(self, ctx: Ctx, roll: Roll, target: int) -> Steps[bool]:
        """FT-M3-08: a total at or above the Posse marker's space ends the Mission at once (before the Darkness
        would move); otherwise the roll holds back the Darkness as normal."""
        yield from ()
        return broken(ctx, roll, strict=False, rule="FT-M3-08", what="the Robbers give up: the Mission is completed")

    def darkness_entered(self, ctx: Ctx, space: TrackSpace) -> Steps[bool]:
        """FT-M3-09: no cards; a Hostage is killed instead."""
        left = max(0, adventure(ctx).counter("hostages") - 1)
        set_counter(ctx, "hostages", left)
        what = "Blood Spatter" if space.mark is SpaceMark.BLOOD_SPATTER else "Growing Dread"
        ctx.emit("mission", f"The Darkness reaches a {what} space: a Hostage is killed ({left} left)", rule="FT-M3-09",
                 reason="hostage_killed", count=left)  # fmt: skip
        yield from ()
        return True

    # ---- the Robbers' activation ----------------------------------------------------------------------------
    def bandits_act(self, ctx: Ctx, ids: list[str], corrections: dict[str, str]) -> Steps[None]:
        board = board_of(ctx.state)
        yield from self._bank_fires(ctx)
        if ctx.state.adventure is None:
            return
        count = yield from ctx.d3("how many new Bank Robbers come out", rule="FT-M3-06", asks=Asks.MISSION_ROLL,
                                  said=mission_said(ctx, "robbers"))  # fmt: skip
        new: list[str] = []
        corner = board.spaces["bank_corner_door"][0]
        for n in range(count):  # A29: each placed and moved at once
            models = free_models(ctx.state)
            if not models or corner in taken(ctx.state):
                ctx.emit("mission", f"Robber {n + 1} cannot be placed: the Darkness moves 1", rule="FT-M3-06",
                         reason="robber_not_placed", number=n + 1, count=1)  # fmt: skip
                yield from move_darkness(ctx, 1, rule="FT-M3-06", why="a Robber could not be placed")
                if ctx.state.adventure is None or adventure(ctx).escaped:
                    return
                continue
            exit_ = yield from ctx.draw(f"{models[0]}'s Escape Exit (a Random Exit)", [(e, f"Entry {e}") for e in EXITS],
                                        rule="FT-M3-06", asks=Asks.MISSION_DRAW,
                                        said=mission_said(ctx, "escape_exit", ("figure", models[0])))  # fmt: skip
            yield from add_figures(ctx, [self._robber(ctx.state, models[0], ground(board, corner), exit_)],
                                   rule="FT-M3-06")  # fmt: skip
            new.append(models[0])
            yield from self._run(ctx, models[0])
        for figure in [f for f in bandits_on_board(ctx.state) if f.id != INSIDE and f.id not in new]:
            yield from self._run(ctx, figure.id)
        yield from self._robbers_fire(ctx)

    def _bank_fires(self, ctx: Ctx) -> Steps[None]:
        """FT-M3-05, A30: one free Ranged Attack on every Hero in Range and sight of any Bank Door or Window."""
        adv = adventure(ctx)
        if INSIDE not in {f.id for f in adv.figures}:
            return
        board = board_of(ctx.state)
        openings = openings_of(board, BANK)
        for hero in standing(ctx.state):
            pos = board_pos(member(ctx, hero).place)
            if pos is None:
                continue
            for inside, _outside, kind in openings:
                frm = board_pos(Place("building-7", inside[0], inside[1]))
                assert frm is not None
                if in_range(board, frm, pos, 6) is not None:
                    ctx.emit("mission", f"The Bandit inside the Bank fires through the {kind} at ({inside[0]},"
                             f"{inside[1]}) at {ctx.name(hero)}", hero=hero, rule="FT-M3-05", reason="bank_fires",
                             where=kind, to=f"{inside[0]},{inside[1]}")  # fmt: skip
                    yield from shoot(ctx, adventure(ctx).figure(INSIDE), hero,
                                     in_cover=has_cover(board, pos, frm), rule="FT-M3-05")  # fmt: skip
                    break
            if ctx.state.adventure is None:
                return

    def _run(self, ctx: Ctx, figure_id: str) -> Steps[None]:
        """FT-M3-03: [P] spaces along the shortest route to its Exit, then off the board (the Darkness +2)."""
        figure = adventure(ctx).figure(figure_id)
        peril = yield from ctx.roll(DieKind.PERIL, f"{figure.id} runs for Entry {figure.heading} (Peril Die)",
                                    chart=True, rule="FT-M3-03", asks=Asks.MISSION_ROLL,
                                    said=mission_said(ctx, "robber_runs", ("figure", figure.id),
                                                      ("where", f"entry:{figure.heading}")))  # fmt: skip
        board = board_of(ctx.state)
        moved, gone = walk(ctx, figure_id, board.entry_areas[figure.heading].spaces, peril.value,
                           blocked=taken(ctx.state, but=[figure_id]), exit_at=figure.heading)  # fmt: skip
        if gone:
            ctx.emit("mission", f"{figure.name} ({figure.id}) escapes at Entry {figure.heading}: the Darkness moves 2",
                     rule="FT-M3-09", reason="robber_escapes", figure=figure.name, where=f"entry:{figure.heading}",
                     count=2)  # fmt: skip
            yield from move_darkness(ctx, 2, rule="FT-M3-09", why="a Bank Robber escaped")
        else:
            where = adventure(ctx).figure(figure_id).place
            ctx.emit("mission", f"{figure.name} ({figure.id}) runs {moved} space(s) toward Entry {figure.heading}"
                     + (f", to ({where.x},{where.y})" if where is not None and where.x is not None else ""),
                     rule="FT-M3-03", reason="robber_runs", figure=figure.name, count=moved,
                     where=f"entry:{figure.heading}",
                     to=f"{where.x},{where.y}" if where is not None and where.x is not None else "")  # fmt: skip

    def _robbers_fire(self, ctx: Ctx) -> Steps[None]:
        """FT-M3-04: each Robber shoots a Hero in Range and sight, preferring Heroes not yet targeted; next to a
        Hero it Melees a Random adjacent Hero instead."""
        board = board_of(ctx.state)
        marked: dict[str, int] = {}
        for figure in [f for f in bandits_on_board(ctx.state) if f.id != INSIDE]:
            if ctx.state.adventure is None:
                return
            pos = board_pos(figure.place)
            if pos is None or figure.id not in {f.id for f in adventure(ctx).figures}:
                continue
            heroes = [(h, board_pos(member(ctx, h).place)) for h in standing(ctx.state)]
            near = [h for h, p in heroes if p is not None and adjacent(board, pos, p)]
            if near:
                hero = yield from ctx.draw(f"{figure.id}'s Melee target (a Random adjacent Hero)",
                                           [(h, ctx.name(h)) for h in near], rule="FT-M3-04", asks=Asks.TARGET_HERO,
                                           said=(("figure", figure.id), ("reason", "melee")))  # fmt: skip
                yield from shoot(ctx, figure, hero, in_cover=False, melee=True, rule="FT-M3-04")
                continue
            seen = [h for h, p in heroes if p is not None and in_range(board, pos, p, 6) is not None]
            if not seen:
                ctx.emit("mission", f"{figure.name} ({figure.id}) has no Hero in Range and sight", rule="FT-M3-04",
                         reason="no_hero_in_sight", figure=figure.name)  # fmt: skip

                continue
            low = min(marked.get(h, 0) for h in seen)
            pool = [h for h in seen if marked.get(h, 0) == low]
            hero = yield from ctx.draw(f"{figure.id}'s target (a Hero in Range and sight, not yet targeted first)",
                                       [(h, ctx.name(h)) for h in pool], rule="FT-M3-04", asks=Asks.TARGET_HERO,
                                       said=(("figure", figure.id), ("reason", "not_targeted")))  # fmt: skip
            marked[hero] = marked.get(hero, 0) + 1
            target = board_pos(member(ctx, hero).place)
            assert target is not None
            yield from shoot(ctx, figure, hero, in_cover=has_cover(board, target, pos), rule="FT-M3-04")

    # ---- kills and Money Bags -------------------------------------------------------------------------------
    def killed(self, ctx: Ctx, figure: Figure, by: str) -> Steps[None]:
        if figure.kind != BANDIT:
            return
        kill_track(ctx, 1, rule="FT-M3-08", why=f"{figure.name} killed")
        if figure.id == INSIDE:  # FT-M3-05: replaced at once
            yield from add_figures(ctx, [self._inside(ctx.state, figure.place or Place("building-7"))], rule="FT-M3-05")
            return
        bags = adventure(ctx).counter("bags")
        if bags and figure.place is not None and figure.place.x is not None:
            set_counter(ctx, "bags", bags - 1)
            n = 1 + sum(1 for f in adventure(ctx).figures if f.kind == "money_bag")
            while f"money-bag-{n}" in {f.id for f in adventure(ctx).figures}:
                n += 1
            bag = Figure(f"money-bag-{n}", "Money Bag", Side.NEUTRAL, 1, kind="money_bag", place=figure.place)
            yield from add_figures(ctx, [bag], rule="FT-M3-07")

    def after_move(self, ctx: Ctx, hero_id: str) -> Steps[None]:
        """FT-M3-07: a Hero ending their Move on Money Bags may pick them up: each back to the stack, $20 x its
        number, and the Posse marker 1 step (A29)."""
        here = member(ctx, hero_id).place
        bags = [f for f in adventure(ctx).figures if f.kind == "money_bag" and f.place is not None and here is not None
                and (f.place.x, f.place.y) == (here.x, here.y)]  # fmt: skip
        if not bags:
            return
        pick = yield from ctx.choose(f"{ctx.name(hero_id)} stands on {len(bags)} Money Bag(s): pick them up?",
                                     [Option("pick", "Pick them up", part=Part.JOIN, says=Says.PICK_UP),
                                      Option("leave", "Leave them", part=Part.DECLINE, says=Says.LEAVE_THEM)],
                                     hero=hero_id, rule="FT-M3-07", asks=Asks.MONEY_BAGS,
                                     said=(("count", len(bags)),))  # fmt: skip
        if pick != "pick":
            return
        for bag in bags:
            adv = adventure(ctx)
            put(ctx, replace(adv, figures=tuple(f for f in adv.figures if f.id != bag.id)))
            set_counter(ctx, "bags", adventure(ctx).counter("bags") + 1)
            number = yield from ctx.choose("The number printed on the flipped Money Bag (not in the rulebooks)",
                                           [Option(str(v), f"{v}: ${20 * v}", says=Says.MONEY_BAG,
                                                   facts=(Fact("value", v), Fact("price", 20 * v)))
                                            for v in range(1, 7)], hero=hero_id,
                                           rule="FT-M3-07", asks=Asks.MONEY_BAG_NUMBER)  # fmt: skip
            ctx.change(hero_id, "gold", 20 * int(number), rule="FT-M3-07", why="a Money Bag")
            kill_track(ctx, 1, rule="FT-M3-08", why="a Money Bag picked up")

    # ---- the end --------------------------------------------------------------------------------------------
    def check_end(self, state: Session) -> Ending | None:
        adv = state.adventure
        assert adv is not None
        if adv.counter("hostages") <= 0:
            return Ending(False, "hostages", "FT-M3-09", "Every Hostage is killed: the Mission is failed")
        if adv.counter("broken"):
            return Ending(True, "robbers_gave_up", "FT-M3-08", "The Robbers give up: the Mission is completed")
        return None

    def reward(self, ctx: Ctx) -> Steps[None]:
        yield from each_hero_d6_times(ctx, "gold", 50, rule="FT-M3-10", why="the Bank is saved")
        hostages = adventure(ctx).counter("hostages")
        for hero in party_ids(ctx.state):
            if hostages:
                ctx.change(hero, "xp", 25 * hostages, rule="FT-M3-10", why=f"{hostages} Hostage(s) alive")

    def failure(self, ctx: Ctx, ending: Ending) -> Steps[None]:
        ctx.carry("FT-M3-10", "The next Adventure begins with 1 less Grit than normal (0, A42)",
                  reason="less_grit", no_grit_next_adventure=True)  # fmt: skip

        no_town(ctx, "FT-M3-10")
        yield from ()


BANK_ROBBERY = register(BankRobbery())
