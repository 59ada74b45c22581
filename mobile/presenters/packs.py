"""Content packs on this phone: taken in from a file, a pasted document, a link or another phone's QR code, checked
by the engine's own pack loader (`shared_rules.content.load_pack`), kept in the app's folder and registered again
at the next start, so an offline table made with a pack opens again.

A pack travels between phones as a link, brimstone://pack?d=<zlib+base64url JSON>, shown as a QR code the other
phone's camera opens (the same way as a posse link); a pack too big for one code goes as its file. A refusal names
where the problem is in the pack in words ("Class sheet Assassin, skills, agility: 14 is not within 0 to 12"), never
the loader's exception text.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from shared_rules import RulesError
from shared_rules.content import PACKS, ContentPack, load_pack

LINK = "brimstone://pack"
QR_LIMIT = 2300  # characters a QR code holds at error level M (version 40: 2331 bytes), with room to spare
BUILT_IN = "default"
# where a pack's problem is, in the words of the pack's own parts (docs/content-packs.md)
PART_WORDS = {"hero_classes": "Class sheet", "buildings": "Building tokens", "town_types": "Town type",
              "charts": "Chart", "adventure": "Adventure", "town": "Town", "locations": "Location",
              "tokens": "Token", "low_threats": "Low Threat", "name": "Name", "version": "Version"}  # fmt: skip


class PackRefused(ValueError):
    """A pack that cannot be taken in; the message is in player words."""


def problem_words(message: str, names: tuple[str, ...] = ()) -> str:
    """The loader's message with its path said in words: `hero_classes.Assassin.skills.agility: 14 is not within
    0..12` -> `Class sheet Assassin, skills, agility: 14 is not within 0 to 12`. `names` are the pack's own names
    (classes, Locations...), kept whole even with a dot in them ("U.S. Marshal")."""
    where, colon, rest = message.partition(": ")
    if not colon or " " in where.split(".")[0]:
        where, rest = "", message
    parts: list[str] = []
    while where:
        name = next((n for n in sorted(names, key=len, reverse=True) if parts and where.startswith(n)
                     and where[len(n):len(n) + 1] in ("", ".", "[")), None)
        if name is None:
            found = re.match(r"\[\d+\]|[^.\[]+", where)
            name = found.group(0) if found else where
        parts.append(name)
        where = where[len(name):].removeprefix(".")
    words = []
    for index, part in enumerate(parts):
        number = re.fullmatch(r"\[(\d+)\]", part)
        if number:
            words.append(f"no. {int(number.group(1)) + 1}")
        elif index == 0:
            words.append(PART_WORDS.get(part, part.replace("_", " ")))
        else:
            words.append(part.replace("_", " "))
    if len(words) > 1 and parts[0] in PART_WORDS and not parts[1].startswith("["):
        words[:2] = [f"{words[0]} {words[1]}"]  # "Class sheet Lawman"
    rest = re.sub(r"(\d+)\.\.(\d+)", r"\1 to \2", rest).replace("'", "")
    rest = re.sub(r"\s*\((?:FF|FT)-[A-Z0-9-]+(?:, ambiguity A\d+)?\)", "", rest)
    text = (", ".join(words) + ": " if words else "") + rest
    return text[:1].upper() + text[1:]


def pack_link(raw: dict[str, Any]) -> str:
    """A pack as one link (for a QR code or a message)."""
    data = json.dumps(raw, separators=(",", ":"), ensure_ascii=False).encode()
    return f"{LINK}?d={base64.urlsafe_b64encode(zlib.compress(data, 9)).decode().rstrip('=')}"


def read_pack_text(text: str) -> dict[str, Any]:
    """A pack document from its JSON text or a pack link; PackRefused in words when it is neither."""
    text = text.strip()
    if text.startswith(LINK):
        packed = parse_qs(urlsplit(text).query).get("d", [""])[0]
        try:
            text = zlib.decompress(base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))).decode()
        except (ValueError, zlib.error) as error:
            raise PackRefused("That pack code is damaged; show it again") from error
    try:
        raw = json.loads(text)
    except ValueError as error:
        raise PackRefused("That is not a content pack (a pack is a .json file)") from error
    if not isinstance(raw, dict):
        raise PackRefused("That is not a content pack (a pack is a .json file)")
    return raw


def check_pack(raw: dict[str, Any]) -> ContentPack:
    """The engine's pack loader; its refusal in words."""
    try:
        pack = load_pack(raw)
    except RulesError as error:
        names = tuple(str(k) for part in raw.values() if isinstance(part, dict) for k in part)
        raise PackRefused("That pack cannot be used. " + problem_words(error.message, names)) from None
    if pack.name == BUILT_IN:
        raise PackRefused("That pack is named default, the name of the built-in pack; give it another name")
    return pack


@dataclass
class PackShelf:
    """The packs this phone has: the built-in one, and those taken in (kept as files in `directory`)."""

    directory: Path
    raws: dict[str, dict[str, Any]] = field(default_factory=dict)
    broken: tuple[str, ...] = ()  # files in the folder the loader refused (named on the screen)

    def __post_init__(self) -> None:
        self.raws[BUILT_IN] = json.loads(resources.files("shared_rules.content").joinpath("default_pack.json")
                                         .read_text(encoding="utf-8"))
        self.scan()

    def scan(self) -> None:
        """Register every pack file in the folder (a file dropped there by hand, or one taken in before)."""
        broken = []
        for path in sorted(self.directory.glob("*.json")) if self.directory.is_dir() else ():
            try:
                raw = read_pack_text(path.read_text(encoding="utf-8"))
                pack = check_pack(raw)
            except (OSError, PackRefused):
                broken.append(path.name)
                continue
            PACKS[pack.name] = pack
            self.raws[pack.name] = raw
        self.broken = tuple(broken)

    def names(self) -> tuple[str, ...]:
        return (BUILT_IN, *sorted(n for n in self.raws if n != BUILT_IN))

    def take(self, raw: dict[str, Any]) -> ContentPack:
        """Check a pack, keep its file, and register it so tables can name it."""
        pack = check_pack(raw)
        self.directory.mkdir(parents=True, exist_ok=True)
        safe = re.sub(r"[^A-Za-z0-9._-]+", "-", pack.name).strip("-.") or "pack"
        (self.directory / f"{safe}.json").write_text(json.dumps(raw, indent=1, ensure_ascii=False),
                                                     encoding="utf-8")
        PACKS[pack.name] = pack
        self.raws[pack.name] = raw
        return pack

    def from_path(self, path: str) -> dict[str, Any]:
        try:
            text = Path(path.strip()).expanduser().read_text(encoding="utf-8")
        except (OSError, ValueError) as error:
            raise PackRefused("That file cannot be read; check the path") from error
        return read_pack_text(text)

    def link(self, name: str) -> str:
        return pack_link(self.raws[name])

    def fits_a_code(self, name: str) -> bool:
        return len(self.link(name)) <= QR_LIMIT

    def describe(self, name: str) -> str:
        """What a pack holds, in a line."""
        pack = PACKS[name]
        parts = []
        if pack.hero_classes:
            parts.append(f"{len(pack.hero_classes)} class sheet{'s' if len(pack.hero_classes) != 1 else ''}")
        if pack.charts:
            parts.append(f"{len(pack.charts)} chart{'s' if len(pack.charts) != 1 else ''}")
        if pack.stay.locations:
            parts.append(f"{len(pack.stay.locations)} Location card{'s' if len(pack.stay.locations) != 1 else ''}")
        if pack.adventure.enemies:
            parts.append(f"{len(pack.adventure.enemies)} enemy sheet{'s' if len(pack.adventure.enemies) != 1 else ''}")
        return ", ".join(parts) if parts else "the Building tokens only"
