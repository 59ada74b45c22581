"""Searching and Room Exploration (FF-SRCH-01, FF-SCAV-01..03, FF-EXPL-01..06, FF-CARD-01, A7).

A Search ends the hero's move and activation: Scavenge the Map Tile, or Look Through a Door to place the next tile.
Rooms get a face-down Exploration Token, revealed in the Room Exploration step while a hero stands on the tile.
"""

from __future__ import annotations

from ...commands import RevealToken, Search
from ...content import pack
from ...content.adventure import EXPLORATION_TOKENS
from ...dice import DieKind
from ...errors import IllegalCommand, InvalidCommand
from ...flow import Ctx, Procedure, Steps, apply_effect
from ...frozen import evolve, replace
from ...prompts import Asks, Option, Part, Says
from ...state import ExplorationToken, MapTile, Place, Session, TileKind, TurnStep
from .common import adventure, member, need_adventure, need_hero, own_roll, put, put_member
from .depth import growing_dread, move_party
from .fight import draw_threat
from .missions import TOWN, mission_of
from .turn import advance, finish_activation, to_reveal

SEARCHES = ("scavenge", "door")
PLACED = ("", "room", "passage", "none")


def hero_tile(state: Session, hero: str) -> Place:
    adv = state.adventure
    assert adv is not None
    place = adv.hero(hero).place
    return place if place is not None else Place("entrance")


def searches(state: Session, hero: str) -> tuple[str, ...]:
    """The Searches the hero may make now (for legal_commands): none in a Fight or on an unrevealed token."""
    adv = state.adventure
    assert adv is not None
    if adv.in_fight:
        return ()
    place = hero_tile(state, hero)
    tiles = {t.id: t for t in adv.tiles}
    if any(tiles[t].face_down for t in (place.tile, place.also) if t in tiles):
        return ()
    mission = mission_of(state)
    out = []
    limit = mission.scavenge_limit(state)
    here = tiles.get(place.tile)
    if limit != 0 and here is not None and (limit is None or here.scavenged < limit):
        out.append("scavenge")
    if mission.board != TOWN:
        out.append("door")
    return tuple(out)


def check_search(state: Session, command: Search) -> None:
    adv = need_adventure(state)
    need_hero(state, command.hero)
    act = adv.activation
    if act is None or act.figure != command.hero:
        raise IllegalCommand(f"hero: a Search ends {state.hero(command.hero).name}'s own move (FF-SRCH-01)",
                             field="hero", rule="FF-SRCH-01")  # fmt: skip
    if command.kind not in SEARCHES:
        raise InvalidCommand(f"kind: one of {list(SEARCHES)} (FF-SRCH-01)", field="kind", rule="FF-SRCH-01")
    if adv.in_fight:
        raise IllegalCommand("type: no Search during a Fight: enemies are on the board (FF-TURN-05, FF-SRCH-01)",
                             field="type", rule="FF-SRCH-01")  # fmt: skip
    place = hero_tile(state, command.hero)
    for tile_id in (place.tile, place.also):
        if tile_id and tile_id in {t.id for t in adv.tiles} and adv.tile(tile_id).face_down:
            raise IllegalCommand(f"hero: {tile_id} has an unrevealed Exploration Token: no Search there "
                                 "(FF-SRCH-01)", field="hero", rule="FF-SRCH-01")  # fmt: skip
    mission = mission_of(state)
    if command.kind == "scavenge":
        limit = mission.scavenge_limit(state)
        if limit == 0:
            raise IllegalCommand("kind: no Scavenging on the Town Adventure Board unless the Mission allows it "
                                 "(FT-SCAV-01)", field="kind", rule="FT-SCAV-01")  # fmt: skip
        tile = _scavenge_tile(state, command.hero)
        if limit is not None and tile.scavenged >= limit:
            raise IllegalCommand(f"kind: {tile.id} is fully Scavenged ({tile.scavenged} of {limit} for this posse, "
                                 "FF-SCAV-02)", field="kind", rule="FF-SCAV-02")  # fmt: skip
        if command.placed or command.name:
            raise InvalidCommand("placed: only Looking Through a Door places a Map Tile", field="placed")
        return
    if mission.board == TOWN:
        raise IllegalCommand("kind: the Town Adventure Board is a fixed map: no Exploration (FT-EXPL-01)", field="kind",
                             rule="FT-EXPL-01")  # fmt: skip
    if command.placed not in PLACED:
        raise InvalidCommand(f"placed: one of {list(PLACED[1:])}, or empty to draw the pack's Map card",
                             field="placed", rule="FF-EXPL-01")  # fmt: skip
    cards = pack(state.pack).adventure.map_cards
    if command.name and not cards and not command.placed:
        raise InvalidCommand("placed: the pack has no Map cards; say what the card showed (room, passage, none)",
                             field="placed", rule="FF-EXPL-01")  # fmt: skip
    if command.name and cards and command.name not in adv.map_deck + adv.map_discard:
        raise IllegalCommand(f"name: the Map card {command.name!r} is not in the deck (placed, or not in the pack)",
                             field="name", rule="FF-CARD-01")  # fmt: skip


def _scavenge_tile(state: Session, hero: str) -> MapTile:
    adv = state.adventure
    assert adv is not None
    place = hero_tile(state, hero)
    try:
        return adv.tile(place.tile)
    except KeyError:
        raise InvalidCommand(f"hero: {state.hero(hero).name} stands on {place.tile!r}, not a Map Tile",
                             field="hero") from None  # fmt: skip


def search(ctx: Ctx, command: Search) -> Procedure:
    """Scavenge or Look Through a Door at the end of the move; the activation ends with it (FF-TURN-05)."""
    if command.kind == "scavenge":
        yield from scavenge(ctx, command.hero)
    else:
        yield from look_through_a_door(ctx, command)
    if ctx.state.adventure is not None:
        finish_activation(ctx, why="Searched")
    yield from advance(ctx)


# ---- Scavenging --------------------------------------------------------------------------------------------------
def scavenge(ctx: Ctx, hero: str) -> Steps[None]:
    """Roll 3 dice; any 6 Scavenges the tile (a marker: A7 counts these) and draws a Scavenge card per 6, the deck
    shuffled before every draw (FF-SCAV-01..03). Grit may re-roll any die that is not a 6 and was not re-rolled yet,
    6s or not among the others: each 6 is a card, and the limit is per die (FF-GRIT-02)."""
    tile = _scavenge_tile(ctx.state, hero)
    roll = yield from own_roll(ctx, hero, 3, f"Scavenge {tile.id}: a 6 finds something", target=6, rule="FF-SCAV-01",
                               asks=Asks.SCAVENGE, said=(("name", tile.name or tile.id), ("target", 6)))  # fmt: skip
    sixes = roll.count(6)
    if not sixes:
        ctx.emit("scavenged", f"{ctx.name(hero)} finds nothing on {tile.id}", hero=hero, rule="FF-SCAV-01", count=0)
        return
    adv = adventure(ctx)
    tile = evolve(adv.tile(tile.id), {"scavenged": adv.tile(tile.id).scavenged + 1})
    put(ctx, evolve(adv, {"tiles": tuple(tile if t.id == tile.id else t for t in adv.tiles)}))
    ctx.emit("scavenged", f"{ctx.name(hero)} Scavenges {tile.id} (marker {tile.scavenged}): {sixes} Scavenge "
             f"card(s)", hero=hero, rule="FF-SCAV-01", count=sixes)  # fmt: skip
    deck = pack(ctx.state.pack).adventure.scavenge
    if not deck:
        for _ in range(sixes):
            yield from ctx.card(hero, "scavenge", "Draw a Scavenge card and enter what it says", rule="FF-SCAV-01")
        return
    left = list(range(len(deck)))  # FF-SCAV-03: no discard pile, the whole deck shuffled for each draw
    for _ in range(min(sixes, len(deck))):
        key = yield from ctx.draw("a Scavenge card", [(str(i), deck[i].text) for i in left], rule="FF-SCAV-03",
                                  asks=Asks.DECK_CARD, said=(("chart", "scavenge"),))  # fmt: skip
        card = deck[int(key)]
        left.remove(int(key))
        ctx.emit("card", f"{ctx.name(hero)}: {card.text}", hero=hero, rule="FF-SCAV-01", chart="scavenge",
                 card_text=card.text)  # fmt: skip
        for effect in card.effects:
            apply_effect(ctx, hero, effect, rule="FF-SCAV-01")


# ---- Looking Through a Door --------------------------------------------------------------------------------------
def look_through_a_door(ctx: Ctx, command: Search) -> Steps[None]:
    """Draw a Map card and place its tile at the Door (FF-EXPL-01): one that does not fit is discarded and another
    drawn (FF-CARD-01: the discards are shuffled back when the deck runs out); if none fits, this is no Door.
    A tile placed moves the Hero Party marker (FF-DEPTH-03) and gives the hero 5 XP; a Room gets a token."""
    hero = command.hero
    kind, name = yield from _map_card(ctx, command)
    if kind is None:
        ctx.emit("tile_placed", "No Map Tile fits: this exit is not a Door", hero=hero, rule="FF-EXPL-01",
                 reason="no_door")  # fmt: skip
        return
    adv = adventure(ctx)
    tile_id = f"tile-{len(adv.tiles)}"
    room = kind == "room"
    placed_tokens = sum(1 for t in adv.tiles if t.face_down or t.token is not None)
    face_down = room and placed_tokens < EXPLORATION_TOKENS  # FF-EXPL-02: Rooms only, while tokens remain
    tile = MapTile(tile_id, TileKind(kind), name, face_down=face_down)
    put(ctx, evolve(adv, {"tiles": (*adv.tiles, tile)}))
    here = hero_tile(ctx.state, hero)
    put_member(ctx, evolve(member(ctx, hero), {"place": Place(tile_id, also=here.tile)}))  # FF-MOVE-04: on both
    ctx.emit("tile_placed", f"{ctx.name(hero)} looks through the Door: {name or kind} ({tile_id})"
             + (", a face-down Exploration Token on it" if face_down else ""), hero=hero, rule="FF-EXPL-01",
             reason="placed", name=name or kind, passed=face_down)  # fmt: skip
    move_party(ctx, 1, rule="FF-DEPTH-03", why="a new Map Tile")
    ctx.change(hero, "xp", 5, rule="FF-EXPL-01", why="exploring")


def _map_card(ctx: Ctx, command: Search) -> Steps[tuple[str | None, str]]:
    if command.placed:
        if command.placed == "none":
            return None, ""
        if command.name:
            _take_card(ctx, command.name)
        return command.placed, command.name
    cards = {c.name: c for c in pack(ctx.state.pack).adventure.map_cards}
    if command.name:
        _take_card(ctx, command.name)
        return cards[command.name].kind, command.name
    if not cards:
        choice = yield from ctx.choose(
            "What did the Map card show?",
            [Option("room", "A Room", part=Part.JOIN, says=Says.ROOM),
             Option("passage", "A Passage", part=Part.JOIN, says=Says.PASSAGE),
             Option("none", "No tile fits: this exit is not a Door", part=Part.DECLINE, says=Says.NO_TILE)],
            hero=command.hero, rule="FF-EXPL-01", asks=Asks.MAP_CARD,
        )  # fmt: skip
        return (None, "") if choice == "none" else (choice, "")
    tried: set[str] = set()
    while True:
        adv = adventure(ctx)
        if not [c for c in adv.map_deck if c not in tried] and adv.map_discard:  # FF-CARD-01: reshuffle
            put(ctx, replace(adv, map_deck=(*adv.map_deck, *adv.map_discard), map_discard=()))
            ctx.emit("card", "The Map deck ran out: its discard pile is shuffled into a new deck", rule="FF-CARD-01",
                     reason="map_reshuffled")  # fmt: skip
            adv = adventure(ctx)
        candidates = [c for c in adv.map_deck if c not in tried]
        if not candidates:
            return None, ""
        drawn = yield from ctx.draw("a Map card", [(c, c) for c in candidates], rule="FF-EXPL-01", asks=Asks.DECK_CARD,
                                    said=(("chart", "map"),))  # fmt: skip
        fits = yield from ctx.choose(
            f"Does the {drawn} tile fit at this Door without overlapping?",
            [Option("fits", "It fits", part=Part.JOIN, says=Says.FITS),
             Option("overlaps", "It overlaps: discard it", part=Part.DECLINE, says=Says.OVERLAPS)],
            hero=command.hero, rule="FF-EXPL-01", asks=Asks.TILE_FITS, said=(("name", drawn),),
        )  # fmt: skip
        if fits == "fits":
            _take_card(ctx, drawn)
            return cards[drawn].kind, drawn
        tried.add(drawn)
        adv = adventure(ctx)
        put(ctx, replace(adv, map_deck=tuple(c for c in adv.map_deck if c != drawn),
                         map_discard=(*adv.map_discard, drawn)))  # fmt: skip
        ctx.emit("card", f"The {drawn} tile does not fit: discarded", rule="FF-EXPL-01", reason="tile_discarded",
                 name=drawn)  # fmt: skip



def _take_card(ctx: Ctx, name: str) -> None:
    adv = adventure(ctx)
    put(ctx, replace(adv, map_deck=tuple(c for c in adv.map_deck if c != name),
                     map_discard=tuple(c for c in adv.map_discard if c != name)))  # fmt: skip


# ---- Room Exploration --------------------------------------------------------------------------------------------
def check_reveal(state: Session, command: RevealToken) -> None:
    adv = need_adventure(state)
    if adv.step is not TurnStep.EXPLORATION:
        raise IllegalCommand(f"type: Exploration Tokens are revealed in the Room Exploration step, after every "
                             f"activation; the turn is at {adv.step.value!r} (FF-TURN-01)", field="type",
                             rule="FF-TURN-01")  # fmt: skip
    waiting = to_reveal(state)
    if command.tile not in waiting:
        raise IllegalCommand(f"tile: {command.tile!r} has no face-down token with a hero on it; to reveal: "
                             f"{list(waiting)} (FF-EXPL-02)", field="tile", rule="FF-EXPL-02")  # fmt: skip
    stack = pack(state.pack).adventure.exploration_tokens
    token = command.token
    if token is None:
        if not stack:
            raise InvalidCommand("token: the content pack has no Exploration Tokens; type what the token shows",
                                 field="token", rule="FF-EXPL-02")  # fmt: skip
        return
    for name, value, high in (("doors", token.doors, 4), ("gates", token.gates, 4)):
        if not 0 <= value <= high:
            raise InvalidCommand(f"token.{name}: 0..{high}", field=f"token.{name}", rule="FF-EXPL-03")
    if stack and token not in adv.tokens:
        raise IllegalCommand("token: no such Exploration Token is left in the stack (FF-EXPL-02)", field="token",
                             rule="FF-EXPL-02")  # fmt: skip


def describe(token: ExplorationToken) -> str:
    parts = [f"{token.doors} Door(s)" + (f" and {token.gates} Gate(s)" if token.gates else "")]
    parts.append("Attack!" if token.attack else "an Encounter")
    if token.clue:
        parts.append("a Clue")
    if token.growing_dread:
        parts.append("Growing Dread")
    return ", ".join(parts)


def reveal_token(ctx: Ctx, command: RevealToken) -> Procedure:
    """Reveal a Room's token (FF-EXPL-02): Growing Dread (FF-EXPL-05), a Clue for the mission (FF-EXPL-06: the
    Objective ignores Doors and Encounter/Attack), the Doors rolled on the Map card (FF-EXPL-03; Gates are Doors in
    the Basic Game), then an Encounter or Attack! (FF-EXPL-04)."""
    adv = adventure(ctx)
    token = command.token
    if token is None:
        stack = adv.tokens
        key = yield from ctx.draw("an Exploration Token", [(str(i), describe(t)) for i, t in enumerate(stack)],
                                  rule="FF-EXPL-02", asks=Asks.DECK_CARD, said=(("chart", "exploration"),))  # fmt: skip
        token = stack[int(key)]
    adv = adventure(ctx)
    if token in adv.tokens:
        index = adv.tokens.index(token)
        adv = evolve(adv, {"tokens": adv.tokens[:index] + adv.tokens[index + 1 :]})
    tile = evolve(adv.tile(command.tile), {"face_down": False, "token": token})
    put(ctx, evolve(adv, {"tiles": tuple(tile if t.id == tile.id else t for t in adv.tiles)}))
    ctx.emit("token_revealed", f"{tile.id}'s Exploration Token: {describe(token)}", rule="FF-EXPL-02",
             reason="attack" if token.attack else "encounter", name=tile.name or tile.id, count=token.doors,
             number=token.gates, passed=token.clue)  # fmt: skip

    if token.growing_dread:
        growing_dread(ctx, 1, rule="FF-EXPL-05", why="the Growing Dread Exploration Token")
    objective = False
    if token.clue:
        objective = yield from mission_of(ctx.state).token_revealed(ctx, tile, token)
    if not objective:
        exits = token.doors + token.gates
        if exits:
            yield from ctx.roll(DieKind.POOL, f"which {exits} exit(s) of {tile.id} are Doors (read the Map card; "
                                "roll again for one already open)", pool=exits, chart=True, rule="FF-EXPL-03",
                                asks=Asks.DOORS, said=(("count", exits), ("name", tile.name or tile.id)))  # fmt: skip
        if token.attack:
            yield from draw_threat(ctx, adventure(ctx).threat, rule="FF-EXPL-04")
        else:
            ctx.emit("encounter", f"An Encounter on {tile.id}: draw an Encounter card and resolve it", rule="FF-EXPL-04",
                     reason="card")  # fmt: skip
    yield from advance(ctx)
