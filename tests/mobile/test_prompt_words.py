"""The rules' questions and options reach a player in the player's language (issues 18 and 19): a prompt carries
what it asks as a key and facts (`Prompt.asks`, `Option.says`), the app words them, and a Spanish phone shows none
of the engine's English words on the prompt screen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from mobile import i18n
from mobile.presenters.asking import known_asks, known_says, option_text, question_text
from mobile.presenters.dice import PromptPresenter, PromptView
from mobile.presenters.roll_words import known_rolls
from shared_rules import RuleOptions, apply, new_session
from shared_rules.commands import Arrive, Choose, ChooseTownSize, RollDice, RollHazard
from shared_rules.events import FACTS
from shared_rules.prompts import ASKS, ROLLS_FOR, SAYS, Asks, Prompt, RollFor, Says
from shared_rules.state import Session
from tests.mobile.helpers import hero, table_waiting_on


@pytest.fixture
def spanish() -> Iterator[None]:
    i18n.set_language("es")
    try:
        yield
    finally:
        i18n.set_language("en")


def test_every_key_the_engine_can_produce_is_worded_by_the_app() -> None:
    """The keys are an enum the rules must use (`ctx.choose(..., asks=Asks.X)`): a rule that adds one without
    words in the app fails here, not on a Spanish phone."""
    assert set(ASKS) == {a.value for a in Asks} and set(SAYS) == {s.value for s in Says}
    assert set(ASKS) <= known_asks(), sorted(set(ASKS) - known_asks())
    assert set(SAYS) <= known_says(), sorted(set(SAYS) - known_says())
    assert not known_asks() - set(ASKS) and not known_says() - set(SAYS)  # no words for keys that are gone
    assert set(ROLLS_FOR) == {r.value for r in RollFor} == known_rolls()  # what a `roll_for` roll is for


def test_a_key_the_app_does_not_know_falls_back_to_the_engines_english() -> None:
    from shared_rules.prompts import Option

    prompt = Prompt("p1", "choice", "Pick a door (FT-X-01)", "choose", options=(Option("a", "Door A", says="new_key"),),
                    asks="a_newer_servers_key")  # type: ignore[arg-type]
    assert question_text(prompt, str) == "Pick a door" and option_text(prompt, prompt.options[0]) == "Door A"


# ---- real prompts from the rules ------------------------------------------------------------------------------
HEROES = (hero("ann", "Ann", grit=1, agility=2), hero("bo", "Bo"))
OPTIONS = RuleOptions(dice="table", offer_grit_rerolls=True)


def _go(state: Session, *commands: Any) -> Session:
    for command in commands:
        state = apply(state, command).state
    return state


def _road_prompts() -> dict[str, Prompt]:
    """The prompts of a real road to a Small Town with physical dice: the D6 for more hazards, a hazard's D36,
    Bleached Bones' Agility test and its Grit re-roll offer, Raging River's turn back or ford; then the Town's type
    and a Building token drawn (the options are the Locations)."""
    seen: dict[str, Prompt] = {}

    def note(state: Session) -> Session:
        if state.pending is not None:
            seen.setdefault(state.pending.prompt.asks, state.pending.prompt)
        return state

    start = new_session(HEROES, options=OPTIONS, seed=1)
    state = note(_go(start, ChooseTownSize("small")))
    state = note(_go(state, RollDice((1,))))  # Ann adds a hazard
    state = _go(state, RollDice((6,)))  # Bo does not
    state = note(_go(state, RollHazard()))  # the D36
    state = note(_go(state, RollDice((1, 2))))  # 12 Bleached Bones: Ann's Agility 5+
    note(_go(state, RollDice((1, 1))))  # failed: the Grit re-roll offer
    river = note(_go(start, ChooseTownSize("small"), RollDice((1,)), RollDice((6,)), RollHazard(dice=((4, 2),))))
    assert river.pending is not None and river.pending.prompt.asks == "river"
    town = note(_go(start, ChooseTownSize("small"), RollDice((6,)), RollDice((6,)), Arrive()))  # the 2D6
    note(_go(town, RollDice((3, 4))))  # a Building token to draw
    return seen


def _bank_prompts() -> dict[str, Prompt]:
    """A Town Mission's choices: a hero on a Money Bag picks it up (FT-M3-07), then says the number it shows."""
    from shared_rules.commands import Activate, Attack, HeroHit, HoldBackTheDarkness, Move
    from shared_rules.state import Place
    from tests.rules.adventure.helpers import with_adventure
    from tests.rules.missions.helpers import run
    from tests.rules.missions.test_bank import bank, robbers_out

    t = bank()
    robbers_out(t)
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    run(t, Activate("a", dice=((2,),)))
    run(t, Attack("a", hits=(HeroHit("bandit-1", 3), HeroHit("bandit-3", 3))))
    with_adventure(t, activation=None, activated=())
    run(t, Activate("a", dice=((2,),)))
    t.do(Move("a", 2, to=Place("street", 12, 10)))
    assert t.prompt is not None
    bags = t.prompt
    t.do(Choose("pick"))
    assert t.prompt is not None
    return {bags.asks: bags, t.prompt.asks: t.prompt, "_heroes": t.state}  # type: ignore[dict-item]


ENGLISH = re.compile(r"[A-Za-z][A-Za-z'!]{2,}")


def _english_words(text: str, names: set[str]) -> set[str]:
    """The engine's own English words in `text`: not the names of heroes, hazards, Locations, Items (the content's
    words, which stay as they are printed on the cards) nor dice (D36, 2D6)."""
    said = " ".join(names)
    return {w for w in ENGLISH.findall(text) if w not in said and not re.fullmatch(r"D\d+|KO'd", w)}


def _shown(prompt: Prompt, heroes: tuple[Any, ...]) -> PromptView:
    table, _ = table_waiting_on(prompt, heroes)
    return PromptPresenter(table).view()


def _check(prompt: Prompt, heroes: tuple[Any, ...]) -> PromptView:
    """What a Spanish phone shows for `prompt` holds none of the engine's English words of its question or of an
    option that means something (an option that is a name keeps its name)."""
    from shared_rules.content import TRAVEL_HAZARDS

    names = {h.name for h in heroes} | {str(f.value) for f in prompt.facts if isinstance(f.value, str)}
    names |= {entry.name for entry in TRAVEL_HAZARDS.values()}  # the hazards' printed names
    names |= {o.label for o in prompt.options if not o.says}
    names |= {str(f.value) for o in prompt.options for f in o.facts if isinstance(f.value, str)}
    view = _shown(prompt, heroes)
    leaked = _english_words(prompt.question, names) & set(ENGLISH.findall(view.question))
    assert not leaked, (prompt.asks, view.question, leaked)
    assert view.question != prompt.question
    labels = dict(view.options)
    for option in prompt.options:
        if option.says:
            leaked = _english_words(option.label, names) & set(ENGLISH.findall(labels[option.key]))
            assert not leaked, (option.says, labels[option.key], leaked)
        elif prompt.asks == "wheel_die":  # where a Devil's Wheel die lies: worded from the option's key
            assert labels[option.key] != option.label, labels
        else:
            assert labels[option.key] == option.label  # a name is shown as it is
    return view


def test_a_spanish_phone_asks_the_roads_and_the_towns_questions_in_spanish(spanish: None) -> None:
    seen = _road_prompts()
    assert {"hazard_count", "hazard_roll", "skill_test", "grit_reroll", "river", "town_type",
            "building_token"} <= set(seen), sorted(seen)  # fmt: skip
    views = {asks: _check(prompt, HEROES) for asks, prompt in seen.items()}
    assert views["hazard_roll"].question == "Ann: tira D36 para el Peligro de Viaje 1 de 1"
    assert views["skill_test"].question == "Ann: tira 2 D6 para la prueba de Agilidad 5+ de Bleached Bones"
    assert views["grit_reroll"].question.startswith("Ann: ¿gastar 1 de Temple para repetir dados de la prueba de "
                                                    "Agilidad 5+")  # fmt: skip
    assert dict(views["river"].options) == {"turn_back": "Volver: Pueblo pequeño, sin más peligros",
                                            "ford": "Vadear el río: Fuerza 5+ cada uno"}  # fmt: skip
    locations = views["building_token"]
    assert locations.question == "Roba la ficha de Edificio del hueco 1" and locations.draw
    assert all(key == label for key, label in locations.options)  # the Locations by their names


def test_a_spanish_phone_asks_a_town_missions_choices_in_spanish(spanish: None) -> None:
    seen = _bank_prompts()
    state = seen.pop("_heroes")
    heroes = tuple(state.heroes)  # type: ignore[attr-defined]
    assert set(seen) == {"money_bags", "money_bag_number"}
    bags = _check(seen["money_bags"], heroes)
    assert dict(bags.options) == {"pick": "Recogerlas", "leave": "Dejarlas"}
    number = _check(seen["money_bag_number"], heroes)
    assert ("3", "3: $60") in number.options


def test_the_english_words_come_from_the_data_too() -> None:
    """In English the app words the same prompts itself (no key falls back), close to the engine's own line."""
    for prompt in _road_prompts().values():
        assert prompt.asks in known_asks() and {f.name for f in prompt.facts} <= set(FACTS)
        assert all(o.says in known_says() and {f.name for f in o.facts} <= set(FACTS) for o in prompt.options if o.says)
    seen = _road_prompts()
    for asks in ("hazard_count", "hazard_roll", "skill_test", "grit_reroll", "town_type", "river"):
        assert _shown(seen[asks], HEROES).question == seen[asks].question, asks  # the same words as the engine's
    river = seen["river"]
    view = _shown(replace(river, question="(not read)"), HEROES)
    assert view.question.startswith("Raging River: turn back") and "(not read)" not in view.question


# ---- the Adventure's, the Town board's, the Bandits' and the Missions' rolls and draws ------------------------------
def _walk(t: Any, seen: dict[str, Prompt], *, face: int, steps: int = 40) -> None:
    """Answer the table's prompts until none is left (each roll with `face` on every die, each draw or choice with its
    first option, a Grit offer declined), noting the first prompt of each key and reason."""
    for _step in range(steps):
        prompt = t.prompt
        if prompt is None:
            return
        reason = next((str(f.value) for f in prompt.facts if f.name == "reason"), "")
        seen.setdefault(f"{prompt.asks}:{reason}" if reason else str(prompt.asks), prompt)
        if prompt.kind.value == "roll":
            t.roll(*([face] * prompt.dice_count))
        elif prompt.kind.value == "reroll":
            t.keep()
        else:
            t.choose(prompt.options[0].key)
    raise AssertionError("the rules kept asking")


Run = tuple[dict[str, Prompt], tuple[Any, ...], list[Any]]  # the prompts by key and reason, the heroes, the events


def _fight_prompts() -> Run:
    """An Adventure fight with the house combat and physical dice: the hero's To Hit and Damage, the Oni's Armor
    save; then the Oni's own To Hit on the hero and the hero's Defense saves."""
    from shared_rules.commands import Activate, ActivateEnemy, Attack, EnemyStrike
    from shared_rules.state import ClassSheet
    from tests.rules.adventure.helpers import enemy, of, place_enemies, start, to_activations, with_member

    seen: dict[str, Prompt] = {}
    t = start([of("a", defense=4)], combat="house")
    place_enemies(t, enemy("oni-1", health=30, armor=5, combat=2, to_hit=4, damage=2))
    to_activations(t)
    t.do(Activate("a", dice=((2,),)))
    with_member(t, "a", sheet=ClassSheet(initiative=9, combat=2, melee_to_hit=4, damage_bonus=1))
    t.do(Attack("a", target="oni-1"))
    _walk(t, seen, face=4)  # 2 Hits, a damage die each, the Oni's Armor 5+ fails on the 4s
    t.do(ActivateEnemy("oni-1", strikes=(EnemyStrike("a"),)))
    _walk(t, seen, face=4)
    return seen, tuple(t.state.heroes), list(t.events)


def _town_board_prompts() -> Run:
    """A Shootout in the Streets: the reinforcements and where each enters; the Bandits' activation (each one's
    target drawn, its Cover roll, its To Hit, the hero's Defense saves); an Enemy's Hits on a hero on a Rooftop
    (Cover Saves, Defense, the fall)."""
    from shared_rules.commands import ActivateBandits, ActivateEnemy, EnemyStrike, HoldBackTheDarkness, PlaceModel
    from shared_rules.state import Place
    from tests.rules.adventure.helpers import enemy, place_enemies
    from tests.rules.missions.helpers import run, town
    from tests.rules.missions.test_activation import bandits_up

    seen: dict[str, Prompt] = {}
    t = town("shootout_in_the_streets")
    t.do(HoldBackTheDarkness(dice=((6, 4),)))
    _walk(t, seen, face=1)  # one Bandit, entering on a 1
    events = list(t.events)
    t = bandits_up()
    t.do(ActivateBandits())
    _walk(t, seen, face=5)
    roof = town("shootout_in_the_streets", 1)
    run(roof, PlaceModel("a", Place("roof:3+4")))
    place_enemies(roof, enemy("oni-1", initiative=12, place=Place("street", 7, 12)))
    roof.do(HoldBackTheDarkness(dice=((6, 4), (1,), (2,))))
    roof.do(ActivateEnemy("oni-1", strikes=(EnemyStrike("a", hits=3, damage=3),)))
    _walk(roof, seen, face=2)  # no save: wounded on the Rooftop, a 2 is a fall
    return seen, tuple(t.state.heroes), [*events, *t.events, *roof.events]


def _mission_prompts() -> Run:
    """The Town Mission table (a 6: the duel for a Random Hero, then another Mission for the posse) and the Bank
    Robbery's set-up (each hero's starting Building, a 7 re-rolled)."""
    from shared_rules.commands import RollMission
    from tests.rules.missions.helpers import posse, town
    from tests.rules.table import Table

    seen: dict[str, Prompt] = {}
    t = Table.new(posse(2))
    t.do(RollMission())
    assert t.prompt is not None
    seen["mission_roll:mission_table"] = t.prompt
    t.roll(6)
    assert t.prompt is not None
    seen["random_hero"] = t.prompt
    t.choose("b")
    _walk(t, seen, face=2)
    bank = town("bank_robbery", answers=((7,),))  # the Bank: re-rolled
    _walk(bank, seen, face=2)
    return seen, tuple(bank.state.heroes), [*t.events, *bank.events]


def test_a_spanish_phone_words_an_adventure_fight_in_spanish(spanish: None) -> None:
    seen, heroes, _events = _fight_prompts()
    assert {"to_hit:melee", "damage", "save:armor", "to_hit", "save:defense"} <= set(seen), sorted(seen)
    views = {key: _check(prompt, heroes) for key, prompt in seen.items()}
    assert views["to_hit:melee"].question == "A: tira 2 D6 para Impactar 4+: un Ataque Cuerpo a Cuerpo contra Oni"
    assert views["damage"].question == "A: tira D6 para el Daño del Impacto 1 contra Oni"
    assert views["save:armor"].question == "Oni: tira D6 para las salvaciones de Armadura 5+"
    assert views["to_hit"].question == "Oni: tira 2 D6 para Impactar 4+: un ataque contra A"
    assert views["save:defense"].question == "A: tira 2 D6 para las salvaciones de Defensa 4+ contra Oni"


def test_a_spanish_phone_words_a_shootouts_rolls_and_draws_in_spanish(spanish: None) -> None:
    seen, heroes, _events = _town_board_prompts()
    assert {"mission_roll:reinforcements", "mission_roll:bandit_enters", "target_hero:fewest_markers",
            "bandit_roll:cover", "to_hit:ranged", "save:cover", "save:defense", "roof_fall:falls", "landing",
            "roof_fall:wounds"} <= set(seen), sorted(seen)  # fmt: skip
    views = {key: _check(prompt, heroes) for key, prompt in seen.items()}
    assert views["mission_roll:reinforcements"].question == ("Tiroteo en las calles: tira D3 para cuántos Bandidos "
                                                             "llegan")  # fmt: skip
    assert views["mission_roll:bandit_enters"].question.endswith("tira D6 para dónde entra el Bandido 1 de 1")
    assert views["bandit_roll:cover"].question.endswith(": tira D6 para ponerse a Cubierto (con 1-3 se cubre)")
    assert views["save:cover"].question == "A: tira 3 D6 para las salvaciones de Cobertura 4+"
    assert "Impactar" in views["to_hit:ranged"].question and views["target_hero:fewest_markers"].draw


def test_a_spanish_phone_words_a_town_missions_rolls_in_spanish(spanish: None) -> None:
    seen, heroes, _events = _mission_prompts()
    assert {"mission_roll:mission_table", "random_hero", "mission_roll:posse_mission",
            "building_roll:start_reroll"} <= set(seen), sorted(seen)  # fmt: skip
    views = {key: _check(prompt, heroes) for key, prompt in seen.items()}
    assert views["mission_roll:mission_table"].question == "Tira D6 en la tabla de Misiones del Pueblo"
    assert views["building_roll:start_reroll"].question == ("Tira D8 para el Edificio inicial de A (un Edificio al "
                                                              "azar; repite un 7)")  # fmt: skip


def test_the_adventure_and_the_missions_rolls_and_draws_are_keyed_data() -> None:
    """No roll or draw of these prompts falls back to the generic keys (the English `purpose`); each key's facts
    are named in the contract and the app words every key, in English too."""
    for seen, heroes, _events in (_fight_prompts(), _town_board_prompts(), _mission_prompts()):
        for key, prompt in seen.items():
            assert prompt.asks not in ("roll", "draw") and prompt.asks in known_asks(), key
            assert {f.name for f in prompt.facts} <= set(FACTS), key
            question = _shown(replace(prompt, question="(not read)"), heroes).question  # worded from the data
            assert "(not read)" not in question and "{" not in question and question.strip(), (key, question)


# ---- the rolls of the road and the Town Stay: what each roll is for, never the engine's English purpose ----------
ROAD_HEROES = (hero("ann", "Ann", dark_stone=1, corruption=1, strength=1, spirit=1),)


def _roll_prompts(monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[Prompt, tuple[Any, ...]]], list[Any]]:
    """Real roll and draw prompts with physical dice, each with the heroes it was asked of, and the events of the
    runs: hazards' rolls (Bandits!, Burning Farmstead's Wounds, Dark Dreams' Sanity Damage, HellBats' D6 per Dark
    Stone, the Indian Curse's Willpower saves, the stranger on the road and the Missionary's Corruption), and the
    Town Stay's (a Location Event Chart, Unwanted Attention's trouble check and the shot in the back, Tequila, the
    Devil's Wheel and where its dice lie, the Camp Site Hazard chart, the Town Darkness check)."""
    from shared_rules.commands import EndDay, EnterCard, PlayDevilsWheel, StartDay, UseToken, VisitLocation
    from tests.rules.stay.packs import frontier
    from tests.rules.stay.town import TownTable, two_d6
    from tests.rules.table import Table

    seen: list[tuple[Prompt, tuple[Any, ...]]] = []
    events: list[Any] = []

    def note(table: Table) -> None:
        if table.prompt is not None and table.prompt.asks in ("roll_for", "wheel_die"):
            seen.append((table.prompt, tuple(table.state.heroes)))

    def run(table: Table, *steps: Any) -> Table:
        """Each step a command (`do`) or the faces of a roll (a tuple) or an option (a str); note every prompt."""
        for step in steps:
            table.do(step) if not isinstance(step, (tuple, str)) else \
                table.roll(*step) if isinstance(step, tuple) else table.choose(step)  # fmt: skip
            note(table)
        events.extend(table.events)
        return table

    road = Table.travelling(list(ROAD_HEROES), hazards=6)
    run(road, RollHazard(dice=((5, 2),)), (6,),  # 52 Bandits!: a D6 of Bandits defeated, all 5 of them
        RollHazard(dice=((3, 4),)), "enter", (1,), (2,),  # 34 Burning Farmstead: Strength 5+ failed, D6 Wounds
        RollHazard(dice=((1, 3),)), (1,), (3,),  # 13 Dark Dreams: Spirit 6+ failed, D6 Sanity Damage
        RollHazard(dice=((3, 3),)), (6,),  # 33 Harried by HellBats: a D6 per Dark Stone carried
        RollHazard(dice=((6, 1),)), (6, 6, 6, 6, 6, 6),  # 61 Indian Curse: Willpower saves, one per Hit
        RollHazard(dice=((6, 6),)), (4,), (1,))  # 66 Traveler on the Road: the Missionary removes D3 Corruption
    town = TownTable.in_town([hero("ann", "Ann", gold=100, unwanted_attention=2, side_bag=("Tequila",)),
                              hero("bo", "Bo", gold=100)], pack=frontier(monkeypatch), day=True)  # fmt: skip
    run(town, VisitLocation("ann", "Saloon"), (3, 4),  # a 7 with Unwanted Attention: the trouble check
        (1,), (1, 1), (1,),  # attacked; Luck 5+ failed: shot in the back
        UseToken("ann", "Tequila"), (2, 3),
        VisitLocation("bo", "Gambling Hall", dice=(two_d6(5),)), PlayDevilsWheel("bo"), (1, 2, 3))
    camp = TownTable.in_town([hero("ann", "Ann", gold=0)], pack=frontier(monkeypatch), town_events="darkness")
    run(camp, StartDay(), "just_another_day", (3, 4),  # Ann cannot pay the Hotel: the Camp Site Hazard chart
        EnterCard("A quiet night"), EndDay())  # its card read at the table; the Town Darkness check
    return seen, events


def test_a_spanish_phone_says_what_the_roads_and_the_towns_rolls_are_for(spanish: None,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Every roll of the road and the Town Stay reads in Spanish: the question says what the dice are for from the
    prompt's key and facts, and none of the engine's English purpose shows."""
    seen, _events = _roll_prompts(monkeypatch)
    reasons = {dict((f.name, f.value) for f in p.facts).get("reason", p.asks) for p, _h in seen}
    assert {"bandits_defeated", "wounds", "sanity_damage", "per_dark_stone", "willpower_saves", "stranger",
            "corruption_removed", "location_event", "trouble", "shot_in_the_back", "heal_sanity", "devils_wheel",
            "wheel_die", "camp_site_hazard", "town_darkness"} <= reasons, sorted(map(str, reasons))  # fmt: skip
    for prompt, heroes in seen:
        view = _check(prompt, heroes)
        names = {h.name for h in heroes} | {str(f.value) for f in prompt.facts if isinstance(f.value, str)}
        leaked = _english_words(prompt.purpose, names) & set(ENGLISH.findall(view.question))
        assert not leaked, (prompt.purpose, view.question, leaked)
    worded = {str(dict((f.name, f.value) for f in p.facts).get("reason", p.asks)): _shown(p, h).question
              for p, h in seen}  # fmt: skip
    assert worded["wounds"] == "Ann: tira D6 para Burning Farmstead: Heridas"
    assert worded["location_event"] == "Ann: tira 2D6 para la tabla de Eventos de Lugar de Saloon"
    assert worded["trouble"] == "Ann: tira D6 para Atención no deseada: ¿te atacan con 2 o menos?"
    assert worded["devils_wheel"] == "Bo: tira 3 D6 para la Rueda del Diablo, tirada 1 de 3"
    assert worded["camp_site_hazard"] == "Ann: tira 2D6 para la tabla de Peligros del Campamento"
    lies = next(_shown(p, h) for p, h in seen if p.asks == "wheel_die")
    assert lies.question == "¿Dónde ha quedado el dado 1 (un 1)?" and ("off", "fuera de las cartas") in lies.options


def test_a_spanish_log_says_what_each_roll_was_for(spanish: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A keyed roll's `rolled` event carries its key and facts (`asks` ...), so the log words what it was for: no
    English purpose in the Spanish line; a roll without a key keeps its purpose."""
    from mobile.presenters.words import event_text

    _seen, events = _roll_prompts(monkeypatch)
    rolled = [e for e in events if e.type == "rolled"]
    keyed = [e for e in rolled if any(f.name == "asks" for f in e.facts)]
    assert len(keyed) == len(rolled) > 15  # every roll of these runs is keyed
    names = {"ann": "Ann", "bo": "Bo", "a": "A"}
    for event in keyed:
        facts = {f.name: f.value for f in event.facts}
        assert facts["asks"] != "roll" and set(facts) <= set(FACTS)
        text = event_text(event, names)
        said = set(names.values()) | {str(v) for v in facts.values() if isinstance(v, str)}
        leaked = _english_words(event.roll.purpose, said) & set(ENGLISH.findall(text))
        assert not leaked and (" sacó " in text or text.startswith("Tirada")), (event.roll.purpose, text, leaked)
    farm = next(e for e in keyed if e.roll.purpose == "Burning Farmstead: Wounds")
    assert event_text(farm, names) == "Ann sacó 2 para Burning Farmstead: Heridas"
    i18n.set_language("en")
    assert event_text(farm, names) == "Ann rolled 2 for Burning Farmstead: Wounds" == farm.text


def test_the_log_says_which_mutation_keyword_or_skill_a_card_changed() -> None:
    """A card that gives or takes a Mutation or keyword, or sets a skill, is logged with the one name or level that
    moved (as an item's name is), within the API's own types, so the log reads back and the app words it."""
    from mobile.presenters.words import event_text
    from shared_rules.codec import decode_event, encode_event
    from shared_rules.commands import Adjust, Effect

    state = new_session([replace(hero("ann", "Ann"), mutations=("Claw",)), hero("bo", "Bo")])
    card = (Effect("add_mutation", name="Tentacle"), Effect("remove_mutation", name="Claw"),
            Effect("add_keyword", name="Holy"), Effect("set", "luck", 4))
    events = [e for e in apply(state, Adjust("ann", card, reason="a card")).events if e.type == "changed"]
    assert [decode_event(encode_event(e)) for e in events] == events
    names = {"ann": "Ann", "bo": "Bo"}
    assert [event_text(e, names) for e in events] == ["Ann gains the Mutation Tentacle", "Ann loses the Mutation Claw",
                                                      "Ann gains the keyword Holy", "Ann: Luck is now 4"]


def test_the_keyed_roll_words_read_like_the_engines_own_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    """In English the app's words for a keyed roll are the engine's own line, but where the key words it a little
    differently (the hazard's printed name, "Heal Sanity" for Tequila, the draw's question)."""
    seen, _events = _roll_prompts(monkeypatch)
    apart = {str(dict((f.name, f.value) for f in p.facts).get("reason", p.asks)): (p.question, _shown(p, h).question)
             for p, h in seen if _shown(p, h).question != p.question}  # fmt: skip
    assert set(apart) <= {"per_dark_stone", "shot_in_the_back", "heal_sanity", "wheel_die"}, apart


# ---- the log of a fight, a Shootout and a Town Mission: what each roll and draw was for, from its key -------------
def _key(event: Any) -> str:
    """A keyed `rolled` or `answered` event's key and reason ("to_hit:melee"), as `_walk` notes the prompts."""
    facts = {f.name: f.value for f in event.facts}
    reason = facts.get("reason", "drawn")
    return f"{facts['asks']}:{reason}" if reason != "drawn" else str(facts["asks"])


def _rolls_and_draws(events: list[Any]) -> list[Any]:
    """The `rolled` events and the draws' `answered` events (a choice's says `chosen`, `everyone` or `ahead`)."""
    chose = {"chosen", "everyone", "ahead"}
    return [e for e in events if e.type == "rolled" or e.type == "answered" and
            not any(f.name == "reason" and f.value in chose for f in e.facts)]  # fmt: skip


def test_a_spanish_log_says_what_each_roll_and_draw_of_a_fight_and_a_mission_was_for(spanish: None) -> None:
    """Every roll and draw of the Adventure fight, the Shootout and the Town Missions is keyed (`asks` and its facts
    on the `rolled` or `answered` event), so the Spanish log says what it was for with none of the engine's English
    purpose."""
    from mobile.presenters.words import event_text

    lines: dict[str, str] = {}
    for run in (_fight_prompts, _town_board_prompts, _mission_prompts):
        _seen, heroes, events = run()
        names = {h.id: h.name for h in heroes}
        logged = _rolls_and_draws(events)
        assert len(logged) > 5 and all(e.type == "rolled" for e in logged if e.roll is not None)
        for event in logged:
            facts = {f.name: f.value for f in event.facts}
            assert facts.get("asks") not in (None, "roll", "draw") and set(facts) <= set(FACTS), (event.text, facts)
            text = event_text(event, names)
            said = set(names.values()) | {str(v) for k, v in facts.items() if isinstance(v, str) and k != "purpose"}
            purpose = event.roll.purpose if event.type == "rolled" else str(facts["purpose"])
            leaked = _english_words(purpose, said) & set(ENGLISH.findall(text))
            spanish_line = (" sacó " in text or text.startswith("Tirada")) if event.type == "rolled" else \
                text.endswith(" (robado)")  # fmt: skip
            assert not leaked and spanish_line and "{" not in text, (purpose, text, leaked)
            lines.setdefault(_key(event), text)
    assert {"hold_back", "move", "to_hit:melee", "to_hit", "damage", "save:armor", "save:defense", "save:cover",
            "to_hit:ranged", "bandit_roll:cover", "target_hero:fewest_markers", "roof_fall:falls", "roof_fall:wounds",
            "mission_roll:reinforcements", "mission_roll:bandit_enters", "building_roll:rooftop",
            "mission_roll:mission_table", "random_hero", "mission_roll:posse_mission",
            "building_roll:start_reroll"} <= set(lines), sorted(lines)  # fmt: skip
    assert lines["to_hit:melee"] == "A sacó 4,4 para Ataque Cuerpo a Cuerpo contra Oni: Impactar 4+"
    assert lines["damage"] == "A sacó 4 para el Daño del Impacto 1 contra Oni"
    assert lines["save:armor"] == "Tirada: 4 para las salvaciones de Armadura 5+ de Oni"
    assert lines["to_hit"] == "Tirada: 4,4 para ataque de Oni contra A: Impactar 4+"
    assert lines["save:defense"] == "A sacó 4,4 para las salvaciones de Defensa 4+ contra Oni"
    assert lines["to_hit:ranged"].endswith(" de Bandit 4 contra A: Impactar 4+")
    assert lines["bandit_roll:cover"] == "Tirada: 5 para que Bandit 1 se ponga a Cubierto (con 1-3 se cubre)"
    assert lines["target_hero:fewest_markers"] == ("El objetivo de Bandit 1 (un Héroe al azar con menos marcadores "
                                                   "de Tiroteo): A (robado)")  # fmt: skip
    assert lines["roof_fall:wounds"] == "Tirada: 2 para las Heridas de la caída de A (sin Defensa)"
    assert lines["mission_roll:bandit_enters"] == "Tirada: 1 para dónde entra el Bandido 1 de 1"
    assert lines["random_hero"] == "Un Héroe al azar: B (robado)"
    assert lines["building_roll:start_reroll"] == ("Tirada: 7 = 7 para Edificio al azar: el Edificio inicial de A "
                                                   "(repite un 7)")  # fmt: skip


def test_in_english_the_fight_and_mission_log_reads_like_the_engines_own_line() -> None:
    """In English the app's words for these rolls and draws are the engine's own line, but where the key words it a
    little differently (the attack's target named, "saves" for one save, a Random Hero for what it was drawn for);
    even then who rolled what reads the same."""
    from mobile.presenters.words import event_text

    same, apart = set(), {}
    for run in (_fight_prompts, _town_board_prompts, _mission_prompts):
        _seen, heroes, events = run()
        names = {h.id: h.name for h in heroes}
        for event in _rolls_and_draws(events):
            text = event_text(event, names)
            if text == event.text:
                same.add(_key(event))
            else:
                apart[_key(event)] = (event.text, text)
                who, what = (" for ", 0) if event.type == "rolled" else (": ", -1)  # who rolled what; what was drawn
                assert text.split(who)[what] == event.text.split(who)[what], (event.text, text)
    assert set(apart) <= {"to_hit:melee", "to_hit:ranged", "damage", "save:armor", "save:cover",
                          "mission_roll:reinforcements", "random_hero"}, apart  # fmt: skip
    assert len(same) >= 12, sorted(same)
    assert apart["to_hit:melee"] == ("A rolled 4,4 for Melee Attack To Hit 4+",
                                     "A rolled 4,4 for Melee Attack on Oni: To Hit 4+")  # fmt: skip


def _rolled_and_drawn_keys() -> set[str]:
    """Every key the engine rolls or draws with: the `asks=` of each `roll/d6/d3/two_d6/dice/draw` call (and of
    `own_roll`, a hero's roll with a Grit offer, and of a `RollRequest` a rule yields itself) in its source, but the
    generic `roll` and `draw`."""
    import ast
    from pathlib import Path

    import shared_rules

    calls = {"roll", "d6", "d3", "two_d6", "dice", "draw", "own_roll", "RollRequest", "DrawRequest"}
    keys: set[str] = set()
    for path in Path(shared_rules.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            for keyword in node.keywords if name in calls else ():
                if keyword.arg == "asks":
                    keys |= {n.attr for n in ast.walk(keyword.value) if isinstance(n, ast.Attribute)
                             and isinstance(n.value, ast.Name) and n.value.id == "Asks"}  # fmt: skip
    return {Asks[k].value for k in keys} - {"roll", "draw"}


def _documented_reasons(keys: set[str]) -> set[tuple[str, str]]:
    """The reasons (a deck card's charts) docs/api.md lists for each roll and draw key: the words in backticks in
    its row of "Prompt keys", and in the paragraph on a `mission_roll`'s `reason`, that are not fact names."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    found: set[tuple[str, str]] = set()
    for key in keys - {"wheel_die"}:  # wheel_die's words in backticks are its options' keys (`_lies`)
        row = re.search(rf"^\| `{key}` \|(.*)\|$", text, re.MULTILINE)
        assert row is not None, f"docs/api.md has no row for {key}"
        found |= {(key, word) for word in re.findall(r"`([a-z_]+)`", row.group(1)) if word not in FACTS}
    paragraph = re.search(r"A\s+`mission_roll`'s\s+`reason`:(.*?)\n\n", text, re.DOTALL)
    assert paragraph is not None, "docs/api.md no longer lists a mission_roll's reasons"
    found |= {("mission_roll", w) for w in re.findall(r"`([a-z_]+)`", paragraph.group(1)) if w not in FACTS}
    return found


# the facts a key's words are filled with when no run gives them (a plausible value for each)
SAMPLE = {"name": "Oni", "figure": "Bandit 1", "target": 4, "number": 1, "count": 2, "skill": "agility",
          "chart": "injury", "size": "small", "value": 3, "where": "entry:A", "location": "Saloon",
          "town_type": "Mining Town", "mission": "shootout_in_the_streets"}  # fmt: skip


def _words(key: str, **facts: object) -> tuple[str | None, str | None]:
    """What a `key` roll or draw was for, in English and in Spanish."""
    from mobile.presenters.roll_words import purpose_words

    said = {**SAMPLE, **facts}
    english = purpose_words(key, said, die="d6")
    i18n.set_language("es")
    try:
        return english, purpose_words(key, said, die="d6")
    finally:
        i18n.set_language("en")


def test_every_roll_and_draw_key_and_every_documented_reason_has_log_words() -> None:
    """A key the engine rolls or draws with (or a reason docs/api.md lists for one) that the log cannot word fails
    here, not as an English purpose on a Spanish phone's log."""
    from mobile.presenters.roll_words import known_kinds, known_purposes

    keys = _rolled_and_drawn_keys()
    adventure = {"to_hit", "damage", "save", "casting_roll", "gain", "loss", "how_many", "scavenge", "doors",
                 "deck_card", "target_hero", "bandit_roll", "roof_fall", "building_roll", "mission_roll",
                 "mission_draw"}  # fmt: skip
    road = {"skill_test", "skill_reroll", "chart", "hazard_count", "hazard_roll", "town_type", "hold_back", "move",
            "roll_for", "random_hero", "building_token", "daily_event_card", "threat_card", "random_building",
            "wheel_die"}  # fmt: skip
    assert adventure | road <= keys, sorted(adventure | road - keys)  # the scan sees the calls
    assert keys <= known_purposes(), sorted(keys - known_purposes())
    for key in keys - {"mission_roll", "mission_draw"}:  # these have words only for a reason (below)
        english, spanish = _words(key, reason="wounds") if key == "roll_for" else _words(key)
        assert english and spanish and "{" not in english + spanish and english != spanish, (key, english, spanish)
        again = _words(key, reroll=True, reason="wounds") if key == "roll_for" else _words(key, reroll=True)
        assert again == (f"{english} (re-roll)", f"{spanish} (repetición)"), (key, again)
    reasons = _documented_reasons(keys)
    assert {("save", "cover"), ("target_hero", "ambush"), ("mission_roll", "entry_point"), ("gain", "arcane_powder"),
            ("deck_card", "map"), ("mission_draw", "escape_exit"), ("move", "extra_die")} <= reasons  # fmt: skip
    for key, reason in sorted(reasons):
        fact = "chart" if key == "deck_card" else "reason"
        english, spanish = _words(key, **{fact: reason})
        assert english and spanish and "{" not in english + spanish and english != spanish, (key, reason, english)
        if (key, reason) in known_kinds():
            continue
        # no phrase of its own: the reason is a value the key's words name (a save, an attack, a hero value), so it
        # must read in Spanish and differ from the key's words without it
        assert (english, spanish) != _words(key, **{fact: ""}), (key, reason, english)
        assert reason.replace("_", " ") not in spanish.lower(), (key, reason, spanish)
    for key, kind in known_kinds():  # every phrase of a reason reads in both languages
        english, spanish = _words(key, **{"chart" if key == "deck_card" else "reason": kind})
        assert english and spanish and "{" not in english + spanish and english != spanish, (key, kind)
