"""Each rule decision of docs/RULES.md with worked examples, the seed's own first."""

from __future__ import annotations

import pytest

from caterpillar_learn.caterpillars import (
    DEFAULT_LABELS,
    IllegalMoveError,
    InvalidStateError,
    Move,
    Roll,
    State,
    apply,
    legal_moves,
    make_roll,
    score,
    why_not,
)
from caterpillar_learn.caterpillars.sheet import slot_of
from caterpillar_learn.i18n import language


def sheet(level: str, labels: dict[str, list[int]], **filled: list[int | None]) -> State:
    flat = labels["Alex"] + labels["Bobby"] + labels["Charlie"]
    scores = [None] * 12
    for name, values in filled.items():
        start = 4 * ("Alex", "Bobby", "Charlie").index(name)
        scores[start : start + 4] = values
    return State(level, tuple(flat), tuple(scores))


def effects(state: State, roll: Roll) -> set[tuple[str, int, int, bool, tuple[str, int] | None]]:
    out = set()
    for m in legal_moves(state, roll):
        bonus = None if m.bonus is None else ("ABC"[m.bonus[0]], m.bonus[1])
        out.add((m.caterpillar, m.box, m.score, m.zero, bonus))
    return out


LABELS = {"Alex": [1, 2, 4, 3], "Bobby": [5, 6, 1, 1], "Charlie": [1, 6, 2, 5]}


# -- rule 1: the sheet ---------------------------------------------------------


def test_default_layout_has_six_printed_labels_from_1_2_5_6_and_six_blanks() -> None:
    printed = [label for label in DEFAULT_LABELS if label is not None]
    assert len(printed) == 6 and set(printed) <= {1, 2, 5, 6}
    assert DEFAULT_LABELS.count(None) == 6
    for caterpillar in range(3):
        assert DEFAULT_LABELS[4 * caterpillar : 4 * caterpillar + 4].count(None) == 2


def test_any_layout_can_be_given_but_moves_need_every_label() -> None:
    state = State.new("beginner")
    with pytest.raises(InvalidStateError, match="finish the setup"):
        legal_moves(state, Roll((1, 2)))
    custom = State.new("beginner", [3] * 12)
    assert len(legal_moves(custom, Roll((3, 4)))) == 12


# -- rule 2: score group and label group -------------------------------------


def test_seed_beginner_example_3_and_5() -> None:
    """'You rolled a 3 and a 5: use the 5 as your score ... an empty box labelled 3.'"""
    state = sheet("beginner", LABELS)
    found = effects(state, Roll((3, 5)))
    assert ("Alex", 3, 5, False, None) in found  # the 5 in the box labelled 3
    assert ("Bobby", 0, 3, False, None) in found  # or the 3 in a box labelled 5
    assert ("Charlie", 3, 3, False, None) in found
    assert len(found) == 3
    how = legal_moves(state, Roll((3, 5))).find(Move.of("Alex", 3, 5))
    assert how is not None and how.how == ["Score 5, in a box labelled 3."]


def test_seed_intermediate_example_2_3_6() -> None:
    """'add 2 + 3 = 5 ... box labeled 6' or '3 + 6 = 9 ... place 2 in a box labeled 9'."""
    labels = {"Alex": [6, 9, 4, 3], "Bobby": [5, 6, 1, 1], "Charlie": [1, 6, 2, 5]}
    state = sheet("intermediate", labels)
    found = effects(state, Roll((2, 3, 6)))
    assert ("Alex", 0, 5, False, None) in found
    assert ("Alex", 1, 2, False, None) in found
    # every split: score/label pairs (2,9) (3,8) (6,5) (9,2) (8,3) (5,6)
    assert ("Charlie", 2, 9, False, None) in found  # 3 + 6 = 9 into the box labelled 2
    assert ("Alex", 3, 8, False, None) in found  # 2 + 6 = 8 into the box labelled 3
    assert ("Bobby", 0, 6, False, None) in found  # 6 into the box labelled 2 + 3 = 5
    assert all(not zero for *_, zero, _ in found)
    move = legal_moves(state, Roll((2, 3, 6))).find(Move.of("Alex", 1, 2))
    assert move is not None and move.how == ["Score 2, in a box labelled 3 + 6 = 9."]


def test_all_dice_are_used_no_die_left_out() -> None:
    # with 1, 1, 6 a box labelled 6 can only take 1 + 1 = 2, never a lone 1
    state = sheet("intermediate", {"Alex": [6, 12, 12, 12], "Bobby": [12] * 4, "Charlie": [12] * 4})
    assert effects(state, Roll((1, 1, 6))) == {("Alex", 0, 2, False, None)}


# -- rule 3: bonus boxes ---------------------------------------------------------


def test_seed_advanced_example_2_3_5_with_the_5_into_A() -> None:
    """'assign the 5 to Bonus box A ... score 3 and assign it to a box labeled 2.'"""
    state = sheet("advanced", LABELS)
    move = Move.of("Alex", 1, 3, bonus=("A", 5))
    listed = legal_moves(state, Roll((2, 3, 5))).find(move)
    assert listed is not None
    assert listed.how == ["Put the 5 into bonus box A. Score 3, in a box labelled 2."]
    after = apply(state, move, Roll((2, 3, 5)))
    assert after.bonus == (5, None, None)
    # '... your caterpillar A(lex) takes flight and you add the 5 points from Bonus box A'
    final = State(after.level, after.labels, (3, 3, 4, 4, 1, 1, 1, 1, 6, 6, 6, 6), after.bonus)
    result = score(final)
    assert (result.flying, result.bonus, result.final) == ("Alex", 5, 19)


def test_bonus_box_only_once_per_game_and_one_per_round() -> None:
    state = State(
        "advanced", tuple(LABELS["Alex"] + LABELS["Bobby"] + LABELS["Charlie"]), (None,) * 11 + (2,), (4, None, None)
    )
    moves = legal_moves(state, Roll((2, 3, 5)))
    assert all(m.bonus is None or m.bonus[0] != 0 for m in moves)  # A is full
    assert {m.bonus[0] for m in moves if m.bonus} == {1, 2}
    assert all(m.bonus is None or m.bonus[1] in (2, 3, 5) for m in moves)


def test_no_bonus_boxes_below_advanced() -> None:
    state = sheet("intermediate", LABELS)
    assert all(m.bonus is None for m in legal_moves(state, Roll((2, 3, 5))))


# -- rule 4: zero ------------------------------------------------------------------


def test_beginner_zero_when_no_label_matches_any_die() -> None:
    state = sheet("beginner", {"Alex": [1, 1, 2, 2], "Bobby": [5, 5, 6, 6], "Charlie": [1, 2, 5, 6]})
    found = effects(state, Roll((3, 4)))
    assert found == {(name, box, 0, True, None) for name in ("Alex", "Bobby", "Charlie") for box in range(4)}


def test_no_zero_while_a_placement_exists() -> None:
    state = sheet("beginner", {"Alex": [1, 1, 2, 2], "Bobby": [5, 5, 6, 6], "Charlie": [1, 2, 5, 3]})
    found = effects(state, Roll((3, 4)))
    assert found == {("Charlie", 3, 4, False, None)}


def test_zero_is_decided_per_bonus_choice() -> None:
    """With 1, 1, 6 and only boxes labelled 7 empty: placing needs all three dice."""
    labels = {"Alex": [7, 7, 7, 7], "Bobby": [7, 7, 7, 7], "Charlie": [7, 7, 7, 7]}
    state = State("advanced", tuple(label for boxes in labels.values() for label in boxes), (None,) + (3,) * 11)
    found = effects(state, Roll((1, 1, 6)))
    assert ("Alex", 0, 1, False, None) in found  # 1 as score, 1 + 6 = 7 as label
    assert ("Alex", 0, 0, True, None) not in found  # a placement exists without a bonus
    # with a die in a bonus box, 2 dice remain and no split makes 7: a zero, bonus kept
    for box in "ABC":
        assert ("Alex", 0, 0, True, (box, 1)) in found
        assert ("Alex", 0, 0, True, (box, 6)) in found
    # ... and its words say so: the dice left fit nothing (not "no box matches these dice")
    zero = legal_moves(state, Roll((1, 1, 6))).find(Move.of("Alex", 0, 0, zero=True, bonus=("B", 6)))
    assert zero is not None and zero.how == [
        "With the 6 in bonus box B, the 1 and the 1 fit no empty box, so cross out a box of your choice with 0."
    ]


def test_a_zero_after_a_bonus_choice_names_the_dice_left_in_both_languages() -> None:
    """The issue's Advanced 2 2 6: with the 6 kept, the 2 and 2 fit nothing, though 2 + 2 = 4 fits a 6."""
    labels = {"Alex": [1, 3, 6, 4], "Bobby": [6, 1, 3, 5], "Charlie": [5, 4, 1, 1]}
    state = sheet("advanced", labels)
    roll = Roll((2, 2, 6))
    assert ("Alex", 2, 4, False, None) in effects(state, roll)  # without a bonus die: 2 + 2 = 4 in the box labelled 6
    zero = legal_moves(state, roll).find(Move.of("Alex", 0, 0, zero=True, bonus=("B", 6)))
    assert zero is not None
    assert zero.how == [
        "With the 6 in bonus box B, the 2 and the 2 fit no empty box, so cross out a box of your choice with 0."
    ]
    with language("de"):
        assert zero.how == [
            "Mit der 6 in Bonusfeld B passen die 2 und die 2 in kein leeres Feld. "
            "Streich also ein leeres Feld deiner Wahl durch und schreib eine 0 hinein."
        ]


def test_a_zero_with_the_action_die_in_play_names_it() -> None:
    state = State("expert", (12,) * 12, bonus=(None, 1, None))
    roll = make_roll("expert", [1, 2, 3], "B")  # bonus box B's 1 joins the dice left
    zero = legal_moves(state, roll).find(Move.of("Bobby", 1, 0, zero=True, bonus=("C", 3)))
    assert zero is not None and zero.how == [
        "With the 3 in bonus box C, the 1, the 2 and the action die fit no empty box, "
        "so cross out a box of your choice with 0."
    ]


def test_zero_with_a_bonus_die_as_the_seed_notes() -> None:
    """'Even if you ... must enter a 0, you are still allowed to assign a die value to an open Bonus box.'"""
    state = State("advanced", (12,) * 12)
    found = effects(state, Roll((1, 2, 3)))
    assert ("Bobby", 1, 0, True, None) in found
    assert ("Bobby", 1, 0, True, ("C", 3)) in found


# -- rule 5: the action die ---------------------------------------------------------


def test_seed_expert_example_butterfly_then_C() -> None:
    """'2, 5, 6 and the Butterfly ... 6 to Bonus box C ... (2 + 5 = 7) in any empty box'."""
    state = sheet("expert", LABELS)
    roll = make_roll("expert", [2, 5, 6], "butterfly")
    found = effects(state, roll)
    for name in ("Alex", "Bobby", "Charlie"):
        for box in range(4):
            assert (name, box, 7, False, ("C", 6)) in found
    state = apply(state, Move.of("Charlie", 3, 7, bonus=("C", 6)), roll)
    # 'Next round, you roll 1, 2, 2, and a C ... score 2 + 2 + 6 = 10 points in an empty box labeled 1.'
    roll = make_roll("expert", [1, 2, 2], "C")
    move = legal_moves(state, roll).find(Move.of("Bobby", 2, 10))
    assert move is not None
    assert "Score 2 + 2 + 6 (from bonus box C) = 10, in a box labelled 1." in move.how


def test_butterfly_is_a_choice_beside_rule_2() -> None:
    state = sheet("expert", LABELS)
    found = effects(state, make_roll("expert", [3, 4, 5], "butterfly"))
    assert ("Alex", 0, 12, False, None) in found  # butterfly: 3 + 4 + 5 anywhere
    assert ("Alex", 3, 9, False, None) in found  # rule 2: 4 + 5 into the box labelled 3


def test_action_A_with_empty_bonus_box_changes_nothing() -> None:
    state = sheet("expert", LABELS)
    with_a = effects(state, make_roll("expert", [2, 3, 6], "A"))
    plain = State("advanced", state.labels, state.scores)
    assert with_a == effects(plain, Roll((2, 3, 6)))


def test_a_bonus_box_filled_this_round_does_not_join() -> None:
    """'you may not, in the same turn, both write a number in a Bonus box and use that Bonus box's value.'"""
    state = sheet("expert", LABELS)
    moves = legal_moves(state, make_roll("expert", [2, 3, 6], "A"))
    assert all(
        len(way.score_pieces) + len(way.label_pieces) == (3 if m.bonus is None else 2) for m in moves for way in m.ways
    )


def test_action_10_is_a_fourth_die() -> None:
    state = sheet("expert", {"Alex": [10, 12, 12, 12], "Bobby": [12] * 4, "Charlie": [12] * 4})
    roll = make_roll("expert", [1, 2, 3], "10")
    found = {e for e in effects(state, roll) if e[4] is None}
    twelves = {(name, box) for name in ("Alex", "Bobby", "Charlie") for box in range(4)} - {("Alex", 0)}
    # label 10 is the 10 alone (score 1 + 2 + 3); label 12 is 2 + 10 (score 1 + 3)
    assert found == {("Alex", 0, 6, False, None)} | {(n, b, 4, False, None) for n, b in twelves}
    move = legal_moves(state, roll).find(Move.of("Alex", 1, 4))
    assert move is not None and move.how == ["Score 1 + 3 = 4, in a box labelled 2 + 10 (action die) = 12."]


def test_action_2x_doubles_exactly_one_die_and_never_the_bonus_value() -> None:
    state = sheet("expert", {"Alex": [4, 12, 12, 12], "Bobby": [12] * 4, "Charlie": [12] * 4})
    found = effects(state, make_roll("expert", [2, 3, 4], "2x"))
    expected = {("Alex", 0, 7, False, None), ("Alex", 0, 8, False, None)}  # 4 (2 doubled) + 3 | 6 (3 doubled) + 2
    for box in "ABC":  # a bonus box takes a plain face; the 2x then doubles one of the two left
        expected |= {("Alex", 0, 6, False, (box, 2)), ("Alex", 0, 4, False, (box, 3)), ("Alex", 0, 3, False, (box, 4))}
    assert found == expected


# -- errors --------------------------------------------------------------------------


def test_apply_with_roll_rejects_an_illegal_move_and_keeps_the_state() -> None:
    state = sheet("beginner", LABELS)
    with pytest.raises(IllegalMoveError, match="expected one of"):
        apply(state, Move.of("Alex", 0, 5), Roll((3, 5)))
    assert state.filled == 0


def test_apply_without_roll_checks_what_it_can() -> None:
    state = sheet("beginner", LABELS, Alex=[1, None, None, None])
    with pytest.raises(IllegalMoveError, match="an empty box"):
        apply(state, Move.of("Alex", 0, 2))
    with pytest.raises(IllegalMoveError, match="move score: got 9"):
        apply(state, Move.of("Alex", 1, 9))
    with pytest.raises(IllegalMoveError, match="no bonus box below advanced"):
        apply(state, Move.of("Alex", 1, 2, bonus=("A", 2)))


def test_why_not_explains_an_illegal_box() -> None:
    state = sheet("beginner", LABELS, Alex=[4, None, None, None])
    assert "already filled" in why_not(state, Roll((3, 5)), slot_of("Alex", 0))
    assert why_not(state, Roll((3, 5)), slot_of("Alex", 1)) == (
        "This box's label is 2. With 3 and 5, only labels 3 or 5 fit."
    )


def test_a_move_in_a_learners_words_counts_boxes_from_one() -> None:
    assert Move.of("Alex", 0, 0, zero=True).describe() == "Alex, box 1: cross out with 0"
    assert Move.of("Charlie", 3, 9).describe() == "Charlie, box 4: score 9"
    assert Move.of("Bobby", 1, 4, bonus=("A", 5)).describe() == "Bobby, box 2: score 4 (and 5 into bonus box A)"
