"""The guided games' designed dice, and what each one shows.

A lesson's guided game does not leave its rule to chance: its dice are a
:class:`Scenario` (setup rolls first, then one roll per round) chosen so that
every rule of the level comes up while the learner is guided.  In the rounds
the scenario *leads* (:attr:`Scenario.led`) the lesson offers one move, the
helper's best (:func:`led_move`), as a tutorial does; in the other rounds
the learner chooses.  :func:`play_guided` plays the helper's line through
the engine, :func:`guided_lines` every line a learner can take (each choice
in a free round before the last led one, then two ways to finish), and
:func:`coverage` names what a game showed, so a test can hold each scenario
to its list whatever the learner chooses.  Free play after the guided game
uses seeded dice.

The names :func:`coverage` knows:

* ``choice``: round 1 offers at least two different boxes;
* ``zero``: round 2 fits no empty box (a forced 0);
* ``tie``: at the end two caterpillars share a total;
* ``split_score`` and ``split_label``: round 1 offers a score made of two
  dice and a label made of two dice;
* ``label_above_6``: the setup variation made a label above 6;
* ``bonus_wrong``: in round 1 a bonus move exists but the best move takes
  none, by a clear margin; ``bonus_right``: in round 2 the best move puts a
  die into a bonus box, by a clear margin (:data:`CLEAR_MARGIN`);
* ``face_A_empty``, ``face_A_filled`` (likewise B, C), ``face_2x``,
  ``face_10``, ``face_butterfly``: the action die shows that face (for A/B/C:
  while that bonus box is empty, or filled).

>>> from caterpillar_learn.lessons.caterpillars import get_lesson, guided_game
>>> sorted(coverage(play_guided(guided_game(get_lesson("01-beginner")))))
['choice', 'tie', 'zero']
>>> get_lesson("03-advanced").scenario.led
(1,)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from caterpillar_learn.caterpillars import BONUS_BOXES, Game, Move, Roll, State, legal_moves, parse_roll
from caterpillar_learn.caterpillars.sheet import ROUNDS

__all__ = [
    "ALL_ROUNDS",
    "CLEAR_MARGIN",
    "Scenario",
    "best_move",
    "bonus_margin",
    "coverage",
    "guided_lines",
    "is_led",
    "play_guided",
    "rolls_of",
]

#: Every round of a game, for a scenario that leads them all.
ALL_ROUNDS: tuple[int, ...] = tuple(range(1, ROUNDS + 1))

#: How many points of expected final score make a bonus decision clear enough to ask about.
#: Early in a game a bonus rarely wins by much (the two dice left make a small score), so a
#: round is chosen where the helper's estimate prefers one answer by at least this much.
CLEAR_MARGIN = 0.3


@dataclass(frozen=True)
class Scenario:
    """Designed dice: setup rolls first (three dice each), then one roll per round.

    ``covers`` names what the guided game must show (see :func:`coverage`);
    ``led`` the rounds (from 1) in which the lesson offers only the helper's
    move, because a rule to come depends on it.
    """

    rolls: tuple[str, ...]
    covers: tuple[str, ...] = ()
    led: tuple[int, ...] = ()


def is_led(scenario: Scenario, game: Game) -> bool:
    """Whether ``game``'s current round is one the scenario leads."""
    return game.phase == "play" and game.state.round in scenario.led


def rolls_of(level: str, variation: bool, scenario: Scenario, setup_rolls: int) -> list[Roll]:
    """The scenario's rolls as the engine's :class:`Roll` objects."""
    rolls = []
    for turn, words in enumerate(scenario.rolls):
        if turn < setup_rolls:
            rolls.append(Roll(tuple(sorted(int(d) for d in words.split()))))
        else:
            rolls.append(parse_roll(words, level))
    return rolls


def best_move(state: State, roll: Roll) -> Move:
    """The helper's best move (what the guided line plays, and what a hint shows)."""
    # Imported where used: the advice package loads NumPy, which a lesson page must not wait for.
    from caterpillar_learn.advice import hint

    return hint(state, roll).move


def play_guided(game: Game, rounds: int = 12) -> Game:
    """Play ``game`` along the helper's best moves (setup: the first choice), ``rounds`` rounds at most."""
    while game.phase == "setup":
        game.play(game.legal_moves()[0])
    for _ in range(rounds):
        if game.phase != "play":
            break
        game.play(best_move(game.state, game.roll()))
    return game


def guided_lines(game: Game, scenario: Scenario) -> Iterator[Game]:
    """Every finished game a learner can reach from the start of ``game``: each move in the free rounds
    up to the scenario's last led round, the helper's move in the led ones; after that, two finishes (the
    helper's moves, and always the first legal move)."""
    while game.phase == "setup":
        game.play(game.legal_moves()[0])
    last = max(scenario.led, default=0)

    def finish(start: Game) -> Iterator[Game]:
        for helper in (True, False):
            end = Game.from_json(start.to_json())
            while end.phase == "play":
                end.play(best_move(end.state, end.roll()) if helper else end.legal_moves()[0])
            yield end

    def branch(at: Game) -> Iterator[Game]:
        if at.phase != "play" or at.state.round > last:
            yield from finish(at)
            return
        if at.state.round in scenario.led:
            choices: list[Move] = [best_move(at.state, at.roll())]
        else:
            choices = [move for move in at.legal_moves() if isinstance(move, Move)]
        for move in choices:
            after = Game.from_json(at.to_json())
            after.play(move)
            yield from branch(after)

    yield from branch(game)


def bonus_margin(state: State, roll: Roll) -> tuple[float, float]:
    """The best expected final with a bonus move, and without one."""
    from caterpillar_learn.advice import rank_options

    with_bonus, without = float("-inf"), float("-inf")
    for option in rank_options(state, roll)[0]:
        value = float(option.expected_final)
        if option.move.bonus is not None:
            with_bonus = max(with_bonus, value)
        else:
            without = max(without, value)
    return with_bonus, without


def coverage(game: Game) -> set[str]:
    """What the finished guided game showed (see the module docstring)."""
    play = [turn for turn in game.history if not turn.is_setup]
    shown: set[str] = set()
    if any(label is not None and label > 6 for label in game.state.labels):
        shown.add("label_above_6")
    if play:
        first = play[0]
        moves = [m for m in legal_moves(first.before, first.roll) if not m.zero]
        if len({m.slot for m in moves}) >= 2:
            shown.add("choice")
        ways = [way for m in moves for way in m.ways]
        if any(len(w.score_pieces) == 2 for w in ways):
            shown.add("split_score")
        if any(len(w.label_pieces) == 2 for w in ways):
            shown.add("split_label")
    if len(play) > 1 and all(m.zero for m in legal_moves(play[1].before, play[1].roll)):
        shown.add("zero")
    if game.state.is_complete and len(set(game.state.totals)) < 3:
        shown.add("tie")
    if game.state.level.rules.bonus_boxes and len(play) > 1:
        with_bonus, without = bonus_margin(play[0].before, play[0].roll)
        if with_bonus > float("-inf") and without >= with_bonus + CLEAR_MARGIN:
            shown.add("bonus_wrong")
        with_bonus, without = bonus_margin(play[1].before, play[1].roll)
        if with_bonus >= without + CLEAR_MARGIN:
            shown.add("bonus_right")
    for turn in play:
        face = turn.roll.action
        if face in BONUS_BOXES:
            filled = turn.before.bonus[BONUS_BOXES.index(face)] is not None
            shown.add(f"face_{face}_{'filled' if filled else 'empty'}")
        elif face is not None:
            shown.add(f"face_{face}")
    return shown
