"""The engine's two builds (issue 19): the pure-Python source the phone runs, and the same source with its hot modules
compiled by mypyc for the service's workers (scripts/build_compiled.py). The rules tests run on both
(`BRIMSTONE_COMPILED=build/compiled`, see scripts/test.sh); these make sure each run tests the build it names."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scripts.build_compiled import COMPILED

COMPILED_RUN = bool(os.environ.get("BRIMSTONE_COMPILED"))
ROOT = Path(__file__).resolve().parents[2]


def _is_compiled(name: str) -> bool:
    module = importlib.import_module("shared_rules." + name.replace("/", "."))
    return str(module.__file__).endswith(".so")


@pytest.mark.skipif(not COMPILED_RUN, reason="the compiled build is tested when BRIMSTONE_COMPILED names it")
def test_the_compiled_run_plays_every_hot_module_compiled() -> None:
    assert [name for name in COMPILED if not _is_compiled(name)] == []


@pytest.mark.skipif(not COMPILED_RUN, reason="the compiled build is tested when BRIMSTONE_COMPILED names it")
def test_the_compiled_build_imports_without_the_compilers_packages() -> None:
    """The service's image runs the build with the service's packages only: no mypy, no mypy_extensions."""
    blocked = "import sys\nfor name in ('mypy', 'mypy_extensions', 'mypyc'):\n    sys.modules[name] = None\n"
    imports = "".join(f"import shared_rules.{name.replace('/', '.')}\n" for name in COMPILED)
    env = {**os.environ, "PYTHONPATH": str(Path(os.environ["BRIMSTONE_COMPILED"]).resolve())}
    done = subprocess.run([sys.executable, "-c", blocked + imports], capture_output=True, text=True, env=env,
                          cwd=Path(os.environ["BRIMSTONE_COMPILED"]).resolve())
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.skipif(COMPILED_RUN, reason="this run tests the compiled build")
def test_the_pure_run_plays_the_source_the_phone_ships() -> None:
    """A build left beside the source would make both runs test the compiled one, and the phone's untested."""
    assert [name for name in COMPILED if _is_compiled(name)] == []


@pytest.mark.skipif(not COMPILED_RUN, reason="the compiled build is tested when BRIMSTONE_COMPILED names it")
def test_the_compiled_builds_values_are_built_and_copied_compiled() -> None:
    """The build writes each dataclass's `__init__` out so that mypyc compiles it (the decorator's own is an
    interpreted function: most of a journey's time before); the values still copy, compare, pickle and decode as
    on the source."""
    import dataclasses
    import pickle

    from shared_rules import codec
    from shared_rules.frozen import evolve, replace
    from shared_rules.simulate import sample_heroes
    from shared_rules.state import Hero

    interpreted, left = [], []
    for name in COMPILED:
        module = importlib.import_module("shared_rules." + name.replace("/", "."))
        left += [f"{name}.{cls}" for cls in module._LEFT_INTERPRETED]  # the rewrite said why it left these
        for value in vars(module).values():
            own = dataclasses.is_dataclass(value) and isinstance(value, type) and value.__module__ == module.__name__
            if own and type(value.__init__).__name__ == "function":  # a Python function: not compiled
                interpreted.append(f"{name}.{value.__qualname__}")
    assert sorted(interpreted) == sorted(left)
    assert [cls for cls in left if not cls.startswith("content/")] == []  # only documents read at start-up
    hero = sample_heroes(1)[0]
    richer = evolve(hero, {"gold": hero.gold + 25})
    assert (richer.gold, richer.name) == (hero.gold + 25, hero.name)
    assert richer == dataclasses.replace(hero, gold=hero.gold + 25) and richer != hero
    with pytest.raises(TypeError, match="no field"):
        evolve(hero, {"goldd": 1})
    assert replace(hero, gold=hero.gold + 25, name="Kenji") == dataclasses.replace(hero, gold=hero.gold + 25,
                                                                                  name="Kenji")
    with pytest.raises(dataclasses.FrozenInstanceError):
        hero.gold = 5  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(richer)) == richer
    assert codec.decode_hero(codec.encode(richer)) == richer
    assert codec.type_hints(Hero)["mutations"] == tuple[str, ...]  # as written, not the bare `tuple` mypyc keeps


def test_one_field_set_by_name_is_the_same_copy_on_both_builds() -> None:
    """`with_value` is how the engine changes one hero counter or folds a command's heroes into the state, and
    `with_values` how it sets the state's fields; the compiled build writes them out (`scripts/build_compiled.py`): every field set gives `dataclasses.replace`'s value,
    and a name no field has is refused, on either build."""
    import dataclasses

    from shared_rules.engine import new_session
    from shared_rules.simulate import sample_heroes
    from shared_rules.state import Phase

    hero = sample_heroes(1)[0]
    state = new_session(sample_heroes(2))
    for value, changes in ((hero, {"gold": 7, "wounds": 3, "name": "Kenji", "bleeding": 2, "removed": True,
                                   "items": (), "id": "k"}),
                           (state, {"heroes": state.heroes[:1], "phase": Phase.TRAVEL, "rng": 5, "pending": None,
                                    "step": 9})):
        for name in (f.name for f in dataclasses.fields(value)):  # every field, unchanged and changed
            assert value.with_value(name, getattr(value, name)) == value
            if name in changes:
                assert value.with_value(name, changes[name]) == dataclasses.replace(value, **{name: changes[name]})
        with pytest.raises(TypeError, match="no field"):
            value.with_value("goldd", 1)
    both = {"phase": Phase.TRAVEL, "heroes": state.heroes[1:]}
    assert state.with_values(both) == dataclasses.replace(state, **both) and state.with_values({}) == state
    with pytest.raises(TypeError, match="no field"):
        state.with_values({"phases": Phase.TRAVEL})
    assert hero.with_value("gold", 1).gold == 1 and hero.gold == 150  # a copy: the value itself stays


_TRIALS = """
import hashlib, json
from shared_rules import flow, odds
from shared_rules.engine import new_session
from shared_rules.simulate import sample_heroes
plan = odds.plan(new_session(sample_heroes(3)), "town_size", {})
samples = [odds.run_chunk(plan, size, 0, 60, seed=7).to_json() for size in ("small", "large")]
print(flow.__file__.endswith(".so"), hashlib.sha256(json.dumps(samples, sort_keys=True).encode()).hexdigest())
"""


@pytest.mark.skipif(not COMPILED_RUN, reason="compares the compiled build with the source")
def test_a_compiled_odds_trial_is_the_same_trial_as_the_source_plays() -> None:
    """Same seed, same journeys and the same dice tallied on either build: a worker's chunk merges with a phone's."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    compiled = Path(os.environ["BRIMSTONE_COMPILED"]).resolve()
    here = subprocess.run([sys.executable, "-c", _TRIALS], capture_output=True, text=True, check=True, cwd=compiled,
                          env=env).stdout.split()
    source = subprocess.run([sys.executable, "-c", _TRIALS], capture_output=True, text=True, check=True, cwd=ROOT,
                            env=env).stdout.split()
    assert (here[0], source[0]) == ("True", "False")  # each ran the build it names
    assert len(here[1]) == 64 and here[1] == source[1]
