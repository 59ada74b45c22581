"""A whole Adventure through the real server over REST, every die typed in at the table: set-up, several turns,
Hold Back the Darkness with a Depth Event, exploring, a Fight, the Objective and its final Fight, the reward, and the
way back to the road; bad commands answered with a problem naming the field and the rule, nothing applied.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.services.servers import ServerProcess, create_session, sqlite_storage

PROBLEM = "application/problem+json"
LAYOUT = [{"number": n, "stage": 3 if n < 3 else 2 if n < 5 else 1,
           "mark": "blood_spatter" if n == 2 else "growing_dread" if n == 4 else "none"} for n in range(8)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(sqlite_storage(tmp_path_factory.mktemp("adv-db")), tmp_path_factory.mktemp("adv-logs")) as p:
        yield p
        assert "Traceback" not in p.log(), p.log()


class Table:
    """One table's REST client: send commands, keep the last view."""

    def __init__(self, client: httpx.Client, sid: str, view: dict[str, Any]) -> None:
        self.client, self.sid, self.view = client, sid, view

    def send(self, command: dict[str, Any]) -> dict[str, Any]:
        response = self.client.post(f"/v1/sessions/{self.sid}/commands", json=command)
        assert response.status_code == 200, (command, response.text)
        self.view = response.json()
        return self.view

    def refused(self, command: dict[str, Any], status: int, field: str, rule: str) -> None:
        before = self.client.get(f"/v1/sessions/{self.sid}").json()
        response = self.client.post(f"/v1/sessions/{self.sid}/commands", json=command)
        assert response.status_code == status, response.text
        assert response.headers["content-type"].startswith(PROBLEM)
        body = response.json()
        assert (body["field"], body["rule"]) == (field, rule), body
        assert self.client.get(f"/v1/sessions/{self.sid}").json() == before  # nothing half-applied

    @property
    def adventure(self) -> dict[str, Any]:
        adv: dict[str, Any] = self.view["state"]["adventure"]
        return adv

    def legal(self) -> list[tuple[str, str | None]]:
        return [(c["type"], c["hero"]) for c in self.view["legal_commands"]]

    def texts(self) -> list[str]:
        return [e["text"] for e in self.view["events"]]


def test_a_whole_adventure_at_the_table(server: ServerProcess) -> None:
    heroes = [{"id": "ann", "name": "Ann", "hero_class": "Samurai Warrior", "grit": 2, "max_grit": 2},
              {"id": "bo", "name": "Bo"}]  # fmt: skip
    with server.client() as anon:
        created = create_session(anon, heroes, seed=3, options={"dice": "table", "offer_grit_rerolls": False})
    with server.client(created["token"]) as client:
        t = Table(client, created["session_id"], created)
        assert ("start_adventure", None) in t.legal()
        t.send({"type": "start_adventure", "lantern": "ann", "layout": LAYOUT,
                "sheets": [{"hero": "ann", "initiative": 5, "max_fury": 3}, {"hero": "bo", "initiative": 3}]})
        assert t.view["state"]["phase"] == "adventure" and t.adventure["party"] == 7
        assert t.adventure["revive_tokens"] == 1 and t.view["state"]["heroes"][0]["grit"] == 1  # A6

        # Turn 1: doubles are a Depth Event (FF-DEPTH-05), entered from the chart at the table
        t.send({"type": "hold_back_the_darkness", "dice": [[3, 3]]})
        assert t.view["pending"]["kind"] == "card" and t.view["pending"]["chart"] == "depth_event"
        t.send({"type": "enter_card", "text": "Echoes: Ann takes 1 Sanity Damage",
                "effects": [{"op": "change", "field": "sanity_damage", "amount": 1}]})
        assert t.adventure["darkness"] == 0 and t.adventure["step"] == "activations"
        t.refused({"type": "activate", "hero": "bo", "dice": [[2]]}, 409, "hero", "FF-TURN-03")
        t.refused({"type": "reroll_with_grit", "hero": "ann", "roll": "hold_back_the_darkness"}, 409, "roll",
                  "FF-DEPTH-06")
        t.send({"type": "activate", "hero": "ann", "dice": [[4]]})
        assert ("move", "ann") in t.legal()
        t.send({"type": "move", "hero": "ann", "spaces": 3})
        t.send({"type": "search", "hero": "ann", "kind": "door", "placed": "room"})  # FF-EXPL-01
        assert t.adventure["party"] == 6 and t.view["state"]["heroes"][0]["xp"] == 5
        t.send({"type": "activate", "hero": "bo", "dice": [[2]]})
        t.send({"type": "end_activation", "hero": "bo"})
        assert t.adventure["step"] == "exploration" and t.legal()[0] == ("reveal_token", None)
        t.send({"type": "reveal_token", "tile": "tile-1",
                "token": {"doors": 1, "attack": True, "clue": True}, "dice": [[5]]})
        assert any("Clue 1 of 2" in text for text in t.texts()) and t.adventure["turn"] == 2

        # Turn 2: the Attack's enemies, a Fight (FF-TURN-05)
        t.send({"type": "add_enemies", "enemies": [{"name": "Tengu", "health": 3, "initiative": 4, "defense": 1,
                                                    "damage": 1}]})  # fmt: skip
        t.send({"type": "hold_back_the_darkness", "dice": [[2, 3]]})  # fails 7+: the Darkness moves
        assert t.adventure["darkness"] == 1
        t.send({"type": "activate", "hero": "ann", "dice": [[1]]})  # a 1 at Max Grit? she has 1 of 2: Recover
        assert t.view["state"]["heroes"][0]["grit"] == 2
        t.refused({"type": "search", "hero": "ann", "kind": "scavenge"}, 409, "type", "FF-SRCH-01")
        t.send({"type": "attack", "hero": "ann", "hits": [{"target": "tengu-1", "damage": 3}]})
        assert t.adventure["figures"][0]["wounds"] == 2 and t.adventure["heroes"][0]["fury"] == 1  # FF-SAM-01
        assert ("activate_enemy", None) in t.legal()
        t.send({"type": "activate_enemy", "enemy": "tengu-1", "strikes": [{"hero": "bo", "hits": 1}],
                "dice": [[2]]})  # Bo's Defense 4+ save misses
        assert t.view["state"]["heroes"][1]["wounds"] == 1
        t.send({"type": "activate", "hero": "bo", "dice": [[3]]})
        t.send({"type": "attack", "hero": "bo", "hits": [{"target": "tengu-1", "damage": 2}]})
        assert t.adventure["figures"] == [] and any("Fight is over" in text for text in t.texts())

        # Turn 3: the second Clue is the Objective (FF-EXPL-06, FF-END-05)
        t.send({"type": "hold_back_the_darkness", "dice": [[6, 4]]})
        t.send({"type": "activate", "hero": "ann", "dice": [[2]]})
        t.send({"type": "search", "hero": "ann", "kind": "door", "placed": "room"})
        t.send({"type": "activate", "hero": "bo", "dice": [[2]]})
        t.send({"type": "end_activation", "hero": "bo"})
        t.send({"type": "reveal_token", "tile": "tile-2", "token": {"doors": 2, "clue": True}})
        assert any("High Threat" in text for text in t.texts())

        # Turn 4: the final Fight, then the reward and the road
        t.send({"type": "add_enemies", "enemies": [{"name": "Oni", "health": 4, "initiative": 1, "defense": 2}]})
        t.send({"type": "hold_back_the_darkness", "dice": [[5, 4]]})
        t.send({"type": "activate", "hero": "ann", "dice": [[3]]})
        t.send({"type": "attack", "hero": "ann", "hits": [{"target": "oni-1", "damage": 6}]})
        assert t.view["pending"]["kind"] == "roll" and t.view["pending"]["hero"] == "ann"  # D3 Dark Stone
        t.send({"type": "roll", "faces": [6]})
        t.send({"type": "roll", "faces": [1]})
        state = t.view["state"]
        assert state["phase"] == "between_adventures" and state["adventure"] is None
        assert [(h["xp"], h["dark_stone"], h["wounds"], h["sanity_damage"], h["grit"]) for h in state["heroes"]] == [
            (5 + 5 + 25, 3, 0, 0, 1), (25, 1, 0, 0, 1)]  # fmt: skip
        assert t.legal()[0] == ("choose_town_size", None)
        history = client.get(f"/v1/sessions/{t.sid}/events", params={"limit": 500}).json()
        assert history
