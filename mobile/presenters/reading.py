"""The one place presenters read a table's state from: a small adapter over the snapshot.

Presenters never reach into `snapshot.state` themselves, so a change in what the service sends (typed GraphQL
fields, a public state without the RNG or the pending checkpoint) is a change here only.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared_rules import Hero, LegalCommand, Phase, Prompt, Session
from shared_rules.state import Adventure, Carry, RuleOptions, Stay, Town, Travel

from ..client import LogStep, Snapshot


@dataclass(frozen=True, slots=True)
class TableRead:
    """What a screen may read: the posse, the phase and its sub-state, the waiting prompt and the legal commands."""

    snapshot: Snapshot

    @property
    def version(self) -> int:
        return self.snapshot.version

    @property
    def log(self) -> tuple[LogStep, ...]:
        return self.snapshot.log

    @property
    def heroes(self) -> tuple[Hero, ...]:
        return tuple(self.snapshot.state.heroes)

    def hero(self, hero_id: str) -> Hero:
        return self.snapshot.state.hero(hero_id)

    def name(self, hero_id: str | None) -> str:
        if hero_id is None:
            return "The posse"
        try:
            return self.hero(hero_id).name
        except KeyError:
            return hero_id

    @property
    def names(self) -> dict[str, str]:
        return {hero.id: hero.name for hero in self.heroes}

    @property
    def phase(self) -> Phase:
        return self.snapshot.state.phase

    @property
    def travel(self) -> Travel | None:
        return self.snapshot.state.travel

    @property
    def town(self) -> Town | None:
        return self.snapshot.state.town

    @property
    def stay(self) -> Stay | None:
        return self.snapshot.state.stay

    @property
    def adventure(self) -> Adventure | None:
        """The Adventure or Town Mission under way (its board, figures and counters), or None."""
        return self.snapshot.state.adventure

    @property
    def carry(self) -> Carry:
        return self.snapshot.state.carry

    @property
    def options(self) -> RuleOptions:
        return self.snapshot.state.options

    @property
    def prompt(self) -> Prompt | None:
        return self.snapshot.pending

    @property
    def legal(self) -> tuple[LegalCommand, ...]:
        return self.snapshot.legal

    @property
    def session(self) -> Session:
        """The whole engine state, for the engine's own checks run on the phone (`check_effects`)."""
        return self.snapshot.state

    @property
    def active_heroes(self) -> tuple[Hero, ...]:
        return tuple(h for h in self.heroes if not h.removed)

    def legal_of(self, kind: str) -> LegalCommand | None:
        return next((c for c in self.legal if c.type == kind), None)


def test_target(prompt: Prompt) -> int:
    """A skill test's or a save's N (the prompt's `target`, or the offered roll's), or 0 for any other roll: the
    dice hit on N or more (FF-DICE-06)."""
    return prompt.target or (prompt.roll.target if prompt.roll is not None else 0)
