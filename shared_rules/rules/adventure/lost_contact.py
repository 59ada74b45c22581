"""'Lost Contact', the introductory Mission (FF-END-05): find 2 Clues; the second is the Objective Room, where the
Heroes fight a High Threat card; defeating it wins (FF-END-01). Every Hero gains 25 XP and D3 Dark Stone."""

from __future__ import annotations

from ...flow import Ctx, Steps
from ...frozen import replace
from ...prompts import Asks
from ...state import ExplorationToken, Figure, MapTile, Session
from .common import adventure, party_ids, put, set_counter
from .fight import draw_threat
from .missions import Ending, Mission, register

CLUES = 2


class LostContact(Mission):
    key = "lost_contact"
    title = "Lost Contact"

    def token_revealed(self, ctx: Ctx, tile: MapTile, token: ExplorationToken) -> Steps[bool]:
        clues = adventure(ctx).counter("clues") + 1
        set_counter(ctx, "clues", clues)
        if clues < CLUES:
            ctx.emit("mission", f"Clue {clues} of {CLUES}: the Heroes are on the right track", rule="FF-END-05",
                     reason="clue", count=clues, number=CLUES)  # fmt: skip
            return False
        ctx.emit("objective", f"The second Clue: {tile.id} is the Objective Room. It has no exits and its Encounter or "
                 "Attack is ignored; the Heroes fight a High Threat card", rule="FF-EXPL-06", reason="objective_room",
                 name=tile.name or tile.id)  # fmt: skip

        set_counter(ctx, "objective", 1)
        dread = adventure(ctx).growing_dread
        if dread:  # FF-DEPTH-08: the stack is revealed at the final Fight
            put(ctx, replace(adventure(ctx), growing_dread=0))
            ctx.emit("growing_dread", f"The final Fight: reveal the {dread} Growing Dread card(s) of the stack",
                     rule="FF-DEPTH-08", reason="reveal", count=dread, why="the final Fight")  # fmt: skip

        yield from draw_threat(ctx, "high", rule="FF-END-05")
        return True

    def enemies_arrived(self, ctx: Ctx, figures: tuple[Figure, ...]) -> Steps[None]:
        if adventure(ctx).counter("objective") and not adventure(ctx).counter("final_fight"):
            set_counter(ctx, "final_fight", 1)  # the Enemies guarding the Objective (FF-END-01)
        yield from ()

    def fight_over(self, ctx: Ctx) -> Steps[None]:
        if adventure(ctx).counter("final_fight"):
            set_counter(ctx, "won", 1)
        yield from ()

    def check_end(self, state: Session) -> Ending | None:
        adv = state.adventure
        if adv is not None and adv.counter("won"):
            return Ending(True, "objective", "FF-END-01",
                          "The Objective is found and the Enemies guarding it are defeated: the Mission is won")
        return None

    def finish(self, ctx: Ctx, ending: Ending) -> Steps[None]:
        if not ending.won:
            return
        for hero in party_ids(ctx.state):  # FF-END-05: each Hero rolls their own D3 (A9)
            ctx.change(hero, "xp", 25, rule="FF-END-05", why="Lost Contact completed")
            shards = yield from ctx.d3("Lost Contact: Dark Stone recovered", hero=hero, rule="FF-END-05",
                                       asks=Asks.GAIN, said=(("reason", "dark_stone"), ("count", 1)))  # fmt: skip
            ctx.change(hero, "dark_stone", shards, rule="FF-END-05", why="recovered from the fallen fortress")


LOST_CONTACT = register(LostContact())
