"""The offline backend: the engine on the phone, every version in one JSON file, undo as the service does it."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from mobile.client import CommandRejected, OfflineBackend, TableNotFound, VersionConflict
from shared_rules import Adjust, ChooseTownSize, Effect, Phase, RuleOptions, Session, decode_state
from shared_rules.prompts import Reads
from tests.mobile.helpers import hero

GOLD = Adjust("ann", (Effect("change", "gold", 25),))


def made(tmp_path: Path) -> OfflineBackend:
    backend = OfflineBackend(tmp_path)
    backend.create([hero("ann", "Ann")], RuleOptions(dice="table"), seed=5)
    return backend


def test_the_file_holds_everything_and_reopens_to_the_same_table(tmp_path: Path) -> None:
    backend = made(tmp_path)
    backend.submit(GOLD, "k1", 0)
    backend.submit(ChooseTownSize("large"), "k2", 1)
    backend.undo(1, "k3", 2)
    again = OfflineBackend(tmp_path)
    snapshot = again.join(backend.table.code)  # type: ignore[union-attr]
    assert snapshot == backend.load()
    assert [s.command for s in snapshot.log] == ["create", "adjust", "choose_town_size", "undo"]
    lines = [json.loads(line) for line in backend.path.read_text().splitlines()]
    assert lines[0]["format"] == "brimstone-offline" and lines[0]["schema"] == 2
    assert [line["v"] for line in lines[1:] if "v" in line] == [0, 1, 2, 3]


def test_an_idempotency_key_applies_once(tmp_path: Path) -> None:
    backend = made(tmp_path)
    backend.submit(GOLD, "same", 0)
    backend.submit(GOLD, "same", 0)
    assert backend.load().state.hero("ann").gold == 25 and backend.load().version == 1


def test_a_stale_version_is_refused(tmp_path: Path) -> None:
    backend = made(tmp_path)
    backend.submit(GOLD, "k1", 0)
    with pytest.raises(VersionConflict) as conflict:
        backend.submit(GOLD, "k2", 0)
    assert conflict.value.current == 1


def test_undo_writes_an_earlier_state_again_as_a_new_version_SVC_UNDO(tmp_path: Path) -> None:
    backend = made(tmp_path)
    backend.submit(GOLD, "k1", None)
    backend.submit(GOLD, "k2", None)
    after = backend.undo(2, "k3", None)
    assert after.version == 3 and after.state == backend.load().state and after.state.hero("ann").gold == 0
    assert after.log[-1].undo_to == 0 and after.log[-1].events[0].type == "undone"
    redo = backend.undo(1, "k4", None)  # an undo can itself be undone
    assert redo.state.hero("ann").gold == 50
    with pytest.raises(CommandRejected) as refused:
        backend.undo(9, "k5", None)
    assert refused.value.field == "steps"


def test_rules_refusals_keep_the_engines_field_and_rule(tmp_path: Path) -> None:
    backend = made(tmp_path)
    with pytest.raises(CommandRejected) as refused:
        backend.submit(ChooseTownSize("huge"), "k1", None)
    assert refused.value.field == "size" and refused.value.rule == "FT-TRAVEL-01" and refused.value.kind == "invalid"


def test_saved_tables_are_listed_and_a_broken_file_is_skipped_or_refused(tmp_path: Path) -> None:
    backend = made(tmp_path)
    (tmp_path / "offline-broken.jsonl").write_text("{not json")
    saved = OfflineBackend.saved_tables(tmp_path)
    assert [code for code, _, _ in saved] == [backend.table.code]  # type: ignore[union-attr]
    with pytest.raises(TableNotFound):
        OfflineBackend(tmp_path).join("broken")
    with pytest.raises(TableNotFound):
        OfflineBackend(tmp_path).join("NOPE42")


# ---- the store: snapshots every K versions plus the log, written a line at a time, old schemas migrated ----------
FIXTURE = Path(__file__).parent / "data" / "offline-old1v1.schema1.json"


def test_a_file_written_by_the_previous_schema_opens_and_is_migrated(tmp_path: Path) -> None:
    """The schema-1 store (one JSON object with every version's full state) as the last release wrote it."""
    shutil.copy(FIXTURE, tmp_path / FIXTURE.name.replace(".schema1", ""))
    assert [code for code, _, _ in OfflineBackend.saved_tables(tmp_path)] == ["OLD1V1"]
    backend = OfflineBackend(tmp_path)
    snapshot = backend.join("OLD1V1")
    old = json.loads(FIXTURE.read_text())
    assert snapshot.version == 6 and snapshot.state == decode_state(old["entries"][-1]["state"])
    assert snapshot.state.hero("ann").gold == 25 and snapshot.state.phase is Phase.TRAVEL
    assert [s.command for s in snapshot.log] == ["create", "adjust", "choose_town_size", "roll", "roll",
                                                 "roll_hazard", "undo"]
    assert backend.path.suffix == ".jsonl" and (tmp_path / "offline-old1v1.json.schema1").exists()
    again = OfflineBackend(tmp_path).join("OLD1V1")  # the migrated file reopens the same
    assert again == snapshot
    redo = OfflineBackend(tmp_path)
    redo.join("OLD1V1")
    redone = redo.undo(1, "k-redo", 6).state  # undo of the undo: replayed by today's engine, whose roll prompts
    assert redone.pending is not None  # also say what the dice are read for and what they ask (issue 19: the old
    # file's do not)
    prompt = redone.pending.prompt
    assert (prompt.target, prompt.reads) == (5, Reads.HITS)
    bare = replace(redone.pending, prompt=replace(prompt, target=0, reads=None, doubles=False, then=(),
                                                           next_heroes=(), grit=False, card="", asks=None,
                                                           facts=()))
    assert replace(redone, pending=bare) == decode_state(old["entries"][5]["state"])


def _play(backend: OfflineBackend, steps: int) -> list[Session]:
    states = [backend.load().state]
    for n in range(steps):
        backend.submit(Adjust("ann", (Effect("change", "gold" if n % 2 else "xp", 5),)), f"k{n}", None)
        states.append(backend.load().state)
    return states


def test_a_tap_appends_one_short_line_and_states_are_kept_every_k_versions(tmp_path: Path) -> None:
    backend = OfflineBackend(tmp_path, snapshot_every=10)
    backend.create([hero("ann", "Ann"), hero("bo"), hero("cy"), hero("di")], RuleOptions(dice="table"), seed=5)
    _play(backend, 25)
    before = backend.path.read_bytes()
    backend.submit(GOLD, "one-more", None)
    after = backend.path.read_bytes()
    assert after.startswith(before)  # appended, not rewritten
    lines = [json.loads(line) for line in after.decode().splitlines()[1:]]
    full = len(json.dumps(lines[0]["state"]))
    assert len(after) - len(before) < full / 3, f"a tap wrote {len(after) - len(before)} bytes; a state is {full}"
    assert [line["v"] for line in lines if "state" in line] == [0, 10, 20]


def test_every_version_is_rebuilt_from_the_nearest_snapshot_and_the_log(tmp_path: Path) -> None:
    backend = OfflineBackend(tmp_path, snapshot_every=7)
    backend.create([hero("ann", "Ann")], RuleOptions(dice="table"), seed=5)
    states = _play(backend, 30)
    reopened = OfflineBackend(tmp_path, snapshot_every=7)
    assert reopened.join(backend.table.code).state == states[-1]  # type: ignore[union-attr]
    for back in (1, 5, 12, 29):
        copy = tmp_path / f"copy{back}"
        copy.mkdir()
        shutil.copy(backend.path, copy)
        other = OfflineBackend(copy, snapshot_every=7)
        other.join(backend.table.code)  # type: ignore[union-attr]
        assert other.undo(back, f"u{back}", None).state == states[30 - back]


def test_a_line_cut_short_by_a_crash_loses_only_that_step(tmp_path: Path) -> None:
    backend = made(tmp_path)
    backend.submit(GOLD, "k1", 0)
    with backend.path.open("a") as handle:
        handle.write('{"v": 2, "command": {"ty')  # the phone died mid-write
    snapshot = OfflineBackend(tmp_path).join(backend.table.code)  # type: ignore[union-attr]
    assert snapshot.version == 1 and snapshot.state.hero("ann").gold == 25


def test_a_checkpoint_on_pause_writes_the_head_state(tmp_path: Path) -> None:
    backend = OfflineBackend(tmp_path, snapshot_every=50)
    backend.create([hero("ann", "Ann")], RuleOptions(dice="table"), seed=5)
    states = _play(backend, 5)
    backend.checkpoint()
    last = json.loads(backend.path.read_text().splitlines()[-1])
    assert last["checkpoint"] == 5 and decode_state(last["state"]) == states[-1]
