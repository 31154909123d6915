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
