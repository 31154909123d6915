"""A Räuber Raupe lesson table ready to play: its opening question (if the lesson asks one) answered."""

from __future__ import annotations

from caterpillar_learn.ui.raupe import RaupeWidget


def ready(lesson: str = "15-raupe-race", seed: int = 1) -> RaupeWidget:
    """``RaupeWidget(lesson, seed)`` with "Which of your cards fit?" answered right, as a learner would."""
    widget = RaupeWidget(lesson, seed=seed)
    question = widget.session.quiz.question
    if question is not None:
        for option in sorted(question.correct):
            widget.act("answer", option=option)
        widget.act("check")
        assert widget.question["feedback"]["correct"] is True
    return widget


def slip(widget: RaupeWidget) -> None:
    """The learner puts down a card that does not fit, in plain sight of a pile that has not changed for a while."""
    from caterpillar_learn.raupe import legal_plays
    from caterpillar_learn.ui.raupe.controller import TOO_LATE

    table = widget.session
    while table.real - table.pile_changed < TOO_LATE:
        widget.act("tick", dt=0.5)
    state = table.game.state
    fitting = set(legal_plays(state, 0))
    index, side = next(
        (index, side)
        for index, card in enumerate(state.hands[0])
        for side in range(len(card.sides))
        if (index, side) not in fitting
    )
    if widget.hand[index]["side"] != side:
        widget.act("flip", index=index)
    widget.act("play", index=index, seen=len(state.pile), since=9.0)  # the pile, long in sight
