"""A journey played with the Python client openapi-python-client generated from openapi/openapi.json, as a third-party
developer would write it: open a table, commands with table dice and server dice, an idempotent retry, a stale
write, a conditional read, the log, undo. Run by test_generated_clients.py in the generator's own venv:

    python journey_python.py <directory holding brimstone_client> <server URL>

Prints one line per step; exits non-zero (an AssertionError) on the first thing that does not hold.
"""

from __future__ import annotations

import inspect
import sys
from typing import Any

sys.path.insert(0, sys.argv[1])

from brimstone_client import AuthenticatedClient, Client  # noqa: E402
from brimstone_client.api.sessions import (  # noqa: E402
    create_session,
    get_legal_commands,
    get_session,
    list_events,
    post_command,
    undo_commands,
)
from brimstone_client.models import (  # noqa: E402
    ChooseInput,
    ChooseTownSizeInput,
    CommandResult,
    CreateSessionRequest,
    DiceMode,
    EnterCardInput,
    EventPage,
    HeroInput,
    Phase,
    Problem,
    PromptKind,
    RerollInput,
    RollDiceInput,
    RollHazardInput,
    RuleOptionsInput,
    SessionCreated,
    SessionOpened,
    SessionView,
    SkillsInput,
    TownSize,
    UndoRecord,
    UndoRequest,
)
from brimstone_client.types import UNSET  # noqa: E402

BASE = sys.argv[2]


def answer(prompt: Any) -> Any:
    """What a table answers to any prompt: roll for me, the first option, keep the dice, an empty card."""
    if prompt.kind is PromptKind.ROLL:
        return RollDiceInput(prompt=prompt.id)
    if prompt.kind is PromptKind.CHOICE:
        return ChooseInput(option=prompt.options[0].key, prompt=prompt.id)
    if prompt.kind is PromptKind.REROLL:
        return RerollInput(indices=[], prompt=prompt.id)
    return EnterCardInput(text="nothing happens", prompt=prompt.id)


def main() -> None:
    # idempotency_key is "a string or left out", never None: the generated signature says so
    hint = str(inspect.signature(post_command.sync_detailed).parameters["idempotency_key"].annotation)
    assert "None" not in hint, hint

    with Client(base_url=BASE) as anonymous:
        opened = create_session.sync_detailed(client=anonymous, body=CreateSessionRequest(
            heroes=[HeroInput(id="anna", name="Anna", skills=SkillsInput(luck=4)), HeroInput(id="bo", name="Bo")],
            options=RuleOptionsInput(dice=DiceMode.SERVER), seed=11))
    assert opened.status_code == 201 and isinstance(opened.parsed, SessionCreated), opened.content
    created = opened.parsed
    assert opened.headers["location"] == f"/v1/sessions/{created.session_id}"
    assert created.state.phase is Phase.BETWEEN_ADVENTURES and created.state.heroes[0].skills.luck == 4
    print("created", created.session_id)
    sid = created.session_id

    with AuthenticatedClient(base_url=BASE, token=created.token) as client:
        # table dice: the two D6 of the hazard count typed in (FT-TRAVEL-02: a 2 adds a hazard, a 5 does not)
        body = ChooseTownSizeInput(size=TownSize.SMALL, dice=[[2], [5]])
        first = post_command.sync_detailed(sid, client=client, body=body, expected_version=0, idempotency_key="k-1")
        assert first.status_code == 200 and isinstance(first.parsed, CommandResult), first.content
        assert first.parsed.version == 1 and first.parsed.state.travel.rollers == ["anna"]
        assert "idempotent-replayed" not in first.headers and first.headers["etag"] == '"1"'
        print("table dice", [event.type_.value for event in first.parsed.events][:4])

        again = post_command.sync_detailed(sid, client=client, body=body, expected_version=0, idempotency_key="k-1")
        assert again.status_code == 200 and again.headers["idempotent-replayed"] == "true"
        assert again.parsed.to_dict() == first.parsed.to_dict()
        print("idempotent retry answered from the first request")

        stale = post_command.sync_detailed(sid, client=client, body=RollHazardInput(), expected_version=0)
        assert stale.status_code == 409 and isinstance(stale.parsed, Problem), stale.content
        assert stale.parsed.type_.value == "/problems/stale-version" and stale.parsed.current_version == 1
        print("stale write refused:", stale.parsed.detail)

        unchanged = get_session.sync_detailed(sid, client=client, if_none_match='"1"')
        assert unchanged.status_code == 304 and unchanged.content == b""

        # server dice: roll the hazard and answer whatever the rules ask until the posse may arrive
        view: Any = first.parsed
        for _ in range(50):
            legal = {command.type_.value for command in view.legal_commands}
            if "arrive" in legal:
                break
            command = answer(view.pending) if view.pending is not None else RollHazardInput()
            written = post_command.sync_detailed(sid, client=client, body=command)
            assert written.status_code == 200, written.content
            view = written.parsed
        else:
            raise AssertionError("the road did not end")
        print("server dice: hazards", view.state.travel.hazards, "at version", view.version)

        illegal = post_command.sync_detailed(sid, client=client, body=ChooseTownSizeInput(size=TownSize.LARGE))
        assert illegal.status_code == 409 and illegal.parsed.type_.value == "/problems/illegal-command"
        assert illegal.parsed.rule == "FT-TRAVEL-01"

        entries: list[Any] = []
        after = -1
        while True:
            page = list_events.sync(sid, client=client, after=after, limit=3)
            assert isinstance(page, EventPage)
            entries += page.entries
            if page.next_after is None or page.next_after is UNSET:
                break
            after = page.next_after
        assert [entry.version for entry in entries] == list(range(view.version + 1))
        assert isinstance(entries[0].command, SessionOpened) and entries[0].command.heroes[1].name == "Bo"
        assert type(entries[1].command).__name__ == "ChooseTownSize" and entries[1].command.dice == [[2], [5]]
        print("log:", len(entries), "entries")

        undone = undo_commands.sync_detailed(sid, client=client, body=UndoRequest(steps=1))
        assert undone.status_code == 200 and undone.parsed.version == view.version + 1, undone.content
        before = [entry for entry in entries if entry.version == view.version - 1]
        assert before and undone.parsed.based_on == view.version
        last = list_events.sync(sid, client=client, after=view.version, limit=5)
        assert isinstance(last.entries[-1].command, UndoRecord) and last.entries[-1].command.steps == 1
        legal_now = get_legal_commands.sync(sid, client=client)
        assert legal_now.version == view.version + 1
        current = get_session.sync(sid, client=client)
        assert isinstance(current, SessionView) and current.version == view.version + 1
        print("undone to", last.entries[-1].command.to_version)


if __name__ == "__main__":
    main()
