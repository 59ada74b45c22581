"""Mission 2, Hanging High (FT-M2-01..11): free the Prisoner from the Gallows before the Countdown runs out.

The Countdown replaces the Depth Track: 8 counters, one off at each End of the Turn and on each failed Hold Back the
Darkness (7+, doubles a Depth Event instead, A4); at none the rope is shot (one Hit of 6+ Wounds, A23) or the
Prisoner hangs. The Corrupt Marshals wait until the turn after they are Alerted. Positions of the Gallows, the 4
Marshals and the 10 Townsfolk are the board's `gallows`, `hanging_high_bandits`, `hanging_high_townsfolk` spaces
(the Mission's diagram is not in the rulebook text, (b) 12).
"""

from __future__ import annotations

from ...commands import RescueHero
from ...dice import DieKind, Roll
from ...errors import IllegalCommand
from ...events import Fact
from ...flow import Ctx, Procedure, Steps
from ...frozen import replace
from ...prompts import Asks, Option, Part, Says
from ...state import Figure, Place, Session, Side, TurnStep
from ..adventure import Ending, register
from ..adventure.board_models import board_pos
from ..adventure.common import (
    adventure,
    member,
    need_adventure,
    need_hero,
    own_roll,
    party_ids,
    put,
    put_figure,
    put_member,
    set_counter,
    standing,
)
from ..adventure.fight import add_figures
from ..board import Pos, edge_spaces, random_rooftop, sees, shortest_path
from .common import (
    BANDIT,
    TownMission,
    bandit,
    bandits_on_board,
    board_of,
    each_hero_d6_times,
    ground,
    mission_said,
    no_town,
    place_heroes,
    roof,
    taken,
    walk,
)

COUNTERS = 8
PRISONER = "prisoner"
CAPTIVE = "captive"  # the Place tile of a Hero held on the Gallows (FT-M2-12)
LATER = 999  # a Marshal not yet Alerted takes no turn (FT-M2-03)


class HangingHigh(TownMission):
    key = "hanging_high"
    title = "Hanging High"
    set_up = (  # its Set Up
        "the Gallows token, 4 Bandits and 10 Townsfolk markers as in the diagram (2 more "
        "Bandits on Random Building Rooftops with 3 or more Heroes); the Heroes start along the board edge of "
        "Entry Area C"
    )

    # ---- set-up ---------------------------------------------------------------------------------------------
    def setup(self, ctx: Ctx) -> Steps[None]:
        board = board_of(ctx.state)
        heroes = party_ids(ctx.state)
        start = edge_spaces(board, "C")
        middle = sorted(start, key=lambda s: abs(s[0] - board.width // 2))
        place_heroes(ctx, {h: ground(board, s) for h, s in zip(heroes, middle, strict=False)})  # FT-M2-01
        times = 3 if len(heroes) >= 5 else 2  # FT-M2-02
        level = _posse_level(ctx.state)
        marshals = [replace(bandit(ctx.state, f"bandit-{n + 1}", ground(board, s), name="Corrupt Marshal",
                                   brutal=True, health_times=times), arrived=LATER)
                    for n, s in enumerate(board.spaces.get("hanging_high_bandits", ())[:4])]  # fmt: skip
        if len(heroes) >= 3:  # FT-M2-01, A21: 2 more on Random Rooftops, with Rifles
            for n in (5, 6):
                key = yield from random_rooftop(ctx, board, f"Corrupt Marshal {n}'s rooftop",
                                                (("reason", "rooftop"), ("name", "Corrupt Marshal"),
                                                 ("number", n)))  # fmt: skip
                marshals.append(replace(bandit(ctx.state, f"bandit-{n}", roof(key), name="Corrupt Marshal",
                                               brutal=True, health_times=times), arrived=LATER))  # fmt: skip
        folk = [Figure(f"townsfolk-{n + 1}", "Townsfolk", Side.NEUTRAL, 1, kind="townsfolk", place=ground(board, s))
                for n, s in enumerate(board.spaces.get("hanging_high_townsfolk", ()))]  # fmt: skip
        centre = board.spaces["gallows"][4]
        prisoner = Figure(PRISONER, "the Prisoner", Side.NEUTRAL, 5, armor=4, kind=PRISONER, place=ground(board, centre))
        yield from add_figures(ctx, [*folk, prisoner], rule="FT-M2-01")
        yield from add_figures(ctx, marshals, rule="FT-M2-01")
        adv = adventure(ctx)
        put(ctx, replace(adv, figures=tuple(replace(f, arrived=LATER) if f.kind == BANDIT else f
                                            for f in adv.figures)))  # fmt: skip
        ctx.emit("mission", f"The Corrupt Marshals use the Brutal side{' and every Elite ability' if level >= 5 else ''}"
                 f", {times}x Health, Immune to Critical Hits; they act from the turn after they are Alerted",
                 rule="FT-M2-02", reason="marshals", count=times, passed=level >= 5)  # fmt: skip
        set_counter(ctx, "countdown", COUNTERS)
        ctx.emit("mission", "The Countdown: counters 1-8, the 8 on top (it replaces the Depth Track)", rule="FT-M2-07",
                 reason="countdown_set", count=COUNTERS)  # fmt: skip

    def blocked(self, state: Session) -> tuple[tuple[int, int], ...]:
        return board_of(state).spaces.get("gallows", ())  # FT-M2-04

    def sight_blockers(self, state: Session) -> tuple[tuple[int, int], ...]:
        """The Gallows and the Townsfolk crowds block Line of Sight (FT-M2-04)."""
        adv = state.adventure
        assert adv is not None
        folk = tuple((f.place.x, f.place.y) for f in adv.figures if f.kind == "townsfolk" and f.place is not None
                     and f.place.x is not None and f.place.y is not None)  # fmt: skip
        return (*self.blocked(state), *folk)

    def targets(self, state: Session) -> tuple[str, ...]:
        """The Escaped Prisoner counts when the Marshals roll for a Random Hero (FT-M2-09)."""
        adv = state.adventure
        assert adv is not None
        return (PRISONER,) if adv.counter("freed") and PRISONER in {f.id for f in adv.figures} else ()

    # ---- the Countdown --------------------------------------------------------------------------------------
    def hbtd_target(self, state: Session) -> int | None:
        return 7  # FT-M2-07: always 7+

    def resolve_hbtd(self, ctx: Ctx, roll: Roll, target: int) -> Steps[bool]:
        if roll.faces[0] == roll.faces[1]:
            return False  # A4: a Depth Event instead of the failure (the core resolves it; the Darkness is not used)
        if roll.value >= target:
            ctx.emit("darkness_held", f"{roll.value}: the Countdown holds (needs 7+)", rule="FT-M2-07",
                     reason="countdown", value=roll.value, target=target)  # fmt: skip
            return True
        yield from self._tick(ctx, f"{roll.value} fails Hold Back the Darkness", failed=roll.value)
        return True

    def end_of_turn_effects(self, state: Session) -> tuple[Option, ...]:
        adv = state.adventure
        assert adv is not None
        if adv.counter("freed") or adv.counter("hanged"):
            return ()
        return (Option("countdown", "The top Countdown counter comes off", says=Says.COUNTDOWN),)

    def end_of_turn(self, ctx: Ctx, key: str) -> Steps[None]:
        yield from self._tick(ctx, "the End of the Turn")

    def _tick(self, ctx: Ctx, why: str, *, failed: int = 0) -> Steps[None]:
        adv = adventure(ctx)
        if adv.counter("freed") or adv.counter("hanged"):
            return
        left = max(0, adv.counter("countdown") - 1)
        set_counter(ctx, "countdown", left)
        ctx.emit("mission", f"{why}: the top Countdown counter comes off ({left} left)", rule="FT-M2-07",
                 reason="countdown", count=left, value=failed)  # fmt: skip
        if not left:
            yield from self._rope(ctx)

    def _rope(self, ctx: Ctx) -> Steps[None]:
        """FT-M2-08, A23: one Hero in Range and Line of Sight of the Gallows takes a single Shot; one Hit of 6+
        Wounds (the rope has no Defense) cuts it; otherwise, or with nobody able to shoot, the Prisoner hangs."""
        board = board_of(ctx.state)
        gallows = [ground(board, s) for s in board.spaces["gallows"]]
        shooters = []
        for hero in standing(ctx.state):
            pos = board_pos(member(ctx, hero).place)
            if pos is not None and any(sees(board, pos, board_pos(g) or pos) for g in gallows):
                shooters.append(hero)
        ctx.emit("mission", "The last counter is gone: the trap opens. Shoot the rope!", rule="FT-M2-08",
                 reason="trap_opens")  # fmt: skip
        if not shooters:
            yield from self._hanged(ctx, "no Hero has Line of Sight to the Gallows", key="hanged_no_sight")
            return
        options = [Option(h, f"{ctx.name(h)} shoots at the rope", part=Part.JOIN, says=Says.SHOOTS,
                          facts=(Fact("name", ctx.name(h)),)) for h in shooters]
        hero = yield from ctx.choose("Who shoots the rope (in Range and Line of Sight of the Gallows)?", options,
                                     rule="FT-M2-08", asks=Asks.ROPE_SHOOTER)  # fmt: skip
        sheet = member(ctx, hero).sheet
        if sheet.shots and sheet.ranged_to_hit:
            roll = yield from own_roll(ctx, hero, sheet.shots, "the Shot at the rope", target=sheet.ranged_to_hit,
                                       rule="FT-M2-08", asks=Asks.MISSION_ROLL,
                                       said=mission_said(ctx, "rope_shot", ("target", sheet.ranged_to_hit)))  # fmt: skip
            best = 0
            for n in range(roll.successes):
                face = yield from ctx.d6(f"the rope: damage of Hit {n + 1}", hero=hero, rule="FT-M2-08",
                                         asks=Asks.MISSION_ROLL,
                                         said=mission_said(ctx, "rope_damage", ("number", n + 1)))  # fmt: skip
                best = max(best, face + sheet.damage_bonus)
            cut = best >= 6
        else:
            answer = yield from ctx.choose(
                f"{ctx.name(hero)}'s Shot at the rope: did one Hit do 6 Wounds (To Hit and Damage as normal, no "
                "Defense)?", [Option("cut", "Yes: the rope is cut", says=Says.ROPE_CUT),
                              Option("missed", "No", says=Says.NO)], hero=hero,
                rule="FT-M2-08", asks=Asks.ROPE_CUT)  # fmt: skip
            cut = answer == "cut"
        if not cut:
            yield from self._hanged(ctx, f"{ctx.name(hero)}'s Shot does not cut the rope", key="hanged_missed",
                                    hero=hero)  # fmt: skip
            return
        taken_ = taken(ctx.state, but=[PRISONER]) | set(board.spaces["gallows"])
        around = [(x + dx, y + dy) for x, y in board.spaces["gallows"] for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        spots = [s for s in dict.fromkeys(around) if board.on_board(s) and s not in taken_]

        def to_c(space: tuple[int, int]) -> int:  # the Heroes would drop him where he can run (any empty space)
            path = shortest_path(board, Pos.at(*space), board.entry_areas["C"].spaces, blocked=taken_)
            return len(path) if path is not None else 999

        spot = min(spots, key=lambda s: (to_c(s), s))
        set_counter(ctx, "freed", adventure(ctx).turn)
        captive = captive_of(ctx.state)
        if captive:  # FT-M2-12: the captive, not the marker, is placed; he acts from the next turn
            put_member(ctx, replace(member(ctx, captive), place=ground(board, spot)))
            ctx.emit("mission", f"{ctx.name(captive)} drops free at ({spot[0]},{spot[1]})", hero=captive,
                     rule="FT-M2-12", reason="captive_freed", to=f"{spot[0]},{spot[1]}")  # fmt: skip
            return
        prisoner = adventure(ctx).figure(PRISONER)
        put_figure(ctx, replace(prisoner, place=ground(board, spot)))
        ctx.emit("mission", f"{ctx.name(hero)} shoots the rope: the Prisoner drops free at ({spot[0]},{spot[1]}) and "
                 "runs for Entry C", hero=hero, rule="FT-M2-08", reason="rope_shot", to=f"{spot[0]},{spot[1]}")  # fmt: skip

    def _hanged(self, ctx: Ctx, why: str, *, key: str, hero: str | None = None) -> Steps[None]:
        set_counter(ctx, "hanged", 1)
        ctx.emit("mission", f"{why}: the Prisoner is hanged", hero=hero, rule="FT-M2-08", reason=key)
        yield from ()

    # ---- the Prisoner on the run ----------------------------------------------------------------------------
    def start_of_turn(self, ctx: Ctx) -> Steps[None]:
        """FT-M2-09: from the turn after he was freed, [P] spaces toward Entry C and off the board. A captive Hero
        takes no part until the turn after release (FT-M2-12)."""
        captive = captive_of(ctx.state)
        adv = adventure(ctx)
        if captive and not (adv.counter("freed") and adv.counter("freed") < adv.turn):
            put(ctx, replace(adv, activated=(*adv.activated, captive)))
        adv = adventure(ctx)
        freed = adv.counter("freed")
        if not freed or freed >= adv.turn or PRISONER not in {f.id for f in adv.figures}:
            return
        peril = yield from ctx.roll(DieKind.PERIL, "the Prisoner runs (Peril Die)", chart=True, rule="FT-M2-09",
                                    asks=Asks.MISSION_ROLL, said=mission_said(ctx, "prisoner_runs"))  # fmt: skip
        board = board_of(ctx.state)
        moved, gone = walk(ctx, PRISONER, board.entry_areas["C"].spaces, peril.value,
                           blocked=taken(ctx.state, but=[PRISONER]) | set(self.blocked(ctx.state)), exit_at="C")  # fmt: skip
        if gone:
            set_counter(ctx, "escaped", 1)
            ctx.emit("mission", "The Prisoner runs off the board at Entry C: he is free", rule="FT-M2-10",
                     reason="prisoner_free", where="entry:C")  # fmt: skip
        else:
            ctx.emit("mission", f"The Prisoner runs {moved} space(s) toward Entry C", rule="FT-M2-09",
                     reason="prisoner_runs", count=moved, where="entry:C")  # fmt: skip

    # ---- Alerting the Marshals ------------------------------------------------------------------------------
    def after_move(self, ctx: Ctx, hero_id: str) -> Steps[None]:
        """FT-M2-03, A22: a Hero ending a Move within 3 spaces (diagonals count 1) of a Marshal it can see rolls a
        D6: on 1-2 they are all Alerted."""
        if adventure(ctx).counter("alerted"):
            return
        board = board_of(ctx.state)
        here = board_pos(member(ctx, hero_id).place)
        if here is None or here.space is None:
            return
        for figure in bandits_on_board(ctx.state):
            there = board_pos(figure.place)
            if there is None:
                continue
            near = there.roof or (there.space is not None and max(abs(there.space[0] - here.space[0]),
                                                                  abs(there.space[1] - here.space[1])) <= 3)
            if near and sees(board, here, there, blockers=board.cells(self.sight_blockers(ctx.state))):
                face = yield from ctx.d6(f"{ctx.name(hero_id)} is seen? (1-2 Alerts the Marshals)", hero=hero_id,
                                         rule="FT-M2-03", asks=Asks.MISSION_ROLL,
                                         said=mission_said(ctx, "seen"))  # fmt: skip
                if face <= 2:
                    self._alert(ctx, f"{ctx.name(hero_id)} is spotted", hero_id, key="alerted_spotted")
                return

    def hero_attacked(self, ctx: Ctx, hero_id: str) -> Steps[None]:
        self._alert(ctx, f"{ctx.name(hero_id)} attacks", hero_id, key="alerted_attacks")
        ctx.emit("mission", "The crowd scatters: each Townsfolk marker next to the attacker moves 1 space in a random "
                 "direction (the Bounce chart, not in the rulebooks: FT-DICE-04; place_model)", rule="FT-M2-05",
                 reason="crowd_scatters")  # fmt: skip
        yield from ()

    def _alert(self, ctx: Ctx, why: str, hero: str, *, key: str) -> None:
        adv = adventure(ctx)
        if adv.counter("alerted"):
            return
        set_counter(ctx, "alerted", adv.turn)
        adv = adventure(ctx)
        figures = tuple(replace(f, arrived=adv.turn + 1) if f.kind == BANDIT else f for f in adv.figures)
        put(ctx, replace(adv, figures=figures))
        ctx.emit("mission", f"{why}: every Corrupt Marshal is Alerted and acts from next turn", hero=hero,
                 rule="FT-M2-03", reason=key)  # fmt: skip

    # ---- the end --------------------------------------------------------------------------------------------
    def killed(self, ctx: Ctx, figure: Figure, by: str) -> Steps[None]:
        if figure.id == PRISONER:
            set_counter(ctx, "prisoner_killed", 1)
        yield from ()

    def check_end(self, state: Session) -> Ending | None:
        adv = state.adventure
        assert adv is not None
        held = next((m for m in adv.heroes if adv.counter(f"captive:{m.id}")), None)
        if held is not None:  # FT-M2-12
            if state.hero(held.id).knocked_out:
                return Ending(False, "captive_ko", "FT-M2-12", "The captive is KO'd: the Mission is failed")
            if held.place is not None and held.place.tile == "entry:C":
                return Ending(True, "rescued", "FT-M2-12", "The captive gets away at Entry C: the Mission is won")
        if adv.counter("hanged"):
            return Ending(False, "hanged", "FT-M2-10", "The Prisoner is hanged: the Mission is failed")
        if adv.counter("prisoner_killed"):
            return Ending(False, "prisoner_killed", "FT-M2-10", "The Prisoner is killed escaping: the Mission is failed")
        if adv.counter("escaped"):
            return Ending(True, "escaped", "FT-M2-10", "The Prisoner gets away at Entry C: the Mission is won")
        if not bandits_on_board(state):
            return Ending(True, "marshals_killed", "FT-M2-10", "Every Corrupt Marshal is dead: the Mission is won")
        return None

    def reward(self, ctx: Ctx) -> Steps[None]:
        all_dead = not bandits_on_board(ctx.state)
        for hero in party_ids(ctx.state):
            ctx.change(hero, "xp", 100, rule="FT-M2-11", why="Hanging High won")
        ctx.emit("mission", "Each Hero draws a Gear card (at the table)", rule="FT-M2-11", reason="gear_reward", count=1)
        if all_dead:  # A49: each Hero rolls
            yield from each_hero_d6_times(ctx, "gold", 100, rule="FT-M2-11", why="every Corrupt Marshal killed")

    def failure(self, ctx: Ctx, ending: Ending) -> Steps[None]:
        if ending.reason == "captive_ko":  # FT-M2-12: a single D6 on the Injury Chart
            held = next(m.id for m in adventure(ctx).heroes if adventure(ctx).counter(f"captive:{m.id}"))
            yield from ctx.card(held, "injury", "The captive was KO'd: a single D6 on the Injury chart",
                                rule="FT-M2-12", die=DieKind.D6)  # fmt: skip
        for hero in party_ids(ctx.state):  # FT-M2-11: D3 Corruption Points, ignoring Willpower
            points = yield from ctx.d3("Corruption for the hanged man", hero=hero, rule="FT-M2-11", asks=Asks.GAIN,
                                       said=(("reason", "corruption"), ("count", 1)))  # fmt: skip
            ctx.change(hero, "corruption", points, rule="FT-M2-11", why="the Prisoner was not saved")
        no_town(ctx, "FT-M2-11")


def _posse_level(state: Session) -> int:
    """A20: the average Hero Level, rounded down."""
    heroes = [state.hero(h) for h in party_ids(state)]
    return sum(h.level for h in heroes) // max(1, len(heroes))


HANGING_HIGH = register(HangingHigh())


# ---- rescuing a Hero (FT-M2-12) ----------------------------------------------------------------------------------
def captive_of(state: Session) -> str:
    """The Hero held on the Gallows, until he is freed."""
    adv = state.adventure
    assert adv is not None
    return next((m.id for m in adv.heroes if m.place is not None and m.place.tile == CAPTIVE), "")


def check_rescue(state: Session, command: RescueHero) -> None:
    adv = need_adventure(state)
    need_hero(state, command.hero)
    if adv.mission != HangingHigh.key or adv.turn != 1 or adv.step is not TurnStep.START or adv.counter("captive"):
        raise IllegalCommand("type: a Hero is put on the Gallows during Hanging High's Set Up (FT-M2-12), read as before "
                             "the first Hold Back the Darkness (R-MIS-07)", field="type", rule="R-MIS-07")  # fmt: skip
    if command.hero == adv.lantern:
        raise IllegalCommand("hero: the Old Lantern holder rolls Hold Back the Darkness; another Hero is the captive "
                             "(R-MIS-07)", field="hero", rule="R-MIS-07")  # fmt: skip


def rescue_hero(ctx: Ctx, command: RescueHero) -> Procedure:
    """FT-M2-12: the captive takes the Prisoner's place on the centre of the Gallows and no part until freed; the
    Mission fails if he is KO'd (a single D6 on the Injury Chart) and is won if he leaves at Entry C or every
    Marshal dies. His Items and Side Bag Tokens are set aside at the table and come back at the end."""
    hero = command.hero
    adv = adventure(ctx)
    put(ctx, replace(adv, figures=tuple(f for f in adv.figures if f.id != PRISONER)))
    put_member(ctx, replace(member(ctx, hero), place=Place(CAPTIVE)))
    set_counter(ctx, "captive", 1)
    set_counter(ctx, f"captive:{hero}", 1)
    if ctx.hero(hero).grit != 1:
        ctx.change(hero, "grit", 1 - ctx.hero(hero).grit, rule="FT-M2-12", why="the captive starts with 1 Grit")
    ctx.emit("mission", f"{ctx.name(hero)} stands on the Gallows with the noose round the neck: set aside their "
             "Items and Side Bag Tokens (not those that cannot be discarded or sold); they have a Starting Gear "
             "Pistol, and everything back at the end", hero=hero, rule="FT-M2-12", reason="captive")  # fmt: skip

    put(ctx, replace(adventure(ctx), activated=(*adventure(ctx).activated, hero)))
    yield from ()
