"""The posse screen: one compact row per hero (Health, Sanity, Grit, Gold and XP, badges) that opens on a tap into
the hero's card, where a number is changed by one tap on -/+ or typed.

Each change sends an `adjust` command (the physical game changed a value), so it is logged, checked by the
engine's bounds (Gold never below $0, Wounds never above Health: `Ctx.change`) and shared with the other phones.
While the rules wait on a prompt the engine takes no adjustment, so the tiles say so instead of failing.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared_rules import Adjust, Effect, Hero
from shared_rules.state import SIDE_BAG_CAPACITY

from ..i18n import _
from .asking import question_text
from .table import Notice, TableSession

# The values on a card, in reading order: (key, label, hero field, step of one tap, +1 on the card lowers field)
STATS: tuple[tuple[str, str, str, int, bool], ...] = (
    ("health", "Health", "wounds", 1, True),  # FF-HERO-02: Wounds reduce Health
    ("sanity", "Sanity", "sanity_damage", 1, True),  # FF-HERO-03
    ("grit", "Grit", "grit", 1, False),  # FF-GRIT
    ("gold", "Gold", "gold", 25, False),  # FF-HERO-10
    ("xp", "XP", "xp", 10, False),
    ("corruption", "Corruption", "corruption", 1, False),
    ("dark_stone", "Dark Stone", "dark_stone", 1, False),
    ("unwanted_attention", "Unwanted Attention", "unwanted_attention", 1, False),  # FT-UA
    ("wanted", "Wanted", "wanted", 1, False),  # FT-WANTED-01: Wanted! then Most Wanted!
)
WANTED_WORDS = ("not wanted", "Wanted!", "Most Wanted!")
# Side Bag tokens the rulebooks name (FF-BAG-02, FF-BAG-01, FT-BAG-01..07), offered when adding one
TOKENS = ("Bandages", "Tonic", "Sake", "Bomb", "Fire Sake", "Spice", "Potion", "Hatchet", "Lantern Oil",
          "Exotic Herbs", "Tequila", "Fine Cigar")  # fmt: skip


@dataclass(frozen=True, slots=True)
class StatTile:
    """One number on a hero card with its two buttons."""

    key: str
    label: str
    value: str
    detail: str
    can_lower: bool
    can_raise: bool
    step: int
    tone: str = "normal"  # normal | warn | danger
    pending: str = ""  # a change tapped here and not yet confirmed: "+$25 waiting"


@dataclass(frozen=True, slots=True)
class HeroCard:
    hero_id: str
    name: str
    subtitle: str
    tiles: tuple[StatTile, ...]
    mutations: tuple[str, ...]
    tokens: tuple[str, ...]
    bag_text: str
    bag_full: bool
    badges: tuple[str, ...]  # KO'd, torn bag, Scratch's deal, removed


@dataclass(frozen=True, slots=True)
class Badge:
    """A state worth seeing at a glance, as an icon and a word (never a colour alone)."""

    icon: str
    text: str
    tone: str  # danger | warn | info


@dataclass(frozen=True, slots=True)
class HeroRow:
    """One line per hero: the numbers a table glances at, and badges; tapping it opens the card."""

    hero_id: str
    name: str
    subtitle: str
    health: str
    sanity: str
    grit: str
    money: str  # "$150 · 60 XP"
    badges: tuple[Badge, ...]
    health_tone: str
    sanity_tone: str
    expanded: bool
    mine: bool  # claimed by this phone


@dataclass(frozen=True, slots=True)
class PosseView:
    rows: tuple[HeroRow, ...]
    cards: tuple[HeroCard, ...]  # the expanded heroes' cards
    locked: str  # why the numbers cannot change now ("" when they can)
    waiting: int


@dataclass(frozen=True, slots=True)
class ListEditor:
    """Adding or removing a named thing on a hero: Side Bag tokens or Mutations."""

    hero_id: str
    kind: str  # tokens | mutations
    title: str
    items: tuple[str, ...]
    suggestions: tuple[str, ...]
    can_add: bool
    note: str


def _value(hero: Hero, key: str) -> tuple[int, int | None]:
    """The number shown for `key` and its maximum, if any."""
    if key == "health":
        return hero.health_left, hero.max_health
    if key == "sanity":
        return hero.sanity_left, hero.max_sanity
    if key == "grit":
        return hero.grit, hero.max_grit
    if key == "wanted":
        return hero.wanted, 2
    return int(getattr(hero, key)), None


def tile(hero: Hero, key: str) -> StatTile:
    """The tile for one value: text, whether each button can move it, how urgent it looks."""
    spec = next(s for s in STATS if s[0] == key)
    _, label, _field, step, _inverse = spec
    value, top = _value(hero, key)
    if key == "gold":
        text, detail = f"${value}", f"-/+ ${step}"
    elif key == "wanted":
        text, detail = WANTED_WORDS[value], ""
    elif key == "dark_stone":
        carried = hero.dark_stone_carried()
        text, detail = str(value), f"{carried} carried incl. items" if carried != value else "shards"
    elif top is not None:
        text, detail = f"{value}/{top}", ""
    else:
        text, detail = str(value), f"-/+ {step}" if step != 1 else ""
    tone = "normal"
    if key in ("health", "sanity") and top:
        tone = "danger" if value <= max(1, top // 4) else "warn" if value <= top // 2 else "normal"
    elif key in ("corruption", "unwanted_attention") and value > 0 or key == "wanted" and value:
        tone = "warn"
    can_lower = value > 0
    can_raise = top is None or value < top
    if key in ("health", "sanity"):  # raising means healing: only while damaged
        can_lower = value > 0
    return StatTile(key, label, text, detail, can_lower, can_raise, step, tone)


def _tone(left: int, top: int) -> str:
    return "danger" if left <= max(1, top // 4) else "warn" if left <= top // 2 else "normal"


def badges(hero: Hero) -> tuple[Badge, ...]:
    """KO, near death, Wanted, Unwanted Attention, a torn Side Bag, Mr. Scratch's deal: icon and word each."""
    found = []
    if hero.removed:
        found.append(Badge("✝", "Out", "danger"))
    elif hero.knocked_out:
        found.append(Badge("✖", "KO", "danger"))
    elif hero.max_health and hero.health_left <= max(1, hero.max_health // 4) or \
            hero.max_sanity and hero.sanity_left <= max(1, hero.max_sanity // 4):
        found.append(Badge("♥", "Near death", "danger"))
    if hero.wanted:
        found.append(Badge("★", WANTED_WORDS[hero.wanted], "warn"))
    if hero.unwanted_attention:
        found.append(Badge("◉", f"UA {hero.unwanted_attention}", "warn"))
    if hero.bag_torn:
        found.append(Badge("✂", "Bag torn", "warn"))
    if hero.scratch_deal:
        found.append(Badge("☥", "Scratch's deal", "info"))
    return tuple(found)


def row(hero: Hero, expanded: bool, mine: bool) -> HeroRow:
    subtitle = " · ".join(p for p in (hero.hero_class, _("Level {n}").format(n=hero.level)) if p)
    return HeroRow(hero.id, hero.name, subtitle, f"{hero.health_left}/{hero.max_health}",
                   f"{hero.sanity_left}/{hero.max_sanity}", f"{hero.grit}/{hero.max_grit}",
                   _("${gold} · {xp} XP").format(gold=hero.gold, xp=hero.xp), badges(hero), _tone(hero.health_left, hero.max_health),
                   _tone(hero.sanity_left, hero.max_sanity), expanded, mine)


def card(hero: Hero) -> HeroCard:
    subtitle = " · ".join(part for part in (hero.hero_class, _("Level {n}").format(n=hero.level),
                                            f"Def {hero.defense}+ Will {hero.willpower}+") if part)
    badges = []
    if hero.removed:
        badges.append("Removed")
    elif hero.knocked_out:
        badges.append("KO'd")
    if hero.bag_torn:
        badges.append("Bag torn")
    if hero.scratch_deal:
        badges.append("Scratch's deal")
    return HeroCard(
        hero.id, hero.name, subtitle, tuple(tile(hero, key) for key, *_ in STATS), hero.mutations, hero.side_bag,
        f"{len(hero.side_bag)}/{hero.side_bag_capacity}", len(hero.side_bag) >= hero.side_bag_capacity,
        tuple(badges),
    )


class PossePresenter:
    """Hero cards from the table's state; taps become `adjust` commands."""

    def __init__(self, table: TableSession) -> None:
        self.table = table
        self.editor: ListEditor | None = None
        self.expanded: set[str] = set()

    def cards(self) -> tuple[HeroCard, ...]:
        pending = self.table.pending_adjustments()
        return tuple(self._with_pending(card(hero), pending) for hero in self.table.heroes())

    def _with_pending(self, hero_card: HeroCard, pending: dict[tuple[str, str], int]) -> HeroCard:
        from dataclasses import replace

        tiles = []
        for t in hero_card.tiles:
            spec = next(s for s in STATS if s[0] == t.key)
            amount = pending.get((hero_card.hero_id, spec[2]), 0) * (-1 if spec[4] else 1)
            if amount:
                shown = f"${abs(amount)}" if t.key == "gold" else str(abs(amount))
                t = replace(t, pending=f"{'+' if amount > 0 else '-'}{shown} waiting")
            tiles.append(t)
        return replace(hero_card, tiles=tuple(tiles))

    def view(self) -> PosseView:
        """Rows for every hero (this phone's first), and the cards of the heroes opened."""
        heroes = self.table.heroes()
        claimed = self.table.claimed
        ordered = sorted(heroes, key=lambda h: (bool(claimed) and h.id not in claimed))
        all_cards = {c.hero_id: c for c in self.cards()}
        rows = tuple(row(h, h.id in self.expanded, h.id in claimed) for h in ordered)
        prompt = self.table.read.prompt
        locked = (_("Changes wait until the table answers: {question}").format(
            question=question_text(prompt, self.table.hero_name)) if prompt is not None else "")  # fmt: skip
        return PosseView(rows, tuple(all_cards[h.id] for h in ordered if h.id in self.expanded), locked,
                         self.table.waiting)

    def toggle(self, hero_id: str) -> None:
        """A tap on a hero's row opens (or closes) the hero's card."""
        self.expanded ^= {hero_id}
        self.table.changed()

    def set_value(self, hero_id: str, key: str, text: str) -> bool:
        """A number typed on a tile ("tap a number to type it"): sent as the change from the value shown."""
        spec = next((s for s in STATS if s[0] == key), None)
        if spec is None:
            raise ValueError(f"set_value: no value {key!r}")
        _, label, field, _step, inverse = spec
        digits = text.strip().lstrip("$")
        hero = self.table.read.hero(hero_id)
        if not digits.lstrip("-").isdigit():
            self.table.notice = Notice(f"{label}: type a whole number", level="error")
            self.table.changed()
            return False
        shown, _top = _value(hero, key)
        delta = (int(digits) - shown) * (-1 if inverse else 1)
        if delta == 0:
            return True
        sign = "+" if int(digits) > shown else "-"
        amount = f"${abs(int(digits) - shown)}" if key == "gold" else str(abs(int(digits) - shown))
        self.table.submit(Adjust(hero_id, (Effect("change", field, delta),)),  # the log words it from its facts
                          label=f"{hero.name}: {label} {sign}{amount}")
        return True

    def adjust(self, hero_id: str, key: str, direction: int) -> None:
        """One tap on + (direction 1) or - (-1): the value on the card moves by its step."""
        spec = next((s for s in STATS if s[0] == key), None)
        if spec is None or direction not in (1, -1):
            raise ValueError(f"adjust: no value {key!r} / direction {direction}")
        _, label, field, step, inverse = spec
        hero = self.table.read.hero(hero_id)
        delta = direction * step * (-1 if inverse else 1)
        sign = "+" if direction > 0 else "-"
        amount = f"${step}" if key == "gold" else str(step)
        self.table.submit(Adjust(hero_id, (Effect("change", field, delta),)),  # the log words it from its facts
                          label=f"{hero.name}: {label} {sign}{amount}")

    # ---- tokens and mutations -------------------------------------------------------------------------------
    def open_list(self, hero_id: str, kind: str) -> ListEditor:
        self.editor = self._editor(hero_id, kind)
        return self.editor

    def close_list(self) -> None:
        self.editor = None

    def _editor(self, hero_id: str, kind: str) -> ListEditor:
        hero = self.table.read.hero(hero_id)
        if kind == "tokens":
            full = len(hero.side_bag) >= hero.side_bag_capacity
            note = (f"Side Bag {len(hero.side_bag)}/{hero.side_bag_capacity}"
                    + (f" (torn: -{SIDE_BAG_CAPACITY - hero.side_bag_capacity})" if hero.bag_torn else "")
                    + (": full" if full else ""))
            return ListEditor(hero_id, kind, f"{hero.name}: Side Bag", hero.side_bag, TOKENS, not full, note)
        if kind == "mutations":
            note = f"{len(hero.mutations)} Mutations; over 3 brings Unwanted Attention in town (FT-UA-01)"
            return ListEditor(hero_id, kind, f"{hero.name}: Mutations", hero.mutations, (), True, note)
        raise ValueError(f"kind: {kind!r} is not 'tokens' or 'mutations'")

    def sync(self) -> None:
        """Keep an open editor in step with the state after a change."""
        if self.editor is not None:
            self.editor = self._editor(self.editor.hero_id, self.editor.kind)

    def add(self, name: str) -> None:
        editor = self.editor
        if editor is None:
            return
        name = name.strip()
        if not name:
            self.table.notice = Notice("name: type what to add", field="name")
            self.table.changed()
            return
        op = "add_token" if editor.kind == "tokens" else "add_mutation"
        self._send(editor.hero_id, op, name, "gains")

    def remove(self, name: str) -> None:
        editor = self.editor
        if editor is None:
            return
        op = "remove_token" if editor.kind == "tokens" else "remove_mutation"
        self._send(editor.hero_id, op, name, "loses")

    def _send(self, hero_id: str, op: str, name: str, verb: str) -> None:
        hero = self.table.read.hero(hero_id)
        what = "token" if "token" in op else "Mutation"
        self.table.submit(Adjust(hero_id, (Effect(op, name=name),), reason=f"{verb} {name} ({what})"),
                          label=f"{hero.name} {verb} {name}")
