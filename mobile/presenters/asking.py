"""What the rules ask, in the player's language: a prompt's question worded from its key (`Prompt.asks`) and facts,
and each option from its key (`Option.says`), costs, gains, test and facts (issue 19: words are made from data at
the edge). An option without a key is labelled by a name (an Item, a token, a hero, a Location) shown as it is; a
key this app does not know (a newer server) falls back to the engine's English words.
"""

from __future__ import annotations

from collections.abc import Callable

from shared_rules import DieKind, Prompt
from shared_rules.prompts import Option, SkillCheck

from ..i18n import _, ngettext
from .amounts import amount_words, rolled_amount
from .board_words import mission_title
from .roll_words import attack_words, chart_words, roll_for, save_words
from .words import plain


class _Facts(dict[str, object]):
    """The values a template is filled with; a fact the prompt lacks reads as nothing rather than failing."""

    def __missing__(self, key: str) -> str:
        return ""


def _questions() -> dict[str, str]:
    """Every prompt key's words (`{who}: ` is put before them when a hero answers), in the language in use."""
    return {
        # rolls
        "skill_test": _("roll {dice} for {name}: {skill} {target}+ test"),
        "skill_reroll": _("roll {dice} for {name}: {skill} {target}+ test (re-roll)"),
        "grit_reroll": _("spend 1 Grit to re-roll dice? ({faces})"),
        "chart": _("roll {dice} on the {chart} chart"),
        "card": _("read the {chart} card or chart at the table and enter what it says"),
        "hazard_count": _("roll {dice} for Travel Hazards to a {town}"),
        "hazard_roll": _("roll {dice} for Travel Hazard {number} of {count}"),
        "town_type": _("roll {dice} for the Specialty Town type"),
        "hold_back": _("roll {dice} for Hold Back the Darkness ({target}+)"),
        "move": _("roll {dice} for Move"),
        "roll": _("roll {dice} for {purpose}"),
        # draws
        "draw": _("Draw at random: {purpose}"),
        "random_hero": _("Draw a Random Hero"),
        "building_token": _("Draw the Building token for slot {number}"),
        "daily_event_card": _("Draw the Daily Event card"),
        "threat_card": _("Draw a {level} Threat card"),
        # the road, the town, the Town Stay
        "roll_for": _("roll {dice} for {what}"),
        "random_building": _("Draw a Random Building: it is Destroyed for this Town Stay"),
        "wheel_die": _("Where does die {number} (a {value}) lie?"),
        # the road
        "side_bag_full": _("the Side Bag is full ({count} of {number} tokens): which token do you leave?"),
        "discard_token": _("the torn Side Bag is over capacity: discard which token?"),
        "which_item": _("{name}: which Item do you lose?"),
        "take_part": _("{name}: take part, or pass it by?"),
        "which_test": _("{name}: which test?"),
        "help_church": _("Plague Church: ride out to help the cursed church, or turn away and keep on the road?"),
        "church_cost": _("Plague Church: spend 1 Grit, or take D6 Corruption Hits (Willpower saves)?"),
        "artifact_keeper": _("Plague Church: which helper keeps the Mine Artifact?"),
        "enter_farmstead": _("Burning Farmstead: brave the burning building to look for survivors, or turn away?"),
        "pay_or_test": _("Mutant Warlord: pay him off, or overcome him?"),
        "river": _("Raging River: turn back to the roadside town (a Small Town, Travel ends) or ford the river?"),
        "heal_split": _("Rail Line Construction: Heal {value}: how much goes to Wounds ({count}), the rest to Sanity "
                        "Damage ({number})?"),
        "plus_one": _("Sleeping Under the Stars: 6+ number {number} of {count}: +1 Health or +1 Sanity?"),
        "bandit_loss": _("Bandits!: Bandit {number} of {count} not defeated: what do you lose?"),
        "black_fang_loss": _("Gulch Ambush: the Black Fang take D3 Dark Stone or one Item with a Dark Stone icon: "
                             "which?"),
        "scratch_deal": _("Shadowy Traveler: take Mr. Scratch's deal (D6 x 100 XP and D6 x $100, but if you roll "
                          "this again he takes you) or refuse (Spirit 6+ or Cunning 6+)?"),
        # the town
        "call_out": _("Double {value}s: you spot the escaped prisoner. Call him out to a High Noon Duel (the rest "
                      "of this visit is lost)?"),
        "duel_result": _("Play the High Noon Duel at the table: how did it end?"),
        "daily_event": _("Draw the Daily Event card: which is it?"),
        "posse_lodging": _("Day {day}: where does the posse spend the night?"),
        "lodging": _("Day {day}: where do you spend the night?"),
        "jackpot": _("Die {number} sits on the Devil's Head: try for the jackpot (1-3: that many Corruption "
                     "Points; 4-6: the Artifact it points to)?"),
        # the Adventure
        "end_of_turn": _("End of the Turn: which effect first?"),
        "lantern_oil": _("Hold Back the Darkness shows {first},{second} (needs {target}+): discard Lantern Oil to "
                         "re-roll a die?"),
        "casting": _("{name}: the dice give {value} (needs {target}+): what now?"),
        "spice": _("Spice: which Hit gets the D3 Damage?"),
        "max_grit_move": _("A Move roll of 1 Recovers a Grit, but you are at Max Grit: spend it now or lose it?"),
        "revive": _("KO'd: use a Revive Token ({count} left)?"),
        "map_card": _("What did the Map card show?"),
        "tile_fits": _("Does the {name} tile fit at this Door without overlapping?"),
        # the Town Missions and the board
        "defense_reroll": _("{figure}'s Defense: spend 1 of your Grit to re-roll the failed saves ({count})?"),
        "money_bags": _("Money Bags here ({count}): pick them up?"),
        "money_bag_number": _("The number printed on the flipped Money Bag"),
        "rope_shooter": _("Who shoots the rope (in Range and Line of Sight of the Gallows)?"),
        "rope_cut": _("The Shot at the rope: did one Hit do 6 Wounds (To Hit and Damage as normal, no Defense)?"),
        "townsfolk_reward": _("Townsfolk {number} saved: XP or Gold?"),
        "escaped_chart": _("The Darkness escaped: Injury or Madness?"),
        "ambush_marker": _("The Ambush falls on the Townsfolk: which marker?"),
        "take_hits": _("{hits} Hits on {figure}: does an adjacent Hero take them instead?"),
        "landing": _("Where does {name} land?"),
        # the Adventure, the Town board, the Bandits, the Missions: rolls and draws (a `reason` may word it more
        # closely: `_kinds`)
        "to_hit": _("roll {dice} To Hit {target}+: {attack} on {name}"),
        "damage": _("roll {dice} for the Damage of Hit {number} on {name}"),
        "save": _("roll {dice} for {save} {target}+ saves{against}"),
        "casting_roll": _("roll {dice} for the Casting Roll of {name} ({target}+)"),
        "gain": _("roll {dice}: gain {amount}"),
        "loss": _("roll {dice}: lose {amount}"),
        "how_many": _("roll {dice}: how many {name}"),
        "scavenge": _("roll {dice} to Scavenge {name}: each 6 finds something"),
        "doors": _("roll {dice}: which of the {count} exits of {name} are Doors (read the Map card; roll again for "
                   "one already open)"),
        "deck_card": _("Draw a card"),
        "target_hero": _("Draw {figure}'s target (a Random Hero)"),
        "bandit_roll": _("roll {dice}"),
        "roof_fall": _("roll {dice}: does {name} fall from the rooftop? (1-3 falls)"),
        "building_roll": _("roll {dice} for a Random Building"),
        "mission_roll": _("{title}: roll {dice}"),
        "mission_draw": _("{title}: draw at random"),
    }


# the roll keys whose `figure` fact is who rolls when no hero does (an Enemy, a Bandit, a figure in Cover)
_BY_FIGURE = frozenset({"to_hit", "save", "bandit_roll"})


def _kinds() -> dict[tuple[str, str], str]:
    """A key's words for one `reason` (or `chart`) when they are more than the key's own."""
    return {
        ("move", "extra_die"): _("roll {dice}: an extra Move die"),
        ("damage", "spice"): _("roll {dice} for the Spice's extra Damage on Hit {number} ({name})"),
        ("casting_roll", "extra_die"): _("roll {dice}: an extra Mana die for the Casting Roll of {name}"),
        ("how_many", "enemies"): _("roll {dice}: how many {name} come"),
        ("how_many", "horror_hits"): _("roll {dice}: how many Horror Hits ({name})"),
        ("deck_card", "scavenge"): _("Draw a Scavenge card"),
        ("deck_card", "map"): _("Draw a Map card"),
        ("deck_card", "exploration"): _("Draw an Exploration Token"),
        ("target_hero", "melee"): _("Draw {figure}'s Melee target (a Random adjacent Hero)"),
        ("target_hero", "rooftop"): _("Draw {figure}'s Melee target (a Random Hero on its rooftop)"),
        ("target_hero", "in_sight"): _("Draw {figure}'s target (a Random Hero in Range and sight)"),
        ("target_hero", "in_sight_fewest"): _("Draw {figure}'s target (a Random Hero in Range and sight, fewest "
                                              "Shootout markers)"),
        ("target_hero", "fewest_markers"): _("Draw {figure}'s target (a Random Hero with the fewest Shootout "
                                             "markers)"),
        ("target_hero", "new_target"): _("Draw {figure}'s new target (a Random Hero in Range and sight, fewest "
                                         "Shootout markers)"),
        ("target_hero", "not_targeted"): _("Draw {figure}'s target (a Hero in Range and sight, not yet targeted "
                                           "first)"),
        ("target_hero", "townsfolk"): _("Draw {figure}'s target (a Random Hero; the Townsfolk count as one)"),
        ("target_hero", "ambush"): _("Draw the Hero the Bandits ambush (a Random Hero)"),
        ("bandit_roll", "retreat"): _("roll {dice} to retreat (4+ retreats)"),
        ("bandit_roll", "cover"): _("roll {dice} to take Cover (1-3 takes Cover)"),
        ("roof_fall", "wounds"): _("roll {dice} for the Wounds of {name}'s fall (ignoring Defense)"),
        ("building_roll", "start"): _("roll {dice} for {name}'s starting Building (a Random Building)"),
        ("building_roll", "start_reroll"): _("roll {dice} for {name}'s starting Building (a Random Building; "
                                               "re-roll a {number})"),
        ("building_roll", "townsfolk"): _("roll {dice} for the Building of Townsfolk {number}"),
        ("building_roll", "rooftop"): _("roll {dice} for the Rooftop of {name} {number} (a Random Building)"),
        ("mission_roll", "mission_table"): _("roll {dice} on the Town Mission table"),
        ("mission_roll", "posse_mission"): _("roll {dice} for another Town Mission for the posse (re-rolled until "
                                             "1-5)"),
        ("mission_roll", "bandit_enters"): _("{title}: roll {dice} for where Bandit {number} of {count} enters"),
        ("mission_roll", "reinforcements"): _("{title}: roll {dice} for how many Bandits arrive"),
        ("mission_roll", "robbers"): _("{title}: roll {dice} for how many new Bank Robbers come out"),
        ("mission_roll", "rooftop_bandits"): _("{title}: Blood Spatter: roll {dice} for how many Bandits climb "
                                               "Random Rooftops"),
        ("mission_roll", "robber_runs"): _("{title}: roll {dice}: {figure} runs for Entry {letter}"),
        ("mission_roll", "prisoner_runs"): _("{title}: roll {dice}: the Escaped Prisoner runs"),
        ("mission_roll", "prisoner_rides"): _("{title}: roll {dice}: the Prisoner rides for Entry {letter}"),
        ("mission_roll", "seen"): _("{title}: roll {dice}: are you seen? (1-2 Alerts the Marshals)"),
        ("mission_roll", "rope_shot"): _("{title}: roll {dice} for the Shot at the rope: To Hit {target}+"),
        ("mission_roll", "rope_damage"): _("{title}: roll {dice} for the Damage of Hit {number} on the rope"),
        ("mission_roll", "initiative"): _("{title}: roll {dice}: +D6 Initiative this turn"),
        ("mission_roll", "opponent_initiative"): _("{title}: roll {dice}: the opponent's +D6 Initiative this turn"),
        ("mission_roll", "townsfolk_indoors"): _("{title}: roll {dice} for the Townsfolk in the Buildings"),
        ("mission_roll", "townsfolk_street"): _("{title}: roll {dice} for the Townsfolk in the Street"),
        ("mission_roll", "enemies_at_start"): _("{title}: roll {dice} for Entry Point {letter}: Enemies at the "
                                                "start on 1-{number}"),
        ("mission_roll", "entry_point"): _("{title}: roll {dice} for Entry Point {letter}: 1-{number} succeeds"),
        ("mission_draw", "escape_exit"): _("{title}: draw {figure}'s Escape Exit (a Random Exit)"),
    }  # fmt: skip


def _sayings() -> dict[str, str]:
    """Every option key's words, in the language in use."""
    return {
        "turn_away": _("Turn away"), "pass_by": _("Pass it by"), "join": _("Take part: {test}"),
        "help_church": _("Help: 1 Grit or D6 Corruption Hits, then {test}"), "spend": _("Spend {costs}"),
        "corruption_hits": _("Take D6 Corruption Hits"), "enter": _("Enter: {test}"), "pay": _("Pay {costs}"),
        "warlord_test": _("{test} test: pass +D6 Dark Stone, fail -D3 Health permanently"),
        "skill": _("{test} ({count} dice)"), "leave_new_token": _("Leave the new {token} token"),
        "leave_token": _("Leave a {token} token to take the {name}"),
        "turn_back": _("Turn back: Small Town, no more hazards"), "ford": _("Ford the river: {test} each"),
        "heal_split": _("Heal {gains}"), "gain": _("+{gains}"), "lose": _("Lose {costs}"),
        "take_deal": _("Take the deal"), "refuse_deal": _("Refuse the deal"),
        "call_out": _("Call him out: a High Noon Duel"), "let_go": _("Let him go and read the Location Event"),
        "duel_won": _("Won: the prisoner is brought down"), "duel_lost": _("Lost: he fights dirty"),
        "other_card": _("Another card: enter what it says"), "all_hotel": _("Everyone at the Hotel ({costs} each)"),
        "all_camp": _("Everyone at the Camp Site (free; each rolls its Hazard chart)"),
        "each_chooses": _("Each hero chooses"), "hotel": _("The Hotel ({costs})"),
        "camp": _("The Camp Site (free; roll its Hazard chart)"), "press_luck": _("Press your luck"),
        "leave_it": _("Leave it"), "lantern_oil": _("{name} discards Lantern Oil: re-roll the {value}"),
        "keep_roll": _("Keep the roll"), "extra_mana": _("Spend 1 Mana: add a die"),
        "arcane_powder": _("Discard 1 Arcane Powder: +1"), "grit_reroll": _("Spend 1 Grit: re-roll dice"),
        "let_fail": _("Let it fail"), "spice_hit": _("Hit {number} on {figure}: damage {value}"),
        "spend_now": _("Spend it now: +D6 Move"), "let_go_grit": _("Let it go"),
        "revive": _("Use a Revive Token: get back up, no Injury or Madness"), "stay_down": _("Stay down"),
        "room": _("A Room"), "passage": _("A Passage"), "no_tile": _("No tile fits: this exit is not a Door"),
        "fits": _("It fits"), "overlaps": _("It overlaps: discard it"), "yes": _("Yes"), "no": _("No"),
        "pick_up": _("Pick them up"), "leave_them": _("Leave them"), "money_bag": _("{value}: ${price}"),
        "shoots": _("{name} shoots at the rope"), "rope_cut": _("Yes: the rope is cut"),
        "xp_reward": _("D6 x 10 XP"), "gold_reward": _("D6 x $25"), "injury_chart": _("Roll on the Injury chart"),
        "madness_chart": _("Roll on the Madness chart"), "takes_hits": _("{name} takes the Hits"),
        "nobody": _("Nobody"), "get_up": _("KO'd Heroes Recover (no Fight is on)"),
        "reinforcements": _("D3 Bandits arrive (D6 with none on the board)"),
        "fuse": _("A Dynamite token burns away ({count} left)"), "prisoner_moves": _("The Escaped Prisoner moves"),
        "countdown": _("The top Countdown counter comes off"),
    }  # fmt: skip


def known_asks() -> frozenset[str]:
    """The prompt keys this app words (a test holds it to every key the engine can produce)."""
    return frozenset(_questions())


def known_says() -> frozenset[str]:
    """The option keys this app words."""
    return frozenset(_sayings())


def _dice(prompt: Prompt) -> str:
    """The dice a roll prompt asks for: "3 D6", "D36", "2D6", "the Peril Die"."""
    kind = prompt.die
    if kind is DieKind.POOL:
        return ngettext("{n} D6", "{n} D6", prompt.dice_count).format(n=prompt.dice_count)
    if kind is DieKind.PERIL:
        return _("the Peril Die")
    if kind is DieKind.INJURY_3D6:
        return _("3D6 (drop the lowest)")
    return kind.value.upper() if kind is not None else ""


def _skill(skill: object) -> str:
    return _(str(skill).capitalize())


def _test(test: SkillCheck | None) -> str:
    return f"{_skill(test.skill)} {test.target}+" if test is not None else ""


def _values(prompt: Prompt) -> _Facts:
    values = _Facts({fact.name: fact.value for fact in prompt.facts})
    if "skill" in values:
        values["skill"] = _skill(values["skill"])
    if "chart" in values:
        values["chart"] = chart_words(str(values["chart"]))
    if "size" in values:
        size = str(values["size"])
        towns = {"small": _("Small Town"), "medium": _("Medium Town"), "large": _("Large Town")}
        values["town"] = towns.get(size, size)
        values["level"] = {"low": _("Low"), "high": _("High"), "epic": _("Epic")}.get(size, size)
    values["dice"] = _dice(prompt)
    values["purpose"] = prompt.purpose
    facts = {fact.name: fact.value for fact in prompt.facts}
    if prompt.asks == "to_hit":
        values["attack"] = attack_words(facts)
    elif prompt.asks == "save":
        values["save"] = save_words(facts)
        values["against"] = _(" against {name}").format(name=facts["name"]) if facts.get("name") else ""
    elif prompt.asks in ("gain", "loss"):
        die = prompt.die.value if prompt.die is not None else ""
        values["amount"] = rolled_amount(str(facts.get("reason", "")), facts.get("count"), die)
    if "mission" in facts:
        values["title"] = mission_title(facts["mission"]) or str(facts["mission"]).replace("_", " ")
    if str(facts.get("where", "")).startswith("entry:"):
        values["letter"] = str(facts["where"])[6:]
    if prompt.asks == "roll_for":  # what the dice decide: its `reason`'s words, or the English for a newer reason
        values["what"] = roll_for(values) or prompt.purpose
    if prompt.roll is not None:
        values["faces"] = ",".join(map(str, prompt.roll.faces))
    return values


def question_text(prompt: Prompt, names: Callable[[str], str]) -> str:
    """The prompt's question in the app's language, with who answers it before it (`names` turns a hero id into
    their name); the engine's English for a key this app does not know."""
    template = _questions().get(prompt.asks) if prompt.asks else None
    if template is None:
        return plain(prompt.question)
    if prompt.asks == "grit_reroll" and any(f.name == "skill" for f in prompt.facts):
        template = _("spend 1 Grit to re-roll dice of {name}: {skill} {target}+ test? ({faces})")
    facts = {fact.name: fact.value for fact in prompt.facts}
    kind = facts.get("reason", facts.get("chart"))
    if kind is not None:
        template = _kinds().get((str(prompt.asks), str(kind)), template)
    values = _values(prompt)
    body = template.format_map(values)
    if facts.get("reroll") is True:
        body = _("{question} (re-roll)").format(question=body)
    who = names(prompt.hero) if prompt.hero else str(facts.get("figure", "")) if prompt.asks in _BY_FIGURE else ""
    if who:
        return _("{who}: {question}").format(who=who, question=body)
    return body[:1].upper() + body[1:]


def _lies() -> dict[str, str]:
    """Where a Devil's Wheel die lies (the `wheel_die` draw's option keys, `DieLie`)."""
    return {"off": _("off the cards"), "card_edge": _("partly on a card"), "head_edge": _("partly on the Head"),
            "on_cards": _("on the cards"), "on_head": _("on the cards and the Head")}  # fmt: skip


def option_text(prompt: Prompt, option: Option) -> str:
    """One option's words in the app's language: from its key and data; its name when it has no key (but where a
    Devil's Wheel die lies, worded from the option's key); the engine's English for a key this app does not know."""
    if not option.says:
        return (_lies().get(option.key) if prompt.asks == "wheel_die" else None) or option.label
    template = _sayings().get(option.says)
    if template is None:
        return plain(option.label)
    values = _Facts({fact.name: fact.value for fact in option.facts})
    values["test"] = _test(option.test)
    values["costs"] = ", ".join(amount_words(a, values) for a in option.costs)
    values["gains"] = ", ".join(amount_words(a, values) for a in option.gains)
    text = template.format_map(values)
    if option.says == "lose" and "value" in values:
        text = _("{loss} (has {n})").format(loss=text, n=f"${values['value']}" if option.costs and
                                            option.costs[0].field == "gold" else values["value"])  # fmt: skip
    return text
