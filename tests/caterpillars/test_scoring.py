"""Scoring: the median flies, ties, bonus, ranking (rule decision 6)."""

from __future__ import annotations

from caterpillar_learn.caterpillars import State, rank, score

LABELS = (1,) * 12


def sheet(level: str, alex: int, bobby: int, charlie: int, bonus=(None, None, None)) -> State:
    def boxes(total: int) -> list[int]:
        quarter, rest = divmod(total, 4)
        return [quarter + (1 if i < rest else 0) for i in range(4)]

    return State(level, LABELS, tuple(boxes(alex) + boxes(bobby) + boxes(charlie)), bonus)


def test_median_caterpillar_flies_and_the_others_are_struck_out() -> None:
    result = score(sheet("beginner", 20, 9, 14))
    assert (result.flying, result.final, result.bonus, result.all_boxes) == ("Charlie", 14, 0, 43)
    assert result.explanation == (
        "Totals: Alex 20, Bobby 9, Charlie 14.",
        "Alex has the highest total (20) and is struck out.",
        "Bobby has the lowest total (9) and is struck out.",
        "Charlie has the median total (14) and flies.",
        "Final score: 14.",
    )


def test_bonus_counts_only_at_advanced_and_expert_and_only_for_the_flyer() -> None:
    assert score(sheet("advanced", 20, 9, 14, (6, 5, 3))).final == 17  # C holds 3
    assert score(sheet("expert", 20, 9, 14, (6, 5, None))).final == 14  # C empty
    assert score(State("intermediate", LABELS, (3,) * 12)).final == 12


def test_a_tie_is_the_players_choice_modelled_as_the_best_bonus() -> None:
    result = score(sheet("advanced", 10, 10, 15, (None, 4, None)))
    assert (result.flying, result.final) == ("Bobby", 14)
    assert result.explanation[1] == (
        "Alex and Bobby tie on 10. The rules let the player choose which to strike out; the best choice is taken here: "
        "Bobby flies, whose bonus box holds the most (4)."
    )
    assert "Alex also has 10 and is struck out instead." in result.explanation
    low_tie = score(sheet("expert", 10, 15, 15, (1, 2, 6)))
    assert (low_tie.flying, low_tie.final) == ("Charlie", 21)
    all_tied = score(sheet("beginner", 8, 8, 8))
    assert (all_tied.flying, all_tied.final) == ("Alex", 8)


def test_incomplete_sheet_is_scored_as_it_stands_and_says_so() -> None:
    state = State("beginner", LABELS, (3,) + (None,) * 11)
    result = score(state)
    assert not result.complete and result.final == 0
    assert result.explanation[0] == "The sheet is not finished yet: 11 boxes are still empty and count 0."


def test_ranking_breaks_ties_with_all_boxes_then_shares_places() -> None:
    players = {
        "Ada": sheet("beginner", 10, 12, 14),  # final 12, all 36
        "Ben": sheet("beginner", 2, 12, 30),  # final 12, all 44: wins the tie
        "Cy": sheet("beginner", 12, 12, 12),  # final 12, all 36: shares with Ada
        "Dee": sheet("beginner", 13, 13, 13),  # final 13
    }
    standings = [(s.place, s.player, s.final, s.all_boxes) for s in rank(players)]
    assert standings == [
        (1, "Dee", 13, 39),
        (2, "Ben", 12, 44),
        (3, "Ada", 12, 36),
        (3, "Cy", 12, 36),
    ]
