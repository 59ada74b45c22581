"""How a rule runs: a generator that yields requests (a roll, a choice, a card) and reads like the rulebook.

The driver answers each request from, in order: the answers recorded so far (a resumed rule replays them),
the answer the incoming command brings, the dice the table typed in, a policy (simulation, CLI), the session
RNG (dice option "server"), and otherwise stops at a prompt. Same state + same command + same dice = same outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeVar

from .commands import CardEntry, Choose, Command, Effect, EnterCard, Faces, Reroll, RollDice
from .content import pack
from .dice import DieKind, Roll, as_word, from_word, pick_word, roll_word, validate_faces
from .effects import check_effects, holds, item_id
from .errors import IllegalCommand, InvalidCommand
from .events import BanditPlan, Change, Event, EventType, Fact
from .frozen import evolve, replace
from .prompts import (
    Ahead,
    AheadCard,
    Answer,
    Asks,
    HeroDice,
    Option,
    Pending,
    Prompt,
    PromptKind,
    Reads,
    Says,
    Standing,  # fmt: skip
)
from .state import MAX_SKILL, SKILLS, Hero, Item, ItemTag, Session, Skills, bounded

if TYPE_CHECKING:  # a machine word to mypyc (the compiled build); only an annotation to the interpreter
    from mypy_extensions import i64

Said = tuple[tuple[str, int | str | bool], ...]
"""A prompt's facts as a rule gives them, (name, value) pairs (names in `events.FACTS`): made `Fact`s only when the
request becomes a prompt, so a bulk run builds none."""


@dataclass(slots=True)  # a message from a rule to the driver, never state: built mutable, as it is cheaper
class RollRequest:
    kind: DieKind
    purpose: str
    hero: str | None = None
    pool: int = 1
    target: int = 0
    chart: bool = False
    rule: str = ""
    reads: Reads | None = None  # what the rules read (None: the usual reading of `kind` and `target`)
    doubles: bool = False  # natural doubles change the outcome (FF-DICE-07)
    then: tuple[HeroDice, ...] = ()  # the heroes who take the same roll next: the table may type theirs too
    grit: bool = False  # a Grit re-roll of the dice that miss may be offered next (FF-GRIT-01): `roll` keep declines
    card: str = ""  # the chart whose card the table reads with these dice next (no chart in the pack): `roll` card
    asks: Asks = Asks.ROLL  # what the roll is for, as a key (`Prompt.asks`), with `said` its facts
    said: Said = ()


@dataclass(slots=True)
class ChoiceRequest:
    question: str
    options: tuple[Option, ...]
    hero: str | None = None
    rule: str = ""
    alike: str = ""  # the question each hero is asked in turn ("loss"): one answer may stand for all (Standing)
    next_heroes: tuple[str, ...] = ()  # every hero is asked it in turn: those asked after this one
    asks: Asks | None = None  # what is asked, as a key (`Prompt.asks`), with `said` its facts (`choose` names one)
    said: Said = ()


@dataclass(slots=True)
class DrawRequest:
    """A random pick among named things (a Random Hero, a Building token): the RNG or the table decides.

    Uniform unless `weights` (one per thing) says how many of each there are (copies of a card in a deck). The
    things are (key, label) pairs; their `options` are built only when asked (a prompt, a typed answer), as the
    RNG draws straight from `picks`."""

    purpose: str
    picks: tuple[tuple[str, str], ...]
    rule: str = ""
    weights: tuple[int, ...] = ()
    asks: Asks = Asks.DRAW  # what is drawn, as a key (`Prompt.asks`), with `said` its facts
    said: Said = ()

    @property
    def options(self) -> tuple[Option, ...]:
        return tuple(Option(key, label) for key, label in self.picks)


@dataclass(slots=True)
class RerollRequest:
    roll: Roll
    hero: str
    rule: str = ""
    reads: Reads = Reads.HITS  # ONES when the rule counts the 1s too (Shadows Out of Time)
    said: Said = ()  # the test's facts (skill, target, name): the prompt asks `grit_reroll`


@dataclass(slots=True)
class CardRequest:
    chart: str
    question: str
    hero: str
    rule: str = ""
    roll: Roll | None = None


Request = RollRequest | ChoiceRequest | DrawRequest | RerollRequest | CardRequest
T = TypeVar("T")
Steps = Generator[Request, Any, T]  # a rule or a piece of one that yields requests and returns a T
Procedure = Generator[Request, Any, Any]
Policy = Callable[["Ctx", Request], Answer | None]


@dataclass(frozen=True, slots=True)
class SkillBonus:
    """What a rule adds to one skill as tested now, while `applies(state)` holds (Blood Moon: +1 Spirit). The skill
    is data, so a test of another skill asks nothing."""

    skill: str
    amount: int
    applies: Callable[[Session], bool]


SKILL_BONUSES: Final[list[SkillBonus]] = []
"""The rule areas' skill bonuses; the engine fills it when it loads the areas (`Area.skill_bonuses`)."""

class Requests:
    """The requests a rule makes, with no session behind them: each one is yielded for the one driver (`drive`)
    to answer from its sources (a command's answers and dice, a policy, the RNG; the board's given dice). The
    engine's `Ctx` is a `Requests` with a session, which writes the rolls and choices as events."""

    __slots__ = ()

    def _rolled(self, roll: Roll, rule: str, asks: Asks = Asks.ROLL, said: Said = ()) -> None:
        """What the driver does with a roll it answered: nothing here (no session, no events)."""

    def _answered(self, request: ChoiceRequest | DrawRequest, key: str, *, how: str = "choice") -> str:
        return key

    def _after(self, hero: str) -> tuple[str, ...]:
        """The heroes after `hero` in posse order ("each Hero ..." asks them next): none without a session."""
        return ()

    def roll(
        self,
        kind: DieKind,
        purpose: str,
        *,
        hero: str | None = None,
        pool: int = 1,
        target: int = 0,
        chart: bool = False,
        rule: str = "",
        reads: Reads | None = None,
        doubles: bool = False,
        then: tuple[HeroDice, ...] = (),
        grit: bool = False,
        card: str = "",
        asks: Asks = Asks.ROLL,
        said: Said = (),
    ) -> Generator[Request, Any, Roll]:
        """Ask for a roll; it lands in a `rolled` event with its purpose. `reads` and `doubles` say what the rules
        read from the dice when it is not the usual (the hits of a pool at a target, the total of a chart); `then`
        the heroes who take the same roll next, whose faces the table may type with this one; `grit` that a Grit
        re-roll offer may follow, which the table may decline with the dice (`RollDice.keep`); `card` the chart
        whose card the table reads with these dice next, which it may answer with them (`RollDice.card`); `asks`
        what the roll is for as a key, with `said` its facts (a client words the prompt from them; `Asks.ROLL`: from
        `purpose`)."""
        if kind is DieKind.POOL and pool <= 0:
            return Roll(purpose, kind, (), hero, "none", target, chart)
        result: Roll = yield RollRequest(kind, purpose, hero, pool, target, chart, rule, reads, doubles, then, grit,
                                           card, asks, said)  # fmt: skip
        return result

    # the chart rolls below ask for their roll themselves, not through `roll`: a generator less per roll
    def d6(self, purpose: str, *, hero: str | None = None, rule: str = "", asks: Asks = Asks.ROLL,
           said: Said = ()) -> Generator[Request, Any, int]:  # fmt: skip
        roll: Roll = yield RollRequest(DieKind.D6, purpose, hero, 1, 0, True, rule, asks=asks, said=said)
        return roll.value

    def d3(self, purpose: str, *, hero: str | None = None, rule: str = "", asks: Asks = Asks.ROLL,
           said: Said = ()) -> Generator[Request, Any, int]:  # fmt: skip
        roll: Roll = yield RollRequest(DieKind.D3, purpose, hero, 1, 0, True, rule, asks=asks, said=said)
        return roll.value

    def two_d6(self, purpose: str, *, hero: str | None = None, rule: str = "", asks: Asks = Asks.ROLL,
               said: Said = ()) -> Generator[Request, Any, int]:  # fmt: skip
        roll: Roll = yield RollRequest(DieKind.TWO_D6, purpose, hero, 1, 0, True, rule, asks=asks, said=said)
        return roll.value

    def dice(
        self, count: int, purpose: str, *, hero: str | None = None, rule: str = "", asks: Asks = Asks.ROLL,
        said: Said = (),
    ) -> Generator[Request, Any, tuple[int, ...]]:
        """Roll `count` D6 at once ("a D6 for each ..."); returns the faces in order."""
        if count <= 0:
            return ()
        roll: Roll = yield RollRequest(DieKind.POOL, purpose, hero, count, 0, True, rule, asks=asks, said=said)
        return roll.faces

    def choose(
        self,
        question: str,
        options: Sequence[Option | tuple[str, str]],
        *,
        hero: str | None = None,
        asks: Asks,
        said: Said = (),
        rule: str = "",
        alike: str = "",
        each: bool = False,
    ) -> Generator[Request, Any, str]:
        """Ask the hero (or the posse) to pick one option; a single option is taken without asking. `asks` is what
        is asked as a key, `said` its facts: a client words the question from them (`question` is the English).

        Options that mean something beyond their key (taking part, a cost, a test) are given as `Option`s. `alike`
        names a question each hero is asked in turn with options that mean the same for everyone ("Each Hero may
        ..."): the table may answer it once "the same for everyone" (`Choose.everyone`). `each`: every Hero is
        asked it in turn (`for hero in ctx.heroes()`), so the prompt names who is asked next and the table may
        answer for each of them at once (`Choose.then`).
        """
        offered = tuple(o if isinstance(o, Option) else Option(o[0], o[1]) for o in options)
        if len(offered) == 1:
            return offered[0].key
        later = self._after(hero) if each and alike and hero is not None else ()
        choice: str = yield ChoiceRequest(question, offered, hero, rule, alike if hero is not None else "", later,
                                          asks, said)  # fmt: skip
        return choice

    def draw(
        self, purpose: str, options: Sequence[tuple[str, str]], *, rule: str = "", weights: Sequence[int] = (),
        asks: Asks = Asks.DRAW, said: Said = (),
    ) -> Generator[Request, Any, str]:
        """Pick at random among `options`, uniformly or by `weights` (the RNG, or the table says what it drew);
        `asks` names what is drawn as a key (`Asks.DRAW`: `purpose` says it, in English)."""
        if len(options) == 1:
            return options[0][0]
        picked: str = yield DrawRequest(purpose, tuple(options), rule, tuple(weights), asks, said)
        return picked


class Ctx(Requests):
    """The working state of one command: rules read heroes and change them here; every change becomes an event.

    `quiet` records no events (bulk runs read only the states), except the kinds named in `keep` (a bulk
    Adventure reads how it ended). The rules' requests are answered by the one driver (`drive`); `rng` is the
    session RNG it rolls with.
    """

    __slots__ = ("_state", "_heroes", "_where", "_changed", "events", "_word", "quiet", "keep")

    def __init__(self, state: Session, rng: int, *, quiet: bool = False, keep: frozenset[str] = frozenset()) -> None:
        self._state = state
        self._heroes: list[Hero] | None = None  # the heroes as read and changed, made on the first read
        self._where: dict[str, int] = {}  # each hero's place in `_heroes`, made with it
        self._changed = False  # `_heroes` holds changes `_state.heroes` does not have yet
        self.events: list[Event] = []
        self._word = as_word(rng)  # the RNG state as one machine word while the command runs (dice.as_word)
        self.quiet = quiet
        self.keep = keep  # event kinds (their values) recorded even when quiet

    @property
    def rng(self) -> int:
        """The session RNG's state as rolled so far."""
        return from_word(self._word)

    @property
    def state(self) -> Session:
        """The working state. Hero changes are kept aside and folded in when the state is read, so a run of
        changes copies the Session once, not once per change."""
        if self._changed and self._heroes is not None:
            self._state = self._state.with_value("heroes", tuple(self._heroes))
            self._changed = False
        return self._state

    @state.setter
    def state(self, value: Session) -> None:
        self._state = value
        self._heroes = None
        self._changed = False

    @property
    def state_but_heroes(self) -> Session:
        """The working state with every field but `heroes` as the command left it (read the heroes with `hero()`
        and `heroes()`): a read that copies nothing, where `state` folds the heroes kept aside into a new Session.
        A bulk run asks the phase and the road after every command; the next `update` folds the heroes for free."""
        return self._state

    # ---- reading -------------------------------------------------------------------------------------------
    def _posse(self) -> list[Hero]:
        """The heroes as changed so far, in posse order: the one list every read and change of a hero uses, and
        where each one stands in it."""
        heroes = self._heroes
        if heroes is None:
            heroes = self._heroes = list(self._state.heroes)
            self._where = {hero.id: index for index, hero in enumerate(heroes)}
        return heroes

    def hero(self, hero_id: str) -> Hero:
        """The hero as changed so far (KeyError for an unknown id); rules read one ~90 times a journey: a change
        replaces the hero in its place, so the places stay as they were made."""
        heroes = self._heroes if self._heroes is not None else self._posse()
        return heroes[self._where[hero_id]]

    def heroes(self) -> list[str]:
        """The ids of the heroes still in the game, in posse order ("each Hero ...")."""
        return [hero.id for hero in self._posse() if not hero.removed]

    def name(self, hero_id: str) -> str:
        return self.hero(hero_id).name

    def _after(self, hero: str) -> tuple[str, ...]:
        if self.quiet:  # a bulk run shows no prompt: nobody to name
            return ()
        heroes = self.heroes()
        return tuple(heroes[heroes.index(hero) + 1 :]) if hero in heroes else ()

    def skill(self, hero_id: str, skill: str) -> int:
        """A skill as tested now: the hero's sheet plus what the rule areas add (`SKILL_BONUSES`: Blood Moon's +1
        Spirit, FT-TRAVEL-D25, lives in the travel area)."""
        value = self.hero(hero_id).skills.level(skill)
        for bonus in SKILL_BONUSES:
            if bonus.skill == skill and bonus.applies(self._state):
                value += bonus.amount
        return max(0, value)

    # ---- events --------------------------------------------------------------------------------------------
    def tells(self, type: EventType | str) -> bool:
        """Whether an event of this kind is recorded: a rule whose event's words cost more than the event (a town's
        every Location named) asks first, so a quiet run builds none of them."""
        return not self.quiet or (bool(self.keep) and (type.value if isinstance(type, EventType) else type) in self.keep)

    def emit(
        self,
        type: EventType | str,
        text: str,
        *,
        hero: str | None = None,
        rule: str = "",
        changes: tuple[Change, ...] = (),
        roll: Roll | None = None,
        bandit: BanditPlan | None = None,
        **facts: int | str | bool,
    ) -> None:
        """Log an event: its kind, its English line and the facts a client words it from (`skill="agility"`,
        `target=5`; names in `events.FACTS`). Nothing is built when quiet, unless its kind is kept."""
        if self.tells(type):
            found = tuple(Fact(name, value) for name, value in facts.items()) if facts else ()
            self.events.append(Event(EventType(type), text, hero, rule, changes, roll, bandit, found))  # an unknown kind is a bug

    # ---- changing heroes: the one place that keeps every value in bounds ------------------------------------
    def _put(self, hero: Hero) -> None:
        heroes = self._posse()
        heroes[self._where[hero.id]] = hero
        self._changed = True

    def change(self, hero_id: str, field: str, delta: int, *, rule: str, why: str = "") -> int:
        """Add `delta` to a hero value, kept within its bounds; returns the change actually made (A8: Gold floors at $0)."""
        heroes = self._posse()
        at = self._where[hero_id]
        hero = heroes[at]
        before: int = getattr(hero, field)  # typed: the compiled build then adds and compares machine integers
        after = bounded(hero, field, before + delta)
        if after == before:
            if delta > 0 and field == "grit":
                self.emit("grit_lost", f"{hero.name} is at Max Grit; the Grit is lost", hero=hero_id, rule="FF-GRIT-07",
                          count=delta)  # fmt: skip
            return 0
        hero = heroes[at] = _reclamp(_with(hero, field, after))
        self._changed = True
        if not self.quiet:
            text, moved = _describe(hero, field, before, after, why), (Change(field, before, after),)
            shown = _shown_max(hero, field, after - before)
            if shown is None:
                self.emit("changed", text, hero=hero_id, rule=rule, changes=moved, why=why)
            else:  # a permanent change: the max it moved (Max Sanity 10 -> 9), not the modifier
                self.emit("changed", text, hero=hero_id, rule=rule, changes=moved, why=why, max_before=shown[0],
                          max_after=shown[1])  # fmt: skip
            if hero.knocked_out and not _ko(self.state, hero_id, before, field):
                self.emit("knocked_out", f"{hero.name} is KO'd", hero=hero_id, rule="FF-HERO-02")
        if field == "grit" and before + delta > after:  # a partial overflow is announced too (FF-GRIT-07)
            self.emit(
                "grit_lost",
                f"{hero.name} is at Max Grit; {before + delta - after} more Grit is lost",
                hero=hero_id,
                rule="FF-GRIT-07",
                count=before + delta - after,
            )
        return after - before

    def set_value(
        self, hero_id: str, field: str, value: Any, *, rule: str, why: str = "", skill: str = "", level: int = 0
    ) -> None:
        """Set a hero field outright (flags such as `bag_torn`, `scratch_deal`, `removed`, or the skills: then
        `skill` and its new `level` are the event's facts)."""
        hero = self.hero(hero_id)
        before = getattr(hero, field)
        if before == value:
            return
        self._put(_reclamp(_with(hero, field, value)))
        text = f"{hero.name}: {field.replace('_', ' ')} {before} -> {value}" + (f" ({why})" if why else "")
        if skill:  # the one skill's level, not the whole sheet
            moved: tuple[Change, ...] = (Change(field, getattr(before, skill), level),)
        elif isinstance(value, tuple):  # a Mutation or keyword gained or lost: its name, as an item's is given
            moved = tuple(Change(field, "", name) for name in value if name not in before) + tuple(
                Change(field, name, "") for name in before if name not in value)
        else:
            moved = (Change(field, before, value),)
        if skill:
            self.emit("changed", text, hero=hero_id, rule=rule, changes=moved, why=why, skill=skill, value=level)
        else:
            self.emit("changed", text, hero=hero_id, rule=rule, changes=moved, why=why)

    def remove_item(self, hero_id: str, item_id: str, *, rule: str, why: str = "") -> Item:
        hero = self.hero(hero_id)
        item = next(i for i in hero.items if i.id == item_id)
        self._put(evolve(hero, {"items": tuple(i for i in hero.items if i.id != item_id)}))
        self.emit(
            "item_lost",
            f"{hero.name} loses {item.name}" + (f" ({why})" if why else ""),
            hero=hero_id,
            rule=rule,
            changes=(Change("items", item.name, ""),),
            item=item.name,
            why=why,
        )
        return item

    def add_item(self, hero_id: str, item: Item, *, rule: str, why: str = "") -> None:
        hero = self.hero(hero_id)
        taken = {i.id for i in hero.items}
        if item.id in taken:
            n = 2
            while f"{item.id}-{n}" in taken:
                n += 1
            item = replace(item, id=f"{item.id}-{n}")
        self._put(evolve(hero, {"items": (*hero.items, item)}))
        self.emit(
            "item_gained",
            f"{hero.name} gains {item.name}" + (f" ({why})" if why else ""),
            hero=hero_id,
            rule=rule,
            changes=(Change("items", "", item.name),),
            item=item.name,
            why=why,
        )

    def add_token(self, hero_id: str, token: str, *, rule: str) -> bool:
        """Put a token in the Side Bag if there is room (FF-HERO-08); returns whether it fit."""
        hero = self.hero(hero_id)
        if len(hero.side_bag) >= hero.side_bag_capacity:
            self.emit(
                "token_lost",
                f"{hero.name}'s Side Bag is full: no room for {token}",
                hero=hero_id,
                rule="FF-HERO-08",
                token=token,
                reason="full",
            )
            return False
        self._put(evolve(hero, {"side_bag": (*hero.side_bag, token)}))
        self.emit(
            "token_gained",
            f"{hero.name} gains a {token} token",
            hero=hero_id,
            rule=rule,
            changes=(Change("side_bag", "", token),),
            token=token,
        )
        return True

    def gain_token(self, hero_id: str, token: str, *, rule: str) -> Generator[Request, Any, bool]:
        """A token a rule gives: into the Side Bag, or, when it is full (FF-HERO-08), the hero chooses which token
        to leave, the new one or one already held (never lost without asking). Returns whether the new one is kept."""
        hero = self.hero(hero_id)
        if len(hero.side_bag) < hero.side_bag_capacity:
            return self.add_token(hero_id, token, rule=rule)
        options = [Option("new", f"Leave the new {token} token", says=Says.LEAVE_NEW_TOKEN,
                          facts=(Fact("token", token),))] + [
            Option(str(i), f"Leave a {held} token to take the {token}", says=Says.LEAVE_TOKEN,
                   facts=(Fact("token", held), Fact("name", token))) for i, held in enumerate(hero.side_bag)
        ]  # fmt: skip
        left = yield from self.choose(
            f"{hero.name}'s Side Bag is full ({len(hero.side_bag)} of {hero.side_bag_capacity} tokens, FF-HERO-08): "
            f"which token do you leave?", options, hero=hero_id, rule="FF-HERO-08", asks=Asks.SIDE_BAG_FULL,
            said=(("token", token), ("count", len(hero.side_bag)), ("number", hero.side_bag_capacity)),
        )  # fmt: skip
        if left == "new":
            self.emit("token_lost", f"{hero.name}'s Side Bag is full: {hero.name} leaves the {token} token",
                      hero=hero_id, rule="FF-HERO-08", token=token, reason="left")  # fmt: skip
            return False
        self.remove_token(hero_id, int(left), rule="FF-HERO-08", why=f"left to make room for {token}")
        return self.add_token(hero_id, token, rule=rule)

    def remove_token(self, hero_id: str, index: int, *, rule: str, why: str = "") -> str:
        hero = self.hero(hero_id)
        token = hero.side_bag[index]
        self._put(evolve(hero, {"side_bag": hero.side_bag[:index] + hero.side_bag[index + 1 :]}))
        self.emit(
            "token_lost",
            f"{hero.name} loses a {token} token" + (f" ({why})" if why else ""),
            hero=hero_id,
            rule=rule,
            changes=(Change("side_bag", token, ""),),
            token=token,
            why=why,
        )
        return token

    def update(self, **changes: Any) -> None:
        """Replace top-level session fields (travel, town, carry, phase); the heroes kept aside go into the same
        copy of the Session."""
        if "heroes" in changes:
            self.state = evolve(self.state, changes)
            return
        if self._changed and self._heroes is not None:
            changes["heroes"] = tuple(self._heroes)
            self._changed = False
        self._state = self._state.with_values(changes)

    def carry(self, rule: str, text: str, *, reason: str, count: int | None = None, **changes: Any) -> None:
        """Set a flag that carries into the Town Stay or the next Adventure (FT-TRAVEL-05); `reason` names which
        (a stable key the client words), `count` its number when it has one."""
        self._state = evolve(self._state, {"carry": evolve(self._state.carry, changes)})
        if count is None:
            self.emit("carry", text, rule=rule, reason=reason)
        else:
            self.emit("carry", text, rule=rule, reason=reason, count=count)

    # ---- requests built from the plain ones (use with `yield from`) ------------------------------------------
    def skill_test(
        self,
        hero_id: str,
        skill: str,
        target: int,
        purpose: str,
        *,
        rule: str,
        counts: bool = False,
        reads: Reads = Reads.HITS,
        each: bool = False,
    ) -> Generator[Request, Any, Roll]:
        """A Skill test: one die per skill point, each at or above `target` a success (FF-DICE-06, A1).

        The hero may then spend Grit to re-roll their own dice, never a die twice (FF-GRIT-01/02). The offer is
        made while it can still change the outcome: after a failed test, or, when the rule reads the dice
        themselves (`counts`: "for each 6+", the successes of all helpers summed, "for every 1 rolled"), while a
        die below the target is left to re-roll.

        `each`: the rule has every Hero take this test in turn ("Each Hero must make ...", `for hero in
        ctx.heroes()`), so the prompt names the heroes after this one and their dice: the table may type the whole
        posse's dice at once (`RollDice.then`), each hero's still their own roll and Grit re-roll offer.
        """
        if skill not in SKILLS:
            raise ValueError(skill)
        dice = self.skill(hero_id, skill)
        # the roll's words ("Spirit 5+ test"), read by a table's prompt and events only: a quiet run has neither
        label = purpose if self.quiet else f"{purpose}: {skill.capitalize()} {target}+ test"
        then: tuple[HeroDice, ...] = ()
        if each and not counts and not self.quiet:
            then = tuple(HeroDice(h, n) for h in self._after(hero_id) if (n := self.skill(h, skill)) > 0)
        said: Said = (("skill", skill), ("target", target), ("name", purpose))
        if dice <= 0:  # no die to roll: the test fails (as `roll` answers an empty pool)
            roll = Roll(label, DieKind.POOL, (), hero_id, "none", target)
        else:  # asked here, not through `roll`: a generator less per test
            roll = yield RollRequest(DieKind.POOL, label, hero_id, dice, target, False, rule, reads, False, then,
                                     self.grit_offered(hero_id), asks=Asks.SKILL_TEST, said=said)  # fmt: skip
        while (
            self._state.options.offer_grit_rerolls
            and self.hero(hero_id).grit >= 1
            and (counts or not roll.passed)
            and any(f < target and i not in roll.rerolled for i, f in enumerate(roll.faces))
        ):
            indices: tuple[int, ...] = yield RerollRequest(roll, hero_id, "FF-GRIT-01", reads, said)
            if not indices:
                break
            self.change(hero_id, "grit", -1, rule="FF-GRIT-01",
                        why=purpose if self.quiet else f"re-roll for {purpose}")  # fmt: skip
            # the re-rolled dice hit as the test's did (its target): the table may count them in one tap
            again: Roll = yield RollRequest(DieKind.POOL, label if self.quiet else f"{label} (re-roll)", hero_id,
                                            len(indices), target, False, "FF-GRIT-02", reads, asks=Asks.SKILL_REROLL,
                                            said=said)  # fmt: skip
            roll = roll.with_rerolls(indices, again.faces)
        if not self.quiet:
            self.emit(
                "test",
                f"{self.name(hero_id)} {'passes' if roll.passed else 'fails'} the {label} "
                f"({roll.successes} success{'es' if roll.successes != 1 else ''})",
                hero=hero_id,
                rule=rule,
                roll=roll,
                skill=skill,
                target=target,
                passed=roll.passed,
                successes=roll.successes,
                purpose=purpose,
            )
        return roll

    def grit_offered(self, hero_id: str) -> bool:
        """Whether the hero's own roll may be followed by a Grit re-roll offer: the session offers them and the
        hero has Grit to spend (FF-GRIT-01)."""
        return self._state.options.offer_grit_rerolls and self.hero(hero_id).grit >= 1

    def random_hero(
        self, purpose: str, *, exclude: tuple[str, ...] = (), rule: str = ""
    ) -> Generator[Request, Any, str | None]:
        """A Random Hero among those still in the game (FT-DICE-03, A10: travel effects include every hero)."""
        pool = [(h, self.name(h)) for h in self.heroes() if h not in exclude]
        if not pool:
            return None
        return (yield from self.draw(purpose, pool, rule=rule, asks=Asks.RANDOM_HERO))

    def card(
        self, hero_id: str, chart: str, question: str, *, rule: str, die: DieKind | None = None
    ) -> Generator[Request, Any, Answer]:
        """Resolve a chart or card the rulebooks lack (Injury, Madness, Gear, Artifact ...) and apply its effects.

        With the chart in the session's content pack the engine rolls it (`die` overrides the chart's die, as
        Stampede's 3D6-drop-lowest does); otherwise the table is asked what the physical card or chart says.
        """
        table = pack(self._state.pack).charts.get(chart)
        if table is not None:
            roll = yield from self.roll(die or table.die, f"{chart} chart", hero=hero_id, chart=True, rule=rule,
                                        asks=Asks.CHART, said=(("chart", chart),))  # fmt: skip
            low, high = table.entries[0].low, table.entries[-1].high
            entry = table.entry(min(high, max(low, roll.value)))
            answer = Answer("card", effects=entry.effects, text=entry.text)
        else:
            answer = yield CardRequest(chart, question, hero_id, rule)
        self.emit("card", f"{self.name(hero_id)}: {answer.text or chart}", hero=hero_id, rule=rule, chart=chart,
                  card_text=answer.text)  # fmt: skip
        for effect in answer.effects:
            apply_effect(self, hero_id, effect, rule=rule, field="effects")
        return answer

    # ---- what the driver does with an answer: the events of a roll and of a choice ------------------------------
    def _rolled(self, roll: Roll, rule: str, asks: Asks = Asks.ROLL, said: Said = ()) -> None:
        """The `rolled` event: who rolled what, for what; a keyed roll says what for as its prompt does (`asks` and
        the facts `said`), so a client words it without the English `purpose`."""
        if self.quiet:
            return
        who = f"{self.name(roll.hero)} rolled" if roll.hero else "Rolled"
        shown = ",".join(map(str, roll.faces))
        value = f" = {roll.value}" if roll.kind not in (DieKind.POOL, DieKind.D6, DieKind.D3) else ""
        if roll.kind is DieKind.D3:
            value = f" (D3: {roll.value})"  # the D6 face and how it reads as a D3 (FF-DICE-02)
        facts = dict(said, asks=asks.value) if asks is not Asks.ROLL else {}
        self.emit("rolled", f"{who} {shown}{value} for {roll.purpose}", hero=roll.hero, rule=rule, roll=roll, **facts)

    def _answered(self, request: ChoiceRequest | DrawRequest, key: str, *, how: str = "choice") -> str:
        """The `answered` event: what was chosen or drawn, in the option's words; an answer given for the posse at
        once (the same for everyone, or each hero's given ahead) says so on each hero's own event. A keyed draw says
        what it was for as its prompt does (`asks` and the facts `said`; the draw's own `reason` in place of
        `drawn`), so a client words it without the English `purpose`."""
        if not self.quiet:
            if isinstance(request, DrawRequest):
                label = next((label for option, label in request.picks if option == key), key)
                keyed = dict(request.said, asks=request.asks.value) if request.asks is not Asks.DRAW else {}
                self.emit("answered", f"{request.purpose}: {label} (drawn)", rule=request.rule,
                          reason=keyed.pop("reason", "drawn"), purpose=request.purpose, name=label, **keyed)  # fmt: skip
            else:
                label = next((o.label for o in request.options if o.key == key), key)
                said = {"everyone": "the same for everyone", "ahead": "chosen for the posse at once"}.get(how, "chosen")
                self.emit("answered", f"{request.question}: {label} ({said})", hero=request.hero, rule=request.rule,
                          reason=how if how in ("everyone", "ahead") else "chosen", purpose=request.question,
                          name=label)  # fmt: skip
        return key


def _with(hero: Hero, field: str, value: Any) -> Hero:
    return hero.with_value(field, value)


def _reclamp(hero: Hero) -> Hero:
    """After a max changes, damage and Grit stay within it (the same hero when they already are)."""
    max_health, max_sanity = hero.max_health, hero.max_sanity
    if hero.wounds <= max_health and hero.sanity_damage <= max_sanity and hero.grit <= hero.max_grit:
        return hero
    return evolve(
        hero,
        {
            "wounds": min(hero.wounds, max_health),
            "sanity_damage": min(hero.sanity_damage, max_sanity),
            "grit": min(hero.grit, hero.max_grit),
        },
    )


def _ko(state: Session, hero_id: str, before: int, field: str) -> bool:
    """Whether the hero was already KO'd before this change (so KO is announced once)."""
    return _with(state.hero(hero_id), field, before).knocked_out


_WORDS = {
    "xp": "XP", "gold": "Gold", "wounds": "Wounds", "sanity_damage": "Sanity Damage", "grit": "Grit",
    "max_grit": "Max Grit", "corruption": "Corruption Points", "dark_stone": "Dark Stone",
    "health_mod": "Health (permanent)", "sanity_mod": "Sanity (permanent)", "unwanted_attention": "Unwanted Attention",
    "wanted": "Wanted! level",
    "bleeding": "Bleeding markers",
}  # fmt: skip


def value_words(field: str) -> str:
    """A hero value's name in the engine's English lines ("Gold", "Sanity Damage")."""
    return _WORDS.get(field, field.replace("_", " "))


def _shown_max(hero: Hero, field: str, delta: int) -> tuple[int, int] | None:
    """A permanent change to Max Health or Max Sanity, as the max it moved (10 -> 9), not the modifier."""
    if field not in ("health_mod", "sanity_mod"):
        return None
    now = hero.max_health if field == "health_mod" else hero.max_sanity
    return now - delta, now


def _describe(hero: Hero, field: str, before: int, after: int, why: str) -> str:
    """The change in plain words; a permanent change shows the max it moved (Sanity 10 -> 9), not the modifier."""
    delta = after - before
    word = _WORDS.get(field, field.replace("_", " "))
    amount = f"${abs(delta)}" if field == "gold" else str(abs(delta))
    verb = "gains" if delta > 0 else "loses"
    if field == "wounds" or field == "sanity_damage":
        verb = "takes" if delta > 0 else "heals"
    shown = f"({before} -> {after})"
    maximum = _shown_max(hero, field, delta)
    if maximum:
        shown = f"(max {maximum[0]} -> {maximum[1]})"
    return f"{hero.name} {verb} {amount} {word} {shown}" + (f": {why}" if why else "")


# ---- the driver ------------------------------------------------------------------------------------------------
@dataclass(slots=True)
class Run:
    """What running a rule produced: the working context and, if it stopped, the pending record."""

    ctx: Ctx
    pending: Pending | None
    new_events: int  # index in ctx.events where this command's events start (a resumed rule replays earlier ones)


C = TypeVar("C", bound=Requests)
Source = Callable[[C, Request], Answer | None]  # one place answers come from; None: ask the next one


def drive(ctx: C, steps: Steps[T] | None, sources: tuple[Source[C], ...]) -> tuple[Request | None, T | None]:
    """The one driver: run a rule, answering each request it yields from the first of `sources` that answers.

    Returns (None, what the rule returned) when it ran to its end, or (the request no source answered, None):
    the table's prompt (`run_rule`), a decision the policy left (autoplay), dice the board rule lacked.
    """
    if steps is None:
        return None, None
    send = _to_the_end(steps).send
    value: Any = None
    rng = server  # read once: compiled, a module-level function is looked up by name at each read
    while True:
        request = send(value)
        if isinstance(request, _End):
            return None, request.value
        for source in sources:
            if source is rng and isinstance(ctx, Ctx):  # the RNG asked in place: no Answer made to be taken apart
                if isinstance(request, (RollRequest, DrawRequest)):
                    value = _rng_value(ctx, request)
                    break
                continue  # and it answers nothing else
            answer = source(ctx, request)
            if answer is not None:
                value = _take(ctx, request, answer)
                break
        else:
            return request, None


@dataclass(slots=True)
class _End:
    """What a rule returned, handed to the driver as one last request (`_to_the_end`)."""

    value: Any


def _to_the_end(steps: Steps[T]) -> Generator[Request | _End, Any, None]:
    """The rule's requests, then its end as one more: the driver reads the end without catching StopIteration,
    which compiled code pays a traceback object for, once per command."""
    value = yield from steps
    yield _End(value)


def server(ctx: Ctx, request: Request) -> Answer | None:
    """The session RNG as an answer source: it rolls every die and makes every random draw."""
    if isinstance(request, (RollRequest, DrawRequest)):
        return _server_answer(ctx, request)
    return None


def _server_dice(ctx: Ctx, request: Request) -> Answer | None:
    """The session RNG when the table chose server dice (dice option "server"); with "table" dice it asks."""
    return server(ctx, request) if ctx._state.options.dice == "server" else None


def run_rule(
    state: Session,
    command: Command,
    procedure: Callable[[Ctx, Any], Procedure | None],
    *,
    policy: Policy | None = None,
    quiet: bool = False,
) -> Run:
    """Run `command` on `state`, or resume the pending rule when `command` answers its prompt.

    The answer sources, in order: the answers recorded so far (a resumed rule replays them), the answer the
    incoming command brings, the answers given "the same for everyone" (`standing`), the dice the table typed in,
    the policy, the session RNG (dice option "server"); a request none answers stops at a prompt, with every
    answer so far recorded in the pending record."""
    pending = state.pending
    if pending is not None:
        checkpoint, replay, origin = pending.checkpoint, list(pending.answers), pending.command
        queue = [*pending.dice_left, *getattr(command, "dice", ())]
        incoming: list[Command] = [command]
        standing, ahead, cards = list(pending.standing), list(pending.ahead), list(pending.cards)
    else:
        checkpoint, replay, origin = state, [], command
        queue = list(getattr(command, "dice", ()))
        incoming = []
        standing, ahead, cards = [], [], []
    recorded: list[Answer] = []
    replay.reverse()
    typed = len(queue)
    keeping: list[str | None] = []  # the hero whose typed dice came with `keep`: their Grit offer next is declined

    def replayed(ctx: Ctx, request: Request) -> Answer | None:
        return replay.pop() if replay else None

    def brought(ctx: Ctx, request: Request) -> Answer | None:
        if not incoming:
            return None
        answering = incoming.pop()
        answer = _answer_from_command(ctx, request, answering, pending)
        if answer.kind == "everyone" and isinstance(request, ChoiceRequest):  # it stands for the later alike asks
            standing[:] = [s for s in standing if (s.rule, s.topic) != (request.rule, request.alike)]
            standing.append(Standing(request.rule, request.alike, answer.option))
        if isinstance(answering, Choose) and answering.then:
            assert isinstance(request, ChoiceRequest)
            standing.extend(_chosen_ahead(request, answering))
        if isinstance(answering, RollDice) and answering.then:
            assert isinstance(request, RollRequest)
            ahead.extend(_typed_ahead(request, answering))
        if isinstance(answering, RollDice) and answering.keep:
            assert isinstance(request, RollRequest)
            keeping.append(request.hero)
        if isinstance(answering, RollDice) and answering.card is not None:
            assert isinstance(request, RollRequest)
            cards.append(_card_ahead(ctx, request, answering.card))
        return answer

    def card_ahead(ctx: Ctx, request: Request) -> Answer | None:
        if cards and isinstance(request, CardRequest):
            for index, given in enumerate(cards):
                if (given.hero, given.chart) == (request.hero, request.chart):
                    del cards[index]
                    return Answer("card", effects=given.effects, text=given.text)
        return None

    def kept(ctx: Ctx, request: Request) -> Answer | None:
        if not keeping:
            return None
        hero = keeping.pop()  # it answers the request right after the roll, or nothing
        if isinstance(request, RerollRequest) and request.hero == hero:
            return Answer("reroll", indices=())
        return None

    def typed_ahead(ctx: Ctx, request: Request) -> Answer | None:
        if ahead and isinstance(request, RollRequest):
            for index, given in enumerate(ahead):
                if (given.hero, given.purpose) == (request.hero, request.purpose):
                    del ahead[index]
                    return _table_roll(request, given.faces, field="then")
        return None

    def alike(ctx: Ctx, request: Request) -> Answer | None:
        if standing and isinstance(request, ChoiceRequest) and request.alike:
            for given in sorted(standing, key=lambda s: not s.hero):  # a hero's own answer before everyone's
                if (given.rule, given.topic) == (request.rule, request.alike) and given.hero in ("", request.hero) \
                        and any(o.key == given.option for o in request.options):
                    return Answer("ahead" if given.hero else "everyone", option=given.option)
        return None

    def dice(ctx: Ctx, request: Request) -> Answer | None:
        if queue and isinstance(request, RollRequest):
            return _table_roll(request, queue.pop(0), field=f"dice[{typed - len(queue) - 1}]")
        return None

    def recording(source: Source[Ctx]) -> Source[Ctx]:
        def record(ctx: Ctx, request: Request) -> Answer | None:
            answer = source(ctx, request)
            if answer is not None:
                recorded.append(answer)
            return answer

        return record

    sources: list[Source[Ctx]] = [recording(replayed), recording(brought), recording(kept), recording(card_ahead),
                                  recording(alike), recording(typed_ahead), recording(dice)]  # fmt: skip
    if policy is not None:
        sources.append(recording(policy))
    sources.append(recording(_server_dice))
    ctx = Ctx(checkpoint, state.rng, quiet=quiet)
    already = pending.events_emitted if pending is not None else 0
    stopped, _ = drive(ctx, procedure(ctx, origin), tuple(sources))
    if stopped is not None:
        prompt = _prompt_for(ctx, stopped, f"p{state.step + 1}")
        emitted = len(ctx.events)
        ctx.emit("prompt", prompt.question, hero=prompt.hero, rule=prompt.rule, reason=prompt.kind.value,
                 purpose=prompt.question)  # fmt: skip

        pended = Pending(origin, checkpoint, tuple(recorded), emitted, prompt, tuple(queue), tuple(standing),
                         tuple(ahead), tuple(cards))  # fmt: skip
        return Run(ctx, pended, already)
    if incoming:
        raise IllegalCommand(f"{command.type!r} answers nothing: no prompt is waiting")
    if queue:
        raise InvalidCommand(f"dice: {len(queue)} more dice given than the rules asked for", field="dice")
    return Run(ctx, None, already)


def _chosen_ahead(request: ChoiceRequest, command: Choose) -> list[Standing]:
    """The answers a `choose` gives for the heroes asked next (`then`), checked now against the heroes the prompt
    named and its options; the answering hero's own answer stands for their later asks of it too."""
    keys = [o.key for o in request.options]
    given: list[Standing] = [Standing(request.rule, request.alike, command.option, request.hero or "")]
    for index, answer in enumerate(command.then):
        if answer.hero not in request.next_heroes or any(s.hero == answer.hero for s in given):
            raise InvalidCommand(
                f"then[{index}].hero: {answer.hero!r} is not one of the heroes asked this next "
                f"({', '.join(request.next_heroes) or 'none'})",
                field=f"then[{index}].hero",
                rule=request.rule,
            )
        if answer.option not in keys:
            raise InvalidCommand(f"then[{index}].option: {answer.option!r} is not one of {keys}",
                                 field=f"then[{index}].option", rule=request.rule)  # fmt: skip
        given.append(Standing(request.rule, request.alike, answer.option, answer.hero))
    return given


def _card_ahead(ctx: Ctx, request: RollRequest, card: CardEntry) -> AheadCard:
    """The card a `roll` brings (`card`), checked now: the prompt must say a card is read with these dice, and its
    effects must fit the hero, so a wrong one refuses the whole answer before anything is applied."""
    if not request.card or request.hero is None:
        raise InvalidCommand(f"card: no card is read with the dice of {request.purpose!r}; answer its roll alone",
                             field="card", rule=request.rule)  # fmt: skip
    check_effects(ctx.state, request.hero, card.effects, field="card.effects")
    return AheadCard(request.hero, request.card, card.text, card.effects)


def _typed_ahead(request: RollRequest, command: RollDice) -> list[Ahead]:
    """The later heroes' faces a `roll` brings (`then`), checked now against the heroes and dice the prompt named,
    so a wrong one refuses the whole answer before anything is applied."""
    named = {turn.hero: turn.dice for turn in request.then}
    typed: list[Ahead] = []
    for index, given in enumerate(command.then):
        if given.hero not in named or any(a.hero == given.hero for a in typed):
            raise InvalidCommand(
                f"then[{index}].hero: {given.hero!r} is not one of the heroes who take {request.purpose!r} next "
                f"({', '.join(named) or 'none'})",
                field=f"then[{index}].hero",
                rule=request.rule,
            )
        faces = validate_faces(request.kind, given.faces, named[given.hero], field=f"then[{index}].faces",
                               purpose=request.purpose)  # fmt: skip
        typed.append(Ahead(given.hero, request.purpose, faces))
    return typed


def _table_roll(request: RollRequest, faces: Faces, *, field: str) -> Answer:
    checked = validate_faces(request.kind, faces, request.pool, field=field, purpose=request.purpose)
    return Answer(
        "roll", roll=Roll(request.purpose, request.kind, checked, request.hero, "table", request.target, request.chart)
    )


def _pick(word: i64, count: int, weights: tuple[int, ...]) -> tuple[i64, int]:
    """Draw one of `count` things, uniformly or by `weights` (copies of a card in a deck): the new RNG state (as a
    machine word, `Ctx._word`) and the index."""
    if not weights:
        return pick_word(word, count)
    total = 0  # loops, not sum() and enumerate(): the compiled build runs them without calling into Python
    for weight in weights:
        total += weight
    word, index = pick_word(word, total)
    for position in range(len(weights)):
        if index < weights[position]:
            return word, position
        index -= weights[position]
    raise AssertionError("a weighted draw fell off its weights")


def _server_answer(ctx: Ctx, request: RollRequest | DrawRequest) -> Answer:
    if isinstance(request, DrawRequest):
        return Answer("draw", option=_server_pick(ctx, request))
    return Answer("roll", _server_roll(ctx, request))


def _rng_value(ctx: Ctx, request: RollRequest | DrawRequest) -> Any:
    """What the rule receives when the RNG answers (`_take` of `server`'s answer, with its event), made without the
    Answer: most of a bulk run's requests are answered so."""
    if isinstance(request, DrawRequest):
        return ctx._answered(request, _server_pick(ctx, request), how="draw")
    roll = _server_roll(ctx, request)
    ctx._rolled(roll, request.rule, request.asks, request.said)
    return roll


def _server_roll(ctx: Ctx, request: RollRequest) -> Roll:
    ctx._word, faces = roll_word(ctx._word, request.kind, request.pool)
    return Roll(request.purpose, request.kind, faces, request.hero, "server", request.target, request.chart)


def _server_pick(ctx: Ctx, request: DrawRequest) -> str:
    ctx._word, index = _pick(ctx._word, len(request.picks), request.weights)
    return request.picks[index][0]


def _take(ctx: Requests, request: Request, answer: Answer) -> Any:
    """Turn a recorded answer into what the rule receives, emitting the roll or choice as an event."""
    if isinstance(request, RollRequest):
        assert answer.roll is not None
        ctx._rolled(answer.roll, request.rule, request.asks, request.said)
        return answer.roll
    if isinstance(request, RerollRequest):
        return answer.indices
    if isinstance(request, CardRequest):
        return answer
    return ctx._answered(request, answer.option, how=answer.kind)


def _prompt_for(ctx: Ctx, request: Request, prompt_id: str) -> Prompt:
    if isinstance(request, RollRequest):
        count = {DieKind.TWO_D6: 2, DieKind.D36: 2, DieKind.INJURY_3D6: 3, DieKind.POOL: request.pool}.get(
            request.kind, 1
        )
        who = f"{ctx.name(request.hero)}: roll" if request.hero else "Roll"
        what = f"{count} D6" if request.kind is DieKind.POOL else request.kind.value.upper()
        return Prompt(
            prompt_id,
            PromptKind.ROLL,
            f"{who} {what} for {request.purpose}",
            "roll",
            request.hero,
            request.rule,
            purpose=request.purpose,
            die=request.kind,
            dice_count=count,
            target=request.target,
            reads=request.reads or _usual_reading(request),
            doubles=request.doubles,
            then=request.then,
            grit=request.grit,
            card=request.card,
            asks=request.asks.value,
            facts=_facts(request.said),
        )
    if isinstance(request, DrawRequest):
        return Prompt(
            prompt_id,
            PromptKind.CHOICE,
            f"Draw at random: {request.purpose}",
            "choose",
            None,
            request.rule,
            request.options,
            purpose=request.purpose,
            asks=request.asks.value,
            facts=_facts(request.said),
        )
    if isinstance(request, ChoiceRequest):
        who = f"{ctx.name(request.hero)}: " if request.hero else ""
        return Prompt(
            prompt_id,
            PromptKind.CHOICE,
            who + request.question,
            "choose",
            request.hero,
            request.rule,
            request.options,
            alike=bool(request.alike),
            next_heroes=request.next_heroes,
            asks=request.asks.value if request.asks is not None else None,
            facts=_facts(request.said),
        )
    if isinstance(request, RerollRequest):
        return Prompt(
            prompt_id,
            PromptKind.REROLL,
            f"{ctx.name(request.hero)}: spend 1 Grit to re-roll dice of {request.roll.purpose}? "
            f"({','.join(map(str, request.roll.faces))})",
            "reroll",
            request.hero,
            request.rule,
            purpose=request.roll.purpose,
            roll=request.roll,
            target=request.roll.target,
            reads=request.reads,
            asks=Asks.GRIT_REROLL.value,
            facts=_facts(request.said),
        )
    return Prompt(
        prompt_id,
        PromptKind.CARD,
        f"{ctx.name(request.hero)}: {request.question}",
        "enter_card",
        request.hero,
        request.rule,
        chart=request.chart,
        roll=request.roll,
        asks=Asks.CARD.value,
        facts=(Fact("chart", request.chart),),
    )


def _facts(said: Said) -> tuple[Fact, ...]:
    return tuple(Fact(name, value) for name, value in said)


def _usual_reading(request: RollRequest) -> Reads:
    """What the rules read from a roll when the rule says nothing more: a pool at a target counts its hits
    (FF-DICE-06), a pool without one and a D36 each face (FT-DICE-01), any other die its total (FF-DICE-05)."""
    if request.kind is DieKind.POOL:
        return Reads.HITS if request.target else Reads.EACH
    return Reads.EACH if request.kind is DieKind.D36 else Reads.TOTAL


def _answer_from_command(ctx: Ctx, request: Request, command: Command, pending: Pending | None) -> Answer:
    """Check that `command` answers the waiting prompt, and turn it into a recorded answer."""
    assert pending is not None
    if isinstance(request, RollRequest):
        assert isinstance(command, RollDice)
        if command.faces is None:
            return _server_answer(ctx, request)
        return _table_roll(request, command.faces, field="faces")
    if isinstance(request, (ChoiceRequest, DrawRequest)):
        assert isinstance(command, Choose)
        keys = [o.key for o in request.options]
        if command.option not in keys:
            raise IllegalCommand(
                f"option {command.option!r} is not one of {keys} for prompt {pending.prompt.id} "
                f"({pending.prompt.question})",
                field="option",
                rule=request.rule,
            )
        if (command.everyone or command.then) and not (isinstance(request, ChoiceRequest) and request.alike):
            raise InvalidCommand(
                f"everyone: prompt {pending.prompt.id} ({pending.prompt.question}) is not a choice each hero makes "
                "alike; answer it for this one",
                field="everyone" if command.everyone else "then",
                rule=request.rule,
            )
        return Answer("everyone" if command.everyone else "choice", option=command.option)
    if isinstance(request, RerollRequest):
        assert isinstance(command, Reroll)
        roll = request.roll
        seen: set[int] = set()
        for index in command.indices:
            if not 0 <= index < len(roll.faces):
                raise InvalidCommand(
                    f"indices: die {index} does not exist in {roll.purpose!r} ({len(roll.faces)} dice)",
                    field="indices",
                    rule="FF-GRIT-01",
                )
            if index in roll.rerolled:
                raise IllegalCommand(
                    f"die {index} of {roll.purpose!r} was already re-rolled (FF-GRIT-02)",
                    field="indices",
                    rule="FF-GRIT-02",
                )
            if index in seen:
                raise InvalidCommand(f"indices: die {index} named twice", field="indices", rule="FF-GRIT-02")
            seen.add(index)
        return Answer("reroll", indices=tuple(command.indices))
    assert isinstance(command, EnterCard)
    check_effects(ctx.state, request.hero, command.effects)
    return Answer("card", effects=command.effects, text=command.text)


def apply_effect(ctx: Ctx, hero_id: str, effect: Effect, *, rule: str, field: str = "effects") -> None:
    """Apply one checked effect to a hero, through the same bounded changes the rules use."""
    hero = ctx.hero(hero_id)
    op = effect.op
    if op in ("change", "set") and effect.field in SKILLS:
        value = effect.amount if op == "set" else getattr(hero.skills, effect.field) + effect.amount
        value = max(0, min(MAX_SKILL, value))
        skills = {s: getattr(hero.skills, s) for s in SKILLS} | {effect.field: value}
        ctx.set_value(hero_id, "skills", Skills(**skills), rule=rule, why=f"{effect.field} {value}",
                      skill=effect.field, level=value)  # fmt: skip
    elif op == "change":
        ctx.change(hero_id, effect.field, effect.amount, rule=rule)
    elif op == "set":
        ctx.change(hero_id, effect.field, effect.amount - getattr(hero, effect.field), rule=rule)
    elif op == "add_item":
        item = Item(
            item_id(effect.name),
            effect.name,
            frozenset(ItemTag(t) for t in effect.tags),
            effect.hourglass,
            effect.dark_stone_upgrades,
        )
        ctx.add_item(hero_id, item, rule=rule)
    elif op in ("remove_item", "remove_token", "remove_mutation") and not holds(hero, op, effect.name):
        ctx.emit("nothing_lost", f"{hero.name} has no {effect.name} to lose", hero=hero_id, rule=rule,
                 item=effect.name)  # a chart
    elif op == "remove_item":
        item = next(i for i in hero.items if effect.name in (i.id, i.name))
        ctx.remove_item(hero_id, item.id, rule=rule)
    elif op == "add_token":
        ctx.add_token(hero_id, effect.name, rule=rule)
    elif op == "remove_token":
        ctx.remove_token(hero_id, hero.side_bag.index(effect.name), rule=rule)
    elif op == "add_mutation":
        ctx.set_value(hero_id, "mutations", (*hero.mutations, effect.name), rule=rule, why=f"+{effect.name}")
    elif op == "remove_mutation":
        rest = list(hero.mutations)
        rest.remove(effect.name)
        ctx.set_value(hero_id, "mutations", tuple(rest), rule=rule, why=f"-{effect.name}")
    elif op == "add_keyword":
        if effect.name not in hero.keywords:
            ctx.set_value(hero_id, "keywords", (*hero.keywords, effect.name), rule=rule)
    elif op == "remove_keyword":
        ctx.set_value(hero_id, "keywords", tuple(k for k in hero.keywords if k != effect.name), rule=rule)
    elif op == "tear_bag":
        ctx.set_value(hero_id, "bag_torn", True, rule="FT-TRAVEL-D12")
        while len(ctx.hero(hero_id).side_bag) > ctx.hero(hero_id).side_bag_capacity:  # newest tokens fall out
            ctx.remove_token(hero_id, len(ctx.hero(hero_id).side_bag) - 1, rule="FF-HERO-08", why="torn Side Bag")
    elif op == "repair_bag":
        ctx.set_value(hero_id, "bag_torn", False, rule="FT-TRAVEL-D12", why="repaired for $500 at a Blacksmith")
