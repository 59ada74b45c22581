"""The Town Stay: the Day and its caps, the Daily Event, each hero's one visit, what they may buy, sell and use, their
Unwanted Attention and Wanted!, and the end of the Day and of the Stay (FT-DAY, FT-UA, FT-WANTED, FT-BAG).

Built on the engine's own picture of the Stay (`rules.stay.view.stay_view`: who may enter where and why not, the
wares with their prices), so the screen offers exactly what `legal_commands` accepts. The big button is the common
next step (start the Day, leave the visit, end the Day); a hero's visit is one tap on the place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from shared_rules.commands import (
    BountyTarget,
    Buy,
    Command,
    EndDay,
    EndTownStay,
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
from shared_rules.rules.stay.view import HeroInTown, stay_view
from shared_rules.state import Lodging, Phase, StayStage

from ..i18n import _
from .asking import question_text
from .table import TableSession
from .words import plain

_COMMAND = re.compile(r"\s*\([a-z]+(?:_[a-z]+)+\)")  # "(pay_off_warrants)": a command's name, not the game's words
KEEP_POINTS = 4  # "roll again" picks up the Devil's Wheel dice worth fewer points than this
WANTED = ("", "Wanted!", "Most Wanted!")
BOUNTY_WORDS = {"threat_card": "Post a bounty: a Low Threat card", "chart": "Post a bounty: the Outpost's chart",
                "sheriff": "The Sheriff's Bounty"}
WARE_KINDS = {"token": "Side Bag token", "item": "Item", "service": "Service"}
BEDS = {Lodging.HOTEL: "Hotel", Lodging.CAMP_SITE: "Camp Site"}


@dataclass(frozen=True, slots=True)
class StayAction:
    """A button: what it sends (`key`), its words, for which hero, and its argument (a place, a ware)."""

    key: str  # start_day | end_day | leave_town | visit | end_visit | buy | sell | pay_off | wheel | wheel_roll
    #           | wheel_stop | use_token | answer
    label: str
    hero: str = ""
    arg: str = ""
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class HeroStay:
    hero: str
    name: str
    badges: str  # "Hotel · ◉ 2 Unwanted Attention · ★ Wanted!"
    status: str  # where they are in today's visit
    places: tuple[StayAction, ...]  # one tap each: visit there
    closed: tuple[str, ...]  # "Sheriff's Office: a Wanted! hero may not enter"
    actions: tuple[StayAction, ...]  # on a visit: buy, sell, use, pay off, the Devil's Wheel, leave
    trouble: str  # the Unwanted Attention warning (FT-UA-04), "" without markers
    mine: bool


@dataclass(frozen=True, slots=True)
class StayScreenView:
    in_town: bool
    title: str  # "Day 2 of 2"
    stage: str  # what the Day is at, in words
    event: str  # the Daily Event's name
    event_text: tuple[str, ...]  # what it says and does today
    main: StayAction | None  # the one big button
    others: tuple[StayAction, ...]  # e.g. End the Day early, leave town
    heroes: tuple[HeroStay, ...]
    prompt: str  # the question the table answers first, if any
    bounties: tuple[str, ...]
    wheel: tuple[str, ...]  # the Devil's Wheel round under way: each die and its points
    empty_text: str = ""
    rules: tuple[str, ...] = ()  # the Specialty Town's own rules
    end_die: str = ""  # End the Day with the Town Darkness die typed here (one tap on its face): what to tap


def trouble_line(markers: int) -> str:
    """FT-UA-04 in words: a 7 on a Location Event Chart brings a D6 check against the markers (6+: always)."""
    if markers <= 0:
        return ""
    if markers >= 6:
        return _("A Location Event roll of 7 brings trouble: {n} markers, no D6 can save you").format(n=markers)
    return _("On a Location Event roll of 7, trouble comes on a D6 of {n} or less").format(n=markers)


def _badges(hero: HeroInTown) -> str:
    parts = []
    if hero.lodging is not None:
        parts.append(_("Sleeps at the {bed}").format(bed=_(BEDS[hero.lodging])))
    if hero.unwanted_attention:
        parts.append("◉ " + _("{n} Unwanted Attention").format(n=hero.unwanted_attention))
    if hero.wanted:
        parts.append("★ " + _(WANTED[min(hero.wanted, 2)]))
    return " · ".join(parts)


class StayPresenter:
    """The Stay from the table's state; each button a command."""

    def __init__(self, table: TableSession) -> None:
        self.table = table

    def view(self) -> StayScreenView:
        read = self.table.read
        view = stay_view(read.session, read.legal) if read.phase is Phase.TOWN else None
        if view is None:
            text = (_("Arrive in town on the Road screen first.") if read.phase in (Phase.TRAVEL, Phase.ARRIVAL)
                    else _("The posse is not in town."))
            return StayScreenView(False, _("No Town Stay"), "", "", (), None, (), (), "", (), (), text)
        prompt = read.prompt
        legal = {(c.type, c.hero) for c in read.legal}
        free = prompt is None
        heroes = tuple(self._hero(h, free, view.stage) for h in view.heroes)
        title = (_("Day {n} of {m}").format(n=view.day, m=view.max_days) if view.max_days
                 else _("Day {n}").format(n=view.day))
        main, others, stage = self._main(view.day, view.stage, view.over, heroes, legal, prompt is not None)
        event, event_text = "", []
        if view.event is not None:
            event = view.event.name
            if view.event.text:
                event_text.append(view.event.text)
            if view.event.closes:
                event_text.append(_("Closed today: {places}").format(places=", ".join(view.event.closes)))
            if view.event.location_event_modifier:
                event_text.append(_("Location Event rolls today: {n:+d}").format(n=view.event.location_event_modifier))
            if view.event.camp_site_modifier:
                event_text.append(_("Camp Site Hazard rolls tonight: {n:+d}").format(n=view.event.camp_site_modifier))
        elif view.stage is StayStage.DAWN:
            event = _("Not drawn yet")
        waiting = ""
        if prompt is not None:
            who = self.table.hero_name(prompt.hero) if prompt.hero else ""
            mine = self.table.is_mine(prompt)
            asked = question_text(prompt, self.table.hero_name)
            waiting = asked if mine or not who else \
                _("{who}'s phone is answering: {question}").format(who=who, question=asked)
            if mine:
                main = StayAction("answer", _("Answer: {question}").format(question=asked))
        bounties = tuple(
            _("{enemy}: ${gold} bounty").format(enemy=b.enemy, gold=b.gold)
            + (" " + _("(every hero)") if b.all_heroes else "") for b in view.bounties)
        wheel: tuple[str, ...] = ()
        if view.wheel is not None:
            wheel = (_("{who}: roll {n} of 3").format(who=self.table.hero_name(view.wheel.hero), n=view.wheel.rolls),
                     *(_("Die {i}: {face}, {points} points").format(i=i + 1, face=d.face, points=d.points)
                       for i, d in enumerate(view.wheel.dice)))
        end_die = ""
        if (main is not None and main.key == "end_day" and main.enabled and read.options.dice == "table"
                and read.options.town_events == "darkness"):  # fmt: skip
            end_die = _("{end}: tap the Town Darkness die (the marker is on {n})").format(
                end=main.label, n=read.stay.darkness if read.stay is not None else 1)
        return StayScreenView(True, title, stage, event, tuple(event_text), main, others, heroes, waiting, bounties,
                              wheel, "", view.special_rules, end_die)

    def _main(self, day: int, stage: StayStage, over: bool, heroes: tuple[HeroStay, ...],
              legal: set[tuple[str, str | None]], prompted: bool) -> tuple[StayAction | None, tuple[StayAction, ...],
                                                                            str]:
        """The big button, the other posse-wide buttons, and where the Day is, in words."""
        leave = StayAction("leave_town", _("Leave town"), enabled=not prompted)
        can_leave = ("end_town_stay", None) in legal
        if over:
            return (leave if can_leave else None), (), _("The Stay is over: only leaving is left")
        if stage is StayStage.DAWN:
            start = StayAction("start_day", _("Start Day {n}: draw the Daily Event").format(n=day), enabled=not prompted)
            return start, ((leave,) if can_leave else ()), _("Dawn: the Daily Event is drawn, then beds are chosen")
        if stage is StayStage.NIGHT:
            if ("start_day", None) in legal:
                start = StayAction("start_day", _("Start Day {n}").format(n=day + 1), enabled=not prompted)
                return start, ((leave,) if can_leave else ()), _("Night: Day {n} is over").format(n=day)
            return (leave if can_leave else None), (), _("The last Day is over: time to leave")
        visiting = [h for h in heroes if any(a.key == "end_visit" for a in h.actions)]
        to_visit = sum(1 for h in heroes if h.places)
        end_day = StayAction("end_day", _("End Day {n}").format(n=day), enabled=not prompted)
        # A visit needs no "leave" of its own: it lasts until the hero leaves or the Day ends (FT-UA-02 is counted
        # then), so the next hero's place is the next tap and the big button is the end of the Day
        at = "; ".join(_("{who}: {where}").format(who=h.name, where=h.status) for h in visiting)
        if to_visit:
            stage_words = (_("{n} hero still to visit: tap a place under the hero") if to_visit == 1 else
                           _("{n} heroes still to visit: tap a place under the hero")).format(n=to_visit)
            return None, ((end_day,) if ("end_day", None) in legal else ()), "; ".join(filter(None, (at, stage_words)))
        return (end_day if ("end_day", None) in legal else None), (), \
            at or _("Everyone has visited: end the Day (the Camp Site rolls its Hazards)")

    def _hero(self, hero: HeroInTown, free: bool, stage: StayStage) -> HeroStay:
        acts = set(hero.actions)
        places = tuple(StayAction("visit", place, hero.hero, place, free) for place in hero.may_visit
                       if "visit_location" in acts)
        actions: list[StayAction] = []
        if hero.visiting:
            status = _("At the {place}").format(place=hero.location)
            for ware in hero.wares if "buy" in acts else ():
                actions.append(StayAction("buy", _("Buy {ware}").format(ware=ware.label), hero.hero, ware.key, free))
            items = {i.id: i.name for i in self.table.read.hero(hero.hero).items}  # an item sells by its id
            for sold in hero.sells if "sell" in acts else ():
                actions.append(StayAction("sell", _("Sell 1 {ware}").format(ware=items.get(sold, sold)), hero.hero,
                                          sold, free))
            if "buy" in acts:  # what the pack does not list: the table types the ware and the card's price
                actions.append(StayAction("buy_typed", _("Buy something else…"), hero.hero, hero.location, free))
            for method in self._bounty_methods(hero.hero) if "set_bounty" in acts else ():
                actions.append(StayAction("bounty", _(BOUNTY_WORDS.get(method, method)), hero.hero, method, free))
            if "pay_off_warrants" in acts:
                actions.append(StayAction("pay_off", _("Pay off warrants"), hero.hero, "", free))
            if "play_devils_wheel" in acts:
                actions.append(StayAction("wheel", _("Play the Devil's Wheel"), hero.hero, "", free))
            if "wheel_roll" in acts:
                actions.append(StayAction("wheel_roll", _("Roll again (low dice)"), hero.hero, "", free))
            if "wheel_stop" in acts:
                actions.append(StayAction("wheel_stop", _("Stop and score"), hero.hero, "", free))
            if "end_visit" in acts:
                actions.append(StayAction("end_visit", _("{who}: leave the {place}").format(
                    who=hero.name, place=hero.location), hero.hero, "", free))
        elif hero.location:
            status = _("Visited the {place} today").format(place=hero.location)
        elif places:
            status = _("Where does {who} go today?").format(who=hero.name)
        elif stage is StayStage.DAY:
            status = _("No visit today")
        else:
            status = ""
        if "use_token" in acts:
            actions[:0] = [StayAction("use_token", _("Use {token}").format(token=t), hero.hero, t, free)
                           for t in hero.tokens]
        closed = tuple(f"{place}: {_COMMAND.sub('', plain(why))}" for place, why in hero.closed) if places else ()
        mine = not self.table.claimed or hero.hero in self.table.claimed
        return HeroStay(hero.hero, hero.name, _badges(hero), status, places, closed, tuple(actions),
                        trouble_line(hero.unwanted_attention), mine)

    def _bounty_methods(self, hero: str) -> tuple[str, ...]:
        legal = next((c for c in self.table.read.legal if c.type == "set_bounty" and c.hero == hero), None)
        return legal.options if legal is not None and legal.options else ("threat_card", "chart")

    def post_bounty(self, hero: str, method: str, enemy: str, number: str, all_heroes: bool = False) -> bool:
        """A Bounty as the card or chart shows it (FT-BOUNTY-01/02): from a Low Threat card the Enemy's printed
        Health ($10 x Health; variable XP pays every hero), from the Outpost's chart or the Sheriff's card the Gold."""
        try:
            value = int(number.strip())
        except ValueError:
            value = 0
        if not enemy.strip() or value < 1:
            from .table import Notice

            self.table.notice = Notice(_("Give the Enemy and the number the card shows."))
            self.table.changed()
            return False
        target = (BountyTarget(enemy.strip(), health=value, all_heroes=all_heroes) if method == "threat_card"
                  else BountyTarget(enemy.strip(), gold=value))
        self.table.submit(SetBounty(hero, method, (target,)), label=_("Bounty on {enemy}").format(enemy=enemy.strip()))
        return True

    def buy_typed(self, hero: str, ware: str, price: str, kind: str) -> bool:
        """A purchase the content pack does not list: its name, the price on the card, and whether it is a Side Bag
        token, an item or a service (FT-BAG, the shops); False (with a notice) when a field is missing."""
        name = ware.strip()
        try:
            gold = int(price.strip())
        except ValueError:
            gold = -1
        if not name or gold < 0 or kind not in WARE_KINDS:
            from .table import Notice

            self.table.notice = Notice(_("Give what was bought, its price in Gold and what kind of thing it is."))
            self.table.changed()
            return False
        self.table.submit(Buy(hero, name, price=gold, kind=kind), label=_("Buy {ware}").format(ware=name))
        return True

    # ---- buttons ------------------------------------------------------------------------------------------------
    def act(self) -> bool:
        """The big button."""
        main = self.view().main
        return main is not None and self.do(main)

    def do(self, action: StayAction) -> bool:
        """Send the command a button stands for; False when it is not one this screen sends ("answer" opens the
        prompt screen, which the screen does)."""
        command = self.command(action)
        if command is None:
            return False
        self.table.submit(command, label=action.label)
        return True

    def end_day_with(self, face: int) -> bool:
        """End the Day with the Town Darkness die the table rolled (FT-TRAVEL-D54): one command, the open visits
        ending first (FT-UA-02)."""
        if not 1 <= face <= 6:
            raise ValueError(f"face: a D6 shows 1-6, not {face}")
        main = self.view().main
        if main is None or main.key != "end_day" or not main.enabled:
            return False
        self.table.submit(EndDay(dice=((face,),)), label=_("{end}: Town Darkness die {n}").format(end=main.label,
                                                                                                  n=face))
        return True

    def command(self, action: StayAction) -> Command | None:
        h, arg = action.hero, action.arg
        if action.key == "wheel_roll":
            wheel = self.table.read.stay.wheel if self.table.read.stay else None
            low = tuple(i for i, d in enumerate(wheel.dice) if d.points < KEEP_POINTS) if wheel else ()
            return WheelRoll(h, low or (0,))
        simple: dict[str, Command | None] = {
            "start_day": StartDay(), "end_day": EndDay(), "leave_town": EndTownStay(),
        }
        if action.key in simple:
            return simple[action.key]
        if action.key == "visit":
            return VisitLocation(h, arg)
        if action.key == "end_visit":
            return EndVisit(h)
        if action.key == "buy":
            return Buy(h, arg)
        if action.key == "sell":
            return Sell(h, arg)
        if action.key == "pay_off":
            return PayOffWarrants(h)
        if action.key == "wheel":
            return PlayDevilsWheel(h)
        if action.key == "wheel_stop":
            return WheelStop(h)
        if action.key == "use_token":
            return UseToken(h, arg)
        return None
