"""The Adventure turn: its step, the Depth Track drawn as a track, Hold Back the Darkness, whose activation it is in
Initiative order, each hero's Health, Sanity, Grit and class resources, the enemies, and the prompt waiting.

Everything is read from the state (`Session.adventure`) and the legal commands; the big button is the common next
step (Hold Back the Darkness, activate the next model, end the activation). Hold Back the Darkness takes the table's
two dice typed here, or the app's dice (FF-DEPTH-04/05).
"""

from __future__ import annotations

from dataclasses import dataclass

from shared_rules import LegalCommand
from shared_rules.commands import (
    Activate,
    ActivateEnemy,
    AddEnemies,
    Attack,
    BoostMove,
    Command,
    EndActivation,
    Flee,
    HoldBackTheDarkness,
    NewEnemy,
    RevealToken,
    RingBell,
    Search,
    SheetEntry,
    StartAdventure,
    StopBleeding,
    UseToken,
    WoundEnemy,
)
from shared_rules.content import pack
from shared_rules.rules.adventure import MISSIONS, order
from shared_rules.state import STAGE_TARGETS, ExplorationToken, Figure, Phase, Side, SpaceMark, TrackSpace, TurnStep

from ..i18n import _
from .abilities import Abilities, Button, Choices, Form
from .asking import question_text
from .table import TableSession

BOARD_SCREEN = "board"  # the Town Adventure Board's screen, built elsewhere; this screen only opens it
STEP_WORDS = {
    TurnStep.START: "Start of the turn: run away, or Hold Back the Darkness",
    TurnStep.ACTIVATIONS: "Activations, highest Initiative first",
    TurnStep.EXPLORATION: "Room Exploration: reveal the tokens",
}
MARK_WORDS = {SpaceMark.BLOOD_SPATTER: "Blood Spatter", SpaceMark.GROWING_DREAD: "Growing Dread"}
RESOURCES = (("fury", "max_fury", "Fury"), ("ki", "max_ki", "Ki"), ("mana", "mana", "Mana"))
# What a class's sheet must give before an Adventure (FF-SAM-01, FF-MONK-01, FF-SORC-03): typed when the pack lacks it
CLASS_NUMBERS = {"Samurai Warrior": ("max_fury", "Max Fury"), "Traveling Monk": ("max_ki", "Max Ki"),
                 "Sorceress": ("mana", "Mana level")}
STATE_WORDS = {"activating": "activating", "done": "done", "next": "next", "waiting": "", "KO": "KO"}
MARK_CYCLE = (SpaceMark.NONE, SpaceMark.BLOOD_SPATTER, SpaceMark.GROWING_DREAD)
TOKEN_START = {"doors": 1, "gates": 0, "attack": 0, "clue": 0, "growing_dread": 0}
TOKEN_FLAGS = (("attack", "Attack!"), ("clue", "Clue"), ("growing_dread", "Growing Dread"))
LIMITS = {"doors": (0, 4), "gates": (0, 4), "length": (4, 30), "stage1": (1, 28), "stage3": (1, 28), "initiative": (1, 12), "max_fury": (1, 9),
          "max_ki": (1, 9), "mana": (1, 9)}


@dataclass(frozen=True, slots=True)
class Space:
    """One space of the Depth Track as drawn: its number, Stage target, mark, and the markers on it."""

    number: int
    target: int
    mark: str  # "" | "blood_spatter" | "growing_dread" (MARK_WORDS says them)
    party: bool
    darkness: bool
    label: str  # "Entrance", "Darkness Start" or ""


@dataclass(frozen=True, slots=True)
class AdventureAction:
    key: str  # hbtd | activate | activate_enemy | end_activation | boost | scavenge | door | reveal | flee
    #           | answer | board | start
    label: str
    arg: str = ""
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class HeroRow:
    hero: str
    name: str
    figures: str  # "Health 8/10 · Sanity 6/6 · Grit 1/2"
    resources: str  # "Fury 2/3 · Arcane Powder 1"
    state: str  # "next", "activating", "done", "waiting", "KO"
    lantern: bool
    actions: tuple[AdventureAction, ...] = ()  # what the hero may spend any time: the Bell, tokens, Grit on Bleeding


@dataclass(frozen=True, slots=True)
class SetupNumber:
    """A number the table types from its board or a sheet, with -/+: `key` is what `step` changes."""

    key: str  # length | stage1 | stage3 | <hero id>.initiative | <hero id>.max_fury ...
    label: str
    value: int


@dataclass(frozen=True, slots=True)
class Setup:
    """Setting up the Adventure (FF-SETUP-01): the Old Lantern holder, the mission, the Depth Track (the pack's, or
    typed in from the board: its length, Stages and marked spaces, each space a tap) and the sheet numbers the
    pack lacks."""

    lantern: tuple[AdventureAction, ...]
    missions: tuple[AdventureAction, ...]
    tracks: tuple[AdventureAction, ...]  # the pack's Depth Tracks, if any
    numbers: tuple[SetupNumber, ...]  # the typed track's, then each hero's
    track: tuple[Space, ...]  # the typed track as it will be: tap a space to change its mark
    start: AdventureAction | None


@dataclass(frozen=True, slots=True)
class AdventureView:
    active: bool
    title: str  # the mission
    turn: str  # "Turn 3 · Activations, highest Initiative first"
    track: tuple[Space, ...]
    track_text: str  # the markers in words: never the drawing alone
    hbtd: str  # this turn's roll, or what it needs
    order: tuple[str, ...]  # the rest of the turn's activations, names
    heroes: tuple[HeroRow, ...]
    enemies: tuple[str, ...]
    main: AdventureAction | None
    others: tuple[AdventureAction, ...]
    prompt: str
    board: bool  # the Town Adventure Board: a "Board" button opens its screen
    dice: tuple[int | None, int | None] | None  # Hold Back the Darkness typed here: the two dice, None when hidden
    empty_text: str = ""
    setup: Setup | None = None  # between adventures
    token: tuple[SetupNumber, ...] = ()  # Room Exploration with no tokens in the pack: what the token shows
    token_flags: tuple[AdventureAction, ...] = ()
    wound: tuple[AdventureAction, ...] = ()  # one per enemy, beside its line: +1 Wound done at the table
    cards: tuple[AdventureAction, ...] = ()  # what a card read at the table does (the markers, a Gang card)
    move: AdventureAction | None = None  # the next hero's Move die typed here: one tap activates them (R-ADV-05)


def _action(button: Button) -> AdventureAction:
    return AdventureAction(button.key, button.label, button.arg, button.enabled)


def numbered(figures: tuple[Figure, ...]) -> dict[str, str]:
    """Each figure's name on the screen: models of the same name numbered in the order they came ("Void Hound 2"),
    so two buttons never read the same."""
    count: dict[str, int] = {}
    for f in figures:
        count[f.name] = count.get(f.name, 0) + 1
    seen: dict[str, int] = {}
    out = {}
    for f in figures:
        seen[f.name] = seen.get(f.name, 0) + 1
        out[f.id] = f"{f.name} {seen[f.name]}" if count[f.name] > 1 else f.name
    return out


class AdventurePresenter:
    def __init__(self, table: TableSession) -> None:
        self.table = table
        self.first: int | None = None  # the first Hold Back the Darkness die typed
        self.lantern = ""  # chosen at set-up
        self.mission = ""
        self.track_name = ""  # a pack's Depth Track, or "" to type one
        self.numbers: dict[str, int] = {"length": 12, "stage1": 4, "stage3": 4}
        self.marks: dict[int, SpaceMark] = {}
        self.token: dict[str, int] = dict(TOKEN_START)  # the Exploration Token typed in (FF-EXPL-02..05)
        self.more = Abilities(lambda: self.table.read, self._name)  # class abilities, Hits, the missions' commands

    def _name(self, fid: str) -> str:
        read = self.table.read
        figures = numbered(read.adventure.figures) if read.adventure is not None else {}
        return read.names.get(fid) or figures.get(fid, fid)

    def view(self) -> AdventureView:
        read = self.table.read
        adv = read.adventure
        if adv is None or read.phase is not Phase.ADVENTURE:
            return self._not_started()
        mission = MISSIONS.get(adv.mission)
        names = read.names
        figures = numbered(adv.figures)

        def name(fid: str | None) -> str:
            return names.get(fid or "") or figures.get(fid or "", fid or "")

        track = tuple(
            Space(s.number, adv.track.target(s.number), s.mark.value if s.mark in MARK_WORDS else "",
                  s.number == adv.party, s.number == adv.darkness,
                  _("Entrance") if s.number == adv.track.entrance else _("Darkness Start") if s.number == 0 else "")
            for s in adv.track.spaces)  # fmt: skip
        target = adv.track.target(adv.party) if adv.track.spaces else 0
        gap = adv.party - adv.darkness
        track_text = (_("Hero Party on space {p}, the Darkness on {d}: {gap} space apart · Hold Back the Darkness "
                        "needs {t}+") if gap == 1 else
                      _("Hero Party on space {p}, the Darkness on {d}: {gap} spaces apart · Hold Back the Darkness "
                        "needs {t}+")).format(p=adv.party, d=adv.darkness, gap=gap, t=target)  # fmt: skip
        if adv.growing_dread:
            track_text += " · " + (_("{n} Growing Dread card waiting") if adv.growing_dread == 1 else
                                   _("{n} Growing Dread cards waiting")).format(n=adv.growing_dread)
        hbtd = _("Hold Back the Darkness: {who} rolls 2D6, needs {t}+").format(who=name(adv.lantern), t=target)
        if adv.last_hbtd is not None:
            faces = adv.last_hbtd.faces
            total = sum(faces)
            verdict = (_("doubles: a Depth Event, the Darkness stays") if len(faces) == 2 and faces[0] == faces[1]
                       else _("held") if total >= target else _("the Darkness moves"))
            hbtd = _("This turn: {a} + {b} = {total}, {verdict}").format(a=faces[0], b=faces[-1], total=total,
                                                                           verdict=verdict)
        legal: dict[str, LegalCommand] = {}
        for c in read.legal:
            legal.setdefault(c.type, c)  # tied heroes: the first of them (the others activate next)
        prompt = read.prompt
        free = prompt is None
        upcoming = order(read.session)
        active = adv.activation.figure if adv.activation is not None else ""
        heroes = []
        for member in adv.heroes:
            hero = read.hero(member.id)
            figures_line = _("Health {h}/{hm} · Sanity {s}/{sm} · Grit {g}/{gm}").format(
                h=hero.health_left, hm=hero.max_health, s=hero.sanity_left, sm=hero.max_sanity, g=hero.grit,
                gm=hero.max_grit)
            parts = [f"{_(word)} {getattr(member, key)}/{getattr(member.sheet, top)}"
                     for key, top, word in RESOURCES if getattr(member.sheet, top)]
            if member.arcane_powder:
                parts.append(_("Arcane Powder {n}").format(n=member.arcane_powder))
            if member.cover:
                parts.append(_("Cover {n}+").format(n=member.cover))
            state = ("KO" if hero.knocked_out else "activating" if member.id == active
                     else "done" if member.id in adv.activated else "next" if upcoming[:1] == (member.id,)
                     else "waiting")
            spends = []
            for c in read.legal:
                if c.hero != member.id:
                    continue
                if c.type == "ring_bell":
                    spends.append(AdventureAction("bell", _("Ring the Sacred Bell"), member.id, free))
                elif c.type == "stop_bleeding":
                    spends.append(AdventureAction("bleeding", _("Stop the Bleeding (1 Grit)"), member.id, free))
                elif c.type == "use_token":
                    spends += [AdventureAction("token_use", _("Use {token}").format(token=t), f"{member.id}|{t}", free)
                               for t in c.options]
            spends += [_action(b) for b in self.more.hero_buttons(member.id, free)]
            heroes.append(HeroRow(member.id, hero.name, figures_line, " · ".join(parts), state,
                                  member.id == adv.lantern, tuple(spends)))
        foes = [f for f in adv.figures if f.side is Side.ENEMY]
        enemies = tuple(_("{name}: {w} of {h} Wounds").format(name=figures[f.id], w=f.wounds, h=f.health)
                        for f in foes)
        main: AdventureAction | None = None
        others: list[AdventureAction] = []
        dice: tuple[int | None, int | None] | None = None
        if "hold_back_the_darkness" in legal:
            main = AdventureAction("hbtd", _("Hold Back the Darkness: roll for me") if read.options.dice != "table"
                                   else _("Hold Back the Darkness: roll 2D6"), enabled=free)
            if read.options.dice == "table" and free:
                dice = (self.first, None)
        if "flee" in legal:
            others.append(AdventureAction("flee", _("Run away (everyone agrees)"), enabled=free))
        move_pad: AdventureAction | None = None
        if "activate" in legal:
            who = legal["activate"].hero or ""
            main = AdventureAction("activate", _("Activate {who}: roll Move").format(who=name(who)), who, free)
            if read.options.dice == "table" and free:  # the Move die from the table: one tap activates (R-ADV-05)
                move_pad = AdventureAction("move_die", _("{who} activates: tap the Move die").format(who=name(who)),
                                           who)
        if "activate_enemy" in legal:
            enemy = legal["activate_enemy"].options[0] if legal["activate_enemy"].options else ""
            action = AdventureAction("activate_enemy", _("{who} activates: its attack…").format(
                who=name(enemy)), enemy, free)
            main = main or action
            if main is not action:
                others.append(action)
        if "end_activation" in legal:
            who = legal["end_activation"].hero or ""
            move = adv.activation.move if adv.activation is not None else None
            moved = sum(move.faces) if move is not None else 0
            main = AdventureAction("end_activation", _("End {who}'s activation (Move {n})").format(
                who=name(who), n=moved), who, free)
            if "boost_move" in legal:
                others.append(AdventureAction("boost", _("+D6 Move for 1 Grit"), who, free))
            for enemy in legal["attack"].options if "attack" in legal else ():
                others.append(AdventureAction("attack", _("Attack {who}").format(who=name(enemy)), enemy, free))
            if "search" in legal:
                others.append(AdventureAction("scavenge", _("Search: Scavenge"), who, free))
                others.append(AdventureAction("door", _("Search: Look Through a Door"), who, free))
        token: tuple[SetupNumber, ...] = ()
        flags: tuple[AdventureAction, ...] = ()
        if "reveal_token" in legal:
            tile = legal["reveal_token"].options[0] if legal["reveal_token"].options else ""
            main = AdventureAction("reveal", _("Reveal the Exploration Token on {tile}").format(tile=tile), tile, free)
            if not adv.tokens:  # no stack in the pack: the table says what the token shows
                t = self.token
                token = (SetupNumber("token.doors", _("Doors"), t["doors"]),
                         SetupNumber("token.gates", _("Gates"), t["gates"]))
                flags = tuple(AdventureAction("token", ("● " if t[key] else "") + _(word), key)
                              for key, word in TOKEN_FLAGS)
                shows = _("{doors} Door(s), {gates} Gate(s)").format(doors=t["doors"], gates=t["gates"]) + ", " + (
                    _("Attack!") if t["attack"] else _("an Encounter")) + "".join(
                    ", " + _(word) for key, word in TOKEN_FLAGS[1:] if t[key])
                main = AdventureAction("reveal", _("{tile}: the token shows {what}").format(tile=tile, what=shows),
                                       tile, free)
        waiting = ""
        if prompt is not None:
            mine = self.table.is_mine(prompt)
            waiting = question_text(prompt, self.table.hero_name)
            if mine:
                main = AdventureAction("answer", _("Answer: {question}").format(question=waiting))
            elif prompt.hero:
                waiting = _("{who}'s phone is answering: {question}").format(who=name(prompt.hero),
                                                                              question=waiting)
        if "add_enemies" in legal:
            others.append(AdventureAction("enemies", _("Enemies arrive…"), enabled=free))
        wound = tuple(AdventureAction("wound", _("+1 Wound"), f.id, free and "wound_enemy" in legal) for f in foes)
        others += [_action(b) for b in self.more.table_buttons(free) if b.key != "board"]
        board = mission is not None and mission.board == "town"
        if board:
            others.append(AdventureAction("board", _("Board")))
        title = _(mission.title) if mission is not None else adv.mission
        turn = _("Turn {n}").format(n=adv.turn) + " · " + _(STEP_WORDS[adv.step])
        return AdventureView(True, title, turn, track, track_text, hbtd, tuple(name(f) for f in upcoming),
                             tuple(heroes), enemies, main, tuple(others), waiting, board, dice, token=token,
                             token_flags=flags, wound=wound,
                             cards=tuple(_action(b) for b in self.more.card_buttons(free)), move=move_pad)

    def _not_started(self) -> AdventureView:
        read = self.table.read
        start = read.legal_of("start_adventure")
        if start is None or read.prompt is not None:
            return AdventureView(False, _("No Adventure"), "", (), "", "", (), (), (), None, (), "", False, None,
                                 _("No Adventure under way."))
        heroes = read.active_heroes
        lantern = self.lantern if self.lantern in {h.id for h in heroes} else (heroes[0].id if heroes else "")
        mission = self.mission if self.mission in start.options else (start.options[0] if start.options else "")
        content = pack(read.session.pack)
        tracks = sorted(content.adventure.depth_tracks)
        track_name = self.track_name if self.track_name in tracks else ""
        numbers: list[SetupNumber] = []
        if not track_name:
            numbers += [SetupNumber("length", _("Spaces on the Depth Track, Darkness Start to the Entrance"),
                                    self.numbers["length"]),
                        SetupNumber("stage1", _("Spaces needing 7+, from the Entrance"), self.numbers["stage1"]),
                        SetupNumber("stage3", _("Spaces needing 9+, from Darkness Start"), self.numbers["stage3"])]
        for hero in heroes:
            sheet = content.hero_classes.get(hero.hero_class, {})
            if not sheet.get("initiative"):
                numbers.append(SetupNumber(f"{hero.id}.initiative", _("{who}: Initiative").format(who=hero.name),
                                           self.numbers.get(f"{hero.id}.initiative", 4)))
            needed = CLASS_NUMBERS.get(hero.hero_class)
            if needed is not None and not sheet.get(needed[0]):
                numbers.append(SetupNumber(f"{hero.id}.{needed[0]}", f"{hero.name}: {_(needed[1])}",
                                           self.numbers.get(f"{hero.id}.{needed[0]}", 3)))
        track = () if track_name else tuple(
            Space(t.number, STAGE_TARGETS[t.stage], t.mark.value if t.mark in MARK_WORDS else "", False, False,
                  _("Entrance") if t.number == len(self.layout()) - 1 else _("Darkness Start") if not t.number else "")
            for t in self.layout())  # fmt: skip
        setup = Setup(
            tuple(AdventureAction("lantern", ("● " if h.id == lantern else "") + h.name, h.id) for h in heroes),
            tuple(AdventureAction("mission", ("● " if m == mission else "") + _(MISSIONS[m].title), m)
                  for m in start.options if len(start.options) > 1),
            tuple(AdventureAction("track", ("● " if t == track_name else "") + (t or _("Type it from the board")), t)
                  for t in ("", *tracks)) if tracks else (),
            tuple(numbers), track,
            AdventureAction("start", _("Start the Adventure: {who} holds the Old Lantern").format(
                who=read.name(lantern)), lantern))  # fmt: skip
        text = _("Set up the Adventure: who holds the Old Lantern, the Depth Track as your board shows it (tap a "
                 "space to mark Blood Spatter or Growing Dread), and the sheet numbers the content pack lacks.")
        others = tuple(_action(b) for b in self.more.between_buttons(read.prompt is None))
        return AdventureView(False, _("A new Adventure"), "", (), "", "", (), (), (), None, others, "", False, None,
                             text, setup)

    def layout(self) -> tuple[TrackSpace, ...]:
        """The typed Depth Track: space 0 Darkness Start ... the Entrance; Stages as counted from each end."""
        length = self.numbers["length"]
        stage1, stage3 = self.numbers["stage1"], self.numbers["stage3"]
        return tuple(TrackSpace(n, 1 if n >= length - stage1 else 3 if n < stage3 else 2,
                                self.marks.get(n, SpaceMark.NONE) if 0 < n < length - 1 else SpaceMark.NONE)
                     for n in range(length))

    def step(self, key: str, direction: int) -> None:
        """-/+ on a set-up number (or the typed token's exits), kept within what a board or a sheet can show."""
        if key.startswith("more."):  # the Hits of an Attack, the Damage of an enemy's
            self.more.step(key[5:], direction)
            self.table.changed()
            return
        if key.startswith("token."):
            low, high = LIMITS[key[6:]]
            self.token[key[6:]] = max(low, min(high, self.token[key[6:]] + direction))
            self.table.changed()
            return
        low, high = LIMITS[key.split(".")[-1]]
        default = 4 if key.endswith("initiative") else 3
        self.numbers[key] = max(low, min(high, self.numbers.get(key, default) + direction))
        self.table.changed()

    def cycle_mark(self, space: int) -> None:
        """A tap on a typed space: no mark, Blood Spatter, Growing Dread, and round again (FF-DEPTH-07/08)."""
        now = self.marks.get(space, SpaceMark.NONE)
        self.marks[space] = MARK_CYCLE[(MARK_CYCLE.index(now) + 1) % len(MARK_CYCLE)]
        self.table.changed()

    def _start(self, lantern: str) -> StartAdventure:
        read = self.table.read
        legal = read.legal_of("start_adventure")
        options = legal.options if legal is not None else ()
        mission = self.mission if self.mission in options else (options[0] if options else "lost_contact")
        tracks = pack(read.session.pack).adventure.depth_tracks
        track = self.track_name if self.track_name in tracks else ""
        sheets = []
        for hero in read.active_heroes:
            typed = {key.split(".", 1)[1]: value for key, value in self.numbers.items()
                     if key.startswith(f"{hero.id}.")}
            sheet = pack(read.session.pack).hero_classes.get(hero.hero_class, {})
            if not sheet.get("initiative"):
                typed.setdefault("initiative", 4)
            needed = CLASS_NUMBERS.get(hero.hero_class)
            if needed is not None and not sheet.get(needed[0]):
                typed.setdefault(needed[0], 3)
            if typed:
                sheets.append(SheetEntry(hero.id, **typed))  # type: ignore[arg-type]
        return StartAdventure(lantern, mission, track, () if track else self.layout(), tuple(sheets))

    # ---- buttons ------------------------------------------------------------------------------------------------
    def act(self) -> bool:
        main = self.view().main
        return main is not None and self.do(main)

    def do(self, action: AdventureAction) -> bool:
        """Send what a button stands for; False for the ones the screen handles (answer, board)."""
        if action.key == "token":
            self.token[action.arg] = 0 if self.token[action.arg] else 1
            if action.arg == "growing_dread" and self.token[action.arg]:
                self.token["clue"] = 0  # one face: the Growing Dread token is not a Clue
            self.table.changed()
            return True
        if action.key in ("lantern", "mission", "track"):
            setattr(self, {"lantern": "lantern", "mission": "mission", "track": "track_name"}[action.key], action.arg)
            self.table.changed()
            return True
        command = self.command(action)
        if command is None:
            return False
        self.table.submit(command, label=action.label)
        return True

    def command(self, action: AdventureAction) -> Command | None:
        a = action.arg
        if action.key == "hbtd":
            return HoldBackTheDarkness()
        if action.key == "activate":
            return Activate(a)
        if action.key == "activate_enemy":
            return ActivateEnemy(a)
        if action.key == "end_activation":
            return EndActivation(a)
        if action.key == "attack":
            hero = self.table.read.adventure.activation if self.table.read.adventure else None
            return Attack(hero.figure if hero is not None else "", target=a)
        if action.key == "bell":
            return RingBell(a)
        if action.key == "bleeding":
            return StopBleeding(a)
        if action.key == "token_use":
            owner, token = a.split("|", 1)
            return UseToken(owner, token)
        if action.key == "wound":
            return WoundEnemy(a, 1, reason=_("Wounds done at the table"))
        if action.key == "boost":
            return BoostMove(a)
        if action.key in ("scavenge", "door"):
            return Search(a, action.key)
        if action.key == "reveal":
            adv = self.table.read.adventure
            if adv is not None and adv.tokens:
                return RevealToken(a)  # drawn from the pack's stack
            t, self.token = self.token, dict(TOKEN_START)
            return RevealToken(a, ExplorationToken(t["doors"], t["gates"], bool(t["attack"]), bool(t["clue"]),
                                                   bool(t["growing_dread"])))
        if action.key == "flee":
            return Flee(tuple(h.id for h in self.table.read.active_heroes if not h.knocked_out))
        if action.key == "start":
            return self._start(a)
        return self.more.command(action.key, a)

    def choices(self, action: AdventureAction) -> Choices | None:
        """A tap that asks one more (the Hits an Attack landed, whom an enemy struck): the screen shows the choice
        and sends the button picked through `do`."""
        return self.more.choices(action.key, action.arg)

    def form(self, action: AdventureAction) -> Form | None:
        """A card the content pack lacks, typed in (a Spell, a Battle Tactic, a Gang card)."""
        return self.more.form(action.key, action.arg)

    def send_form(self, form: Form, values: dict[str, str]) -> bool:
        from .table import Notice

        command = self.more.form_command(form, values)
        if isinstance(command, str):
            self.table.notice = Notice(command)
            self.table.changed()
            return False
        self.table.submit(command, label=form.title)
        return True

    def add_enemies(self, name: str, count: str, health: str, initiative: str) -> bool:
        """Enemies onto the board from a Threat card, a Darkness card or an Encounter the table read (FF-TURN-05: a
        Fight is on while any is there): the card's name, how many, their Health and Initiative."""
        numbers = []
        for text in (count, health, initiative):
            try:
                numbers.append(int(text.strip()))
            except ValueError:
                numbers.append(0)
        if not name.strip() or numbers[0] < 1 or numbers[1] < 1:
            from .table import Notice

            self.table.notice = Notice(_("Give the enemy's name, how many came, and their Health."))
            self.table.changed()
            return False
        enemy = NewEnemy(name.strip(), count=numbers[0], health=numbers[1], initiative=numbers[2] or None)
        self.table.submit(AddEnemies((enemy,)), label=_("{n} {name} on the board").format(n=numbers[0],
                                                                                            name=name.strip()))
        return True

    def tap_die(self, face: int) -> None:
        """Hold Back the Darkness from the table's dice: the first die, then the second sends the roll (FF-DEPTH-04)."""
        if not 1 <= face <= 6:
            raise ValueError(f"face: a D6 shows 1-6, not {face}")
        if self.first is None:
            self.first = face
            self.table.changed()
            return
        faces = (self.first, face)
        self.first = None
        self.table.submit(HoldBackTheDarkness(dice=(faces,)),
                          label=_("Hold Back the Darkness: {a} + {b}").format(a=faces[0], b=faces[1]))

    def tap_move(self, face: int) -> None:
        """The next hero's Move die from the table: one command activates them with it (FF-MOVE-01), ending the
        activation under way first (R-ADV-05); the log's undo names both."""
        if not 1 <= face <= 6:
            raise ValueError(f"face: a D6 shows 1-6, not {face}")
        move = self.view().move
        if move is None:
            return
        adv = self.table.read.adventure
        done = adv.activation.figure if adv is not None and adv.activation is not None else ""
        label = _("{who} activates: Move {n}").format(who=self._name(move.arg), n=face)
        if done:
            label = _("{done} is done; {then}").format(done=self._name(done), then=label)
        self.table.submit(Activate(move.arg, dice=((face,),)), label=label)

    def clear_die(self) -> None:
        self.first = None
        self.table.changed()
