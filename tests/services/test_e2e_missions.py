"""Each Town Mission played to a win and to a loss through the real server over REST, every die typed in at the
table (dice option "table": typed dice make it deterministic), and the Bandits' activation with its proposals as
data; bad corrections answered with a problem naming the field and the rule, nothing applied.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.services.servers import ServerProcess, create_session, sqlite_storage

PROBLEM = "application/problem+json"
PLAIN = [{"number": n, "stage": 3 if n < 3 else 2 if n < 5 else 1, "mark": "none"} for n in range(8)]
MARKED = [dict(s, mark="blood_spatter" if s["number"] == 2 else "growing_dread" if s["number"] == 4 else "none")
          for s in PLAIN]  # fmt: skip
ANN = {"id": "ann", "name": "Ann", "gold": 100}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(sqlite_storage(tmp_path_factory.mktemp("missions-db")),
                       tmp_path_factory.mktemp("missions-logs")) as p:  # fmt: skip
        yield p
        assert "Traceback" not in p.log(), p.log()


class Table:
    """One table's REST client: send commands, answer the prompts that follow, keep the last view."""

    def __init__(self, client: httpx.Client, sid: str, view: dict[str, Any]) -> None:
        self.client, self.sid, self.view = client, sid, view
        self.events: list[dict[str, Any]] = []

    def send(self, command: dict[str, Any], *answers: Any) -> dict[str, Any]:
        """Send a command, then answer its prompts in order: an int or list is a roll, a str a choice, a dict a card."""
        self._post(command)
        for answer in answers:
            prompt = self.view["pending"]
            assert prompt is not None, f"no prompt for {answer!r}"
            if isinstance(answer, str):
                self._post({"type": "choose", "option": answer, "prompt": prompt["id"]})
            elif isinstance(answer, dict):
                self._post({"type": "enter_card", "prompt": prompt["id"], **answer})
            else:
                faces = answer if isinstance(answer, list) else [answer]
                self._post({"type": "roll", "faces": faces, "prompt": prompt["id"]})
        assert self.view["pending"] is None, self.view["pending"]
        return self.view

    def _post(self, command: dict[str, Any]) -> None:
        response = self.client.post(f"/v1/sessions/{self.sid}/commands", json=command)
        assert response.status_code == 200, (command, response.text)
        self.view = response.json()
        self.events += self.view["events"]

    def refused(self, command: dict[str, Any], status: int, field: str, rule: str) -> None:
        before = self.client.get(f"/v1/sessions/{self.sid}").json()
        response = self.client.post(f"/v1/sessions/{self.sid}/commands", json=command)
        assert response.status_code == status, response.text
        assert response.headers["content-type"].startswith(PROBLEM)
        body = response.json()
        assert (body["field"], body["rule"]) == (field, rule), body
        assert self.client.get(f"/v1/sessions/{self.sid}").json() == before  # nothing half-applied

    @property
    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.view["state"]
        return state

    @property
    def adventure(self) -> dict[str, Any]:
        adv: dict[str, Any] = self.state["adventure"]
        return adv

    def hero(self, hero_id: str = "ann") -> dict[str, Any]:
        return next(h for h in self.state["heroes"] if h["id"] == hero_id)

    def legal(self) -> list[str]:
        return [c["type"] for c in self.view["legal_commands"]]

    def ended(self) -> tuple[bool, str]:
        """Whether the last Adventure was won, and why (the adventure_ended event's changes)."""
        end = next(e for e in reversed(self.events) if e["type"] == "adventure_ended" and e["changes"])
        changes = {c["field"]: c["after"] for c in end["changes"]}
        return changes["won"], changes["ending"]


def table(server: ServerProcess, mission: str, *answers: Any, layout: list[dict[str, Any]] = PLAIN,
          hero: dict[str, Any] = ANN) -> Iterator[Table]:  # fmt: skip
    with server.client() as anon:
        created = create_session(anon, [hero], seed=5, options={"dice": "table", "offer_grit_rerolls": False})
    with server.client(created["token"]) as client:
        t = Table(client, created["session_id"], created)
        t.send({"type": "start_adventure", "lantern": "ann", "mission": mission, "layout": layout,
                "sheets": [{"hero": "ann", "initiative": 9}]}, *answers)  # fmt: skip
        assert t.state["phase"] == "adventure" and t.adventure["mission"] == mission
        yield t


def won(t: Table, reason: str) -> None:
    assert t.state["phase"] == "between_adventures" and t.state["adventure"] is None
    assert t.ended() == (True, reason)
    assert "stay_in_town" not in t.legal() or t.state["carry"]["may_stay"]
    assert t.state["carry"]["may_stay"]


def lost(t: Table, reason: str, no_town: str = "") -> None:
    assert t.state["phase"] == "between_adventures" and t.state["adventure"] is None
    assert t.ended() == (False, reason)
    if no_town:
        assert t.state["carry"]["no_town"] == no_town and "choose_town_size" not in t.legal()
        t.refused({"type": "choose_town_size", "size": "small"}, 409, "type", no_town)


# ---- Mission 1 ---------------------------------------------------------------------------------------------------
def test_shootout_won_with_the_bandits_activation_and_a_refused_correction(server: ServerProcess) -> None:
    for t in table(server, "shootout_in_the_streets"):
        t.refused({"type": "place_model", "model": "ann", "to": {"tile": "street", "x": 0, "y": 12}}, 409, "to",
                  "FF-MOVE-02")  # Bandit 1 stands there
        t.refused({"type": "place_model", "model": "bandit-1", "to": {"tile": "building-1", "x": 1, "y": 4},
                   "path": [[0, 4], [1, 4]]}, 409, "path[1]", "FT-BOARD-03")  # through a Wall
        t.send({"type": "place_model", "model": "ann", "to": {"tile": "street", "x": 7, "y": 12}})
        t.send({"type": "hold_back_the_darkness", "dice": [[3, 2], [1], [2]]})  # fails; D3 1: a Bandit at D
        t.send({"type": "activate", "hero": "ann", "dice": [[2]]})
        t.send({"type": "end_activation", "hero": "ann"})
        assert "activate_bandits" in t.legal()
        t.refused({"type": "activate_bandits", "targets": [{"bandit": "bandit-9", "hero": "ann"}]}, 409,
                  "targets[0].bandit", "")
        activation = ({"type": "activate_bandits", "dice": [[5], [5], [5], [5]]},  # no Bandit takes Cover
                      [1], [1], [1], [1])  # the shots that follow miss
        before = t.state
        t.send(*activation)
        undone = t.client.post(f"/v1/sessions/{t.sid}/undo", json={"steps": 5})  # the command and its 4 answers
        assert undone.status_code == 200, undone.text
        assert undone.json()["state"] == before  # the activation is undone exactly
        t.events.clear()
        t.send(*activation)
        plans = [e["bandit"] for e in t.events if e["type"] == "bandit"]
        assert [p["bandit"] for p in plans] == ["bandit-1", "bandit-2", "bandit-3", "bandit-4"]
        first = plans[0]
        assert (first["start"]["x"], first["start"]["y"], first["reason"], first["target"]) == (0, 12, "advance", "ann")
        assert first["shots"][0]["target"] == "ann" and first["path"][0] == [0, 12]
        assert t.adventure["turn"] == 2
        t.send({"type": "hold_back_the_darkness", "dice": [[6, 4]]})  # 10 > 7: the assault is broken
        t.send({"type": "activate", "hero": "ann", "dice": [[3]]})
        t.send({"type": "attack", "hero": "ann", "hits": [{"target": f"bandit-{n}", "damage": 9} for n in (1, 2, 3, 4)]})
        won(t, "bandits_defeated")
        assert (t.hero()["xp"], t.hero()["gold"]) == (50, 200)


def test_shootout_lost_to_the_darkness(server: ServerProcess) -> None:
    for t in table(server, "shootout_in_the_streets"):
        t.send({"type": "move_marker", "marker": "darkness", "steps": 7}, 3)  # escapes; D6 3 x $50 lost
        lost(t, "darkness", "FT-M1-08")
        assert t.hero()["gold"] == 0


# ---- Mission 2 ---------------------------------------------------------------------------------------------------
def test_hanging_high_won_by_killing_every_marshal(server: ServerProcess) -> None:
    for t in table(server, "hanging_high"):
        for n in (1, 2, 3):
            t.send({"type": "wound_enemy", "enemy": f"bandit-{n}", "wounds": 6, "reason": "Dynamite"})
        t.send({"type": "wound_enemy", "enemy": "bandit-4", "wounds": 6, "reason": "Dynamite"}, 2)  # D6 2 x $100
        won(t, "marshals_killed")
        assert (t.hero()["xp"], t.hero()["gold"]) == (100, 300)


def test_hanging_high_lost_when_the_rope_shot_misses(server: ServerProcess) -> None:
    for t in table(server, "hanging_high"):
        t.refused({"type": "place_model", "model": "ann", "to": {"tile": "street", "x": 12, "y": 5}}, 409, "to",
                  "FF-MOVE-02")  # the Gallows
        for _ in range(3):  # a failed roll and the End of the Turn: 2 counters a turn
            t.send({"type": "hold_back_the_darkness", "dice": [[1, 2]]})
            t.send({"type": "activate", "hero": "ann", "dice": [[2]]})
            t.send({"type": "end_activation", "hero": "ann"})
        assert t.adventure["turn"] == 4 and {c["name"]: c["value"] for c in t.adventure["counters"]}["countdown"] == 2
        t.send({"type": "hold_back_the_darkness", "dice": [[1, 2]]})
        t.send({"type": "activate", "hero": "ann", "dice": [[2]]})
        t.send({"type": "end_activation", "hero": "ann"}, "missed", 3)  # the rope holds; D3 2 Corruption
        lost(t, "hanged", "FT-M2-11")
        assert t.hero()["corruption"] == 2


# ---- Mission 3 ---------------------------------------------------------------------------------------------------
def test_bank_robbery_won_when_the_robbers_give_up(server: ServerProcess) -> None:
    for t in table(server, "bank_robbery", 7, 2):  # a 7 is re-rolled: Ann starts in Building 2
        assert t.adventure["heroes"][0]["place"]["tile"] == "building-2"
        t.send({"type": "hold_back_the_darkness", "dice": [[6, 4]]}, 4)  # 10 >= 7; D6 4 x $50
        won(t, "robbers_gave_up")
        assert (t.hero()["xp"], t.hero()["gold"]) == (75, 300)


def test_bank_robbery_lost_when_the_darkness_escapes(server: ServerProcess) -> None:
    for t in table(server, "bank_robbery", 2, layout=MARKED):
        t.send({"type": "move_marker", "marker": "darkness", "steps": 7})  # 2 Hostages die on the way
        lost(t, "darkness", "FT-M3-10")
        assert t.state["carry"]["no_grit_next_adventure"]


# ---- Mission 4 ---------------------------------------------------------------------------------------------------
def test_jail_break_won_when_no_bandit_is_left_to_come(server: ServerProcess) -> None:
    for t in table(server, "jail_break", 2):
        assert t.adventure["darkness"] == 5
        t.send({"type": "move_marker", "marker": "darkness", "steps": -2, "reason": "a card"})
        t.send({"type": "wound_enemy", "enemy": "bandit-1", "wounds": 9})
        t.send({"type": "wound_enemy", "enemy": "bandit-2", "wounds": 9})
        t.send({"type": "wound_enemy", "enemy": "bandit-3", "wounds": 9}, 5)  # the Darkness on 0; D6 5 x $50
        won(t, "bandits_defeated")
        assert (t.hero()["xp"], t.hero()["gold"]) == (25, 350)


def test_jail_break_lost_when_the_darkness_reaches_the_mine_entrance(server: ServerProcess) -> None:
    for t in table(server, "jail_break", 2):
        t.send({"type": "hold_back_the_darkness", "dice": [[1, 2]]})  # fails 7+: a Bandit more to come (6)
        assert t.adventure["darkness"] == 6
        t.send({"type": "move_marker", "marker": "darkness", "steps": 1, "reason": "an unplaceable Bandit"})
        lost(t, "darkness", "FT-M4-09")
        assert t.state["carry"]["growing_dread_next"] == 1


# ---- Mission 5 ---------------------------------------------------------------------------------------------------
OVERRUN_SET_UP = (3, 1, 2, 3, 3, 6, 6, 6, 6)  # [P] 3 indoors (D8 1, 2, 3), [P] 3 in the Street, no Entry Point


def test_town_overrun_won_when_the_assault_breaks(server: ServerProcess) -> None:
    for t in table(server, "town_overrun", *OVERRUN_SET_UP):
        assert sum(1 for f in t.adventure["figures"] if f["kind"] == "townsfolk") == 6
        t.send({"type": "hold_back_the_darkness", "dice": [[6, 4]]},  # 10 >= 7: broken, no Enemy: saved
               *[a for _ in range(6) for a in ("gold", 2)])  # each Townsfolk saved: D6 2 x $25
        won(t, "assault_broken")
        assert t.hero()["gold"] == 100 + 6 * 50


def test_town_overrun_lost_and_the_town_destroyed(server: ServerProcess) -> None:
    for t in table(server, "town_overrun", *OVERRUN_SET_UP):
        t.send({"type": "move_marker", "marker": "darkness", "steps": 7}, "injury", {"text": "A limp"})
        lost(t, "darkness", "FT-M5-11")


# ---- Mission 6 ---------------------------------------------------------------------------------------------------
def test_high_noon_duel_won(server: ServerProcess) -> None:
    for t in table(server, "high_noon_duel", 4, 2):  # the Initiative D6s: Ann +4, the opponent +2
        assert "hold_back_the_darkness" not in t.legal() and "flee" not in t.legal()
        t.send({"type": "activate", "hero": "ann", "dice": [[3]]})
        t.refused({"type": "move", "hero": "ann", "spaces": 1, "to": {"tile": "street", "x": 12, "y": 14}}, 409,
                  "spaces", "FT-M6-04")  # "Draw!"
        t.send({"type": "attack", "hero": "ann", "hits": [{"target": "bandit-1", "damage": 9}]})
        won(t, "opponent_defeated")
        assert t.hero()["xp"] == 25


def test_high_noon_duel_lost(server: ServerProcess) -> None:
    for t in table(server, "high_noon_duel", 1, 6):  # 9 + 1 against 4 + 6: a tie, the Hero first (A45)
        t.send({"type": "adjust", "hero": "ann", "effects": [{"op": "change", "field": "wounds", "amount": 9}]})
        t.send({"type": "activate", "hero": "ann", "dice": [[2]]})
        t.send({"type": "end_activation", "hero": "ann"})
        t.send({"type": "activate_bandits", "dice": [[5], [6], [1]]},  # no Cover; a Hit; Ann's Defense fails
               "stay_down", {"text": "A scar"})  # no Revive Token; the Injury chart at the table
        lost(t, "all_ko")
        assert t.state["carry"]["no_grit_next_adventure"]


# ---- the typed GraphQL door --------------------------------------------------------------------------------------
def test_the_bandits_activation_over_typed_graphql(server: ServerProcess) -> None:
    """The same activation through GraphQL's typed door: @oneOf commands in, each Bandit's proposal out as fields."""
    import asyncio

    from gql import Client, GraphQLRequest, gql
    from gql.transport.httpx import HTTPXAsyncTransport

    send = gql("""
    mutation Send($sid: String!, $command: CommandInput!) {
      sendCommand(sessionId: $sid, command: $command) {
        events { type text bandit { bandit reason action target path start { tile x y } end { tile x y }
                                    shots { target frm to targetInCover } } }
        pending { kind }
        legalCommands { type }
      }
    }""")

    async def scenario() -> None:
        with server.client() as anon:
            created = create_session(anon, [ANN], seed=5, options={"dice": "table", "offer_grit_rerolls": False})
        headers = {"Authorization": f"Bearer {created['token']}"}
        transport = HTTPXAsyncTransport(url=f"{server.url}/graphql", headers=headers, timeout=30)
        async with Client(transport=transport) as session:
            async def do(command: dict[str, Any]) -> dict[str, Any]:
                result = await session.execute(GraphQLRequest(send, variable_values={
                    "sid": created["session_id"], "command": command}))  # fmt: skip
                sent: dict[str, Any] = result["sendCommand"]
                return sent

            await do({"startAdventure": {"lantern": "ann", "mission": "shootout_in_the_streets", "layout": PLAIN,
                                         "sheets": [{"hero": "ann", "initiative": 9}]}})  # fmt: skip
            await do({"placeModel": {"model": "ann", "to": {"tile": "street", "x": 7, "y": 12}}})
            await do({"holdBackTheDarkness": {"dice": [[3, 2], [1], [2]]}})
            await do({"activate": {"hero": "ann", "dice": [[2]]}})
            ended = await do({"endActivation": {"hero": "ann"}})
            assert "activate_bandits" in [c["type"] for c in ended["legalCommands"]]
            out = await do({"activateBandits": {"dice": [[5], [5], [5], [5], [1], [1], [1], [1]]}})
            assert out["pending"] is None
            plans = [e["bandit"] for e in out["events"] if e["type"] == "bandit"]
            assert plans[0] == {"bandit": "bandit-1", "reason": "advance", "action": "ranged", "target": "ann",
                                "path": [[0, 12], [1, 12]], "start": {"tile": "street", "x": 0, "y": 12},
                                "end": {"tile": "street", "x": 1, "y": 12},
                                "shots": [{"target": "ann", "frm": [1, 12], "to": [7, 12], "targetInCover": False}]}

    asyncio.run(scenario())
