"""The strategy lab widget: controller (the settings and the last report), views (its JSON), widget.

>>> from caterpillar_learn.ui.lab import LabWidget
>>> LabWidget("intermediate").lab["controls"]["level"]
'intermediate'
"""

from caterpillar_learn.ui.lab.controller import LabBench
from caterpillar_learn.ui.lab.widget import LabWidget

__all__ = ["LabBench", "LabWidget"]
