"""The Räuber Raupe widget: controller (the table behind it), views (its JSON), widget.

>>> from caterpillar_learn.ui.raupe import RaupeWidget
>>> RaupeWidget("11-raupe-colour").table["mode"]
'colour'
"""

from caterpillar_learn.ui.raupe.controller import RaupeTable
from caterpillar_learn.ui.raupe.widget import RaupeWidget

__all__ = ["RaupeTable", "RaupeWidget"]
