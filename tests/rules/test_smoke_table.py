"""The scripted table itself, on Bleached Bones and Raging River (FT-TRAVEL-D12, FT-TRAVEL-D42)."""

from tests.rules.table import Table, hero, item


def test_bleached_bones_pass_and_fail_FT_TRAVEL_D12() -> None:
    t = Table.travelling([hero("a", agility=2), hero("b", agility=1, side_bag=("Tonic",) * 5)])
    t.hazard(12)
    t.roll(5, 1)  # a passes
    t.roll(4)  # b fails: bag torn, 5 tokens > 3
    assert t.prompt is not None and t.prompt.hero == "b"
    t.choose("0")
    t.choose("0")
    assert t.hero("a").xp == 10
    assert t.hero("b").bag_torn and t.hero("b").side_bag_capacity == 3 and len(t.hero("b").side_bag) == 3
    assert t.prompt is None


def test_raging_river_turn_back_ends_travel_FT_TRAVEL_D42() -> None:
    t = Table.travelling([hero("a"), hero("b")], hazards=3)
    t.hazard(42)
    t.choose("turn_back")
    assert t.state.phase.value == "arrival"
    assert t.state.travel is not None and t.state.travel.turned_back


def test_raging_river_ford_fail_sweeps_hourglass_items_FT_TRAVEL_D42() -> None:
    t = Table.travelling([hero("a", strength=1, items=(item("Pocket Watch", hourglass=1), item("Hat", "clothing")))])
    t.hazard(42)
    t.choose("ford")
    t.roll(4)  # fails Strength 5+
    t.roll(1)  # the one hourglass item: a 1 sweeps it away
    assert [i.name for i in t.hero("a").items] == ["Hat"]


def test_event_text_shows_the_max_a_permanent_loss_moved_FT_TRAVEL_D11() -> None:
    t = Table.travelling([hero("a", name="Ann")])
    t.hazard(11)  # Possession: lose 1 Sanity permanently, then a D6
    t.roll(4)  # 4-6: no Madness roll
    assert t.hero("a").max_sanity == 9
    assert any("Ann loses 1 Sanity (permanent) (max 10 -> 9)" in text for text in t.texts()), t.texts()
    assert t.prompt is None


def test_a_d3_roll_is_shown_with_its_d6_face_FF_DICE_02() -> None:
    t = Table.travelling([hero("a", name="Ann", grit=0)])
    t.hazard(22)  # Blighted Desert: no Grit, so D3 Wounds
    t.roll(5)
    assert t.hero("a").wounds == 3
    assert any("Ann rolled 5 (D3: 3)" in text for text in t.texts()), t.texts()
