"""Bounties (FT-BOUNTY-01..03): posted at the Frontier Outpost (its chart, or a Low Threat card at $10 x each Enemy's
Health) or the Sheriff's Office (the Sheriff's Bounty), carried until the next Adventure settles them.

`bounty_payouts` and `settle_kill` are for the adventure area: a kill pays every open Bounty on that Enemy's Record
Sheet (Infamous and OtherWorld versions included, FT-FAQ-05), stacked with an Infamous Gang's own bounty per model
(FT-FAQ-06); `close_bounties` ends them when the Adventure is over.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...commands import BountyTarget, SetBounty
from ...errors import IllegalCommand, InvalidCommand
from ...flow import Ctx, Procedure
from ...frozen import replace
from ...prompts import Asks
from ...state import Bounty, Session
from .common import OUTPOST, SHERIFF, content
from .shop import at_location

METHODS = {"chart": OUTPOST, "threat_card": OUTPOST, "sheriff": SHERIFF}
GOLD_PER_HEALTH = 10  # FT-BOUNTY-01


def check_set_bounty(state: Session, command: SetBounty) -> None:
    location = at_location(state, command.hero)
    where = METHODS.get(command.method)
    if where is None:
        raise InvalidCommand(f"method: one of {sorted(METHODS)}", field="method", rule="FT-BOUNTY-01")
    if location != where:
        raise IllegalCommand(f"method: a {command.method.replace('_', ' ')} Bounty is set at the {where}, and "
                             f"{state.hero(command.hero).name} is at the {location}", field="method",
                             rule="FT-BOUNTY-02" if where == SHERIFF else "FT-BOUNTY-01")  # fmt: skip
    if not command.enemies and not (command.method == "threat_card" and content(state).low_threats):
        raise InvalidCommand("enemies: name the Enemies the Bounty covers, as the card or chart shows them",
                             field="enemies", rule="FT-BOUNTY-01")  # fmt: skip
    for index, target in enumerate(command.enemies):
        at = f"enemies[{index}]"
        if not target.enemy.strip():
            raise InvalidCommand(f"{at}.enemy: the Enemy's name", field=f"{at}.enemy")
        if command.method == "threat_card":
            if target.gold:
                raise InvalidCommand(f"{at}.gold: a Low Threat card's Bounty is $10 x the Enemy's Health, not typed",
                                     field=f"{at}.gold", rule="FT-BOUNTY-01")  # fmt: skip
            if not 1 <= target.health <= 1000:
                raise InvalidCommand(f"{at}.health: the Health on the Enemy's Record Sheet (1-1000)",
                                     field=f"{at}.health", rule="FT-BOUNTY-01")  # fmt: skip
        elif not 1 <= target.gold <= 1_000_000:
            raise InvalidCommand(f"{at}.gold: the Bounty's Gold per Enemy, as printed", field=f"{at}.gold",
                                 rule="FT-BOUNTY-02" if command.method == "sheriff" else "FT-BOUNTY-01")  # fmt: skip


def set_bounty(ctx: Ctx, command: SetBounty) -> Procedure:
    """Post the Bounty, replacing the one from the same place: one Outpost and one Sheriff's Bounty can be open at once
    (FT-BOUNTY-02). From a Low Threat card every Enemy listed is covered at $10 x its Health (fixed now, A19); an
    Enemy with variable XP pays every Hero, any other pays its killer (FT-BOUNTY-01)."""
    targets: Sequence[BountyTarget] = command.enemies
    rule = "FT-BOUNTY-02" if command.method == "sheriff" else "FT-BOUNTY-01"
    if not targets:
        cards = content(ctx.state).low_threats
        name = yield from ctx.draw("a Low Threat card for the Bounty", [(c.name, c.name) for c in cards],
                                   rule="FT-BOUNTY-01", asks=Asks.THREAT_CARD, said=(("size", "low"),))  # fmt: skip
        targets = next(c for c in cards if c.name == name).enemies
        ctx.emit("bounty_posted", f"Low Threat card drawn: {name}", hero=command.hero, rule="FT-BOUNTY-01",
                 reason="drawn", name=name)  # fmt: skip
    source = "sheriff" if command.method == "sheriff" else "outpost"
    posted = tuple(
        Bounty(source, t.enemy, GOLD_PER_HEALTH * t.health if command.method == "threat_card" else t.gold,
               t.all_heroes, command.hero)
        for t in targets
    )  # fmt: skip
    kept = tuple(b for b in ctx.state.carry.bounties if b.source != source)
    ctx.update(carry=replace(ctx.state.carry, bounties=(*kept, *posted)))
    for bounty in posted:
        ctx.emit("bounty_posted", f"Bounty ({'the Sheriff' if source == 'sheriff' else 'the Frontier Outpost'}): "
                 f"${bounty.gold} a {bounty.enemy}, paid to " + ("every Hero" if bounty.all_heroes else "its killer"),
                 hero=command.hero, rule=rule, reason=source, price=bounty.gold, name=bounty.enemy,
                 passed=bounty.all_heroes)  # fmt: skip
    yield from ()


# ---- for the Adventure ----------------------------------------------------------------------------------------
def bounty_payouts(bounties: Sequence[Bounty], record_sheet: str, killer: str, heroes: Sequence[str], *,
                   gang_bounty: int = 0) -> dict[str, int]:  # fmt: skip
    """The Gold each hero collects for one model killed that uses `record_sheet`: each open Bounty on that sheet pays
    its killer or every Hero (FT-BOUNTY-01, FT-FAQ-05), and an Infamous Gang's bounty adds to the killer's (FT-FAQ-06)."""
    paid: dict[str, int] = {}
    for bounty in bounties:
        if bounty.enemy.casefold() != record_sheet.casefold():
            continue
        for hero in heroes if bounty.all_heroes else [killer]:
            paid[hero] = paid.get(hero, 0) + bounty.gold
    if gang_bounty:
        paid[killer] = paid.get(killer, 0) + gang_bounty
    return paid


def settle_kill(ctx: Ctx, record_sheet: str, killer: str, *, gang_bounty: int = 0) -> dict[str, int]:
    """Pay the Bounties for one model killed (FT-BOUNTY-03); returns what each hero collected."""
    paid = bounty_payouts(ctx.state.carry.bounties, record_sheet, killer, ctx.heroes(), gang_bounty=gang_bounty)
    for hero, gold in paid.items():
        ctx.change(hero, "gold", gold, rule="FT-BOUNTY-03", why=f"Bounty on a {record_sheet}")
    if paid:
        ctx.emit("bounty_paid", f"Bounty on a {record_sheet}: " + ", ".join(f"{ctx.name(h)} ${g}" for h, g in
                                                                            paid.items()), rule="FT-BOUNTY-03",
                 reason="paid", name=record_sheet, price=sum(paid.values()))  # fmt: skip
    return paid


def close_bounties(ctx: Ctx) -> None:
    """The Adventure the Bounties were posted for is over: they are taken down (FT-BOUNTY-01)."""
    if ctx.state.carry.bounties:
        ctx.update(carry=replace(ctx.state.carry, bounties=()))
        ctx.emit("bounty_paid", "The Bounties posted in town are taken down", rule="FT-BOUNTY-01", reason="closed")
