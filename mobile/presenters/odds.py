""""What are our odds?" for the table as it stands: the question that fits now (which Town size after an Adventure,
each option of the choice waiting), asked of the service (`askOdds`) or, offline, played on the phone with fewer
trials, and every figure said in words a player reads, with its 95% interval ("about 7 in 10 ...").

The figures come from `shared_rules.odds.answer` (the same document the REST and GraphQL doors give); this module
only chooses the question and words the answer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shared_rules import odds
from shared_rules.prompts import PromptKind
from shared_rules.state import Phase

from ..i18n import _
from .asking import question_text
from .table import TableSession

# Each option is played until every chance it reports is within the precision (95%), at most the trials given.
OFFLINE_TRIALS, OFFLINE_PRECISION = 1000, 0.02  # on the phone: +-2 in 100 (a second or a few on a phone's core)
ONLINE_TRIALS, ONLINE_PRECISION = 20_000, 0.01  # on the service's workers: +-1 in 100
HERO_RISKS = (("killed", "killed"), ("gains_mutation", "gains a Mutation"), ("loses_transport", "loses a Transport"))
Runner = Callable[[Callable[[], Any], Callable[[Any, BaseException | None], None]], None]


@dataclass(frozen=True, slots=True)
class OddsCard:
    """One option compared: its name, then each figure as a sentence."""

    label: str
    lines: tuple[str, ...]
    best: tuple[str, ...]  # the headline figures where this option is clearly the best


@dataclass(frozen=True, slots=True)
class OddsView:
    question: str  # "" when no question fits the table now
    note: str  # what the figures rest on (trials, where they were played), or why there is no question
    status: str  # idle | running | done | error
    cards: tuple[OddsCard, ...]
    can_ask: bool


def in_ten(p: float, *, sharp: bool = False) -> str:
    """A chance as a player says it: "about 7 in 10", "fewer than 1 in 100", "almost certain"; `sharp` (known to
    within a few in 100): "about 15 in 100", not a "2 in 10" its range would contradict."""
    if p >= 0.995:
        return _("almost certainly")
    if p < 0.01:
        return _("fewer than 1 in 100")
    if p < 0.095 or sharp:
        return _("about {n} in 100").format(n=max(1, round(p * 100)))
    return _("about {n} in 10").format(n=round(p * 10))


def chance_words(figure: dict[str, Any]) -> str:
    """"about 3 in 10 (likely between 22% and 38%)": the chance and its 95% interval, in hundreds when the
    interval is narrower than 10 in 100."""
    p, ci = figure.get("p"), figure.get("ci")
    if p is None or not ci:
        return _("not known yet")
    low, high = f"{ci[0] * 100:.0f}", f"{ci[1] * 100:.0f}"
    if ci[1] - ci[0] < 0.02:  # within a point either way: whole percents would say "between 4% and 4%"
        low, high = f"{ci[0] * 100:.1f}", f"{ci[1] * 100:.1f}"
    return _("{chance} (likely between {low}% and {high}%)").format(chance=in_ten(p, sharp=ci[1] - ci[0] < 0.1),
                                                                    low=low, high=high)


def mean_words(figure: dict[str, Any]) -> str:
    mean, ci = figure.get("mean"), figure.get("ci")
    if mean is None or not ci:
        return _("not known yet")
    return _("{mean:.1f} on average ({low:.1f} to {high:.1f})").format(mean=mean, low=ci[0], high=ci[1])


def card_of(option: dict[str, Any], comparison: list[dict[str, Any]], *, road: bool = False) -> OddsCard:
    """An option's figures in words: first everyone alive, then the headline figures of the posse that move by
    half a point or more (XP and Gold always)."""
    lines = []
    killed = option.get("chances", {}).get("anyone_killed")
    if killed and killed.get("p") is not None:
        alive = {"p": 1 - killed["p"], "ci": [1 - killed["ci"][1], 1 - killed["ci"][0]]}
        lines.append((_("Reach town with everyone alive: {words}") if road else
                      _("Everyone alive at the end: {words}")).format(words=chance_words(alive)))
    destroyed = option.get("chances", {}).get("buildings_destroyed")
    if destroyed and destroyed.get("p"):
        lines.append(_("Buildings destroyed on arrival: {words}").format(words=chance_words(destroyed)))
    for row in comparison:
        value = row["values"].get(option["key"])
        if value is None or row["figure"].startswith("chance."):
            continue
        if value.get("mean") is not None and (abs(value["mean"]) >= 0.5 or row["label"] in ("XP", "Gold")):
            lines.append(_("{figure} for the posse: {words}").format(figure=_(row["label"]), words=mean_words(value)))
    towns = option.get("town_types", {})
    if towns:
        top = next(iter(towns.items()))
        lines.append(_("Most likely town: {town}, {words}").format(town=top[0], words=in_ten(top[1]["p"])))
    for hero in option.get("heroes", []):
        for key, label in HERO_RISKS:
            figure = hero.get("chances", {}).get(key)
            if figure and figure.get("p") and figure["p"] >= 0.02:
                lines.append(_("{who} {what}: {words}").format(who=hero["name"], what=_(label),
                                                                words=chance_words(figure)))
    best = tuple(_(row["label"]) for row in comparison if row.get("clear") and row.get("best") == option["key"])
    return OddsCard(option["label"], tuple(lines), best)


class OddsPresenter:
    """Asks the question that fits the table and keeps the answer until the table moves on."""

    def __init__(self, table: TableSession, runner: Runner | None = None) -> None:
        self.table = table
        self.runner = runner or self._thread
        self.status = "idle"
        self.answer: dict[str, Any] | None = None
        self.partial: dict[str, Any] | None = None  # the answer so far while the question runs
        self.error = ""
        self._asked_at = -1  # the table version the answer is for

    def question(self) -> tuple[str, dict[str, Any]] | None:
        """The question that fits the table now and its params, or None."""
        read = self.table.read
        prompt = read.prompt
        if prompt is not None:
            if prompt.kind is PromptKind.CHOICE and len(prompt.options) > 1 and not prompt.purpose:
                return "choice", {"prompt": prompt.id}
            return None
        if read.phase is Phase.BETWEEN_ADVENTURES:
            return "town_size", {}
        return None

    def view(self) -> OddsView:
        asked = self.question()
        fresh = self._asked_at == self.table.snapshot.version
        if asked is None:
            return OddsView("", _("Odds are asked when the posse chooses a town size after an Adventure, or at a "
                                  "choice the rules wait on (turn back or ford, pay or fight)."), "idle", (), False)
        title = (_("Which town size?") if asked[0] == "town_size"
                 else question_text(self.table.read.prompt, self.table.hero_name) if self.table.read.prompt else "")
        if self.status == "running":
            so_far = self.partial
            trials = min((so_far or {}).get("done", {}).values() or [0])
            if so_far is None or not trials:
                return OddsView(title, _("Playing it out many times…"), "running", (), False)
            road = so_far.get("question") == "town_size"
            cards = tuple(card_of(option, so_far.get("comparison", []), road=road)
                          for option in so_far.get("options", []))
            return OddsView(title, _("So far, each option played {n} times; the figures sharpen as more come "
                                     "in…").format(n=trials), "running", cards, False)
        if self.status == "error":
            return OddsView(title, self.error, "error", (), True)
        if self.answer is None or not fresh:
            return OddsView(title, _("Play the rest of it out many times from the table as it is now."), "idle", (),
                            True)
        answer = self.answer
        road = answer.get("question") == "town_size"
        cards = tuple(card_of(option, answer.get("comparison", []), road=road) for option in answer.get("options", []))
        played = sorted(answer.get("done", {}).values()) or [0]
        where = _("on the table's service") if self.table.backend.online else _("on this phone")
        if played[0] == played[-1]:
            note = _("Each option played {n} times {where}; the range is where the true figure lies 19 times in "
                     "20.").format(n=played[0], where=where)
        else:  # each option stopped once its chances were sharp enough
            note = _("Each option played {low} to {high} times {where}, until its chances were sharp enough; the "
                     "range is where the true figure lies 19 times in 20.").format(low=played[0], high=played[-1],
                                                                                   where=where)
        return OddsView(title, note, "done", cards, True)

    def ask(self) -> None:
        asked = self.question()
        if asked is None or self.status == "running":
            return
        name, params = asked
        backend = self.table.backend
        state = self.table.read.session
        version = self.table.snapshot.version

        def so_far(answer: dict[str, Any]) -> None:  # on the job's thread: shown on the UI thread
            self.table.post(lambda: self._so_far(answer, version))

        def job() -> dict[str, Any]:
            if backend.online and hasattr(backend, "ask_odds"):
                return backend.ask_odds(name, params, ONLINE_TRIALS, precision=ONLINE_PRECISION,  # type: ignore[no-any-return]
                                        partial=so_far)
            return odds.ask(odds.plan(state, name, params), OFFLINE_TRIALS, seed=version, precision=OFFLINE_PRECISION,
                            partial=so_far)

        def done(result: Any, error: BaseException | None) -> None:
            if error is not None:
                self.status, self.error = "error", _("The odds could not be worked out: {why}").format(
                    why=str(error).split(" (")[0])
            else:
                self.status, self.answer, self._asked_at = "done", result, version
            self.partial = None
            self.table.changed()

        self.status, self.partial = "running", None
        self.table.changed()
        self.runner(job, done)

    def _so_far(self, answer: dict[str, Any], version: int) -> None:
        """A partial answer, shown while the question runs for the table as it was asked."""
        if self.status == "running" and version == self.table.snapshot.version:
            self.partial = answer
            self.table.changed()

    def _thread(self, job: Callable[[], Any], done: Callable[[Any, BaseException | None], None]) -> None:
        """A thread of its own (the table's worker keeps sending commands meanwhile); the result comes back on the
        UI thread through the table's `post`."""
        post = self.table.post

        def run() -> None:
            try:
                result, error = job(), None
            except Exception as exc:  # noqa: BLE001 - shown to the player in words
                result, error = None, exc
            post(lambda: done(result, error))

        threading.Thread(target=run, name="odds", daemon=True).start()
