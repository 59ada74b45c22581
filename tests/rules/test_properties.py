"""Properties over whole journeys: random posses and seeds, every prompt answered with a random legal answer.

After every step no value leaves its bounds (A8, FF-GRIT-07, FF-HERO-02/03/08, FT-WANTED-01), Grit re-rolls are
offered only on a hero's own skill test dice (FF-GRIT-01/04), the codec round-trips the state exactly, and the same
commands from the same state give the same states. Garbage thrown at `apply` raises only RulesError subclasses.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import json
import random
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as Phases
from hypothesis import strategies as st

from shared_rules import (
    Adjust,
    Arrive,
    Choose,
    ChooseTownSize,
    Effect,
    EndTownStay,
    EnterCard,
    Hero,
    InvalidCommand,
    Item,
    ItemTag,
    Reroll,
    RollDice,
    RollHazard,
    RuleOptions,
    RulesError,
    Session,
    Skills,
    apply,
    decode_command,
    decode_hero,
    decode_state,
    encode,
    encode_state,
    legal_commands,
    new_session,
)
from shared_rules.codec import _fields as codec_fields
from shared_rules.codec import decode_event, encode_event
from shared_rules.commands import (
    COMMAND_TYPES,
    OPS,
    BountyTarget,
    Buy,
    Command,
    EndDay,
    EndVisit,
    PayOffWarrants,
    PlayDevilsWheel,
    Sell,
    SetBounty,
    StartDay,
    UseToken,
    VisitLocation,
    WheelRoll,
    WheelStop,
)
from shared_rules.dice import PERIL_FACES, DieKind, face_range
from shared_rules.prompts import Prompt
from shared_rules.rules.stay.tokens import PRINTED
from shared_rules.rules.travel.hazards import HAZARDS
from shared_rules.state import HERO_FIELDS, SKILLS, DieLie, Phase

SEEDS = st.integers(0, 2**64 - 1)  # the answers' Random: a seed keeps journeys cheap to generate
# No shrinking: a journey is long and shrinking one takes minutes; the report names the start and the seed, which
# replay the failure exactly.
_PHASES = (Phases.explicit, Phases.reuse, Phases.generate)
_CHECKS = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]
FAST = settings(max_examples=50, deadline=None, phases=_PHASES, suppress_health_check=_CHECKS)
SLOW = settings(max_examples=120, deadline=None, phases=_PHASES, suppress_health_check=_CHECKS)
ALL_HAZARDS = len(HAZARDS) == 36
MAX_STEPS = 3000  # a journey of 12 hazards at a table answering every die stays far below this

ITEM_NAMES = ("Horse", "Duster", "Pocket Watch", "Rifle", "Lucky Charm", "Dark Stone Amulet", "Hat", "Saddle Bags")
TOKENS = ("Tonic", "Bandages", "Sake", "Whiskey", "Fire Sake", "Lantern Oil")
KEYWORDS = ("Law", "Outlaw", "Holy", "Showman", "Samurai", "Performer")


# ---- random posses --------------------------------------------------------------------------------------------------
@st.composite
def heroes(draw: st.DrawFn, hero_id: str) -> Hero:
    """A hero within every bound, with random skills, items and tags, Side Bag, Mutations and counters."""
    health_base = draw(st.integers(1, 14))
    sanity_base = draw(st.integers(1, 14))
    health_mod = draw(st.integers(-health_base + 1, 3))
    sanity_mod = draw(st.integers(-sanity_base + 1, 3))
    max_grit = draw(st.integers(0, 4))
    bag_torn = draw(st.booleans())
    names = draw(st.lists(st.sampled_from(ITEM_NAMES), max_size=5, unique=True))
    items = tuple(
        Item(
            name.lower().replace(" ", "-"),
            name,
            frozenset(draw(st.sets(st.sampled_from(list(ItemTag)), max_size=3))),
            draw(st.integers(0, 2)),
            draw(st.integers(0, 2)),
        )
        for name in names
    )
    return Hero(
        hero_id,
        f"Hero {hero_id}",
        level=draw(st.integers(1, 6)),
        skills=Skills(*(draw(st.integers(0, 6)) for _ in SKILLS)),
        defense=draw(st.integers(2, 6)),
        willpower=draw(st.integers(2, 6)),
        health_base=health_base,
        health_mod=health_mod,
        wounds=draw(st.integers(0, health_base + health_mod)),
        sanity_base=sanity_base,
        sanity_mod=sanity_mod,
        sanity_damage=draw(st.integers(0, sanity_base + sanity_mod)),
        grit=draw(st.integers(0, max_grit)),
        max_grit=max_grit,
        xp=draw(st.integers(0, 3000)),
        gold=draw(st.integers(0, 3000)),
        corruption=draw(st.integers(0, 8)),
        dark_stone=draw(st.integers(0, 6)),
        mutations=tuple(draw(st.lists(st.sampled_from(("Claw", "Tentacle", "Eye", "Scales")), max_size=7))),
        keywords=tuple(draw(st.lists(st.sampled_from(KEYWORDS), max_size=2, unique=True))),
        items=items,
        side_bag=tuple(draw(st.lists(st.sampled_from(TOKENS), max_size=3 if bag_torn else 5))),
        bag_torn=bag_torn,
        unwanted_attention=draw(st.integers(0, 3)),
        wanted=draw(st.integers(0, 2)),
        scratch_deal=draw(st.booleans()),
    )


@st.composite
def sessions(draw: st.DrawFn) -> Session:
    count = draw(st.integers(1, 6))
    posse = [draw(heroes(f"h{i}")) for i in range(count)]
    options = RuleOptions(
        dice=draw(st.sampled_from(("server", "table"))),
        offer_grit_rerolls=draw(st.booleans()),
        warlord_price_first=draw(st.booleans()),
        plus_one_is_permanent=draw(st.booleans()),
        mimic_beast_solo_skips_second=draw(st.booleans()),
        scarlet_shadow_literal=draw(st.booleans()),
        horror_hit_sanity=draw(st.integers(1, 2)),
        town_events=draw(st.sampled_from(("darkness", "every_day", "off"))),
        trouble_first=draw(st.booleans()),
    )
    return new_session(posse, options=options, seed=draw(st.integers(0, 2**64 - 1)))


# ---- what must hold after every step --------------------------------------------------------------------------------
def check_bounds(state: Session) -> None:
    for hero in state.heroes:
        where = f"{hero.id}: {hero}"
        assert hero.gold >= 0, where  # A8
        assert 0 <= hero.grit <= hero.max_grit, where  # FF-GRIT-07
        assert 0 <= hero.wounds <= hero.max_health, where  # FF-HERO-02
        assert 0 <= hero.sanity_damage <= hero.max_sanity, where  # FF-HERO-03
        if not discarding(state, hero.id):  # while the hero picks which token to drop, the bag holds too many
            assert len(hero.side_bag) <= hero.side_bag_capacity, where  # FF-HERO-08, FT-TRAVEL-D12
        assert hero.xp >= 0 and hero.corruption >= 0 and hero.dark_stone >= 0, where
        assert hero.unwanted_attention >= 0, where
        assert 0 <= hero.wanted <= 2, where  # FT-WANTED-01
        assert hero.max_grit >= 0 and hero.level >= 1, where
        assert all(0 <= getattr(hero.skills, s) <= 12 for s in SKILLS), where
        assert len({i.id for i in hero.items}) == len(hero.items), where
        assert all(isinstance(getattr(hero, f), int) for f in HERO_FIELDS), where
    if state.phase is Phase.TRAVEL:
        assert state.travel is not None
    if state.phase is Phase.TOWN:
        assert state.town is not None
        numbers = [s.number for s in state.town.slots]
        assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) <= 8  # FT-TOWN-01


def discarding(state: Session, hero_id: str) -> bool:
    """Whether `hero_id` is being asked which Side Bag token to discard (FF-HERO-08)."""
    prompt = state.pending.prompt if state.pending is not None else None
    return prompt is not None and prompt.rule == "FF-HERO-08" and prompt.hero == hero_id


def check_prompt(state: Session, prompt: Prompt | None) -> None:
    pending = state.pending
    assert (pending.prompt if pending is not None else None) == prompt
    if prompt is None:
        return
    (legal,) = legal_commands(state)
    assert (legal.type, legal.prompt) == (prompt.answer_with, prompt.id)
    if prompt.kind == "reroll":  # FF-GRIT-01/04: own skill test dice only, and only with Grit to spend
        assert prompt.roll is not None and prompt.hero is not None
        assert not prompt.roll.chart and prompt.roll.target > 0 and prompt.roll.kind is DieKind.POOL
        assert state.hero(prompt.hero).grit >= 1
        assert any(i not in prompt.roll.rerolled for i in range(len(prompt.roll.faces)))  # FF-GRIT-02
    if prompt.kind == "choice":
        assert len(prompt.options) >= 2 and len({o.key for o in prompt.options}) == len(prompt.options)


def walked(value: Any) -> Any:
    """The codec's output by a plain walk over the fields (what its per-class encoders were written to equal)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value):
        kind = getattr(type(value), "type", None)
        head = {"type": kind} if isinstance(kind, str) else {}
        return head | {name: walked(getattr(value, name)) for name, _, _ in codec_fields(type(value))}
    if isinstance(value, (tuple, list)):
        return [walked(item) for item in value]
    if isinstance(value, frozenset):
        return sorted(walked(item) for item in value)
    assert isinstance(value, dict), value
    return {str(key): walked(item) for key, item in value.items()}


def check_codec(state: Session) -> None:
    encoded = encode_state(state)
    assert json.dumps(encoded) == json.dumps({"schema": 1} | walked(state))  # the same text, field order included
    assert decode_state(json.loads(json.dumps(encoded))) == state


def check_events(events: tuple[Any, ...]) -> None:
    for event in events:
        assert json.dumps(encode_event(event)) == json.dumps(walked(event))
        assert decode_event(json.loads(json.dumps(encode_event(event)))) == event  # the log reads back (history, offline file)
        roll = event.roll
        if roll is not None:
            allowed = set(face_range(roll.kind))
            assert set(roll.faces) <= allowed, event


# ---- random answers and commands --------------------------------------------------------------------------------------
def random_faces(rnd: random.Random, die: DieKind, count: int) -> tuple[int, ...]:
    if die is DieKind.PERIL:
        return tuple(rnd.choice(PERIL_FACES) for _ in range(count))
    return tuple(rnd.choice(face_range(die)) for _ in range(count))


def answer(rnd: random.Random, prompt: Prompt) -> Command:
    """A random legal answer: a random option, random re-roll indices, random faces, an empty card."""
    named = prompt.id if rnd.random() < 0.5 else ""
    if prompt.kind == "roll":
        assert prompt.die is not None
        faces = None if rnd.random() < 0.2 else random_faces(rnd, prompt.die, prompt.dice_count)
        return RollDice(faces, prompt=named)
    if prompt.kind == "choice":
        return Choose(rnd.choice(prompt.options).key, prompt=named)
    if prompt.kind == "reroll":
        assert prompt.roll is not None
        allowed = [i for i in range(len(prompt.roll.faces)) if i not in prompt.roll.rerolled]
        picked = tuple(i for i in allowed if rnd.random() < 0.5)
        return Reroll(picked if rnd.random() < 0.8 else (), prompt=named)
    return EnterCard("", (), prompt=named)


def random_effect(rnd: random.Random, hero: Hero) -> Effect:
    op = rnd.choice(("change", "change", "set", "add_item", "remove_item", "add_token", "remove_token",
                     "add_mutation", "remove_mutation", "add_keyword", "remove_keyword", "tear_bag", "repair_bag"))  # fmt: skip
    if op in ("change", "set"):
        return Effect(op, rnd.choice((*HERO_FIELDS, *SKILLS)), rnd.randint(-20, 20))
    if op == "remove_item" and hero.items:
        return Effect(op, name=rnd.choice(hero.items).name)
    if op == "remove_token" and hero.side_bag:
        return Effect(op, name=rnd.choice(hero.side_bag))
    if op == "remove_mutation" and hero.mutations:
        return Effect(op, name=rnd.choice(hero.mutations))
    tags = tuple(rnd.sample([t.value for t in ItemTag], rnd.randint(0, 2)))
    return Effect(op, name=rnd.choice((*ITEM_NAMES, *TOKENS, *KEYWORDS)), tags=tags, hourglass=rnd.randint(0, 1))


def next_command(rnd: random.Random, state: Session) -> Command | None:
    """A random command the table could send now, or None when nothing is legal (everyone taken from the game)."""
    if state.pending is not None:
        return answer(rnd, state.pending.prompt)
    legal = legal_commands(state)
    if not legal:
        return None
    if rnd.random() < 0.08:
        target = rnd.choice(state.active_heroes)
        return Adjust(target.id, tuple(random_effect(rnd, target) for _ in range(rnd.randint(1, 3))), reason="fuzz")
    kind = legal[0].type
    if kind == "choose_town_size":
        return ChooseTownSize(rnd.choice(("small", "medium", "large")))
    if kind == "roll_hazard":
        if ALL_HAZARDS:
            return RollHazard()
        number = rnd.choice(sorted(HAZARDS))  # until every hazard is written: type in one that is
        return RollHazard(dice=((number // 10, number % 10),))
    if kind == "arrive":
        return Arrive(destroyed_slots=rnd.choice((0, 0, 1, 2)))
    return in_town(rnd, state, legal)


STAY_STEPS = 40  # random stay commands before the posse heads for the door


def in_town(rnd: random.Random, state: Session, legal: tuple[Any, ...]) -> Command:
    """A random legal command of the Town Stay, built from what `legal_commands` offers (always accepted)."""
    types = [c.type for c in legal if c.type != "adjust"]
    stay = state.stay
    steps = state.step - (stay.day if stay else 0)
    if "end_town_stay" in types and (rnd.random() < 0.05 or steps > STAY_STEPS + rnd.randint(0, 40)):
        return EndTownStay()
    pick = rnd.choice([c for c in legal if c.type != "adjust"])
    hero = pick.hero or ""
    gold = state.hero(hero).gold if hero else 0
    lies = tuple(rnd.choice(list(DieLie)) for _ in range(3)) if rnd.random() < 0.5 else ()
    if pick.type == "start_day":
        return StartDay()
    if pick.type == "end_day":
        return EndDay()
    if pick.type == "end_town_stay":
        return EndTownStay()
    if pick.type == "visit_location":
        return VisitLocation(hero, rnd.choice(pick.options))
    if pick.type == "end_visit":
        return EndVisit(hero)
    if pick.type == "buy":
        if pick.options:
            return Buy(hero, rnd.choice(pick.options))
        sheet = state.hero(hero)
        kinds = ["item", "service"] + (["token"] if len(sheet.side_bag) < sheet.side_bag_capacity else [])
        kind = rnd.choice(kinds)
        name = rnd.choice(TOKENS if kind == "token" else ITEM_NAMES)
        effects = (Effect("change", "xp", 5),) if kind == "service" else ()
        return Buy(hero, name, price=rnd.randint(0, min(gold, 60)), kind=kind, effects=effects)
    if pick.type == "sell":
        ware = rnd.choice(pick.options)
        count = rnd.randint(1, min(3, state.hero(hero).dark_stone)) if ware == "Dark Stone" else 1
        return Sell(hero, ware, count=count, price=rnd.randint(0, 60))
    if pick.type == "pay_off_warrants":
        return PayOffWarrants(hero, price=rnd.randint(0, gold))
    if pick.type == "set_bounty":
        method = rnd.choice(pick.options)
        target = (BountyTarget("Bandit", health=rnd.randint(1, 9)) if method == "threat_card"
                  else BountyTarget("Bandit", gold=rnd.randint(1, 200), all_heroes=rnd.random() < 0.5))
        return SetBounty(hero, method, (target,))
    if pick.type == "play_devils_wheel":
        return PlayDevilsWheel(hero, stake=rnd.randint(0, min(gold, 25)), lies=lies)
    if pick.type == "wheel_roll":
        chosen = tuple(i for i in range(3) if rnd.random() < 0.5) or (rnd.randrange(3),)
        return WheelRoll(hero, chosen, lies=lies)
    if pick.type == "wheel_stop":
        return WheelStop(hero)
    assert pick.type == "use_token", pick
    token = rnd.choice(pick.options)
    return UseToken(hero, token, () if token in PRINTED else (Effect("change", "xp", 1),))


@dataclass
class Journey:
    start: Session
    commands: list[Command] = field(default_factory=list)
    states: list[Session] = field(default_factory=list)
    refused: int = 0


def play(
    start: Session, rnd: random.Random, *, stays: int = 1, garbage: list[Any] | None = None, codec: bool = True
) -> Journey:
    """Play `stays` journeys (travel, arrive, leave town) with random legal commands; check every step.

    `codec=False` skips the round trip (the slowest check) where another property is the point.
    """
    journey = Journey(start)
    state = start
    garbage = list(garbage or ())
    for _ in range(MAX_STEPS):
        if garbage and rnd.random() < 0.2:
            throw(state, garbage.pop())
        command = next_command(rnd, state)
        if command is None:
            break
        try:
            outcome = apply(state, command)
        except RulesError:  # an Adjust the hero cannot take (a removal of nothing, a value out of bounds)
            assert isinstance(command, Adjust), command
            journey.refused += 1
            continue
        check_bounds(outcome.state)
        check_prompt(outcome.state, outcome.pending)
        if codec:
            check_codec(outcome.state)
        check_events(outcome.events)
        assert outcome.state.step == state.step + 1
        journey.commands.append(command)
        journey.states.append(outcome.state)
        left_town = state.phase is Phase.TOWN and outcome.state.phase is Phase.BETWEEN_ADVENTURES
        state = outcome.state
        if left_town:  # end_town_stay, or the answer to the last prompt it asked
            stays -= 1
            if stays == 0:
                break
    else:
        pytest.fail(f"no end after {MAX_STEPS} steps: {state.phase}, {state.pending}")
    return journey


def replay(journey: Journey) -> None:
    """The same commands from the same state give identical states, step by step."""
    state = journey.start
    for command, expected in zip(journey.commands, journey.states, strict=True):
        state = apply(state, command).state
        assert state == expected


def throw(state: Session, data: Any) -> None:
    """Garbage through the codec and the engine: only RulesError, and an accepted command keeps every bound."""
    before = encode_state(state)
    try:
        command = decode_command(data)
        outcome = apply(state, command)
    except RulesError:
        pass
    else:
        check_bounds(outcome.state)
        check_prompt(outcome.state, outcome.pending)
        check_codec(outcome.state)
    assert encode_state(state) == before


# ---- garbage ----------------------------------------------------------------------------------------------------
SMALL_INTS = st.integers(-(10**6), 10**6) | st.sampled_from((0, 1, 2, 3, 5, 6, 7, 11, 35, 66, -1, 2**53, 2**64))
JSON = st.recursive(
    st.none() | st.booleans() | SMALL_INTS | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
EFFECT = st.fixed_dictionaries(
    {"op": st.sampled_from((*sorted(OPS), "boom"))},
    optional={
        "field": st.sampled_from((*HERO_FIELDS, *SKILLS, "name", "")),
        "amount": st.integers(-30, 30) | SMALL_INTS,
        "name": st.sampled_from((*ITEM_NAMES, *TOKENS, "Claw", "Law", "", " ")),
        "tags": st.lists(st.sampled_from(("gear", "hat", "transport", "dark_stone")), max_size=2),
        "hourglass": st.integers(-1, 3),
        "dark_stone_upgrades": st.integers(-1, 3),
    },
)
PLAUSIBLE: dict[str, Any] = {
    "size": st.sampled_from(("small", "medium", "large", "huge", "")),
    "dice": st.lists(st.lists(st.integers(-1, 9), max_size=4) | st.integers(0, 70), max_size=4),
    "destroyed_slots": st.integers(-2, 10),
    "hero": st.sampled_from(("h0", "h1", "h5", "zz", "")),
    "effects": st.lists(EFFECT, max_size=3),
    "reason": st.text(max_size=8),
    "faces": st.none() | st.lists(st.integers(-1, 9), max_size=4) | st.integers(0, 70),
    "prompt": st.sampled_from(("", "p1", "p2", "p9999")),
    "everyone": st.booleans(),
    "keep": st.booleans(),
    "then": st.lists(st.lists(st.integers(-1, 9), max_size=3) | st.text(max_size=3), max_size=3),
    "option": st.sampled_from(("", "0", "1", "2", "3", "turn_back", "ford", "yes", "no", "help", "Saloon")),
    "indices": st.lists(st.integers(-1, 5), max_size=4),
    "text": st.text(max_size=8),
    "location": st.sampled_from(("Saloon", "Camp Site", "Hotel", "Gambling Hall", "Sheriff's Office", "", "Moon")),
    "ware": st.sampled_from(("Tequila", "Dark Stone", "dark_stone", "Horse", "Repair Side Bag", "", "Potion")),
    "price": st.none() | st.integers(-5, 600) | SMALL_INTS,
    "kind": st.sampled_from(("", "token", "item", "service", "pet", "scavenge", "door", "loot")),  # stay, adventure
    "tags": st.lists(st.sampled_from(("gear", "hat", "transport")), max_size=2),
    "count": st.integers(-1, 120),
    "method": st.sampled_from(("chart", "threat_card", "sheriff", "wanted", "")),
    "enemies": st.one_of(  # set_bounty's targets, add_enemies' figures
        st.lists(st.fixed_dictionaries({"enemy": st.sampled_from(("Bandit", "", "Void Spider"))},
                                              optional={"health": st.integers(-1, 20), "gold": st.integers(-1, 500),
                                                        "all_heroes": st.booleans()}), max_size=2),
        st.lists(st.fixed_dictionaries({}, optional={"name": st.sampled_from(("Oni", "")), "health": st.integers(-1, 1000),
                                                     "count": st.integers(-1, 30)}), max_size=2)),
    "stake": st.none() | st.integers(-5, 100),
    "lies": st.lists(st.sampled_from(("off", "card_edge", "head_edge", "on_cards", "on_head", "floor")), max_size=4),
    "pick_up": st.lists(st.integers(-1, 4), max_size=4),
    "token": st.sampled_from((*TOKENS, "Tequila", "Exotic Herbs", "Spice", "Fire Sake", ""))  # use_token
    | st.none() | st.fixed_dictionaries({}, optional={"doors": st.integers(-1, 5), "clue": st.booleans()}),  # reveal
    # the adventure's commands (rules/adventure)
    "lantern": st.sampled_from(("h0", "h1", "zz", "")),
    "mission": st.sampled_from(("lost_contact", "nope", "")),
    "track": st.sampled_from(("", "fortress")),
    "layout": st.lists(st.fixed_dictionaries({"number": st.integers(-1, 4), "stage": st.integers(0, 4)},
                                             optional={"mark": st.sampled_from(("none", "blood_spatter", "x"))}),
                       max_size=5),
    "sheets": st.lists(st.fixed_dictionaries({"hero": st.sampled_from(("h0", "h1", "zz"))},
                                             optional={"initiative": st.integers(-1, 30),
                                                       "max_fury": st.integers(-1, 30)}), max_size=3),
    "heroes": st.lists(st.sampled_from(("h0", "h1", "zz")), max_size=3),
    "in_the_dark": st.booleans(),
    "roll": st.sampled_from(("move", "hold_back_the_darkness", "injury", "x")),
    "spaces": st.integers(-1, 13),
    "to": st.none() | st.fixed_dictionaries({"tile": st.sampled_from(("entrance", "tile-1", ""))},
                                            optional={"x": st.integers(-1, 3), "y": st.integers(-1, 3)}),
    "through": st.lists(st.sampled_from(("model", "barrier", "wall", "window", "x")), max_size=2),
    "placed": st.sampled_from(("", "room", "passage", "none", "cave")),
    "name": st.sampled_from(("", "Room 1", "Oni")),
    "target": st.sampled_from(("", "oni-1", "h0")),
    "ranged": st.booleans(),
    "blast": st.booleans(),
    "hits": st.lists(st.fixed_dictionaries({"target": st.sampled_from(("oni-1", "x")),
                                            "damage": st.integers(-1, 120)}), max_size=3),
    "ki": st.integers(-1, 5),
    "isolated": st.booleans(),
    "enemy": st.sampled_from(("oni-1", "h0", "")),
    "strikes": st.lists(st.fixed_dictionaries({"hero": st.sampled_from(("h0", "zz"))},
                                              optional={"hits": st.none() | st.integers(-1, 5),
                                                        "kind": st.sampled_from(("wound", "horror", "x"))}),
                        max_size=2),
    "ambush": st.booleans(),
    "wounds": st.integers(-1, 1000),
    "combat": st.booleans(),
    "tile": st.sampled_from(("entrance", "tile-1", "")),
    "spell": st.sampled_from(("Fire Lash", "Elemental Blast", "")),
    "card": st.none() | st.fixed_dictionaries({"cost": st.integers(-1, 30), "casting": st.integers(-1, 40)})
    | st.fixed_dictionaries({}, optional={"text": st.text(max_size=8), "effects": st.lists(EFFECT, max_size=2)}),
    "extra_mana": st.integers(-1, 30),
    "tactic": st.sampled_from(("Iron Wall", "")),
    "cost": st.none() | st.integers(-1, 30),
    "any_time": st.booleans(),
    "heal": st.sampled_from(("wounds", "sanity", "x")),
    "base": st.integers(-1, 100),
    "marker": st.sampled_from(("darkness", "party", "x")),
    "steps": st.integers(-25, 25),
    "resource": st.sampled_from(("fury", "ki", "mana", "arcane_powder", "x")),
    "amount": st.integers(-120, 120),
    # the Town Missions' commands (rules/missions)
    "targets": st.lists(st.fixed_dictionaries({"bandit": st.sampled_from(("bandit-1", "x")),
                                               "hero": st.sampled_from(("h0", "zz"))}), max_size=2),
    "model": st.sampled_from(("h0", "bandit-1", "zz", "")),
    "path": st.lists(st.lists(st.integers(-1, 25), min_size=2, max_size=2), max_size=3),
    "townsfolk": st.sampled_from(("townsfolk-1", "x")),
    "choice": st.sampled_from(("recover_grit", "catch_breath", "scavenge", "x")),
    "damage": st.integers(-1, 120),
    "rules": st.text(max_size=8), "xp_per_kill": st.integers(-1, 2000), "bounty_per_kill": st.integers(-1, 2000),
    "dynamite": st.booleans(),
}


def command_like(type_name: str) -> st.SearchStrategy[dict[str, Any]]:
    """A command of `type_name` with plausible (often wrong) values for its own fields."""
    names = [f.name for f in dataclasses.fields(COMMAND_TYPES[type_name])]
    return st.fixed_dictionaries({"type": st.just(type_name)}, optional={n: PLAUSIBLE[n] for n in names})


COMMAND_LIKE = st.one_of(*(command_like(t) for t in sorted(COMMAND_TYPES)))
GARBAGE = st.one_of(
    JSON,
    COMMAND_LIKE,
    COMMAND_LIKE,
    COMMAND_LIKE,
    st.builds(lambda c, k, v: {**c, k: v}, COMMAND_LIKE, st.sampled_from(("type", "dice", "junk", "prompt")), JSON),
)


# ---- the properties --------------------------------------------------------------------------------------------------
@FAST
@given(start=sessions(), seed=SEEDS)
def test_journeys_keep_every_value_in_bounds_and_round_trip(start: Session, seed: int) -> None:
    journey = play(start, random.Random(seed))
    assert journey.states, "at least one command was accepted"
    last = journey.states[-1]
    assert last.phase is Phase.BETWEEN_ADVENTURES or not last.active_heroes


@FAST
@given(start=sessions(), seed=SEEDS)
def test_the_same_commands_from_the_same_state_give_the_same_states(start: Session, seed: int) -> None:
    replay(play(start, random.Random(seed), stays=2, codec=False))


@FAST
@given(start=sessions(), seed=SEEDS, garbage=st.lists(GARBAGE, min_size=1, max_size=30))
def test_garbage_raises_only_rules_errors(start: Session, seed: int, garbage: list[Any]) -> None:
    play(start, random.Random(seed), garbage=garbage, codec=False)


@FAST
@given(data=GARBAGE)
def test_garbage_on_a_fresh_session_raises_only_rules_errors(data: Any) -> None:
    throw(new_session([Hero("h0", "Ann"), Hero("h1", "Bo")], seed=1), data)


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document (dict keys and list indices)."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths(value, (*prefix, index))
    return found


@FAST
@given(start=sessions(), where=st.integers(0, 10**6), junk=JSON)
def test_a_damaged_state_or_hero_document_raises_only_invalid_command(start: Session, where: int, junk: Any) -> None:
    """Stored states and hero sheets typed in at the edges go through the same strict decoder."""
    for document, decode in ((encode_state(start), decode_state), (encode(start.heroes[0]), decode_hero)):
        places = [p for p in paths(document) if p]
        spot = places[where % len(places)]
        target = document
        for key in spot[:-1]:
            target = target[key]
        target[spot[-1]] = junk
        with contextlib.suppress(InvalidCommand):
            decode(document)


@pytest.mark.skipif(not ALL_HAZARDS, reason="until all 36 Travel Hazards are registered, journeys type in known ones")
@FAST
@given(start=sessions(), seed=SEEDS)
def test_the_session_rng_alone_plays_every_hazard(start: Session, seed: int) -> None:
    """Server dice throughout, answers from a seeded Random: every D36 result the RNG rolls has a rule."""
    server = replace(start, options=replace(start.options, dice="server"))
    journey = play(server, random.Random(seed), codec=False)
    rolled = {n for s in journey.states if s.travel is not None for n in s.travel.hazards}
    assert rolled <= set(HAZARDS)


@pytest.mark.slow
@SLOW
@given(start=sessions(), seed=SEEDS, garbage=st.lists(GARBAGE, max_size=60))
def test_many_more_journeys_slow(start: Session, seed: int, garbage: list[Any]) -> None:
    journey = play(start, random.Random(seed), stays=3, garbage=garbage)
    replay(journey)
