"""The `brimstone` command: play the road to town in a terminal (`travel`), ask the odds (`odds`), or start the
service (`serve`, `worker`).

    brimstone travel --heroes 4 --size large --seed 7 [--auto] [--table-dice] [--posse posse.json]
    brimstone odds --heroes 4 [--trials 5000] [--plot odds.png]   (services.odds_cli; --session CODE asks a service)
    brimstone serve ...     (services.api.serve)
    brimstone worker ...    (services.jobs.worker)

`travel` needs only the rules engine: the service modules are imported only by `serve` and `worker`. It reads its
answers from stdin line by line, so a script (or a test) can pipe them in.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from importlib import import_module
from typing import TextIO

from services import odds_cli
from shared_rules.codec import decode_hero
from shared_rules.commands import (
    Arrive,
    Choose,
    ChooseTownSize,
    Command,
    Effect,
    EnterCard,
    Reroll,
    RollDice,
    RollHazard,
)
from shared_rules.dice import DieKind
from shared_rules.engine import apply, new_session
from shared_rules.errors import RulesError
from shared_rules.events import Event
from shared_rules.flow import Policy
from shared_rules.prompts import Prompt
from shared_rules.simulate import default_policy, sample_heroes
from shared_rules.state import Hero, Phase, RuleOptions, Session

SERVICE_COMMANDS = {"serve": "services.api.serve", "worker": "services.jobs.worker",
                    "redis-migrate": "services.store.migrate"}


class InputEnded(Exception):
    """Stdin ran out while a question was waiting."""


class Terminal:
    """Questions on `out`, answers from `stdin`, one line each."""

    def __init__(self, stdin: TextIO, out: TextIO) -> None:
        self.stdin = stdin
        self.out = out

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, question: str) -> str:
        self.out.write(f"{question}\n> ")
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            raise InputEnded(question)
        answer = line.strip()
        if not self.stdin.isatty():
            self.out.write(answer + "\n")  # echo piped answers so the transcript reads like a session
        return answer


# ---- answering a prompt ---------------------------------------------------------------------------------------
_EFFECT = re.compile(r"^\s*([a-z_]+)\s*([+-]\s*\d+)\s*$")
_LOOKS_LIKE_EFFECT = re.compile(r"[+-]\s*\d+\s*$")


def card_entry(text: str) -> tuple[str, tuple[Effect, ...]]:
    """A typed card line as (description, effects): "Paranoia, sanity_damage +2" is the card's name and one
    effect. A part that ends in +N/-N must be a hero value and an amount; one that is not raises ValueError (asked
    again), so an effect is never shown as applied while it was dropped."""
    from shared_rules.state import HERO_FIELDS, SKILLS

    words: list[str] = []
    effects: list[Effect] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        match = _EFFECT.match(part.lower())
        if match and match.group(1) in (*HERO_FIELDS, *SKILLS):
            effects.append(Effect("change", match.group(1), int(match.group(2).replace(" ", ""))))
        elif _LOOKS_LIKE_EFFECT.search(part):
            raise ValueError(f"{part!r} is not a change the rules know: write a hero value and an amount, "
                             f"e.g. 'wounds +2' (values: {', '.join(sorted((*HERO_FIELDS, *SKILLS)))})")
        else:
            words.append(part)
    return ", ".join(words), tuple(effects)


def card_effects(text: str) -> tuple[Effect, ...]:
    """The effects of a typed card line (see `card_entry`)."""
    return card_entry(text)[1]


def _numbered(prompt: Prompt) -> bool:
    """Options whose keys are numbers of their own (Building slots): the player types that number, not a position
    in the list, so the numbers keep meaning the slots after one is destroyed."""
    return bool(prompt.options) and all(option.key.isdigit() for option in prompt.options)


def _faces(text: str, prompt: Prompt) -> tuple[int, ...] | None:
    """The faces typed for a roll prompt: "3 5" (a D36 may be "35"); empty means roll for me."""
    if not text:
        return None
    if prompt.die is DieKind.D36 and re.fullmatch(r"\d\d", text):
        return (int(text[0]), int(text[1]))
    return tuple(int(word) for word in re.split(r"[\s,]+", text))


def answer_for(prompt: Prompt, text: str) -> Command:
    """Turn one typed line into the command that answers `prompt`; ValueError when the line does not parse."""
    if prompt.kind == "roll":
        return RollDice(_faces(text, prompt), prompt=prompt.id)
    if prompt.kind == "choice":
        keys = [option.key for option in prompt.options]
        if _numbered(prompt):
            if text in keys:
                return Choose(text, prompt=prompt.id)
            raise ValueError(f"type one of the numbers shown: {', '.join(keys)}")
        if text.isdigit() and 1 <= int(text) <= len(keys):
            return Choose(keys[int(text) - 1], prompt=prompt.id)
        if text in keys:
            return Choose(text, prompt=prompt.id)
        raise ValueError(f"type a number from 1 to {len(keys)}")
    if prompt.kind == "reroll":
        indices = tuple(int(word) for word in re.split(r"[\s,]+", text)) if text else ()
        return Reroll(indices, prompt=prompt.id)
    description, effects = card_entry(text)
    return EnterCard(description, effects, prompt=prompt.id)


def question_for(prompt: Prompt) -> str:
    """The prompt in plain words, with its numbered options or what to type."""
    if prompt.kind == "roll":
        hint = "a D36 as tens and ones, e.g. 3 5" if prompt.die is DieKind.D36 else "separated by spaces"
        return (f"{prompt.question}\n  Type the faces of your {prompt.dice_count} dice ({hint}), "
                "or press enter to let the computer roll")
    if prompt.kind == "choice":
        if _numbered(prompt):  # the slot's own number, as printed on the Town Map
            lines = [f"  {o.key}. {o.label.removeprefix(o.key).strip() or o.label}" for o in prompt.options]
        else:
            lines = [f"  {n}. {option.label}" for n, option in enumerate(prompt.options, start=1)]
        return "\n".join([prompt.question, *lines, "  Your choice (number)"])
    if prompt.kind == "reroll":
        assert prompt.roll is not None
        roll = prompt.roll
        dice = "  ".join(f"[{i}] {face}" + ("*" if i in roll.rerolled else "") for i, face in enumerate(roll.faces))
        return (f"{prompt.question}\n  Dice: {dice}   (target {roll.target}+; * already re-rolled)\n"
                "  Indices to re-roll for 1 Grit, separated by spaces, or empty to keep")
    return (f"{prompt.question}\n  What the card says, then its changes, e.g. 'Paranoia, sanity_damage +2' "
            "(the changes are applied), or press enter for none")


# ---- playing the journey --------------------------------------------------------------------------------------
def show_events(term: Terminal, events: Sequence[Event], state: Session) -> None:
    """Each event's plain words; hazards as headings, a hero's answers under their name."""
    names = {hero.id: hero.name for hero in state.heroes}
    for event in events:
        if event.type == "prompt":
            continue  # asked as a question instead
        if event.type == "answered" and event.hero in names:
            term.say(f"  {names[event.hero]}: {event.text}")
        elif event.type == "hazard":
            term.say()
            term.say(f"== {event.text} ==")
        elif event.type in ("hazard_count", "town_type", "town_built", "phase"):
            term.say(event.text)
        else:
            term.say(f"  {event.text}")


def play(state: Session, command: Command, term: Terminal, policy: Policy | None) -> Session:
    """Apply `command`, then ask each prompt it stops at until the rule is done; refused answers are asked again."""
    outcome = apply(state, command, policy=policy)
    show_events(term, outcome.events, outcome.state)
    state = outcome.state
    while outcome.pending is not None:
        prompt = outcome.pending
        text = term.ask(question_for(prompt))
        try:
            outcome = apply(state, answer_for(prompt, text), policy=policy)
        except ValueError as error:  # the line did not parse (RulesError is not a ValueError)
            term.say(f"  ! {error}" if "invalid literal" not in str(error) else "  ! type whole numbers")
            continue
        except RulesError as error:  # the engine refused it: say why and ask again
            term.say(f"  ! {error.message}")
            continue
        show_events(term, outcome.events, outcome.state)
        state = outcome.state
    return state


def describe_town(state: Session) -> list[str]:
    town = state.town
    if town is None:
        return ["No hero reached town."]
    lines = [f"{town.size.value.capitalize()} {town.town_type} (Town type 2D6 = {town.type_roll})", "Buildings:"]
    for slot in town.slots:
        lines.append(f"  {slot.number}. {slot.location}" + ("  (Destroyed for this Stay)" if slot.destroyed else ""))
    lines.append("  plus the Hotel and the Camp Site")
    return lines


def describe_hero(before: Hero, after: Hero) -> list[str]:
    def delta(field: str) -> str:
        change = int(getattr(after, field)) - int(getattr(before, field))
        return f" ({change:+d})" if change else ""

    flags = [flag for flag, on in (("REMOVED from the game", after.removed), ("KO'd", after.knocked_out),
                                   ("Side Bag torn", after.bag_torn), ("Mr. Scratch's deal", after.scratch_deal))
             if on]
    lines = [
        f"{after.name} ({after.hero_class or 'Hero'})" + (f" - {', '.join(flags)}" if flags else ""),
        f"  XP {after.xp}{delta('xp')}, Gold ${after.gold}{delta('gold')}, Grit {after.grit}/{after.max_grit}"
        f"{delta('grit')}, Dark Stone {after.dark_stone}{delta('dark_stone')}, "
        f"Corruption {after.corruption}{delta('corruption')}",
        f"  Health {after.health_left}/{after.max_health} (Wounds {after.wounds}{delta('wounds')}), "
        f"Sanity {after.sanity_left}/{after.max_sanity} (Sanity Damage {after.sanity_damage}"
        f"{delta('sanity_damage')}), Unwanted Attention {after.unwanted_attention}{delta('unwanted_attention')}",
        f"  Items: {', '.join(item.name for item in after.items) or 'none'}; "
        f"Side Bag: {', '.join(after.side_bag) or 'empty'}",
    ]
    return lines


def travel(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """Choose the size, resolve every hazard, arrive, then show the town and each hero."""
    term = Terminal(stdin, out)
    heroes = load_posse(args.posse) if args.posse else sample_heroes(args.heroes)
    options = RuleOptions(dice="table" if args.table_dice else "server")
    state = new_session(heroes, options=options, seed=args.seed)
    policy = default_policy if args.auto else None
    term.say(f"The posse ({len(heroes)}): " + ", ".join(f"{h.name} ({h.hero_class or 'Hero'})" for h in heroes))
    term.say(f"Travelling to a {args.size.capitalize()} Town (seed {args.seed}"
             + (", your dice" if args.table_dice else "") + (", default answers" if args.auto else "") + ")")
    start = state
    state = play(state, ChooseTownSize(args.size), term, policy)
    while state.phase is Phase.TRAVEL:
        state = play(state, RollHazard(), term, policy)
    term.say()
    if state.active_heroes:
        state = play(state, Arrive(), term, policy)
    term.say()
    term.say("== Town ==")
    for line in describe_town(state):
        term.say(line)
    term.say()
    term.say("== The posse ==")
    for before, after in zip(start.heroes, state.heroes, strict=True):
        for line in describe_hero(before, after):
            term.say(line)
    return 0


def load_posse(path: str) -> tuple[Hero, ...]:
    """A posse file: a JSON list of heroes in the codec's form (strict: unknown fields are refused)."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    if not isinstance(data, list):
        raise ValueError(f"{path}: a posse file holds a JSON list of heroes")
    return tuple(decode_hero(item, f"posse[{index}]") for index, item in enumerate(data))


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="brimstone", description="Brimstone Table: the rules engine in a terminal, "
                                  "and the service.")
    commands = top.add_subparsers(dest="command", required=True, metavar="{travel,odds,serve,worker,redis-migrate}")
    trip = commands.add_parser("travel", help="play the road to town step by step in the terminal")
    who = trip.add_mutually_exclusive_group()
    who.add_argument("--heroes", type=int, default=4, choices=range(1, 7), metavar="N",
                     help="N sample heroes of the four classes (1-6, default 4)")
    who.add_argument("--posse", metavar="FILE", help="a JSON list of heroes (the codec's form) instead")
    trip.add_argument("--size", choices=("small", "medium", "large"), default="large", help="the Town size")
    trip.add_argument("--seed", type=int, default=0, help="the session RNG seed (same seed, same journey)")
    trip.add_argument("--auto", action="store_true", help="answer every choice with the default policy")
    trip.add_argument("--table-dice", action="store_true", help="type in the faces of your physical dice")
    odds_cli.add_parser(commands)
    commands.add_parser("serve", help="start the service (arguments go to services.api.serve)", add_help=False)
    commands.add_parser("worker", help="start a job worker (arguments go to services.jobs.worker)", add_help=False)
    commands.add_parser("redis-migrate", help="move tables stored before the hash-tagged key layout (once)",
                        add_help=False)
    return top


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in SERVICE_COMMANDS:  # imported only now: `travel` works with the engine alone
        service_main: Callable[[list[str]], int | None] = import_module(SERVICE_COMMANDS[args[0]]).main
        return service_main(args[1:]) or 0
    parsed = parser().parse_args(args)
    stdin, out = stdin or sys.stdin, out or sys.stdout
    try:
        if parsed.command == "odds":
            return odds_cli.run(parsed, out)
        return travel(parsed, stdin, out)
    except InputEnded as ended:
        print(f"\nbrimstone: the input ended while this waited for an answer: {ended}", file=sys.stderr)
        return 1
    except (RulesError, ValueError, OSError) as error:
        print(f"brimstone: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
