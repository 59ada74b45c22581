"""The start screen: the server address, a new table (the posse with their stats), joining one, or playing offline.

The posse is checked by the engine's own `new_session` before anything is sent (1-6 heroes with names, A48), so a
refusal reads the same online and offline. Numbers are typed (a tap on the number opens the keypad); a class picked
from the list or typed by name takes its starting stats from the content pack when the pack has them. A posse (or
one hero) goes out as a file or a QR code at the end of a night and comes back in the next (`export_text`,
`import_text`); a table's join link is remembered, so the next night is one tap.
"""

from __future__ import annotations

import base64
import json
import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from shared_rules import Hero, Item, ItemTag, RuleOptions, RulesError, Skills, decode_hero, encode, new_session
from shared_rules.content import PACKS, class_names
from shared_rules.state import SKILLS

from ..client import BackendError, OfflineBackend, TableBackend
from ..i18n import _
from .packs import BUILT_IN, PackRefused, PackShelf, read_pack_text
from .packs import LINK as PACK_LINK
from .table import Post, TableSession, Worker, immediate
from .words import plain

MAX_HEROES = 6  # A48
# Stats a player sets for each hero, with bounds: (key, label, low, high). The sheet's numbers, then where the hero
# stands now in the campaign (current Grit, Wounds, Sanity Damage, Corruption, Dark Stone).
DRAFT_STATS: tuple[tuple[str, str, int, int], ...] = (
    ("health", "Health", 1, 30), ("sanity", "Sanity", 1, 30), ("max_grit", "Max Grit", 1, 6),
    ("defense", "Defense", 1, 7), ("willpower", "Willpower", 1, 7), ("level", "Level", 1, 8),
    ("agility", "Agility", 0, 8), ("cunning", "Cunning", 0, 8), ("spirit", "Spirit", 0, 8),
    ("strength", "Strength", 0, 8), ("lore", "Lore", 0, 8), ("luck", "Luck", 0, 8),
    ("gold", "Gold", 0, 99999), ("xp", "XP", 0, 99999),
    ("grit", "Grit now", 0, 6), ("wounds", "Wounds", 0, 29), ("sanity_damage", "Sanity Damage", 0, 29),
    ("corruption", "Corruption", 0, 99), ("dark_stone", "Dark Stone", 0, 99),
)  # fmt: skip
SHEET_KEYS = tuple(key for key, *_ in DRAFT_STATS[:14])
NOW_KEYS = tuple(key for key, *_ in DRAFT_STATS[14:])
STEPS = {"gold": 25, "xp": 10}
TAGS = tuple(tag.value for tag in ItemTag)
TAG_WORDS = {
    "transport": "Transport", "clothing": "Clothing", "personal": "Personal", "gear": "Gear",
    "artifact": "Artifact", "dark_stone": "Dark Stone icon", "starting": "Starting Item",
}  # fmt: skip
assert set(TAG_WORDS) == set(TAGS)  # every keyword the hazards read has its words on the card


def tag_word(tag: str) -> str:
    """An item keyword as the cards print it, in the app's language ("dark_stone" -> "Dark Stone icon")."""
    return _(TAG_WORDS.get(tag, tag.replace("_", " ").capitalize()))


def tag_words(tags: tuple[str, ...]) -> str:
    """An item's keywords for its line on the Start screen: "Transport, Gear"."""
    return ", ".join(tag_word(t) for t in tags)


LINK_SCHEME = "brimstone"
REMEMBER_FILE = "tables.json"


@dataclass(frozen=True, slots=True)
class ItemDraft:
    """An item card: its name and the keywords (tags) and icons the hazards read (FT-HERO-04)."""

    name: str
    tags: tuple[str, ...] = ()
    hourglass: int = 0


@dataclass(frozen=True, slots=True)
class HeroDraft:
    """A hero being entered from the physical character sheet."""

    name: str = ""
    hero_class: str = "Samurai Warrior"
    stats: tuple[tuple[str, int], ...] = (
        ("health", 10), ("sanity", 10), ("max_grit", 2), ("defense", 4), ("willpower", 4), ("level", 1),
        ("agility", 2), ("cunning", 2), ("spirit", 2), ("strength", 2), ("lore", 2), ("luck", 2),
        ("gold", 0), ("xp", 0), ("grit", 1), ("wounds", 0), ("sanity_damage", 0), ("corruption", 0),
        ("dark_stone", 0),
    )  # fmt: skip
    keywords: tuple[str, ...] = ()
    items: tuple[ItemDraft, ...] = ()
    side_bag: tuple[str, ...] = ()
    mutations: tuple[str, ...] = ()

    def get(self, key: str) -> int:
        return dict(self.stats)[key]

    def with_stat(self, key: str, value: int) -> HeroDraft:
        return replace(self, stats=tuple((k, value if k == key else v) for k, v in self.stats))

    def hero(self, hero_id: str) -> Hero:
        s = dict(self.stats)
        items, ids = [], set()
        for draft in self.items:
            ident = base = re.sub(r"[^a-z0-9]+", "-", draft.name.lower()).strip("-") or "item"
            n = 2
            while ident in ids:
                ident, n = f"{base}-{n}", n + 1
            ids.add(ident)
            items.append(Item(ident, draft.name, frozenset(ItemTag(t) for t in draft.tags), draft.hourglass))
        return Hero(hero_id, self.name.strip(), hero_class=self.hero_class.strip(), level=s["level"],
                    skills=Skills(**{k: s[k] for k in SKILLS}), defense=s["defense"], willpower=s["willpower"],
                    health_base=s["health"], sanity_base=s["sanity"], grit=s["grit"], max_grit=s["max_grit"],
                    gold=s["gold"], xp=s["xp"], wounds=s["wounds"], sanity_damage=s["sanity_damage"],
                    corruption=s["corruption"], dark_stone=s["dark_stone"], keywords=self.keywords,
                    items=tuple(items), side_bag=self.side_bag, mutations=self.mutations)

    @staticmethod
    def of(hero: Hero) -> HeroDraft:
        """A draft holding an existing hero (an imported one), to check or change before the table opens."""
        values = {"health": hero.health_base + hero.health_mod, "sanity": hero.sanity_base + hero.sanity_mod,
                  "max_grit": hero.max_grit, "defense": hero.defense, "willpower": hero.willpower,
                  "level": hero.level, "gold": hero.gold, "xp": hero.xp, "grit": hero.grit, "wounds": hero.wounds,
                  "sanity_damage": hero.sanity_damage, "corruption": hero.corruption, "dark_stone": hero.dark_stone,
                  } | {k: getattr(hero.skills, k) for k in SKILLS}  # fmt: skip
        items = tuple(ItemDraft(i.name, tuple(sorted(t.value for t in i.tags)), i.hourglass) for i in hero.items)
        return HeroDraft(hero.name, hero.hero_class, tuple((k, values[k]) for k, *_ in DRAFT_STATS), hero.keywords,
                         items, hero.side_bag, hero.mutations)


def pack_keywords(hero_class: str, pack_name: str = "default") -> tuple[str, ...]:
    """The keywords a class sheet prints (Outlaw, Law, Showman...), from the pack; empty when it has none."""
    return tuple(PACKS[pack_name].hero_classes.get(hero_class.strip(), {}).get("keywords", ()))


def pack_stats(hero_class: str, pack_name: str = "default") -> dict[str, int]:
    """The starting numbers a content pack gives a class (FF-HERO-01), as draft stats; empty when it has none."""
    stats = PACKS[pack_name].hero_classes.get(hero_class.strip(), {})
    found: dict[str, int] = {key: int(stats[key]) for key in ("health", "sanity", "max_grit", "defense", "willpower")
             if key in stats}
    found |= {skill: int(value) for skill, value in stats.get("skills", {}).items()}
    return found


def posse_link(heroes: list[Hero] | tuple[Hero, ...]) -> str:
    """A posse as one short link (for a QR code or a message): brimstone://posse?d=<zlib+base64url JSON>."""
    raw = json.dumps([encode(h) for h in heroes], separators=(",", ":")).encode()
    return f"{LINK_SCHEME}://posse?d={base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip('=')}"


def join_link(server: str, code: str, token: str) -> str:
    """How another phone joins: brimstone://join?server=...&code=...&token=... (shown as a QR code)."""
    return f"{LINK_SCHEME}://join?server={quote(server, safe='')}&code={quote(code)}&token={quote(token)}"


def read_posse(text: str) -> tuple[Hero, ...]:
    """Heroes from an exported file's text or a posse link; ValueError in player words when it is neither."""
    text = text.strip()
    if text.startswith(f"{LINK_SCHEME}://posse"):
        packed = parse_qs(urlsplit(text).query).get("d", [""])[0]
        try:
            text = zlib.decompress(base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))).decode()
        except (ValueError, zlib.error) as error:
            raise ValueError("That posse code is damaged; export it again") from error
    try:
        data: Any = json.loads(text)
    except ValueError as error:
        raise ValueError("That is not an exported hero or posse") from error
    if isinstance(data, dict) and "heroes" in data:
        data = data["heroes"]
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not data:
        raise ValueError("That is not an exported hero or posse")
    try:
        return tuple(decode_hero(item, f"heroes[{i}]") for i, item in enumerate(data))
    except RulesError as error:
        raise ValueError(f"That posse cannot be read: {plain(error.message)}") from error


@dataclass(frozen=True, slots=True)
class Remembered:
    """A table this phone joined or created, to rejoin with one tap."""

    server: str
    code: str
    token: str
    posse: str = ""
    at: float = 0.0
    claimed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StartView:
    server: str
    mode: str  # create | join | offline
    drafts: tuple[HeroDraft, ...]
    can_add_hero: bool
    table_dice: bool
    join_code: str
    join_token: str
    saved: tuple[tuple[str, str], ...]  # offline tables on this phone: (code, description)
    busy: bool
    message: str
    created: tuple[str, str] | None  # (code, token) to read out to the other players
    remembered: tuple[Remembered, ...] = ()
    classes: tuple[str, ...] = ()
    pack: str = BUILT_IN  # the content pack a new table plays with
    packs: tuple[tuple[str, str], ...] = ()  # (name, what it holds) for each pack on this phone
    pack_message: str = ""  # said next to the pack field: taken in, or why not
    pack_refused: bool = False  # the message says why a pack was not taken
    pack_files: tuple[str, ...] = ()  # pack files found in the app's folder, to take in with a tap
    pack_fills: bool = False  # the chosen pack has class sheets: a class fills in the starting numbers


def hero_ids(drafts: tuple[HeroDraft, ...]) -> list[str]:
    """Short unique ids from the names ("Ann" -> "ann", a second "Ann" -> "ann-2")."""
    ids: list[str] = []
    for index, draft in enumerate(drafts):
        base = re.sub(r"[^a-z0-9]+", "-", draft.name.lower()).strip("-") or f"hero-{index + 1}"
        ident, n = base, 2
        while ident in ids:
            ident, n = f"{base}-{n}", n + 1
        ids.append(ident)
    return ids


@dataclass
class StartPresenter:
    """What the start screen edits, and the three ways in: create, join, offline."""

    online: Callable[[str], TableBackend]
    offline_dir: Path
    worker: Worker = field(default_factory=Worker)
    post: Post = immediate
    server: str = "http://127.0.0.1:8000"
    mode: str = "create"
    drafts: tuple[HeroDraft, ...] = (HeroDraft(),)
    table_dice: bool = True  # ask for each roll ("I rolled" / "roll for me"); off: the app rolls everything
    join_code: str = ""
    join_token: str = ""
    message: str = ""
    busy: bool = False
    created: tuple[str, str] | None = None
    on_open: Callable[[TableSession], None] | None = None
    listeners: list[Callable[[], None]] = field(default_factory=list)
    pack: str = "default"
    memory: Path | None = None  # where remembered tables are kept (None: offline_dir's parent)
    pack_message: str = ""
    pack_refused: bool = False
    shelf: PackShelf = field(init=False)

    def __post_init__(self) -> None:
        self.shelf = PackShelf(self.offline_dir.parent / "packs")  # the packs taken in before, registered again
        if self.shelf.broken:
            self.pack_message = "These pack files cannot be used: " + ", ".join(self.shelf.broken)
            self.pack_refused = True

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def view(self) -> StartView:
        saved = tuple((code, text) for code, text, _ in OfflineBackend.saved_tables(self.offline_dir))
        return StartView(self.server, self.mode, self.drafts, len(self.drafts) < MAX_HEROES, self.table_dice,
                         self.join_code, self.join_token, saved, self.busy, self.message, self.created,
                         self.remembered(), class_names(self.pack), self.pack,
                         tuple((n, self.shelf.describe(n)) for n in self.shelf.names()), self.pack_message,
                         self.pack_refused, self.pack_files_found(), bool(PACKS[self.pack].hero_classes))

    # ---- editing ---------------------------------------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        if mode not in ("create", "join", "offline"):
            raise ValueError(f"mode: {mode!r}")
        self.mode, self.message = mode, ""
        self.changed()

    def set_server(self, url: str) -> None:
        self.server = url.strip()

    def set_join(self, code: str, token: str) -> None:
        self.join_code, self.join_token = code.strip(), token.strip()

    def add_hero(self) -> None:
        if len(self.drafts) < MAX_HEROES:
            self.drafts = (*self.drafts, HeroDraft())
            self.changed()

    def remove_hero(self, index: int) -> None:
        if len(self.drafts) > 1 and 0 <= index < len(self.drafts):
            self.drafts = self.drafts[:index] + self.drafts[index + 1 :]
            self.changed()

    def set_name(self, index: int, name: str) -> None:
        self.drafts = tuple(replace(d, name=name) if i == index else d for i, d in enumerate(self.drafts))

    def set_class(self, index: int, hero_class: str) -> None:
        """Any class by name; the pack's starting numbers for it (if it has them) fill the sheet."""
        self._put(index, self._sheet(replace(self.drafts[index], hero_class=hero_class.strip())))
        self.changed()

    def _sheet(self, draft: HeroDraft) -> HeroDraft:
        """The pack's class sheet on a draft: its starting numbers, and its keywords added to the hero's."""
        for key, value in pack_stats(draft.hero_class, self.pack).items():
            draft = draft.with_stat(key, value)
        words = tuple(dict.fromkeys((*draft.keywords, *pack_keywords(draft.hero_class, self.pack))))
        return replace(draft, keywords=words)

    # ---- content packs ------------------------------------------------------------------------------------------
    def choose_pack(self, name: str) -> None:
        """The pack a new table plays with; the heroes already entered as one of its classes get its sheet."""
        if name not in self.shelf.names():
            self.pack_message, self.pack_refused = f"No pack {name} on this phone", True
            self.changed()
            return
        self.pack, self.pack_message, self.pack_refused = name, "", False
        self.drafts = tuple(self._sheet(d) for d in self.drafts)
        self.changed()

    def import_pack(self, text: str) -> bool:
        """A pack from a file's path, its pasted text, or a pack link (scanned or pasted); checked by the engine,
        kept on this phone, and chosen. An http(s) address is fetched first (on the worker)."""
        text = text.strip()
        if not text:
            self.pack_message, self.pack_refused = "Type the pack file's path, or paste the pack or its link", True
            self.changed()
            return False
        if text.startswith(("http://", "https://")):
            self._fetch_pack(text)
            return True
        try:
            raw = read_pack_text(text) if text.startswith(("{", PACK_LINK)) else self.shelf.from_path(text)
            pack = self.shelf.take(raw)
        except PackRefused as error:
            self.pack_message, self.pack_refused = str(error), True
            self.changed()
            return False
        self.choose_pack(pack.name)
        self.pack_message = f"Pack {pack.name} taken in: {self.shelf.describe(pack.name)}"
        self.changed()
        return True

    def _fetch_pack(self, url: str) -> None:
        self.pack_message = "Fetching the pack…"
        self.changed()

        def fetch() -> str:
            import httpx

            reply = httpx.get(url, timeout=15, follow_redirects=True)
            reply.raise_for_status()
            return reply.text

        def done(result: object, error: BaseException | None) -> None:
            if error is not None or not isinstance(result, str):
                self.pack_message, self.pack_refused = "That address did not give a pack; check it, and the Wi-Fi", True
                self.changed()
                return
            if not result.strip().startswith(("{", PACK_LINK)):
                self.pack_message, self.pack_refused = "That address did not give a pack; check it", True
                self.changed()
                return
            self.import_pack(result)

        self.worker.run(fetch, done)

    def pack_link(self) -> str:
        """The chosen pack as a link (a QR code for another phone), or "" when it is too big for one code."""
        return self.shelf.link(self.pack) if self.shelf.fits_a_code(self.pack) else ""

    def pack_file(self) -> Path:
        """The chosen pack saved as a file (to send when it is too big for a code)."""
        path = self.shelf.directory / f"{re.sub(r'[^A-Za-z0-9._-]+', '-', self.pack).strip('-.') or 'pack'}.json"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(self.shelf.raws[self.pack], indent=1), encoding="utf-8")
        return path

    def pack_files_found(self) -> tuple[str, ...]:
        """Pack files in the app's folder, to take in with one tap (the folder a file manager or cable reaches)."""
        folder = self.offline_dir.parent
        return tuple(str(p) for p in sorted(folder.glob("*.json")) if folder.is_dir()
                     and p.name not in ("posse.json", REMEMBER_FILE))

    def class_suggestions(self, typed: str) -> tuple[str, ...]:
        """Classes whose name holds what was typed (all of them for nothing typed)."""
        typed = typed.strip().lower()
        return tuple(name for name in class_names(self.pack) if typed in name.lower())

    def set_stat(self, index: int, key: str, text: str) -> bool:
        """A number typed on the keypad; refused (with the bounds, in words) when it is not one the sheet allows."""
        _, label, low, high = next(s for s in DRAFT_STATS if s[0] == key)
        digits = text.strip().lstrip("$").rstrip("+")
        if not digits.isdigit() or not low <= int(digits) <= high:
            self.message = (f"{label}: a number from {low} to {high}" if digits.isdigit()
                            else f"{label}: digits only, a number from {low} to {high}")
            self.changed()
            return False
        self._put(index, self.drafts[index].with_stat(key, int(digits)))
        self.message = ""
        self.changed()
        return True

    def number_order(self, index: int) -> tuple[str, ...]:
        """The numbers "Next" on the keypad goes through for a hero: the sheet's, then where the hero stands now;
        the ones the pack's class sheet filled in are skipped (only the campaign's numbers are left to type)."""
        given = set(pack_stats(self.drafts[index].hero_class, self.pack))
        return tuple(key for key, *_ in DRAFT_STATS if key not in given)

    def next_number(self, index: int, key: str) -> str | None:
        order = self.number_order(index)
        later = order[order.index(key) + 1:] if key in order else order
        return later[0] if later else None

    def set_keywords(self, index: int, text: str) -> None:
        words = tuple(dict.fromkeys(w.strip() for w in re.split(r"[,;]", text) if w.strip()))
        self._put(index, replace(self.drafts[index], keywords=words))
        self.changed()

    def add_item(self, index: int, name: str, tags: tuple[str, ...] = (), hourglass: int = 0) -> None:
        """An item card with the keywords the hazards read (Transport, Clothing, Personal, Dark Stone icon...)."""
        if not name.strip():
            self.message = "Item: type the card's name"
            self.changed()
            return
        bad = [t for t in tags if t not in TAGS]
        if bad:
            raise ValueError(f"tags: {bad} are not item tags {TAGS}")
        draft = self.drafts[index]
        self._put(index, replace(draft, items=(*draft.items, ItemDraft(name.strip(), tuple(tags), hourglass))))
        self.changed()

    def remove_item(self, index: int, item_index: int) -> None:
        draft = self.drafts[index]
        self._put(index, replace(draft, items=draft.items[:item_index] + draft.items[item_index + 1:]))
        self.changed()

    def _put(self, index: int, draft: HeroDraft) -> None:
        self.drafts = tuple(draft if i == index else d for i, d in enumerate(self.drafts))

    # ---- a posse carried over between nights --------------------------------------------------------------------
    def export_text(self, index: int | None = None) -> str:
        """The posse (or one hero) as a file's text: the heroes in the engine's form."""
        heroes = [d.hero(i) for d, i in zip(self.drafts, hero_ids(self.drafts), strict=True)]
        chosen = heroes if index is None else [heroes[index]]
        return json.dumps({"format": "brimstone-posse", "heroes": [encode(h) for h in chosen]}, indent=1)

    def export_link(self, index: int | None = None) -> str:
        heroes = [d.hero(i) for d, i in zip(self.drafts, hero_ids(self.drafts), strict=True)]
        return posse_link(heroes if index is None else [heroes[index]])

    def import_text(self, text: str) -> bool:
        """An exported file or a posse link (scanned or pasted): its heroes replace empty drafts, or join the posse."""
        if text.strip().startswith(f"{LINK_SCHEME}://join"):
            return self.open_link(text)
        if text.strip().startswith(PACK_LINK):
            return self.import_pack(text)
        try:
            heroes = read_posse(text)
        except ValueError as error:
            self.message = str(error)
            self.changed()
            return False
        kept = tuple(d for d in self.drafts if d.name.strip())
        drafts = (*kept, *(HeroDraft.of(h) for h in heroes))
        self.drafts = drafts[:MAX_HEROES] or (HeroDraft(),)
        self.message = f"{len(heroes)} hero{'es' if len(heroes) != 1 else ''} imported: check them, then start"
        self.changed()
        return True

    def import_file(self, path: str | Path) -> bool:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError:
            self.message = "That file cannot be read"
            self.changed()
            return False
        return self.import_text(text)

    # ---- links and remembered tables --------------------------------------------------------------------------
    def open_link(self, link: str) -> bool:
        """A join link (from the other phone's QR code or a message): fills in server, code and token, and joins."""
        parts = urlsplit(link.strip())
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        if parts.scheme != LINK_SCHEME or parts.netloc != "join" or not query.get("code"):
            self.message = "That link does not open a table"
            self.changed()
            return False
        self.server = query.get("server", self.server)
        self.set_join(query["code"], query.get("token", ""))
        self.mode = "join"
        self.join()
        return True

    def _memory_path(self) -> Path:
        return self.memory if self.memory is not None else self.offline_dir.parent / REMEMBER_FILE

    def remembered(self) -> tuple[Remembered, ...]:
        try:
            rows = json.loads(self._memory_path().read_text(encoding="utf-8"))
            found = tuple(Remembered(r["server"], r["code"], r["token"], r.get("posse", ""), float(r.get("at", 0)),
                                     tuple(r.get("claimed", ()))) for r in rows)
        except (OSError, ValueError, KeyError, TypeError):
            return ()
        return tuple(sorted(found, key=lambda r: -r.at))

    def remember(self, table: Remembered) -> None:
        rows = [r for r in self.remembered() if (r.server, r.code) != (table.server, table.code)]
        rows = [table, *rows][:12]
        path = self._memory_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps([{"server": r.server, "code": r.code, "token": r.token, "posse": r.posse,
                                     "at": r.at, "claimed": list(r.claimed)} for r in rows]), encoding="utf-8")

    def claim(self, code: str, heroes: tuple[str, ...]) -> None:
        """Remember which heroes this phone plays at `code`, for the next time it joins."""
        for row in self.remembered():
            if row.code == code:
                self.remember(replace(row, claimed=heroes))

    def rejoin(self, code: str) -> None:
        row = next((r for r in self.remembered() if r.code == code), None)
        if row is None:
            self.message = f"No table {code} is remembered on this phone"
            self.changed()
            return
        self.server = row.server
        self.set_join(row.code, row.token)
        self.join()

    def step_stat(self, index: int, key: str, direction: int) -> None:
        _, _, low, high = next(s for s in DRAFT_STATS if s[0] == key)
        draft = self.drafts[index]
        value = max(low, min(high, draft.get(key) + direction * STEPS.get(key, 1)))
        self.drafts = tuple(d.with_stat(key, value) if i == index else d for i, d in enumerate(self.drafts))
        self.changed()

    def set_table_dice(self, on: bool) -> None:
        self.table_dice = on
        self.changed()

    # ---- the three ways in -------------------------------------------------------------------------------------
    def posse(self) -> tuple[Hero, ...] | None:
        """The heroes as the engine will see them, or None with the engine's message."""
        heroes = tuple(d.hero(i) for d, i in zip(self.drafts, hero_ids(self.drafts), strict=True))
        try:
            new_session(heroes, options=self.options())
        except RulesError as error:
            self.message = self._problem(error)
            self.changed()
            return None
        return heroes

    def _problem(self, error: RulesError) -> str:
        """The engine's refusal of the posse in words, naming the hero it is about."""
        found = re.match(r"heroes\[(\d+)\]", error.field or "")
        who = ""
        if found and int(found.group(1)) < len(self.drafts):
            who = (self.drafts[int(found.group(1))].name.strip() or f"Hero {int(found.group(1)) + 1}") + ": "
        return who + plain(error.message)

    def options(self) -> RuleOptions:
        return RuleOptions(dice="table" if self.table_dice else "server")

    def create(self) -> None:
        """A new table on the server (mode create) or on this phone (mode offline)."""
        heroes = self.posse()
        if heroes is None:
            return
        backend: TableBackend
        if self.mode == "offline":
            backend = OfflineBackend(self.offline_dir)
        else:
            try:
                backend = self.online(self.server)
            except BackendError as error:
                self.message = error.message
                self.changed()
                return
        options = self.options()
        pack = self.pack if self.mode == "offline" else BUILT_IN  # a server plays the packs it has
        self._open(backend, lambda: backend.create(heroes, options, pack=pack), "Creating the table…")

    def join(self) -> None:
        if not self.join_code:
            self.message = "code: enter the table's code"
            self.changed()
            return
        code, token = self.join_code, self.join_token
        try:
            backend = self.online(self.server)
        except BackendError as error:
            self.message = error.message
            self.changed()
            return
        self._open(backend, lambda: backend.join(code, token), "Joining…")

    def resume_offline(self, code: str) -> None:
        backend = OfflineBackend(self.offline_dir)
        self._open(backend, lambda: backend.join(code, ""), "Opening…")

    def _open(self, backend: TableBackend, call: Callable[[], object], busy: str) -> None:
        self.busy, self.message = True, busy
        self.changed()

        def done(result: object, error: BaseException | None) -> None:
            self.busy = False
            if error is not None:
                self.message = plain(getattr(error, "message", None) or "That did not work; try again")
                self.changed()
                return
            from ..client import Snapshot

            assert isinstance(result, Snapshot)
            table = TableSession(backend, result, worker=self.worker, post=self.post)
            info = backend.table
            self.created = (info.code, info.token) if info is not None and backend.online else None
            if info is not None and backend.online:
                names = ", ".join(h.name for h in result.state.heroes)
                previous = next((r.claimed for r in self.remembered() if r.code == info.code), ())
                self.remember(Remembered(self.server, info.code, info.token, names, time.time(), previous))
                table.claimed = frozenset(previous)
            self.message = ""
            table.start()
            self.changed()
            if self.on_open is not None:
                self.on_open(table)

        self.worker.run(call, done)
