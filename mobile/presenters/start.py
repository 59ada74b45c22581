"""The start screen: the server address, a new table (the posse with their stats), joining one, or playing offline.

The posse is checked by the engine's own `new_session` before anything is sent (1-6 heroes with names, A48), so a
refusal reads the same online and offline.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from shared_rules import Hero, RuleOptions, RulesError, Skills, new_session
from shared_rules.state import HERO_CLASSES, SKILLS

from ..client import BackendError, OfflineBackend, TableBackend
from .table import Post, TableSession, Worker, immediate

MAX_HEROES = 6  # A48
# Stats a player sets for each hero on creation, with bounds: (key, label, low, high)
DRAFT_STATS: tuple[tuple[str, str, int, int], ...] = (
    ("health", "Health", 1, 30), ("sanity", "Sanity", 1, 30), ("max_grit", "Max Grit", 1, 6),
    ("defense", "Defense", 1, 7), ("willpower", "Willpower", 1, 7), ("level", "Level", 1, 8),
    ("agility", "Agility", 0, 8), ("cunning", "Cunning", 0, 8), ("spirit", "Spirit", 0, 8),
    ("strength", "Strength", 0, 8), ("lore", "Lore", 0, 8), ("luck", "Luck", 0, 8),
    ("gold", "Gold", 0, 99999), ("xp", "XP", 0, 99999),
)  # fmt: skip
STEPS = {"gold": 25, "xp": 10}


@dataclass(frozen=True, slots=True)
class HeroDraft:
    """A hero being entered from the physical character sheet."""

    name: str = ""
    hero_class: str = HERO_CLASSES[0]
    stats: tuple[tuple[str, int], ...] = (
        ("health", 10), ("sanity", 10), ("max_grit", 2), ("defense", 4), ("willpower", 4), ("level", 1),
        ("agility", 2), ("cunning", 2), ("spirit", 2), ("strength", 2), ("lore", 2), ("luck", 2),
        ("gold", 0), ("xp", 0),
    )  # fmt: skip

    def get(self, key: str) -> int:
        return dict(self.stats)[key]

    def with_stat(self, key: str, value: int) -> HeroDraft:
        return replace(self, stats=tuple((k, value if k == key else v) for k, v in self.stats))

    def hero(self, hero_id: str) -> Hero:
        s = dict(self.stats)
        return Hero(hero_id, self.name.strip(), hero_class=self.hero_class, level=s["level"],
                    skills=Skills(**{k: s[k] for k in SKILLS}), defense=s["defense"], willpower=s["willpower"],
                    health_base=s["health"], sanity_base=s["sanity"], grit=1, max_grit=s["max_grit"],
                    gold=s["gold"], xp=s["xp"])


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

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener()

    def view(self) -> StartView:
        saved = tuple((code, text) for code, text, _ in OfflineBackend.saved_tables(self.offline_dir))
        return StartView(self.server, self.mode, self.drafts, len(self.drafts) < MAX_HEROES, self.table_dice,
                         self.join_code, self.join_token, saved, self.busy, self.message, self.created)

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
        self.drafts = tuple(replace(d, hero_class=hero_class) if i == index else d for i, d in enumerate(self.drafts))
        self.changed()

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
            self.message = error.message
            self.changed()
            return None
        return heroes

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
        self._open(backend, lambda: backend.create(heroes, options), "Creating the table…")

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
                self.message = getattr(error, "message", None) or f"{type(error).__name__}: {error}"
                self.changed()
                return
            from ..client import Snapshot

            assert isinstance(result, Snapshot)
            table = TableSession(backend, result, worker=self.worker, post=self.post)
            info = backend.table
            self.created = (info.code, info.token) if info is not None and backend.online else None
            self.message = ""
            table.start()
            self.changed()
            if self.on_open is not None:
                self.on_open(table)

        self.worker.run(call, done)
