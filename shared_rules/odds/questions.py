"""Questions a table asks ("which Town size?", "help the Plague Church or not?"), played from its actual state.

A question names the options it compares and plays one trial of an option from the table's state with a
seeded RNG; every trial is measured the same way (each hero's XP, Gold, Wounds ... after minus before, and what
the posse came to), so answers compare like with like. Trial i of every option uses the same seed (common random
numbers), so the options are compared on the same dice as far as their paths agree.

A new question plugs in with `register(MyQuestion())`; a rule area whose prompts can come up mid-way adds how
play carries on from its phase to `CARRY_ON` (the journey carries on to town; the Town Stay and the Adventure
drivers add theirs), and the choice question then plays the rest of that stage too. `DarknessEscapes` below is
a whole question in thirty lines: a single "as we play" option, the Adventure driver (autoplay/adventure.py)
playing N turns, `measure(...)` plus its two figures.

`odds.answer` shows every figure a question measures under `expected` (a hero's own, `<hero id>.*`, under that
hero); a posse figure the screens should compare option against option goes into `odds.HEADLINE`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..commands import Arrive, Choose, RollHazard
from ..engine import apply, autoplay
from ..errors import IllegalCommand, InvalidCommand
from ..flow import Ctx, Policy
from ..frozen import replace
from ..prompts import PromptKind
from ..simulate import HERO_METRICS, NO_TOWN, GritCounter, autoplay_journey, hero_values
from ..state import Phase, Session, TownSize

JOURNEY_FIGURES = ("hazards", "buildings_destroyed", "turned_back")
CATEGORIES = ("town_type", "town_size")


@dataclass(frozen=True, slots=True)
class Choice:
    """One option a question compares: its key (what the request and the answer name) and its words."""

    key: str
    label: str


@dataclass(frozen=True, slots=True)
class Plan:
    """A question ready to run: the table's state (dice rolled by the RNG), the options compared, the params."""

    question: str
    state: Session
    options: tuple[Choice, ...]
    params: Mapping[str, Any]

    def choice(self, key: str) -> Choice:
        return next(c for c in self.options if c.key == key)


Row = tuple[tuple[int, ...], tuple[str, ...]]  # one trial: its metric values and its categories


class Question:
    """A question: which options it compares from a state, and one seeded trial of an option, measured."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""  # in the game's words, for the screen
    params: ClassVar[frozenset[str]] = frozenset()  # what a request may add (beyond trials and seed)
    first_piece: ClassVar[int] = 100  # trials in an option's first piece (a first estimate in a few hundred ms)
    largest_piece: ClassVar[int | None] = None  # at most this many trials a piece (None: the service's chunk)
    stopping_piece: ClassVar[int | None] = None  # and with a precision, at most this many (stops near its target)
    counts_dice: ClassVar[bool] = False  # `trial` takes `dice` (a controls.DiceTally) and lets it roll and draw

    def options(self, state: Session, params: Mapping[str, Any]) -> tuple[Choice, ...]:
        """The options compared; raises InvalidCommand/IllegalCommand naming the field when the question does
        not fit the table now (the refusal is mapped to a 4xx at the service's edge)."""
        raise NotImplementedError

    def trial(self, plan: Plan, option: str, rng: int, dice: Policy | None = None) -> Row:
        """Play one trial of `option` with RNG state `rng` and measure it. A question with `counts_dice` takes
        `dice=` too: an answer source to put before the RNG (`GritCounter(..., dice=dice)`), which rolls the same
        dice and counts how they fell, so its chances come out sharper (`controls`)."""
        raise NotImplementedError

    def metrics(self, plan: Plan) -> tuple[str, ...]:
        """The names of a trial's values, in `trial`'s order."""
        return travel_metrics(plan.state)

    def categories(self, plan: Plan) -> tuple[str, ...]:
        return CATEGORIES


QUESTIONS: dict[str, Question] = {}


def register(question: Question) -> Question:
    """Make a question askable by its name (the API and the CLI list `QUESTIONS`)."""
    if not question.name or question.name in QUESTIONS:
        raise ValueError(f"question {question.name!r}: needs a name of its own")
    QUESTIONS[question.name] = question
    return question


def plan(state: Session, question: str, params: Mapping[str, Any] | None = None) -> Plan:
    """Check that `question` can be asked of the table now and fix the options it compares."""
    asked = QUESTIONS.get(question)
    if asked is None:
        raise InvalidCommand(f"question: unknown question {question!r}; one of {sorted(QUESTIONS)}",
                             field="question")
    params = dict(params or {})
    unknown = sorted(set(params) - asked.params)
    if unknown:
        raise InvalidCommand(f"params.{unknown[0]}: {question!r} takes no {unknown[0]!r}; it takes "
                             f"{sorted(asked.params) or 'nothing more'}", field=f"params.{unknown[0]}")
    if not state.active_heroes:  # every trial plays the posse: with every Hero removed there is nobody to play
        raise InvalidCommand("heroes: every Hero is removed from the campaign; the odds need a Hero in play",
                             field="heroes")
    state = _rolled_by_rng(state)
    return Plan(question, state, asked.options(state, params), params)


def _rolled_by_rng(state: Session) -> Session:
    """The state with every die rolled by the RNG (dice option "server"), the pending rule's checkpoint too."""
    options = replace(state.options, dice="server")
    pending = state.pending
    if pending is not None:
        pending = replace(pending, checkpoint=replace(pending.checkpoint, options=options))
    return replace(state, options=options, pending=pending)


def _keys(params: Mapping[str, Any], name: str, offered: Sequence[Choice]) -> tuple[Choice, ...]:
    """The options a request picked out of those offered (all by default), each at most once."""
    picked = params.get(name)
    if picked is None:
        return tuple(offered)
    keys = [c.key for c in offered]
    if not isinstance(picked, list) or not picked or not all(isinstance(k, str) for k in picked):
        raise InvalidCommand(f"params.{name}: a non-empty list of option keys out of {keys}", field=f"params.{name}")
    for index, key in enumerate(picked):
        if key not in keys:
            raise InvalidCommand(f"params.{name}[{index}]: {key!r} is not one of {keys}", field=f"params.{name}")
        if picked.index(key) != index:
            raise InvalidCommand(f"params.{name}[{index}]: {key!r} named twice", field=f"params.{name}")
    return tuple(c for c in offered if c.key in picked)


# ---- measuring a trial ------------------------------------------------------------------------------------------
def travel_metrics(state: Session) -> tuple[str, ...]:
    """`<hero id>.<metric>` for each hero, `posse.<metric>` (their sum), then `journey.<figure>`."""
    names = [f"{hero.id}.{metric}" for hero in state.heroes for metric in HERO_METRICS]
    names += [f"posse.{metric}" for metric in HERO_METRICS]
    return (*names, *(f"journey.{figure}" for figure in JOURNEY_FIGURES))


def measure(start: Session, end: Session, spent: Sequence[int]) -> Row:
    """A trial's figures: each hero's change from `start` to `end`, the posse's sum, the road and the town."""
    per_hero = [hero_values(before, after, grit)
                for before, after, grit in zip(start.heroes, end.heroes, spent, strict=True)]
    posse = tuple(map(sum, zip(*per_hero, strict=True)))
    travel, town = end.travel, end.town
    start_hazards = len(start.travel.hazards) if start.travel else 0
    road = (len(travel.hazards) - start_hazards if travel else 0,
            sum(1 for slot in town.slots if slot.destroyed) if town else 0,
            int(travel.turned_back) if travel else 0)
    values = tuple(v for row in per_hero for v in row) + posse + road
    return values, (town.town_type if town else NO_TOWN, town.size.value if town else NO_TOWN)


# ---- carrying on after a decision ---------------------------------------------------------------------------------
def _to_town(ctx: Ctx, policy: Policy) -> None:
    """The rest of the journey: every hazard left, then arriving (FT-TRAVEL-03/04)."""
    while ctx.state.phase is Phase.TRAVEL:
        autoplay(ctx, RollHazard(), policy)
    if ctx.state.phase is Phase.ARRIVAL and ctx.state.active_heroes:
        autoplay(ctx, Arrive(), policy)


CARRY_ON: dict[Phase, Callable[[Ctx, Policy], None]] = {Phase.TRAVEL: _to_town, Phase.ARRIVAL: _to_town}


# ---- the questions --------------------------------------------------------------------------------------------------
class WhichTownSize(Question):
    """Which Town size: Small, Medium and Large side by side, each a whole journey from the posse as it is now
    (FT-TRAVEL-01..04): what each hero gains and suffers on the road, and the town it comes to."""

    name = "town_size"
    title = "Which Town size?"
    params = frozenset({"sizes"})

    def options(self, state: Session, params: Mapping[str, Any]) -> tuple[Choice, ...]:
        if state.pending is not None or state.phase is not Phase.BETWEEN_ADVENTURES:
            raise IllegalCommand(
                f"question: 'town_size' is asked when the posse chooses a Town size after an Adventure; the table "
                f"is {'waiting on a prompt' if state.pending is not None else f'in phase {state.phase.value!r}'}",
                field="question", rule="FT-TRAVEL-01")
        offered = tuple(Choice(size.value, f"{size.value.capitalize()} Town") for size in TownSize)
        return _keys(params, "sizes", offered)

    counts_dice = True
    stopping_piece = 100  # with a precision, pieces of a hundred journeys past the first: stopping looks often

    def trial(self, plan: Plan, option: str, rng: int, dice: Policy | None = None) -> Row:
        start = replace(plan.state, rng=rng)
        journey = autoplay_journey(start, option, dice=dice)
        return measure(start, journey.state, journey.grit_spent)


class PendingChoice(Question):
    """At a choice prompt, each option taken in turn: the rest of the rule plays out with the option forced and
    the default policy answering after it, then the stage carries on (the journey on to town)."""

    name = "choice"
    title = "What are the odds of each choice?"
    params = frozenset({"prompt", "options"})

    def options(self, state: Session, params: Mapping[str, Any]) -> tuple[Choice, ...]:
        pending = state.pending
        if pending is None or pending.prompt.kind is not PromptKind.CHOICE:
            waiting = "no prompt is waiting" if pending is None else f"prompt {pending.prompt.id} asks for a " \
                                                                      f"{pending.prompt.kind.value}, not a choice"
            raise IllegalCommand(f"prompt: no choice is pending ({waiting})", field="prompt")
        asked = params.get("prompt")
        if asked is not None and asked != pending.prompt.id:
            raise IllegalCommand(f"prompt: {asked!r} is not the prompt waiting ({pending.prompt.id}: "
                                 f"{pending.prompt.question})", field="prompt", rule=pending.prompt.rule)
        offered = tuple(Choice(option.key, option.label) for option in pending.prompt.options)
        return _keys(params, "options", offered)

    counts_dice = True
    stopping_piece = 100  # with a precision, pieces of a hundred journeys past the first: stopping looks often

    def trial(self, plan: Plan, option: str, rng: int, dice: Policy | None = None) -> Row:
        start = replace(plan.state, rng=rng)
        assert start.pending is not None
        prompt = start.pending.prompt
        counter = GritCounter(start.heroes, dice=dice)
        chosen = next(o for o in prompt.options if o.key == option)
        if prompt.hero is not None and any(cost.field == "grit" for cost in chosen.costs):
            counter.spent[counter.index[prompt.hero]] += 1  # the forced answer spends it by choice
        outcome = apply(start, Choose(option, prompt=prompt.id), policy=counter, quiet=True)
        if outcome.pending is not None:  # the policy answers everything and the RNG rolls: a prompt is a bug
            raise RuntimeError(f"odds: stopped at prompt {outcome.pending.question!r} after choosing {option!r}")
        ctx = Ctx(outcome.state, outcome.state.rng, quiet=True)
        carry_on = CARRY_ON.get(ctx.state.phase)
        if carry_on is not None:
            carry_on(ctx, counter)
        return measure(start, ctx.state, counter.spent)


register(WhichTownSize())
register(PendingChoice())


class TownMission(Question):
    """The chance to win a Town Mission with these heroes ("chance to win Bank Robbery with these four heroes"):
    each Mission named is set up from the posse as it is and played to its end by the autoplay's plain table
    (`autoplay.adventure.next_command`: the Bandits by their AI, the heroes attacking the weakest Enemy with the
    house combat procedure) and `default_policy`; measured like every question, plus won and turns played.

    params: `missions` (keys, default ["bank_robbery"]), `layout` (the Depth Track's spaces, unless the pack has a
    `track`), `sheets` (the heroes' sheet numbers the pack lacks: Initiative, combat ...), `turns` (default 20).
    """

    name = "town_mission"
    counts_dice = True
    title = "What are the odds of winning this Town Mission?"
    params = frozenset({"missions", "layout", "track", "sheets", "turns"})
    first_piece, largest_piece = 10, 50  # an Adventure costs ~30 ms: small pieces, a first estimate soon

    def options(self, state: Session, params: Mapping[str, Any]) -> tuple[Choice, ...]:
        from ..rules.adventure import MISSIONS
        from ..rules.missions import TOWN_MISSIONS

        if state.pending is not None or state.phase is not Phase.BETWEEN_ADVENTURES:
            raise IllegalCommand("question: 'town_mission' is asked between Adventures, before the Mission starts",
                                 field="question", rule="FT-MIS-00")  # fmt: skip
        offered = tuple(Choice(key, MISSIONS[key].title) for key in TOWN_MISSIONS)
        chosen = _keys({"missions": params.get("missions", ["bank_robbery"])}, "missions", offered)
        _turns(params)
        _try_start(state, self._start(state, chosen[0].key, params))
        return chosen

    def _start(self, state: Session, mission: str, params: Mapping[str, Any]) -> Any:
        return _start_adventure(state, mission, params)

    def metrics(self, plan: Plan) -> tuple[str, ...]:
        return (*travel_metrics(plan.state), "mission.won", "mission.turns")

    def trial(self, plan: Plan, option: str, rng: int, dice: Policy | None = None) -> Row:
        from ..autoplay.adventure import play_adventure

        start = replace(plan.state, rng=rng, options=replace(plan.state.options, combat="house"))
        counter = GritCounter(start.heroes, dice=dice)
        begun = apply(start, self._start(start, option, plan.params), policy=counter, quiet=True).state
        run = play_adventure(begun, policy=counter, max_turns=int(plan.params.get("turns", 20)))
        values, categories = measure(start, run.state, counter.spent)
        return (*values, int(run.won), run.turns), categories


def _start_adventure(state: Session, mission: str, params: Mapping[str, Any]) -> Any:
    """The StartAdventure command of a question's params (`layout`, `track`, `sheets`), the first hero with the
    Old Lantern."""
    from ..codec import decode
    from ..commands import SheetEntry, StartAdventure
    from ..state import TrackSpace

    layout = tuple(decode(tuple[TrackSpace, ...], params.get("layout", []), "params.layout"))
    sheets = tuple(decode(tuple[SheetEntry, ...], params.get("sheets", []), "params.sheets"))
    track = params.get("track", "")
    if not isinstance(track, str):
        raise InvalidCommand("params.track: the name of a content pack's Depth Track", field="params.track")
    return StartAdventure(state.active_heroes[0].id, mission, track, layout, sheets)


def _try_start(state: Session, command: Any) -> None:
    """Set the Adventure up once here, so a layout, track or sheet the rules refuse is a 4xx naming the param
    (`params.layout`, `params.sheets[hero=h1].initiative`) rather than a failed job."""
    try:
        apply(state, command, policy=_policy())
    except (InvalidCommand, IllegalCommand) as refused:
        if refused.field.split("[")[0].split(".")[0] not in ("layout", "track", "sheets"):
            raise
        raise type(refused)(f"params.{refused.message}", field=f"params.{refused.field}", rule=refused.rule) from None


def _turns(params: Mapping[str, Any]) -> int:
    turns = params.get("turns", 20)
    if not isinstance(turns, int) or isinstance(turns, bool) or not 1 <= turns <= 60:
        raise InvalidCommand("params.turns: 1-60 turns at most per trial", field="params.turns")
    return turns


def _policy() -> Any:
    from ..simulate import default_policy

    return default_policy


register(TownMission())


class DarknessEscapes(Question):
    """Will the Darkness escape within N turns (FF-DEPTH-09)? The posse as it is sets out on the core Mission
    (Lost Contact) on the Depth Track of `layout` or `track`, played by the autoplay's plain table
    (`autoplay.adventure.next_command`) and `default_policy` for at most `turns` turns (default 20); measured like
    every question, plus whether the Darkness escaped (`adventure.escaped`) and the turns played.

    params: `layout` or `track`, `sheets` (the heroes' sheet numbers the pack lacks), `turns`.
    """

    name = "darkness_escapes"
    counts_dice = True
    title = "Will the Darkness escape?"
    params = frozenset({"layout", "track", "sheets", "turns"})
    first_piece, largest_piece = 10, 50  # an Adventure costs ~30 ms: small pieces, a first estimate soon
    mission = "lost_contact"

    def options(self, state: Session, params: Mapping[str, Any]) -> tuple[Choice, ...]:
        if state.pending is not None or state.phase is not Phase.BETWEEN_ADVENTURES:
            raise IllegalCommand("question: 'darkness_escapes' is asked between Adventures, before one starts",
                                 field="question", rule="FF-DEPTH-09")  # fmt: skip
        _turns(params)
        _try_start(state, _start_adventure(state, self.mission, params))
        return (Choice("as_we_play", "As the posse plays"),)

    def metrics(self, plan: Plan) -> tuple[str, ...]:
        return (*travel_metrics(plan.state), "adventure.escaped", "adventure.turns")

    def trial(self, plan: Plan, option: str, rng: int, dice: Policy | None = None) -> Row:
        from ..autoplay.adventure import play_adventure

        start = replace(plan.state, rng=rng, options=replace(plan.state.options, combat="house"))
        counter = GritCounter(start.heroes, dice=dice)
        begun = apply(start, _start_adventure(start, self.mission, plan.params), policy=counter, quiet=True).state
        run = play_adventure(begun, policy=counter, max_turns=_turns(plan.params))
        values, categories = measure(start, run.state, counter.spent)
        return (*values, int(run.escaped_on is not None), run.turns), categories


register(DarknessEscapes())
