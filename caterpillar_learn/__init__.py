"""caterpillar-learn: learn the games Caterpillars and Räuber Raupe in Jupyter.

The rules live in :mod:`caterpillar_learn.caterpillars` and
:mod:`caterpillar_learn.raupe`; they import nothing from Jupyter.
"""

from __future__ import annotations

__version__ = "0.1.0"
