"""The offline backend: the engine on the phone, every version in one JSON file, undo as the service does it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mobile.client import CommandRejected, OfflineBackend, TableNotFound, VersionConflict
from shared_rules import Adjust, ChooseTownSize, Effect, RuleOptions
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
    data = json.loads(backend.path.read_text())
    assert data["format"] == "brimstone-offline" and len(data["entries"]) == 4


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
    (tmp_path / "offline-broken.json").write_text("{not json")
    saved = OfflineBackend.saved_tables(tmp_path)
    assert [code for code, _, _ in saved] == [backend.table.code]  # type: ignore[union-attr]
    with pytest.raises(TableNotFound):
        OfflineBackend(tmp_path).join("broken")
    with pytest.raises(TableNotFound):
        OfflineBackend(tmp_path).join("NOPE42")
