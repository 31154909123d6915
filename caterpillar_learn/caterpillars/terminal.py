"""The sheet as plain text, for the terminal game and for logs.

>>> from caterpillar_learn.caterpillars.sheet import State
>>> print(render_sheet(State("advanced", (1, 2, 5, 6) * 3, (4,) + (None,) * 11, (None, 3, None))))
Alex    (green)  [1: 4] [2: .] [5: .] [6: .]  = 4   A: .
Bobby   (blue)   [1: .] [2: .] [5: .] [6: .]  = 0   B: 3
Charlie (purple) [1: .] [2: .] [5: .] [6: .]  = 0   C: .
"""

from __future__ import annotations

from caterpillar_learn.caterpillars.sheet import BONUS_BOXES, CATERPILLARS, COLOURS, State


def _cell(value: int | None) -> str:
    return "." if value is None else str(value)


def render_sheet(state: State) -> str:
    """One line per caterpillar: ``[label: score]`` boxes, total, bonus box."""
    lines = []
    totals = state.totals
    for index, name in enumerate(CATERPILLARS):
        boxes = " ".join(
            f"[{_cell(label)}: {_cell(score)}]" for label, score in zip(state.labels_of(name), state.scores_of(name))
        )
        line = f"{name:<7} {'(' + COLOURS[name] + ')':<8} {boxes}  = {totals[index]:<3}"
        if state.level.rules.bonus_boxes:
            line += f" {BONUS_BOXES[index]}: {_cell(state.bonus[index])}"
        lines.append(line.rstrip())
    return "\n".join(lines)
