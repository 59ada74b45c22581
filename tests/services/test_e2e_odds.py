"""Odds questions through a real server: asked of a real table's state over REST and GraphQL, answered in chunks
whose partial answers sharpen, followed as server-sent events and a subscription, cancelled, refused with 4xx."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gql import Client, GraphQLRequest
from gql.transport.exceptions import TransportQueryError
from gql.transport.httpx import HTTPXAsyncTransport
from gql.transport.websockets import WebsocketsTransport
from redis import Redis
from rq import Queue

from services.jobs.worker import worker_classes
from shared_rules import new_session, odds
from shared_rules.codec import decode_hero, decode_state, encode
from shared_rules.simulate import sample_heroes
from tests.services.servers import ServerProcess, create_session, redis_storage, sqlite_storage

HEROES = [encode(hero) for hero in sample_heroes(4)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    env = {"BRIMSTONE_ODDS_CHUNK_TRIALS": "40", "BRIMSTONE_MAX_ODDS_TRIALS": "3000"}
    with ServerProcess(sqlite_storage(tmp_path_factory.mktemp("odds")), tmp_path_factory.mktemp("odds-log"),
                       env=env) as running:
        yield running
        assert "Traceback" not in running.log(), running.log()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def wait_ended(client: httpx.Client, job_id: str, token: str, timeout: float = 180) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job: dict[str, Any] = client.get(f"/v1/odds/{job_id}", headers=bearer(token)).json()
        assert 0 <= job["progress"] <= 1 and job["status"] != "failed", job
        if job["status"] in ("finished", "cancelled"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"odds job {job_id} did not end in {timeout}s")


def plague_church_table(client: httpx.Client) -> tuple[str, str, dict[str, Any]]:
    """A table stopped at Hanzo's Plague Church prompt (D36 32 typed in), as the players left it."""
    table = create_session(client, HEROES, seed=5)
    code, token = table["session_id"], table["token"]
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/v1/sessions/{code}/commands", json={"type": "choose_town_size", "size": "large"},
                       headers=auth).status_code == 200
    view = client.post(f"/v1/sessions/{code}/commands", json={"type": "roll_hazard", "dice": [[3, 2]]},
                       headers=auth).json()
    assert view["pending"]["hero"] == "h1" and view["pending"]["rule"] == "FT-TRAVEL-D32"
    return code, token, view


def test_town_size_for_a_real_tables_posse_equals_the_same_question_asked_in_process(server: ServerProcess) -> None:
    with server.client() as client:
        table = create_session(client, HEROES, seed=3)
        accepted = client.post("/v1/odds", json={"question": "town_size", "session_id": table["session_id"],
                                                 "trials": 120, "seed": 11},
                               headers={"Authorization": f"Bearer {table['token']}"})
        assert accepted.status_code == 202, accepted.text
        job = accepted.json()
        assert accepted.headers["location"] == f"/v1/odds/{job['job_id']}"
        assert (job["question"], job["options"], job["chunks"]) == ("town_size", ["small", "medium", "large"], 9)
        done = wait_ended(client, job["job_id"], table["token"])
        assert done["status"] == "finished" and done["progress"] == 1.0 and done["chunks_done"] == 9
        state = decode_state(client.get(f"/v1/sessions/{table['session_id']}",
                                        headers={"Authorization": f"Bearer {table['token']}"}).json()["state"])
        expected = odds.ask(odds.plan(state, "town_size"), 120, seed=11)
        assert done["answer"] == json.loads(json.dumps(expected))  # chunks on the pool = one run in process
        assert done["answer"]["complete"]


def test_the_plague_church_choice_is_answered_and_followed_over_sse(server: ServerProcess) -> None:
    with server.client() as client:
        code, token, view = plague_church_table(client)
        body = {"question": "choice", "session_id": code, "params": {"prompt": view["pending"]["id"]},
                "trials": 200, "seed": 2}
        job = client.post("/v1/odds", json=body, headers={"Authorization": f"Bearer {token}"}).json()
        assert job["options"] == ["help", "turn_away"]
        seen: list[dict[str, Any]] = []
        with client.stream("GET", f"/v1/odds/{job['job_id']}/events", headers=bearer(token)) as events:
            assert events.headers["content-type"].startswith("text/event-stream")
            for line in events.iter_lines():
                if line.startswith("data:"):
                    seen.append(json.loads(line.removeprefix("data:").strip()))
        assert seen[-1]["status"] == "finished" and seen[-1]["answer"]["complete"]
        done = [view["answer"]["done"]["help"] for view in seen]
        assert done == sorted(done) and done[-1] == 200  # each event at least as far on as the one before
        assert [v["progress"] for v in seen] == sorted(v["progress"] for v in seen)
        help_ = seen[-1]["answer"]["options"][0]
        assert help_["key"] == "help" and help_["expected"]["posse.xp"]["trials"] == 200


def test_cancel_stops_the_job_and_keeps_what_arrived(server: ServerProcess) -> None:
    with server.client() as client:
        job = client.post("/v1/odds", json={"question": "town_size", "heroes": HEROES, "trials": 3000,
                                            "seed": 1}).json()
        owner = bearer(job["token"])  # a posse's question asked without a token: the job's own, shown once
        cancelled = client.delete(f"/v1/odds/{job['job_id']}", headers=owner)
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
        assert "token" not in cancelled.json()
        later = client.get(f"/v1/odds/{job['job_id']}", headers=owner).json()
        assert later["status"] == "cancelled" and later["chunks_done"] < later["chunks"]
        assert not later["answer"]["complete"]
        again = client.delete(f"/v1/odds/{job['job_id']}", headers=owner).json()
        assert again["status"] == "cancelled"


@pytest.mark.parametrize(("body", "status", "field"), [
    ({"question": "weather", "heroes": HEROES}, 422, "question"),
    ({"question": "town_size", "heroes": HEROES, "trials": 50_001}, 422, "trials"),  # over the document's limit
    ({"question": "town_size", "heroes": HEROES, "params": {"sizes": ["huge"]}}, 422, "params.sizes[0]"),  # a TownSize
    ({"question": "town_size", "heroes": HEROES, "params": {"sizes": []}}, 409, "params.sizes"),  # the rules
    ({"question": "choice", "heroes": HEROES}, 409, "prompt"),
    ({"question": "town_size"}, 422, "session_id"),
    ({"question": "town_size", "heroes": HEROES, "colour": "red"}, 422, "colour"),
    ({"question": "town_size", "heroes": HEROES, "precision": 0.6}, 422, "precision"),  # wider than a chance
    ({"question": "town_size", "heroes": HEROES, "precision": 0}, 422, "precision"),  # never reached
    ({"question": "town_size", "heroes": HEROES, "precision": "1pp"}, 422, "precision"),
    ({"question": "town_size", "heroes": [{**HEROES[0], "id": "h1"}, {**HEROES[1], "id": "h1"}]}, 409,
     "heroes[0].id"),  # an impossible posse: two heroes of one id
    ({"question": "town_size", "heroes": HEROES * 2}, 422, "heroes"),  # more heroes than a posse holds (A48)
])
def test_bad_questions_are_refused_naming_the_field(server: ServerProcess, body: dict[str, Any], status: int,
                                                    field: str) -> None:
    with server.client() as client:
        refused = client.post("/v1/odds", json=body)
        assert refused.status_code == status, refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.json()["field"] == field


def test_with_a_precision_each_option_stops_at_it_and_partial_answers_come_first(server: ServerProcess) -> None:
    """Sequential stopping on the pool: each option's chunks stop at the first boundary within +-4 points, the
    later ones never counted; the answer is the one asked in process; the SSE stream shows partial figures first."""
    body = {"question": "town_size", "heroes": HEROES[:2], "params": {"sizes": ["small", "large"]}, "trials": 3000,
            "seed": 4, "precision": 0.04}
    with server.client() as client:
        job = client.post("/v1/odds", json=body).json()
        seen: list[dict[str, Any]] = []
        with client.stream("GET", f"/v1/odds/{job['job_id']}/events", headers=bearer(job["token"])) as events:
            for line in events.iter_lines():
                if line.startswith("data:"):
                    seen.append(json.loads(line.removeprefix("data:").strip()))
        done = seen[-1]
        assert done["status"] == "finished" and done["progress"] == 1.0
        answer = done["answer"]
        assert answer["complete"] and answer["precision_met"] and answer["precision"]["reached"] <= 0.04
        assert all(n < 3000 for n in answer["done"].values())  # stopped well inside the budget
        partial = [view for view in seen if view["answer"] and not view["answer"]["complete"]
                   and any(view["answer"]["done"].values())]
        assert partial, "no partial answer came before the final one"
        assert partial[0]["answer"]["precision"]["reached"] > answer["precision"]["reached"]
        state = new_session(tuple(decode_hero(h) for h in HEROES[:2]))
        expected = odds.ask(odds.plan(state, "town_size", {"sizes": ["small", "large"]}), 3000, seed=4,
                            precision=0.04, chunk=40)
        assert answer == json.loads(json.dumps(expected))


def test_graphql_run_odds_with_a_precision_types_how_sharp_the_answer_is(server: ServerProcess) -> None:
    """runOdds(precision:) and the typed `figures`: the target, the widest half-width reached, precisionMet."""
    fields = ("jobId status figures { complete precisionMet precision { target reached figure } "
              "options { key trials precision { reached figure met } } }")
    with server.client() as client:
        table = create_session(client, HEROES[:2], seed=3)
        auth = bearer(table["token"])
        asked = client.post("/graphql", json={"query": (
            "mutation($s: String!) { runOdds(question: town_size, sessionId: $s, trials: 2000, seed: 3, "
            f"precision: 0.05, params: {{sizes: [small]}}) {{ {fields} }} }}"),
            "variables": {"s": table["session_id"]}}, headers=auth).json()
        assert "errors" not in asked, asked
        job = asked["data"]["runOdds"]
        deadline = time.monotonic() + 180
        while job["status"] != "finished":
            assert time.monotonic() < deadline and job["status"] in ("queued", "running"), job
            time.sleep(0.1)
            job = client.post("/graphql", json={"query": f"query($j: String!) {{ odds(jobId: $j) {{ {fields} }} }}",
                                                "variables": {"j": job["jobId"]}}, headers=auth).json()["data"]["odds"]
        figures = job["figures"]
        assert figures["complete"] and figures["precisionMet"] and figures["precision"]["target"] == 0.05
        small = figures["options"][0]
        assert small["precision"]["met"] and small["precision"]["reached"] <= 0.05 and small["trials"] < 2000
        assert figures["precision"]["reached"] == small["precision"]["reached"]


def test_a_choice_that_is_not_pending_and_an_unknown_job(server: ServerProcess) -> None:
    with server.client() as client:
        code, token, view = plague_church_table(client)
        auth = {"Authorization": f"Bearer {token}"}
        stale = client.post("/v1/odds", json={"question": "choice", "session_id": code, "params": {"prompt": "p1"}},
                            headers=auth)
        assert stale.status_code == 409 and stale.json()["field"] == "prompt"
        assert client.post("/v1/odds", json={"question": "choice", "session_id": code}).status_code == 401
        assert client.get("/v1/odds/nosuchjob", headers=auth).status_code == 404
        assert client.delete("/v1/odds/nosuchjob", headers=auth).status_code == 404
        assert client.get("/v1/odds/nosuchjob/events", headers=auth).status_code == 404


def test_graphql_asks_and_follows_the_subscription(server: ServerProcess) -> None:
    async def scenario() -> list[dict[str, Any]]:
        async with Client(transport=HTTPXAsyncTransport(url=f"{server.url}/graphql", headers=bearer("mine"))) as http:
            asked = await http.execute(GraphQLRequest(
                "mutation($h: JSON!) { askOdds(question: \"town_size\", heroes: $h, trials: 80, seed: 4, "
                "params: {sizes: [\"small\", \"large\"]}) { jobId status options trials token } }",
                variable_values={"h": HEROES[:2]}))
            with pytest.raises(TransportQueryError) as refused:
                await http.execute(GraphQLRequest("query { odds(jobId: \"nosuchjob\") { status } }"))
            assert refused.value.errors and refused.value.errors[0]["extensions"]["status"] == 404
        job = asked["askOdds"]
        assert job["options"] == ["small", "large"] and job["trials"] == 80
        assert job["token"] is None  # asked with a token: that one owns the job
        updates = []
        async with Client(transport=WebsocketsTransport(url=server.ws_url, init_payload={"token": "mine"})) as live:
            async for update in live.subscribe(GraphQLRequest(
                    "subscription($id: String!) { oddsProgress(jobId: $id) { status progress chunksDone answer } }",
                    variable_values={"id": job["jobId"]})):
                updates.append(update["oddsProgress"])
        return updates

    updates = asyncio.run(scenario())
    assert updates[-1]["status"] == "finished" and updates[-1]["answer"]["complete"]
    assert [u["progress"] for u in updates] == sorted(u["progress"] for u in updates)


def test_the_cli_asks_a_running_service_about_a_real_table(server: ServerProcess) -> None:
    import io

    from services.cli import main

    with server.client() as client:
        code, token, _ = plague_church_table(client)
    out = io.StringIO()
    assert main(["odds", "--session", code, "--token", token, "--url", server.url, "--question", "choice",
                 "--trials", "80", "--seed", "6"], out=out) == 0
    header = out.getvalue().splitlines()[1]
    assert "Help: 1 Grit or D6 Corruption Hits, then Spirit 5+ (n=80)" in header and "Turn away (n=80)" in header
    refused = io.StringIO()
    assert main(["odds", "--session", code, "--token", token, "--url", server.url, "--trials", "5"],
                out=refused) == 2  # town_size while the table waits on a prompt: the service's 409 is reported


# ---- rq: chunks for `brimstone worker`s ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rq_odds(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = request.getfixturevalue("store_redis_proc")
    storage = redis_storage(f"redis://{proc.host}:{proc.port}/0")
    with ServerProcess(storage, tmp_path_factory.mktemp("odds-rq"), env={"BRIMSTONE_ODDS_CHUNK_TRIALS": "50"}) as running:
        yield running
        assert "Traceback" not in running.log(), running.log()


def _work(server: ServerProcess, max_jobs: int | None = None) -> None:
    assert server.storage.redis_url
    connection = Redis.from_url(server.storage.redis_url)
    worker_classes()[1]([Queue(server.storage.queue, connection=connection)], connection=connection).work(
        burst=True, logging_level="WARNING", max_jobs=max_jobs)


def test_rq_chunks_answer_like_one_run_and_a_cancelled_job_runs_no_more(rq_odds: ServerProcess) -> None:
    body = {"question": "town_size", "heroes": HEROES[:2], "params": {"sizes": ["small", "large"]}, "trials": 100,
            "seed": 8}
    with rq_odds.client() as client:
        job = client.post("/v1/odds", json=body, headers=bearer("rq-asker")).json()
        client.headers.update(bearer("rq-asker"))
        assert (job["backend"], job["status"], job["chunks"]) == ("rq", "queued", 4)
        assert client.get(f"/v1/odds/{job['job_id']}").json()["answer"]["done"] == {"small": 0, "large": 0}
        _work(rq_odds, max_jobs=1)  # one chunk in: a partial answer
        partial = client.get(f"/v1/odds/{job['job_id']}").json()
        assert (partial["status"], partial["chunks_done"]) == ("running", 1)
        assert partial["answer"]["done"] == {"small": 50, "large": 0} and not partial["answer"]["complete"]
        _work(rq_odds)
        done = client.get(f"/v1/odds/{job['job_id']}").json()
        widths = [view["answer"]["options"][0]["expected"]["posse.xp"]["ci"] for view in (partial, done)]
        assert widths[1][1] - widths[1][0] < widths[0][1] - widths[0][0]  # the estimate sharpened
        assert (done["status"], done["chunks_done"], done["progress"]) == ("finished", 4, 1.0)
        state = new_session(tuple(decode_hero(h) for h in HEROES[:2]))
        expected = odds.ask(odds.plan(state, "town_size", {"sizes": ["small", "large"]}), 100, seed=8)
        assert done["answer"] == json.loads(json.dumps(expected))

        sharp = client.post("/v1/odds", json={**body, "trials": 2000, "precision": 0.05}).json()
        assert sharp["chunks"] == 2 * len(odds.pieces(2000, 50))
        for _ in range(40):  # a chunk at a time, reading the job between: an option within +-5 points stops
            _work(rq_odds, max_jobs=1)
            view = client.get(f"/v1/odds/{sharp['job_id']}").json()
            if view["status"] == "finished":
                break
        assert view["status"] == "finished" and view["answer"]["precision_met"], view["status"]
        assert view["chunks_done"] < view["chunks"]  # the chunks after the stop were cancelled, never run
        expected = odds.ask(odds.plan(state, "town_size", {"sizes": ["small", "large"]}), 2000, seed=8,
                            precision=0.05, chunk=50)
        assert view["answer"] == json.loads(json.dumps(expected))

        stopped = client.post("/v1/odds", json={**body, "seed": 9}).json()
        cancelled = client.delete(f"/v1/odds/{stopped['job_id']}").json()
        assert cancelled["status"] == "cancelled"
        _work(rq_odds)
        after = client.get(f"/v1/odds/{stopped['job_id']}").json()
        assert (after["status"], after["chunks_done"]) == ("cancelled", 0)


def test_the_chance_to_win_bank_robbery_with_these_four_heroes(server: ServerProcess) -> None:
    """town_mission through the service: the Mission played by the autoplay's table, the Bandits by their AI."""
    layout = [{"number": n, "stage": 3 if n < 4 else 2 if n < 8 else 1, "mark": "none"} for n in range(12)]
    classes = [{"max_fury": 3}, {"deadly_bonus": 2}, {"max_ki": 3}, {"mana": 3, "blast_cost": 1}]  # the sheets'
    sheets = [{"hero": hero["id"], "initiative": 6 - i, "combat": 2, "melee_to_hit": 4, "ranged_to_hit": 4,
               "shots": 2, **classes[i]} for i, hero in enumerate(HEROES)]  # fmt: skip
    with server.client() as client:
        accepted = client.post("/v1/odds", json={"question": "town_mission", "heroes": HEROES, "trials": 40, "seed": 2,
                                                 "params": {"missions": ["bank_robbery"], "layout": layout,
                                                            "sheets": sheets}})  # fmt: skip
        assert accepted.status_code == 202, accepted.text
        job = wait_ended(client, accepted.json()["job_id"], accepted.json()["token"])
        won = job["answer"]["options"][0]["chances"]["mission_won"]
        assert job["answer"]["options"][0]["label"] == "Bank Robbery" and won["trials"] == 40
        in_process = odds.ask(odds.plan(new_session([decode_hero(h) for h in HEROES]), "town_mission",
                                        {"missions": ["bank_robbery"], "layout": layout, "sheets": sheets}), 40, seed=2)
        assert in_process["options"][0]["chances"]["mission_won"] == won
