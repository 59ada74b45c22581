"""The Town Adventure Board as the phone draws it: Buildings, Walls, Doors, Windows, rooftops and Entry Areas as
drawable primitives in board coordinates (x right, y down, one unit per space), the models as tokens, and the
Bandits' turn as arrows (each Bandit's path) and lines of fire (clear, blocked, into cover), with the mission's
status strip. A tap at board coordinates selects a model or, with one selected, proposes a correction (the physical
board wins), which is checked with the board's geometry before it becomes a command.

No Kivy here: `mobile/screens/board.py` only draws the `BoardView`.

The models now on the table are drawn where they are. A Bandit's proposal (an `Activation` from the AI, or the
same as event data) has a start, a path and an end: a Bandit still at its start gets a ghost at its end (where it
goes); one already moved gets a ghost where it was; its line of fire is traced again from where it stands (or will
stand) to where its target stands now, so a corrected position shows at once whether the shot is still clear.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from shared_rules.codec import encode
from shared_rules.errors import RulesError
from shared_rules.events import BanditPlan, BanditStep
from shared_rules.rules.adventure.board_models import board_pos
from shared_rules.rules.adventure.missions import MISSIONS, TOWN
from shared_rules.rules.bandits import Activation
from shared_rules.rules.board import Board, Model, Pos, Side, board_named, check_placement, cover, sight
from shared_rules.rules.board.grid import DIAGONALS, DOOR, OPEN, STREET, WALL, WINDOW, E, S, side_towards
from shared_rules.rules.missions.common import ground

from ..i18n import _
from .board_words import proposal_words

Point = tuple[float, float]
Space = tuple[int, int]

PLACE_MODEL = "place_model"


def place_model_command(board: Board, model: str, space: Space) -> dict[str, Any]:
    """The table's correction as a command: put `model` in `space` (the physical board wins, FT-BOARD-03)."""
    return {"type": PLACE_MODEL, "model": model, "to": encode(ground(board, space))}


WALL_TAP = 0.18  # a tap this close to a Wall line (in spaces) is on the Wall, not in a space
NEAR_TAP = 1.1  # with nothing selected, a tap this near a model's centre (in spaces) selects it
MIN_VIEW = 12  # the close-up shows at least this many spaces across: tokens stay apart, the Walls stay readable

# the mission counters a player reads on the status strip, in words (the others are the missions' bookkeeping)
COUNTER_WORDS = {
    "kills": "Bandits killed", "countdown": "Countdown", "dynamite": "Dynamite", "hostages": "Hostages",
    "bags": "Money Bags",
}  # fmt: skip
# the reason keys an activation event may carry instead of a sentence
REASON_WORDS = {
    "retreat": "retreats", "retreats": "retreats", "cover": "takes cover", "take_cover": "takes cover",
    "stay_in_cover": "stays in cover", "stays_in_cover": "stays in cover", "move": "moves", "advance": "moves",
    "stay": "stays", "melee": "fights hand to hand", "rooftop": "fires from the rooftop",
    "no_target": "has no Hero in range and sight", "stuck": "cannot get away",
}  # fmt: skip


# ---- what the screen draws ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Block:
    """A run of one Map Tile's spaces in a row: `building` 0 is the Street."""

    x: int
    y: int
    w: int
    building: int
    roof: str = ""


@dataclass(frozen=True, slots=True)
class Segment:
    """A side between spaces, on the grid lines: "wall", "door", "window", "shared roof" (the Wall between two
    Buildings under one rooftop), or "diagonal door" (across a corner space)."""

    x1: float
    y1: float
    x2: float
    y2: float
    kind: str


@dataclass(frozen=True, slots=True)
class MapLabel:
    """A Building's number or an Entry Area's letter, centred on (x, y)."""

    x: float
    y: float
    text: str
    kind: str  # "building" | "entry"


@dataclass(frozen=True, slots=True)
class Token:
    """A model: where its centre is, its short label and its side. A ghost is where a Bandit goes (or was)."""

    id: str
    name: str
    label: str
    side: str  # "hero" | "bandit" | "neutral"
    x: float
    y: float
    selected: bool = False
    dimmed: bool = False
    ghost: bool = False
    roof: str = ""  # on this rooftop
    entry: str = ""  # off the board at this Entry Area
    out: bool = False  # KO'd


@dataclass(frozen=True, slots=True)
class Arrow:
    """A Bandit's path, space centre to space centre; the head is at the last point (where the AI says it ends)."""

    bandit: str
    points: tuple[Point, ...]
    retreat: bool
    selected: bool = False
    dimmed: bool = False


@dataclass(frozen=True, slots=True)
class FireLine:
    """A Bandit's attack: from where it fires to its target. `clear` False: a Wall (or a shut Door) is in the way
    now, `block` is where; `cover`: the target makes Cover Saves; `melee`: hand to hand (adjacent)."""

    bandit: str
    target: str
    frm: Point
    to: Point
    clear: bool
    cover: bool
    shots: int
    melee: bool = False
    block: Point | None = None
    selected: bool = False
    dimmed: bool = False


@dataclass(frozen=True, slots=True)
class TurnLine:
    """One Bandit's part of the turn, in a line under the board."""

    bandit: str
    label: str
    text: str
    selected: bool
    warn: bool  # its shot is blocked now, or the table moved it elsewhere


@dataclass(frozen=True, slots=True)
class StatusItem:
    label: str
    value: str
    tone: str = "normal"  # theme.TONE keys


@dataclass(frozen=True, slots=True)
class LegendItem:
    key: str  # what the screen draws as the sample: "hero", "bandit", "neutral", "ghost", "arrow", "fire", ...
    text: str


@dataclass(frozen=True, slots=True)
class Correction:
    """A correction the player asked for: `command` when the board allows it, else `text` says why not."""

    model: str
    space: Space
    text: str
    command: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class BoardView:
    title: str
    width: int
    height: int
    viewport: tuple[int, int, int, int]  # x, y, w, h: the part of the board drawn
    blocks: tuple[Block, ...]
    segments: tuple[Segment, ...]
    labels: tuple[MapLabel, ...]
    entries: tuple[tuple[int, int, int, int], ...]  # each Entry Area's spaces as a rectangle x, y, w, h
    tokens: tuple[Token, ...]
    arrows: tuple[Arrow, ...]
    fire: tuple[FireLine, ...]
    overlay: bool  # the Bandits' turn is shown
    has_turn: bool  # there is a Bandits' turn to show
    selected: str
    sentence: str  # what the selected model does (a Bandit's reason), or how to use the board
    turn: tuple[TurnLine, ...]
    status: tuple[StatusItem, ...]
    legend: tuple[LegendItem, ...]
    correction: Correction | None
    notice: str
    whole: bool  # the whole board, not the close-up
    empty_text: str = ""
    zoomed: bool = False  # zoomed in where the player tapped: spaces big enough to tap one


# ---- what the presenter reads ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Move:
    """One Bandit's proposal, from the AI's `Activation` or from an activation event's data."""

    bandit: str
    start: Pos
    path: tuple[Space, ...]
    end: Pos
    target: str | None
    action: str  # "ranged" | "melee" | "none"
    reason: str  # the sentence
    shots: int = 0
    retreated: bool = False


@dataclass(frozen=True, slots=True)
class Track:
    """The (repurposed) Depth Track: where the Darkness and the Posse markers stand, and its last space."""

    darkness: int
    posse: int
    entrance: int


@dataclass(frozen=True, slots=True)
class BoardInput:
    board: Board
    models: tuple[Model, ...]
    moves: tuple[Move, ...] = ()
    counters: Mapping[str, int] = field(default_factory=dict)
    track: Track | None = None
    mission: str = ""


def moves_from_activation(activation: Activation, names: Mapping[str, str] | None = None) -> tuple[Move, ...]:
    """The AI's proposals as the moves the screen draws, each worded from its steps in the language in use."""
    names = {**{m.id: m.label for m in activation.models}, **(names or {})}
    shots: dict[str, int] = {}
    for shot in activation.shots:
        shots[shot.bandit] = shots.get(shot.bandit, 0) + 1
    return tuple(Move(p.bandit, p.start, p.path, p.end, p.target, p.action.value, _proposal(p.bandit, p.steps,
                                                                                              names, p.reason),
                      shots.get(p.bandit, 0), p.retreated) for p in activation.proposals)  # fmt: skip


def _proposal(bandit: str, steps: tuple[BanditStep, ...], names: Mapping[str, str], english: str,
              target: str = "") -> str:
    """A proposal in words from its steps; the engine's English when it carries none (an older server)."""
    if not steps:
        return english
    return proposal_words(names.get(bandit, bandit), steps, names, target)


def _pos(raw: Any) -> Pos:
    """A position as event data gives it: [x, y], {"space": [x, y], ...}, {"roof": "3+4"}, {"entry": "A"}."""
    if isinstance(raw, Pos):
        return raw
    if isinstance(raw, (list, tuple)) and len(raw) == 2 and all(isinstance(v, int) for v in raw):
        return Pos((raw[0], raw[1]))
    if isinstance(raw, Mapping):
        space = raw.get("space")
        lean = raw.get("lean")
        return Pos((space[0], space[1]) if space else None, (lean[0], lean[1]) if lean else None,
                   raw.get("facing"), raw.get("roof") or "", raw.get("entry") or "")  # fmt: skip
    return Pos()


def moves_from_events(events: Iterable[Mapping[str, Any]], names: Mapping[str, str] | None = None) -> tuple[Move, ...]:
    """Proposals carried as event data (bandit, from, path, to, reason or reason key, target, shots)."""
    names = names or {}
    out = []
    for data in events:
        bandit = str(data.get("bandit", ""))
        if not bandit:
            continue
        start, end = _pos(data.get("from")), _pos(data.get("to"))
        path = tuple((int(s[0]), int(s[1])) for s in data.get("path") or ())
        target = data.get("target") or None
        shots = data.get("shots", 0)
        shots = len(shots) if isinstance(shots, (list, tuple)) else int(shots or 0)
        action = str(data.get("action") or ("melee" if data.get("reason") == "melee" else
                                            "ranged" if target else "none"))  # fmt: skip
        reason = str(data.get("reason") or "")
        retreated = bool(data.get("retreated")) or reason in ("retreat", "retreats") or " retreats " in reason
        if reason and " " not in reason:  # a key: say it in words
            words = REASON_WORDS.get(reason, reason.replace("_", " "))
            who = names.get(bandit, bandit)
            reason = f"{who}: {words}" + (f", targets {names.get(target, target)}" if target else "")
        out.append(Move(bandit, start, path, end if end.spaces or end.roof else start, target, action, reason,
                        shots, retreated))
    return tuple(out)


def moves_from_plans(plans: Iterable[BanditPlan], names: Mapping[str, str] | None = None) -> tuple[Move, ...]:
    """The engine's proposals (the `bandit` events of `activate_bandits`) as the moves the screen draws."""
    names = names or {}
    out = []
    for plan in plans:
        start, end = board_pos(plan.start) or Pos(), board_pos(plan.end) or Pos()
        target = plan.target or None
        if plan.steps:
            reason = proposal_words(names.get(plan.bandit, plan.bandit), plan.steps, names, plan.target)
        else:
            words = REASON_WORDS.get(plan.reason, plan.reason.replace("_", " "))
            who = names.get(plan.bandit, plan.bandit)
            reason = f"{who}: {words}" + (f", targets {names.get(plan.target, plan.target)}" if target else "")
        out.append(Move(plan.bandit, start, plan.path, end if end.spaces or end.roof else start, target, plan.action,
                        reason, len(plan.shots), plan.reason == "retreat"))  # fmt: skip
    return tuple(out)


def moves_from_log(log: Sequence[Any], names: Mapping[str, str] | None = None) -> tuple[Move, ...]:
    """The Bandits' turn that just happened: the proposals carried by the newest step (corrections after it
    aside), read from each event's `proposal` (or `data`) with a `bandit`. Once anything else happens (a Hero
    acts), there is no Bandits' turn to show."""
    for step in reversed(log):
        plans = [plan for event in getattr(step, "events", ()) if (plan := getattr(event, "bandit", None))]
        if plans:
            return moves_from_plans(plans, names)
        if getattr(step, "command", "") != PLACE_MODEL:
            return ()
    return ()


# ---- geometry for drawing ---------------------------------------------------------------------------------------
def _blocks(board: Board) -> tuple[Block, ...]:
    out = []
    for y in range(board.height):
        x = 0
        while x < board.width:
            t = board.tile[y * board.width + x]
            run = x
            while run < board.width and board.tile[y * board.width + run] == t:
                run += 1
            out.append(Block(x, y, run - x, t, board.roof_of.get(t, "") if t else ""))
            x = run
    return tuple(out)


def _segments(board: Board) -> tuple[Segment, ...]:
    """Every Wall, Door and Window inside the board (its edge is a Wall too, drawn as the board's frame), long
    Walls merged into one segment; Diagonal Doors across their corner space."""
    kinds = {WALL: "wall", DOOR: "door", WINDOW: "window"}
    runs: list[Segment] = []
    w = board.width
    for horizontal in (False, True):  # vertical grid lines (E sides), then horizontal ones (S sides)
        for line in range(1, (board.height if horizontal else w)):
            current: tuple[str, int] | None = None
            for along in range(board.width if horizontal else board.height):
                x, y = (along, line - 1) if horizontal else (line - 1, along)
                i = y * w + x
                other = i + w if horizontal else i + 1
                kind = board.sides[i][S if horizontal else E]
                name = kinds.get(kind, "")
                if name == "wall":
                    a, b = board.tile[i], board.tile[other]
                    if a and b and a != b and board.roof_of.get(a) == board.roof_of.get(b):
                        name = "shared roof"
                if current is not None and (name != current[0] or name in ("door", "window")):
                    runs.append(_run(horizontal, line, current[1], along, current[0]))
                    current = None
                if name and current is None:
                    current = (name, along)
            if current is not None:
                runs.append(_run(horizontal, line, current[1], board.width if horizontal else board.height,
                                 current[0]))  # fmt: skip
    for door in board.diagonal.values():
        x, y = door.space
        dx, dy = DIAGONALS[door.opens]
        # the door runs across the corner, from one of its street-side corners to the other
        if dx * dy > 0:
            runs.append(Segment(x + 1.0, y + 0.0, x + 0.0, y + 1.0, "diagonal door"))
        else:
            runs.append(Segment(x + 0.0, y + 0.0, x + 1.0, y + 1.0, "diagonal door"))
    return tuple(runs)


def _run(horizontal: bool, line: int, start: int, end: int, kind: str) -> Segment:
    if horizontal:
        return Segment(float(start), float(line), float(end), float(line), kind)
    return Segment(float(line), float(start), float(line), float(end), kind)


def centre(pos: Pos, board: Board) -> Point | None:
    """Where a model's token is drawn: its space's centre, between its two spaces when it leans, None off the
    board or on a roof (placed separately)."""
    if pos.space is None:
        return None
    x, y = pos.space
    if pos.lean is not None:
        return (x + pos.lean[0]) / 2 + 0.5, (y + pos.lean[1]) / 2 + 0.5
    return x + 0.5, y + 0.5


def _block_point(board: Board, a: Space, b: Space) -> Point | None:
    """Where the straight line from a's centre to b's centre first meets a Wall, or a Door or Window touching
    neither end (a shut one): the mark drawn on a blocked line of fire."""
    ax, ay, bx, by = a[0] + 0.5, a[1] + 0.5, b[0] + 0.5, b[1] + 0.5
    steps = max(8, int(max(abs(bx - ax), abs(by - ay)) * 20))
    cell = a
    for n in range(1, steps + 1):
        t = n / steps
        px, py = ax + (bx - ax) * t, ay + (by - ay) * t
        nxt = (int(px), int(py))
        if nxt == cell:
            continue
        dx, dy = nxt[0] - cell[0], nxt[1] - cell[1]
        if abs(dx) + abs(dy) == 1 and board.on_board(nxt):
            kind = board.sides[board.index(cell)][side_towards(dx, dy)]
            if kind == WALL or (kind in (DOOR, WINDOW) and a not in (cell, nxt) and b not in (cell, nxt)):
                return px, py
        cell = nxt
    return None


def short_label(model: Model, taken: set[str]) -> str:
    """A token's label: a Bandit's number ("Bandit 3" is 3), a Hero's initial (two letters when taken)."""
    name = model.label
    if model.side is Side.ENEMY:
        digits: list[str] = re.findall(r"\d+", name) or re.findall(r"\d+", model.id)
        if digits and digits[-1] not in taken:
            return str(digits[-1])
    for size in (1, 2, 3):
        candidate = name[:size].strip().upper() if size == 1 else name[:size].strip().capitalize()
        if candidate and candidate not in taken:
            return candidate
    return model.id[:3]


def _side(model: Model) -> str:
    return {Side.HERO: "hero", Side.ENEMY: "bandit"}.get(model.side, "neutral")


# ---- the presenter ------------------------------------------------------------------------------------------------
class BoardPresenter:
    """The board screen's state: what is selected, whether the Bandits' turn is shown, the correction under way.

    `source` gives what is on the table now (a fixed `BoardInput`, or a function reading the table); `send` takes a
    correction's command (the app submits it to the table).
    """

    def __init__(self, source: BoardInput | Callable[[], BoardInput | None] | None,
                 send: Callable[[dict[str, Any]], Any] | None = None,
                 townsfolk: Callable[[], tuple[str, ...]] = tuple) -> None:
        self._source = source
        self.send = send
        self.townsfolk = townsfolk  # the Townsfolk markers the table may move now (Town Overrun, FT-M5-02)
        self.selected = ""
        self.overlay = True
        self.whole = False
        self.zoom: tuple[int, int, int, int] | None = None  # the viewport a tap zoomed in to
        self.correction: Correction | None = None
        self.notice = ""
        self.sent: list[dict[str, Any]] = []

    @classmethod
    def for_table(cls, table: Any) -> BoardPresenter:
        """The board of the table's Town Mission (nothing to draw until one is under way)."""

        def read() -> BoardInput | None:
            names = table.read.names
            data = board_input_from_state(table.read.adventure, names)
            if data is None:
                return None
            names = {**names, **{m.id: m.label for m in data.models}}
            return replace(data, moves=moves_from_log(table.read.log, names))

        def send(command: dict[str, Any]) -> None:
            from shared_rules.codec import decode_command

            table.submit(decode_command(command), label=_("Move the Townsfolk") if command["type"] ==
                         "move_townsfolk" else _("Place a model"))

        def townsfolk() -> tuple[str, ...]:
            legal = table.read.legal_of("move_townsfolk")
            return legal.options if legal is not None else ()

        return cls(read, send, townsfolk)

    def input(self) -> BoardInput | None:
        source = self._source
        return source() if callable(source) else source

    # ---- the view ----------------------------------------------------------------------------------------------
    def view(self) -> BoardView:
        data = self.input()
        if data is None:
            return _empty_view(self)
        board = data.board
        by_id = {m.id: m for m in data.models}
        moves = {m.bandit: m for m in data.moves if m.bandit in by_id}
        if self.selected and self.selected not in by_id:
            self.selected = ""
        taken: set[str] = set()
        short: dict[str, str] = {}
        for model in sorted(data.models, key=lambda m: (m.side is not Side.ENEMY, m.id)):
            short[model.id] = short_label(model, taken)
            taken.add(short[model.id])
        focus = self.selected if self.selected in moves else ""
        show = self.overlay and bool(moves)

        tokens: list[Token] = []
        arrows: list[Arrow] = []
        fire: list[FireLine] = []
        turn: list[TurnLine] = []
        spots = _roof_and_entry_spots(board, data.models)
        for model in data.models:
            at = centre(model.pos, board) or spots.get(model.id)
            if at is None:
                continue
            move = moves.get(model.id)
            dim = bool(show and focus and model.id != focus and model.id not in (focus, _target(moves, focus)))
            tokens.append(Token(model.id, model.label, short[model.id], _side(model), at[0], at[1],
                                model.id == self.selected, dim, False, model.pos.roof, model.pos.entry, model.out))
            if move is None or not show:
                continue
            dim = bool(focus and model.id != focus)
            pending = model.pos == move.start  # not moved yet: a ghost where it goes
            ghost_pos = move.end if pending else move.start
            ghost_at = centre(ghost_pos, board)
            if ghost_at is not None and ghost_pos != model.pos:
                tokens.append(Token(model.id, model.label, short[model.id], "bandit", ghost_at[0], ghost_at[1],
                                    False, dim, True))
            if len(move.path) > 1:
                arrows.append(Arrow(model.id, tuple((x + 0.5, y + 0.5) for x, y in move.path), move.retreated,
                                    model.id == focus, dim))  # fmt: skip
            fires_from = move.end if pending else model.pos
            line = self._fire_line(board, by_id, move, fires_from, focus, dim)
            if line is not None:
                fire.append(line)
            elsewhere = not pending and model.pos != move.end
            text = _plain_reason(move.reason, model.label)
            if line is not None and not line.clear:
                text += ". " + _("No line of sight now: a Wall is in the way")
            if elsewhere:
                text += ". " + _("The table put it elsewhere")
            turn.append(TurnLine(model.id, short[model.id], text, model.id == focus,
                                 bool(line is not None and not line.clear) or elsewhere))
        standing = {(int(t.x), int(t.y)) for t in tokens if not t.ghost}
        tokens = [replace(t, label="") if t.ghost and (int(t.x), int(t.y)) in standing else t for t in tokens]
        tokens.sort(key=lambda t: (not t.ghost, t.selected))  # ghosts under the models, the selected on top
        turn.sort(key=lambda line: _order(line.label))
        if self.zoom is not None:
            viewport = self.zoom
        elif self.whole:
            viewport = (0, 0, board.width, board.height)
        else:  # the same close-up with the Bandits' turn shown or hidden
            ends = [centre(p, board) for m in moves.values() for p in (m.start, m.end)]
            reach = tuple(Arrow(m.bandit, tuple((x + 0.5, y + 0.5) for x, y in m.path), False) for m in moves.values())
            reach += (Arrow("", tuple(p for p in ends if p is not None), False),)
            viewport = _close_up(board, data, tokens, reach, fire)
        labels = _building_labels(board, tokens, arrows, viewport) + _entry_labels(board, tokens, viewport)
        return BoardView(
            title=data.mission or _("Town board"),
            width=board.width,
            height=board.height,
            viewport=viewport,
            blocks=_blocks(board),
            segments=_segments(board),
            labels=labels,
            entries=tuple(_entry_rect(board, letter) for letter in sorted(board.entry_areas)),
            tokens=tuple(tokens),
            arrows=tuple(arrows),
            fire=tuple(fire),
            overlay=show,
            has_turn=bool(moves),
            selected=self.selected,
            sentence=self._sentence(data, by_id, moves),
            turn=tuple(turn) if show else (),
            status=status_items(data),
            legend=legend(data, show, _segments_in(board, viewport)),
            correction=self.correction,
            notice=self.notice,
            whole=self.whole,
            zoomed=self.zoom is not None,
        )

    def _fire_line(self, board: Board, by_id: Mapping[str, Model], move: Move, frm: Pos, focus: str,
                   dim: bool) -> FireLine | None:
        if move.target is None or move.target not in by_id or move.action == "none":
            return None
        target = by_id[move.target].pos
        a, b = centre(frm, board), centre(target, board)
        if a is None or b is None or frm.space is None or target.space is None:
            return None
        selected = move.bandit == focus
        if move.action == "melee":
            return FireLine(move.bandit, move.target, a, b, True, False, 0, True, None, selected, dim)
        seen = sight(board, frm, target)
        if seen is None:
            block = _block_point(board, frm.space, target.space)
            return FireLine(move.bandit, move.target, a, b, False, False, move.shots, False, block, selected, dim)
        covered = cover(board, target, frm) is not None
        return FireLine(move.bandit, move.target, a, b, True, covered, move.shots, False, None, selected, dim)

    def _sentence(self, data: BoardInput, by_id: Mapping[str, Model], moves: Mapping[str, Move]) -> str:
        if self.correction is not None:
            return self.correction.text
        if not self.selected:
            if moves and self.overlay:
                return _("Tap a Bandit to see what it does. Tap a model, then a space, to correct where it stands.")
            return _("Tap a model, then the space where it stands on the table, to correct its position.")
        model = by_id[self.selected]
        move = moves.get(self.selected)
        if move is not None:
            return _plain_reason(move.reason, model.label, keep_name=True) + "."
        where = _where(data.board, model.pos)
        return _("{name}, {where}. Tap the space where it stands on the table to move it there.").format(
            name=model.label, where=where)

    # ---- taps --------------------------------------------------------------------------------------------------
    def touch(self, x: float, y: float, across: int) -> str:
        """A finger on the board at board coordinates, where `across` spaces side by side fit the board at the
        smallest touch target (48 dp): while the spaces drawn are smaller than that, the tap zooms in around the
        finger to `across` spaces ("zoomed"); then taps pick spaces (`tap`)."""
        data = self.input()
        if self.zoom is None and data is not None and self.view().viewport[2] > max(1, across):
            board = data.board
            size = max(1, min(across, board.width, board.height))
            x0 = max(0, min(board.width - size, int(x) - size // 2))
            y0 = max(0, min(board.height - size, int(y) - size // 2))
            self.zoom = (x0, y0, size, size)
            self.notice = ""
            return "zoomed"
        return self.tap(x, y)

    def tap(self, x: float, y: float) -> str:
        """A tap at board coordinates: select the model there, or (with one selected) propose moving it there.
        Returns what happened: "selected", "unselected", "proposed", "refused", "outside"."""
        data = self.input()
        self.notice = ""
        if data is None:
            return "outside"
        board = data.board
        space = (int(x // 1), int(y // 1))
        if not board.on_board(space):
            self.notice = _("That is off the board.")
            return "outside"
        here = next((m for m in data.models if space in m.pos.spaces), None)
        on_wall = _on_wall(board, x, y)
        if here is not None and (not self.selected or here.id == self.selected or on_wall is None):
            if here.id == self.selected:
                self.selected, self.correction = "", None
                return "unselected"
            self.selected, self.correction = here.id, None
            return "selected"
        if not self.selected:
            near = self._near(data, x, y)
            if near is not None:  # a finger beside a token on a small phone: the model it meant
                self.selected, self.correction = near.id, None
                return "selected"
            self.notice = _("Tap a model first, then the space where it stands.") if on_wall is None else ""
            return "outside"
        self.correction = self.propose(self.selected, space, wall=on_wall)
        return "proposed" if self.correction.command is not None else "refused"

    @staticmethod
    def _near(data: BoardInput, x: float, y: float) -> Model | None:
        """The model whose space centre is nearest a tap, within `NEAR_TAP` spaces."""
        best: tuple[float, Model] | None = None
        for model in data.models:
            at = centre(model.pos, data.board)
            if at is None:
                continue
            d = ((at[0] - x) ** 2 + (at[1] - y) ** 2) ** 0.5
            if d <= NEAR_TAP and (best is None or d < best[0]):
                best = (d, model)
        return best[1] if best is not None else None

    def propose(self, model_id: str, space: Space, *, wall: str | None = None) -> Correction:
        """Check moving a model to a space against the board, in the players' words."""
        data = self.input()
        assert data is not None
        board = data.board
        model = next(m for m in data.models if m.id == model_id)
        if wall is not None:
            return Correction(model_id, space, _("That is a {what}, not a space: tap inside a space.").format(
                what=_(wall)), None)
        here = next((m for m in data.models if space in m.pos.spaces and m.id != model_id), None)
        if here is not None:
            return Correction(model_id, space, _("{other} already stands there.").format(other=here.label), None)
        index = board.index(space)
        facing = STREET if index in board.diagonal else None
        try:
            check_placement(board, data.models, model_id, Pos(space, facing=facing))
        except RulesError:
            return Correction(model_id, space, _("{name} cannot stand there.").format(name=model.label), None)
        if model.pos.space == space and model.pos.lean is None:
            return Correction(model_id, space, _("{name} already stands there.").format(name=model.label), None)
        where = _where(board, Pos(space))
        if model_id in self.townsfolk():  # Town Overrun: the Townsfolk move with the turn's shared points
            from shared_rules.rules.board import shortest_path

            path = shortest_path(board, model.pos, [space],
                                 blocked=[s for m in data.models if m.id != model_id for s in m.pos.spaces])
            if path is not None:
                command = {"type": "move_townsfolk", "townsfolk": model_id, "to": encode(ground(board, space)),
                           "spaces": len(path) - 1}
                steps = len(path) - 1
                template = _("Move {name} here ({where}, {n} space)?") if steps == 1 else \
                    _("Move {name} here ({where}, {n} spaces)?")  # fmt: skip
                return Correction(model_id, space, template.format(name=model.label, where=where, n=steps), command)
        return Correction(model_id, space, _("Move {name} here ({where})?").format(name=model.label, where=where),
                          place_model_command(board, model_id, space))

    def confirm(self) -> dict[str, Any] | None:
        """Send the proposed correction; the board redraws from the table's answer."""
        correction = self.correction
        if correction is None or correction.command is None:
            return None
        self.correction = None
        self.selected = ""
        self.sent.append(correction.command)
        if self.send is not None:
            try:
                self.send(correction.command)
            except RulesError as error:
                from .words import plain

                self.notice = plain(str(error))
        return correction.command

    def select(self, model_id: str) -> None:
        """Select a model (a Bandit's line under the board), or unselect it."""
        self.correction = None
        self.notice = ""
        self.selected = "" if self.selected == model_id else model_id

    def cancel(self) -> None:
        self.correction = None
        self.selected = ""
        self.notice = ""

    def toggle_overlay(self) -> None:
        self.overlay = not self.overlay

    def toggle_whole(self) -> None:
        """The whole board or the close-up; from a zoom, back to the view it zoomed in on."""
        if self.zoom is not None:
            self.zoom = None
            return
        self.whole = not self.whole


# ---- pieces of the view -------------------------------------------------------------------------------------------
def _empty_view(presenter: BoardPresenter) -> BoardView:
    return BoardView(_("Town board"), 0, 0, (0, 0, 0, 0), (), (), (), (), (), (), (), False, False, "", "", (), (),
                     (), None, presenter.notice, presenter.whole,
                     _("No board yet: it shows once a Town Mission is under way."))  # fmt: skip


def _target(moves: Mapping[str, Move], bandit: str) -> str:
    move = moves.get(bandit)
    return move.target or "" if move is not None else ""


def _order(label: str) -> tuple[int, str]:
    return (int(label), "") if label.isdigit() else (1 << 20, label)


def _plain_reason(reason: str, name: str, keep_name: bool = False) -> str:
    """The AI's sentence without its "Bandit 3: " head (the line starts with the token's number)."""
    text = reason.strip().rstrip(".")
    if not keep_name and text.startswith(name + ":"):
        text = text[len(name) + 1:].strip()
    return text[:1].upper() + text[1:] if text else _("Nothing to do")


def _where(board: Board, pos: Pos) -> str:
    if pos.roof:
        return _("on the rooftop {roof}").format(roof=pos.roof)
    if pos.entry:
        return _("off the board at Entry Area {letter}").format(letter=pos.entry)
    if pos.space is None:
        return ""
    building = board.building_at(pos.space)
    if building:
        name = board.building_names.get(building, "")
        return _("in building {n}").format(n=building) + (f" ({name.split(' (')[0]})" if name else "")
    return _("in the street")


def _on_wall(board: Board, x: float, y: float) -> str | None:
    """The Wall, Door or Window a tap at (x, y) lands on, if it is that close to one."""
    fx, fy = x - int(x), y - int(y)
    cx, cy = int(x), int(y)
    near = []
    if fx < WALL_TAP and cx > 0:
        near.append(((cx - 1, cy), (cx, cy)))
    if fx > 1 - WALL_TAP and cx + 1 < board.width:
        near.append(((cx, cy), (cx + 1, cy)))
    if fy < WALL_TAP and cy > 0:
        near.append(((cx, cy - 1), (cx, cy)))
    if fy > 1 - WALL_TAP and cy + 1 < board.height:
        near.append(((cx, cy), (cx, cy + 1)))
    for a, b in near:
        kind = board.sides[board.index(a)][side_towards(b[0] - a[0], b[1] - a[1])]
        if kind != OPEN:
            return {WALL: "Wall", DOOR: "Door", WINDOW: "Window"}[kind]
    return None


def _roof_and_entry_spots(board: Board, models: Sequence[Model]) -> dict[str, Point]:
    """Where tokens of models on a rooftop (on a free space of its Buildings, nearest their middle) and off the
    board (beside their Entry Area) are drawn."""
    taken = {s for m in models for s in m.pos.spaces}
    out: dict[str, Point] = {}
    for model in models:
        if model.pos.roof:
            cells = sorted(board.roof_spaces.get(model.pos.roof, ()))
            spaces = [board.xy(c) for c in cells]
            if not spaces:
                continue
            mx = sum(s[0] for s in spaces) / len(spaces)
            my = sum(s[1] for s in spaces) / len(spaces)
            free = [s for s in spaces if s not in taken] or spaces
            best = min(free, key=lambda s: (abs(s[0] - mx) + abs(s[1] - my), s))
            taken.add(best)
            out[model.id] = (best[0] + 0.5, best[1] + 0.5)
        elif model.pos.entry and model.pos.entry in board.entry_areas:
            area = board.entry_areas[model.pos.entry]
            free = [s for s in area.spaces if s not in taken] or list(area.spaces)
            taken.add(free[0])
            out[model.id] = (free[0][0] + 0.5, free[0][1] + 0.5)
    return out


def _inside(space: Space, viewport: tuple[int, int, int, int]) -> bool:
    x, y, w, h = viewport
    return x <= space[0] < x + w and y <= space[1] < y + h


def _building_labels(board: Board, tokens: Sequence[Token], arrows: Sequence[Arrow],
                     viewport: tuple[int, int, int, int]) -> tuple[MapLabel, ...]:
    """Each Building's number on a space of it in view that no token, ghost or path covers, nearest the middle of
    its part in view."""
    busy = {(int(t.x), int(t.y)) for t in tokens} | {(int(x), int(y)) for a in arrows for x, y in a.points}
    out = []
    for number, cells in board.buildings.items():
        spaces = [s for s in (board.xy(c) for c in cells) if _inside(s, viewport)]
        if not spaces:
            continue
        mx = sum(s[0] for s in spaces) / len(spaces)
        my = sum(s[1] for s in spaces) / len(spaces)
        free = [s for s in spaces if s not in busy and board.index(s) not in board.diagonal] or spaces
        best = min(free, key=lambda s: ((s[0] + 0.5 - mx) ** 2 + (s[1] + 0.5 - my) ** 2, s))
        out.append(MapLabel(best[0] + 0.5, best[1] + 0.5, str(number), "building"))
    return tuple(out)


def _entry_rect(board: Board, letter: str) -> tuple[int, int, int, int]:
    spaces = board.entry_areas[letter].spaces
    xs, ys = [s[0] for s in spaces], [s[1] for s in spaces]
    return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def _entry_labels(board: Board, tokens: Sequence[Token], viewport: tuple[int, int, int, int]) -> tuple[MapLabel, ...]:
    """An Entry Area's letter on the space beside its centre, inward (the area itself holds models), when that
    space is in view and free."""
    busy = {(int(t.x), int(t.y)) for t in tokens}
    out = []
    for letter, area in sorted(board.entry_areas.items()):
        x, y = area.spaces[0]
        dx, dy = {"N": (0, 1), "S": (0, -1), "E": (-1, 0), "W": (1, 0)}[area.edge]
        spot = (x + dx, y + dy)
        if _inside(spot, viewport) and spot not in busy:
            out.append(MapLabel(spot[0] + 0.5, spot[1] + 0.5, letter, "entry"))
    return tuple(out)


def _close_up(board: Board, data: BoardInput, tokens: Sequence[Token], arrows: Sequence[Arrow],
              fire: Sequence[FireLine]) -> tuple[int, int, int, int]:
    """The part of the board where the models and the Bandits' turn are, one space around, at least `MIN_VIEW`
    spaces across, square (the phone shows it square), inside the board."""
    xs = [t.x for t in tokens] + [x for a in arrows for x, _y in a.points] + [v for f in fire for v in (f.frm[0], f.to[0])]
    ys = [t.y for t in tokens] + [y for a in arrows for _x, y in a.points] + [v for f in fire for v in (f.frm[1], f.to[1])]
    if not xs:
        return 0, 0, board.width, board.height
    x0, x1 = int(min(xs)) - 1, int(max(xs)) + 2
    y0, y1 = int(min(ys)) - 1, int(max(ys)) + 2
    size = min(max(x1 - x0, y1 - y0, MIN_VIEW), board.width, board.height)
    x0 = max(0, min(board.width - size, x0 - (size - (x1 - x0)) // 2))
    y0 = max(0, min(board.height - size, y0 - (size - (y1 - y0)) // 2))
    return x0, y0, size, size


def status_items(data: BoardInput) -> tuple[StatusItem, ...]:
    """The mission's status strip: the track (Darkness and Posse markers), then each counter the mission keeps."""
    out = []
    track = data.track
    if track is not None and track.entrance > 0:
        tone = "danger" if track.entrance - track.darkness <= 2 else "normal"
        out.append(StatusItem(_("Darkness"), f"{track.darkness}/{track.entrance}", tone))
        out.append(StatusItem(_("Posse"), f"{track.posse}/{track.entrance}"))
    for name, value in data.counters.items():
        words = COUNTER_WORDS.get(name)
        if words is None:
            continue
        tone = "warn" if name in ("countdown", "fuse") and value <= 2 else "normal"
        out.append(StatusItem(_(words), str(value), tone))
    return tuple(out)


def _segments_in(board: Board, viewport: tuple[int, int, int, int]) -> set[str]:
    """The kinds of segment that show in the viewport (one on its edge does not)."""
    x, y, w, h = viewport
    return {s.kind for s in _segments(board)
            if x < max(s.x1, s.x2) and min(s.x1, s.x2) < x + w and y < max(s.y1, s.y2) and min(s.y1, s.y2) < y + h
            and not (s.x1 == s.x2 and s.x1 in (x, x + w)) and not (s.y1 == s.y2 and s.y1 in (y, y + h))}


def legend(data: BoardInput, overlay: bool, shown: set[str] | None = None) -> tuple[LegendItem, ...]:
    """What each mark means, for the marks on the screen now."""
    sides = {_side(m) for m in data.models}
    out = []
    if "hero" in sides:
        out.append(LegendItem("hero", _("Hero")))
    if "bandit" in sides:
        out.append(LegendItem("bandit", _("Bandit")))
    if "neutral" in sides:
        out.append(LegendItem("neutral", _("Townsfolk")))
    if overlay:
        out += [LegendItem("ghost", _("where it goes")), LegendItem("arrow", _("its move")),
                LegendItem("fire", _("shoots")), LegendItem("cover", _("target in cover")),
                LegendItem("blocked", _("no line of sight"))]  # fmt: skip
    shown = shown if shown is not None else {"door", "window", "wall", "shared roof"}
    out += [LegendItem(kind, words) for kind, words in (("door", _("Door")), ("window", _("Window")),
                                                       ("wall", _("Wall")), ("shared roof", _("one rooftop")))
            if kind in shown or (kind == "door" and "diagonal door" in shown)]  # fmt: skip
    return tuple(out)


# ---- reading the table ----------------------------------------------------------------------------------------------
def board_input_from_state(adventure: Any, names: Mapping[str, str] | None = None,
                           moves: Sequence[Move] = ()) -> BoardInput | None:
    """A Town Mission's board from the Adventure state: heroes and figures with a board space (`Place.x/y`; a
    `tile` "roof:3+4" or "entry:A" for one on a rooftop or off the board), its counters and its track. None when
    no Town Mission is under way (the Forbidden Fortress's tiles are on the table, not on this board)."""
    known = MISSIONS.get(adventure.mission) if adventure is not None else None
    if known is None or known.board != TOWN:
        return None
    from shared_rules.state.adventure import Side as StateSide

    names = names or {}
    models: list[Model] = []

    for hero in adventure.heroes:
        pos = board_pos(hero.place)
        if pos is not None:
            models.append(Model(hero.id, Side.HERO, pos, names.get(hero.id, hero.id)))
    for figure in adventure.figures:
        pos = board_pos(figure.place)
        if pos is None:
            continue
        side = {StateSide.HERO: Side.HERO, StateSide.ENEMY: Side.ENEMY}.get(figure.side, Side.NEUTRAL)
        models.append(Model(figure.id, side, pos, figure.name, group=figure.kind))
    if not models:
        return None
    board = board_named("default")  # the Missions are played on the default board (rules.missions.common.board_of)
    counters = {c.name: c.value for c in adventure.counters}
    track = None
    if adventure.track.spaces:
        track = Track(adventure.darkness, adventure.party, adventure.track.entrance)
    return BoardInput(board, tuple(models), tuple(moves), counters, track, known.title)


def with_models(data: BoardInput, models: Iterable[Model]) -> BoardInput:
    """The same board with other models (a test, or the screenshots, moving one)."""
    return replace(data, models=tuple(models))
