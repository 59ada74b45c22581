"""A whole Town Stay of a 4-hero posse through the real server, with two phones' clients (mobile.client.GraphQLBackend):
one plays the road to a Large Town and two Days in town (beds, a visit for every hero, the Devil's Wheel, shopping,
warrants, tokens, the cards typed in as a table does without a pack), the other joins with the code and follows the
live subscription. Both see every version, in order, and end on the same state."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mobile.client import GraphQLBackend, Snapshot, new_key
from shared_rules import Choose, Effect, EnterCard, Hero, Reroll, RollDice, RuleOptions, Skills
from shared_rules.commands import (
    Arrive,
    Buy,
    ChooseTownSize,
    Command,
    EndDay,
    EndTownStay,
    EndVisit,
    PayOffWarrants,
    PlayDevilsWheel,
    RollHazard,
    Sell,
    StartDay,
    UseToken,
    VisitLocation,
    WheelRoll,
    WheelStop,
)
from shared_rules.state import DieLie, Phase, StayStage
from tests.services.servers import ServerProcess, Storage, redis_storage

DAYS = 2
SEED = 4  # the road leads to a town with a Gambling Hall and a Sheriff's Office (the same engine runs offline)
MAX_STEPS = 600
PREFERRED = ("Gambling Hall", "Saloon", "Street Market", "Frontier Outpost", "Blacksmith")
HEROES = [
    Hero("h1", "Hanzo", "Samurai Warrior", skills=Skills(3, 2, 3, 4, 2, 3), gold=300, wanted=1, keywords=("Law",)),
    Hero("h2", "Kasumi", "Assassin", skills=Skills(4, 4, 2, 3, 2, 3), gold=200, sanity_damage=3,
         side_bag=("Tequila",)),
    Hero("h3", "Tenzin", "Traveling Monk", gold=150, mutations=("Claw", "Eye", "Scales", "Horns")),
    Hero("h4", "Akane", "Sorceress", gold=100, dark_stone=3),
]  # fmt: skip


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = request.getfixturevalue("store_redis_proc")
    storage: Storage = redis_storage(f"redis://{proc.host}:{proc.port}/0")
    with ServerProcess(storage, tmp_path_factory.mktemp("stay")) as process:
        yield process
        assert "Traceback" not in process.log(), process.log()


class Table:
    """The commanding phone's decisions: answer the prompt, else the next step of the road or the Day."""

    def __init__(self) -> None:
        self.done: set[tuple[int, str, str]] = set()
        self.days = 0

    def next(self, snap: Snapshot) -> Command | None:
        state = snap.state
        prompt = snap.pending
        if prompt is not None:
            return self.answer(prompt.kind, [o.key for o in prompt.options], prompt.chart)
        if state.phase is Phase.BETWEEN_ADVENTURES:
            return None if self.days else ChooseTownSize("large")
        if state.phase is Phase.TRAVEL:
            return RollHazard()
        if state.phase is Phase.ARRIVAL:
            return Arrive()
        stay = state.stay
        assert stay is not None
        legal = {(c.type, c.hero): c.options for c in snap.legal}
        if stay.stage is not StayStage.DAY:
            if self.days < DAYS and ("start_day", None) in legal:
                self.days += 1
                return StartDay()
            return EndTownStay()
        for hero in state.active_heroes:
            command = self.errand(hero, legal, stay.day)
            if command is not None:
                return command
        return EndDay()

    def once(self, day: int, hero: str, what: str) -> bool:
        key = (day, hero, what)
        if key in self.done:
            return False
        self.done.add(key)
        return True

    def errand(self, sheet: Hero, legal: dict[tuple[str, str | None], tuple[str, ...]], day: int) -> Command | None:
        hero, gold, room = sheet.id, sheet.gold, len(sheet.side_bag) < sheet.side_bag_capacity
        lies = (DieLie.ON_HEAD, DieLie.CARD_EDGE, DieLie.OFF)
        if ("wheel_roll", hero) in legal:  # the round under way: pick up the die off the cards once, then stop
            return WheelRoll(hero, (2,), lies=lies, dice=((5,),)) if self.once(day, hero, "reroll") else WheelStop(hero)
        if ("pay_off_warrants", hero) in legal and gold >= 100 and self.once(day, hero, "warrants"):
            return PayOffWarrants(hero, price=100)
        if ("visit_location", hero) in legal:
            places = legal[("visit_location", hero)]
            return VisitLocation(hero, next((p for p in PREFERRED if p in places), places[0]))
        if ("use_token", hero) in legal and "Tequila" in legal[("use_token", hero)] and self.once(day, hero, "tequila"):
            return UseToken(hero, "Tequila")
        if ("end_visit", hero) not in legal:
            return None
        if ("play_devils_wheel", hero) in legal and gold >= 10 and self.once(day, hero, "wheel"):
            return PlayDevilsWheel(hero, stake=10, lies=lies, dice=((6, 4, 1),))
        if ("sell", hero) in legal and "Dark Stone" in legal[("sell", hero)] and self.once(day, hero, "sell"):
            return Sell(hero, "Dark Stone", price=50)
        if ("buy", hero) in legal and gold >= 25 and room and self.once(day, hero, "buy"):
            return Buy(hero, "Exotic Herbs", price=25, kind="token")
        return EndVisit(hero)

    @staticmethod
    def answer(kind: str, options: list[str], chart: str) -> Command:
        if kind == "choice":
            return Choose(options[0])
        if kind == "reroll":
            return Reroll(())
        if kind == "roll":
            return RollDice(None)
        if chart == "artifact":
            return EnterCard("Devil's Idol", (Effect("add_item", name="Devil's Idol", tags=("artifact",)),))
        return EnterCard("The card pays $5", (Effect("change", "gold", 5),))


def test_a_full_stay_of_four_heroes_with_two_phones(server: ServerProcess, tmp_path: Path) -> None:
    phone, follower = GraphQLBackend(server.url, timeout=30), GraphQLBackend(server.url, timeout=30)
    seen: dict[int, Snapshot] = {}
    lock = threading.Lock()

    def arrived(snap: Snapshot) -> None:
        with lock:
            seen[snap.version] = snap

    try:
        snap = phone.create(HEROES, RuleOptions(dice="server", town_events="every_day"), seed=SEED)
        table = phone.table
        assert table is not None
        follower.join(table.code, table.token)
        feed = follower.subscribe(arrived)
        plan, written = Table(), [snap.version]
        for _ in range(MAX_STEPS):
            command = plan.next(snap)
            if command is None:
                break
            snap = phone.submit(command, new_key(), expected_version=snap.version)
            written.append(snap.version)
        else:
            pytest.fail(f"the stay did not end in {MAX_STEPS} steps: {snap.state.phase}")
        last = snap.version
        assert written == list(range(last + 1))  # the playing phone saw every version, in order
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with lock:
                if last in seen:
                    break
            time.sleep(0.05)
        feed.close()
        with lock:
            assert set(range(1, last + 1)) <= set(seen), sorted(set(range(1, last + 1)) - set(seen))
            assert seen[last].state == snap.state
        final = snap.state
        assert final.phase is Phase.BETWEEN_ADVENTURES and final.stay is None and plan.days == DAYS
        assert all(h.unwanted_attention == 0 for h in final.heroes)  # FT-UA-06
        log = follower.load().log
        types = {e.type for step in log for e in step.events}
        assert {"day_begun", "lodging", "visit", "visit_ended", "day_ended", "wheel", "warrants_paid", "sale",
                "token_used", "purchase"} <= types  # fmt: skip
        assert {"play_devils_wheel", "wheel_roll", "pay_off_warrants", "enter_card"} <= {s.command for s in log}
    finally:
        phone.close()
        follower.close()
