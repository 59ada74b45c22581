"""Issue 18 on the Adventure screen: each class's abilities on its hero card, a hero's Attack and an enemy's
strikes with the Hits the table played (the saves answered on the Dice screen), the missions' and the Depth
Track's commands, and redo after an undo (the Log screen)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from mobile.presenters.adventure import AdventureAction, AdventurePresenter
from mobile.presenters.dice import PromptPresenter
from mobile.presenters.log import LogPresenter
from mobile.presenters.shell import host_call_label
from shared_rules.commands import AddEnemies, NewEnemy, RollDice
from tests.mobile.helpers import hero
from tests.mobile.phases import in_adventure

SHEETS = {"ann": {"max_fury": 3}, "bo": {"mana": 3}, "cy": {"max_ki": 3}}


def posse() -> list:
    return [replace(hero("ann", "Ann"), hero_class="Samurai Warrior"), replace(hero("bo", "Bo"), hero_class="Sorceress"),
            replace(hero("cy", "Cy", wounds=2), hero_class="Traveling Monk"),
            replace(hero("di", "Di"), hero_class="Assassin")]  # fmt: skip


def fight(tmp_path: Path, *, initiative: int = 7, health: int = 3):  # noqa: ANN201
    """Turn 1 with a Goblin on the board, the Darkness held (the table's 3 and 5): the activations."""
    table = in_adventure(tmp_path, posse(), sheet=SHEETS, initiative=(6, 5, 3, 2))
    while (prompt := table.snapshot.pending) is not None:  # the Sorceress's Arcane Powder
        table.submit(RollDice((4,) * max(1, prompt.dice_count), prompt=prompt.id))
    adventure = AdventurePresenter(table)
    table.submit(AddEnemies((NewEnemy("Goblin", count=1, health=health, initiative=initiative),)))
    adventure.tap_die(3)
    adventure.tap_die(5)
    return table, adventure


def card(adventure: AdventurePresenter, name: str) -> dict[str, AdventureAction]:
    row = next(h for h in adventure.view().heroes if h.name == name)
    return {a.label: a for a in row.actions}


def pick(adventure: AdventurePresenter, action: AdventureAction, label: str) -> None:
    """A tap that opens a choice, then the choice's button."""
    choices = adventure.choices(action)
    assert choices is not None, action
    option = next(o for o in choices.options if o.label == label)
    adventure.do(AdventureAction(option.key, option.label, option.arg))


def test_an_enemys_strikes_go_in_as_hits_and_each_hero_saves_on_the_dice_screen_FF_HERO_04(tmp_path: Path) -> None:
    table, adventure = fight(tmp_path)
    main = adventure.view().main
    assert main is not None and main.key == "activate_enemy" and main.label == "Goblin activates: its attack…"
    choices = adventure.choices(main)
    assert choices is not None and choices.numbers == (("damage", "Damage of each Hit", 1),)  # its sheet has none
    assert [o.label for o in choices.options][:3] == ["Ann: 1 Hit", "Ann: 2 Hits", "Ann: 3 Hits"]
    adventure.step("more.damage", 1)  # each Hit does 2
    pick(adventure, main, "Ann: 2 Hits")
    prompt = table.snapshot.pending
    assert prompt is not None and prompt.hero == "ann" and "Defense 4+" in prompt.question
    dice = PromptPresenter(table)
    assert dice.send_hits(1)  # one die showed 4+: one Hit saved
    if (offer := table.snapshot.pending) is not None and offer.kind.value == "reroll":
        dice.keep()
    assert table.snapshot.state.hero("ann").wounds == 2  # the other Hit's Damage 2 (FF-HERO-04)


def test_the_sacred_bell_gives_a_cover_save_before_defense_FF_MONK_02(tmp_path: Path) -> None:
    table, adventure = fight(tmp_path)
    adventure.do(card(adventure, "Cy")["Ring the Sacred Bell"])
    while (prompt := table.snapshot.pending) is not None and prompt.kind.value == "choice":  # who is on his tile
        table.submit(__import__("shared_rules").Choose(prompt.options[0].key, prompt=prompt.id))
    main = adventure.view().main
    pick(adventure, main, "Cy: 1 Hit")
    prompt = table.snapshot.pending
    assert prompt is not None and prompt.question.startswith("Cy: roll 1 D6 for Cover 3+")
    table.submit(RollDice((3,), prompt=prompt.id))  # the Cover save ignores the Hit: no Defense roll is asked
    assert table.snapshot.pending is None and table.snapshot.state.hero("cy").wounds == 2


def test_a_heros_attack_takes_its_hits_and_damage_in_two_taps_FF_TURN_05(tmp_path: Path) -> None:
    table, adventure = fight(tmp_path, initiative=1, health=5)
    adventure.act()  # Ann activates
    table.submit(RollDice((4,)))
    attack = next(a for a in adventure.view().others if a.key == "attack")
    adventure.step("more.hits", 1)  # two Hits
    pick(adventure, attack, "Damage 3")
    assert not table.snapshot.state.adventure.enemies  # 2 Hits of damage 3 on Health 5: killed
    assert adventure.more.numbers["hits"] == 1  # the next Attack starts from one Hit again


def test_each_class_spends_from_its_card_FF_SAM_02_FF_SORC_05_FF_MONK_01_FF_ASN_03(tmp_path: Path) -> None:
    table, adventure = fight(tmp_path, initiative=1, health=9)
    adventure.do(card(adventure, "Ann")["+1 Fury"])
    assert table.snapshot.state.adventure.hero("ann").fury == 1
    adventure.act()
    table.submit(RollDice((4,)))
    form = adventure.form(card(adventure, "Ann")["Use a Battle Tactic…"])
    assert form is not None and [f.key for f in form.fields] == ["name", "cost"]
    assert not adventure.send_form(form, {"name": " ", "cost": "1"})  # a card needs its name
    assert table.notice is not None and table.notice.text == "Give the card's name."
    assert adventure.send_form(form, {"name": "Flashing Steel", "cost": "1"})
    assert table.snapshot.state.adventure.hero("ann").fury == 0
    form = adventure.form(card(adventure, "Bo")["Cast a Spell…"])
    assert adventure.send_form(form, {"name": "Blinding Light", "cost": "2", "casting": "5"})
    while (prompt := table.snapshot.pending) is not None:
        table.submit(RollDice((6,) * max(1, prompt.dice_count), prompt=prompt.id) if prompt.kind.value == "roll"
                     else __import__("shared_rules").Reroll(prompt=prompt.id))  # fmt: skip
    assert table.snapshot.state.adventure.hero("bo").mana == 1 and "Blinding Light" in \
        table.snapshot.state.adventure.hero("bo").spells_cast
    adventure.do(card(adventure, "Cy")["1 Ki: heal Cy's Wounds"])
    assert table.snapshot.state.hero("cy").wounds == 1 and table.snapshot.state.adventure.hero("cy").ki == 0
    assert "1 Ki: heal Cy's Wounds" not in card(adventure, "Cy")  # no Ki left
    assert not card(adventure, "Di")  # the Shuriken only in her own activation
    while (main := adventure.view().main) is not None and (main.key, main.arg) != ("end_activation", "di"):
        adventure.act()  # Ann's activation ends, Bo and Cy activate and end theirs, then Di
        if main.key == "activate":
            table.submit(RollDice((4,)))
    pick(adventure, card(adventure, "Di")["Shuriken at Goblin"], "Damage 2")
    assert table.snapshot.state.adventure.hero("di").shuriken_thrown
    assert "Shuriken at Goblin" not in card(adventure, "Di")  # once per Fight


def test_a_card_moves_the_darkness_and_the_log_redoes_what_undo_took_back_A5(tmp_path: Path) -> None:
    table, adventure = fight(tmp_path)
    log = LogPresenter(table)
    before = table.snapshot.state
    adventure.do(next(a for a in adventure.view().cards if a.label == "Darkness +1 space"))
    while (prompt := table.snapshot.pending) is not None:
        table.submit(__import__("shared_rules").EnterCard(prompt=prompt.id))
    moved = table.snapshot.state
    assert moved.adventure.darkness == before.adventure.darkness + 1
    assert log.view().redo_label == ""  # nothing undone yet
    log.undo(1)
    assert table.snapshot.state.adventure == before.adventure
    assert log.view().redo_label.startswith("Redo: ")
    log.redo()
    assert table.snapshot.state.adventure == moved.adventure  # the very same state: the rules ran again on it
    assert log.view().redo_label == ""
    log.undo(1)
    adventure.do(card(adventure, "Ann")["+1 Fury"])  # a new step after the undo: the old one cannot come back
    assert log.view().redo_label == ""


def test_an_offline_table_has_no_host_to_call(tmp_path: Path) -> None:
    table, _ = fight(tmp_path)
    assert host_call_label(table) == "" and not table.can_call_host()
