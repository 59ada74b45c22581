"""Every command of the engine's catalogue (`shared_rules.commands.COMMAND_TYPES`) has a way to it on the phone
(issue 18), or is listed here with the reason a player would accept.

The Adventure's and the missions' commands are proved on real tables: each state's buttons (what the Adventure
screen draws: the main button, the row under it, each hero card's, the card effects', and the choices a tap opens)
are turned into the commands they send, and those commands' types are collected. The other screens' commands are
proved by the presenter behind a screen building that command (their own tests tap them); the touch scenarios
(tests/mobile/test_touch_adventure.py) press the Adventure's through the real widgets.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

from mobile.presenters.adventure import AdventureAction, AdventurePresenter
from shared_rules import Command
from shared_rules.commands import ANSWERS, COMMAND_TYPES, AddEnemies, NewEnemy
from shared_rules.engine import apply
from tests.mobile.helpers import hero
from tests.mobile.phases import in_adventure, table_from

ROOT = Path(__file__).resolve().parents[2]

# The Adventure's own buttons from before issue 18, each pressed by tests/mobile/test_presenters_adventure.py in the
# state it needs (a Search out of a Fight, Room Exploration, a Bleeding hero, a Samurai's token)
ADVENTURE_BEFORE = ("search", "reveal_token", "stop_bleeding", "use_token")
# Sent from other screens: the presenter of the screen a player opens for it (its own tests press the buttons)
OTHER_SCREENS = {
    "adjust": "posse", "arrive": "travel", "choose_town_size": "travel", "roll_hazard": "travel",
    "end_town_stay": "stay", "buy": "stay", "sell": "stay", "end_day": "stay", "end_visit": "stay",
    "start_day": "stay", "pay_off_warrants": "stay", "play_devils_wheel": "stay", "set_bounty": "stay",
    "visit_location": "stay", "wheel_roll": "stay", "wheel_stop": "stay",
    **{answer: "dice" for answer in ANSWERS},  # a prompt's answer, on the Dice screen
}  # fmt: skip
BOARD_SCREEN = {"place_model": "a model dragged on the Town board", "move_townsfolk": "a Townsfolk marker moved on "
                "the Town board in Town Overrun"}  # fmt: skip
NOT_ON_THE_PHONE = {
    "move": "Heroes move on the physical Map Tiles: the phone keeps the Move roll and the activation, not each "
            "space walked (on the Town board, a model that stands elsewhere is corrected by dragging it)",
}


def _sent(presenter: AdventurePresenter, action: AdventureAction) -> set[str]:
    """The command types a button sends, through the choice or form it opens first."""
    choices = presenter.choices(action)
    if choices is not None:
        return {t for o in choices.options for t in _sent(presenter, AdventureAction(o.key, o.label, o.arg))}
    form = presenter.form(action)
    if form is not None:
        values = {f.key: ("2" if f.number else "A card") for f in form.fields}
        command = presenter.more.form_command(form, values)
        assert isinstance(command, Command), command
        return {command.type}
    if action.key == "enemies":  # the screen's EnemyPopup: its "Put them on the board" calls add_enemies
        return {"add_enemies"} if presenter.add_enemies("Goblin", "1", "2", "3") else set()
    command = presenter.command(action)
    return {command.type} if command is not None else set()


def _buttons(presenter: AdventurePresenter) -> list[AdventureAction]:
    view = presenter.view()
    out = [*view.others, *view.wound, *view.cards, *(a for h in view.heroes for a in h.actions)]
    if view.main is not None:
        out.append(view.main)
    if view.setup is not None and view.setup.start is not None:
        out.append(view.setup.start)
    return out


def _collect(presenter: AdventurePresenter) -> set[str]:
    return {t for action in _buttons(presenter) for t in _sent(presenter, action)}


def _classes() -> list:
    return [replace(hero("ann", "Ann"), hero_class="Samurai Warrior"), replace(hero("bo", "Bo"), hero_class="Sorceress"),
            replace(hero("cy", "Cy", wounds=2), hero_class="Traveling Monk"),
            replace(hero("di", "Di"), hero_class="Assassin")]  # fmt: skip


def adventure_reach(tmp_path: Path) -> set[str]:
    """A Lost Contact Fight with one hero of each class, step by step, and the missions' own states."""
    from tests.rules.missions.helpers import town

    seen: set[str] = set()
    sheets = {"ann": {"max_fury": 3}, "bo": {"mana": 3}, "cy": {"max_ki": 3}}
    table = in_adventure(tmp_path / "fight", _classes(), dice="server", sheet=sheets, initiative=(3, 4, 5, 6))
    adventure = AdventurePresenter(table)
    seen |= _collect(adventure)  # the start of the turn: Hold Back the Darkness, run away, a card's markers
    table.submit(AddEnemies((NewEnemy("Goblin", count=2, health=3, initiative=4),)))
    table.submit(replace(adventure.command(adventure.view().main), dice=()))  # Hold Back the Darkness
    seen |= _collect(adventure)  # the activations: the enemy's attack, the first hero's Activate
    adventure.act()  # Di activates: Shuriken, Attack, re-roll, boost
    seen |= _collect(adventure)
    table.submit(COMMAND_TYPES["adjust_resource"]("ann", "fury", 2))  # a Samurai with Fury: his Battle Tactics
    seen |= _collect(adventure)
    between = table_from(tmp_path / "between", replace(table.snapshot.state, adventure=None,
                                                       phase=__import__("shared_rules").Phase.BETWEEN_ADVENTURES))
    seen |= _collect(AdventurePresenter(between))  # the Mission table, the set-up
    carry = replace(between.snapshot.state.carry, may_stay=True, last_town=_a_town(tmp_path))
    stay = table_from(tmp_path / "stay", replace(between.snapshot.state, carry=carry))
    seen |= _collect(AdventurePresenter(stay))  # after a Town Mission: stay in town
    for mission, answers in (("town_overrun", (3, 1, 2, 3, 3, 6, 6, 6, 6)), ("hanging_high", ()),
                             ("shootout_in_the_streets", ())):
        t = town(mission, 2 if mission == "hanging_high" else 1, answers=answers, values={"max_grit": 3})
        while t.prompt is not None:  # whatever set-up it still asks: the first option, a middling roll
            t.do(_answer(t.prompt))
        state = t.state
        if mission == "town_overrun":
            state = apply(state, AddEnemies((NewEnemy("Walker", count=1, health=2),))).state
        mission_table = table_from(tmp_path / mission, state)
        presenter = AdventurePresenter(mission_table)
        seen |= _collect(presenter)
        if mission == "town_overrun":
            mission_table.submit(presenter.command(presenter.view().main))
            while (prompt := mission_table.snapshot.pending) is not None:
                mission_table.submit(_answer(prompt))
            seen |= _collect(presenter)
            presenter.act()  # the hero activates: Desperation
            while (prompt := mission_table.snapshot.pending) is not None:
                mission_table.submit(_answer(prompt))
            seen |= _collect(presenter)
        if mission == "shootout_in_the_streets":
            while presenter.view().main is not None and presenter.view().main.key in ("hbtd", "activate",
                                                                                       "end_activation"):
                seen |= _collect(presenter)
                mission_table.submit(presenter.command(presenter.view().main))
                while (prompt := mission_table.snapshot.pending) is not None:
                    mission_table.submit(_answer(prompt))
            seen |= _collect(presenter)
    return seen


def _answer(prompt) -> Command:  # noqa: ANN001
    """A table's plain answer: the first option, an empty card, middling dice, no re-roll."""
    from shared_rules import Choose, EnterCard, RollDice
    from shared_rules.commands import Reroll

    kind = prompt.kind.value
    if kind == "choice":
        return Choose(prompt.options[0].key)
    if kind == "card":
        return EnterCard()
    if kind == "reroll":
        return Reroll(())
    return RollDice((3,) * max(1, prompt.dice_count))


def _a_town(tmp_path: Path):  # noqa: ANN202
    from tests.mobile.phases import in_town

    return in_town(tmp_path / "town", [hero("ann", "Ann")]).snapshot.state.town


def _built_in(screen: str) -> set[str]:
    """The command types a screen's presenter module builds (a call of the command's class)."""
    names = {cls.__name__: kind for kind, cls in COMMAND_TYPES.items()}
    tree = ast.parse((ROOT / "mobile" / "presenters" / f"{screen}.py").read_text())
    return {names[n.func.id] for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names}


def test_every_command_in_the_catalogue_has_a_way_to_it_on_the_phone(tmp_path: Path) -> None:
    reached = adventure_reach(tmp_path)
    for kind in ADVENTURE_BEFORE:
        assert kind in _built_in("adventure"), f"{kind}: the Adventure presenter does not build it"
        reached.add(kind)
    for kind, screen in OTHER_SCREENS.items():
        assert kind in _built_in(screen), f"{kind}: the {screen} screen's presenter does not build it"
        reached.add(kind)
    board = (ROOT / "mobile" / "presenters" / "board.py").read_text()
    for kind in BOARD_SCREEN:
        assert f'"{kind}"' in board or f"PLACE_MODEL = \"{kind}\"" in board
        reached.add(kind)
    missing = sorted(set(COMMAND_TYPES) - reached - set(NOT_ON_THE_PHONE))
    assert not missing, f"no button on the phone sends {missing}"
    assert not set(NOT_ON_THE_PHONE) & reached  # a listed command that became reachable: take it off the list


def test_the_issues_sixteen_are_sent_from_the_adventure_screen(tmp_path: Path) -> None:
    """The commands issue 18 found unreachable, each from a button of the Adventure screen (the board's
    move_townsfolk from the Town board's drag, proved by its own test)."""
    reached = adventure_reach(tmp_path)
    sixteen = {"cast_spell", "use_tactic", "spend_ki", "throw_shuriken", "adjust_resource", "reroll_with_grit",
               "strike_townsfolk", "rescue_hero", "desperation", "random_target", "play_gang", "roll_mission",
               "stay_in_town", "move_marker", "activate_bandits"}  # fmt: skip
    assert sixteen <= reached, sorted(sixteen - reached)
