"""The widgets (Python side): one skeleton, one sub-package per game, and the hosts.

* :mod:`~caterpillar_learn.ui.base`: the controller protocol and the one
  anywidget base class (events in, views out, the error guard);
* :mod:`~caterpillar_learn.ui.caterpillars` and :mod:`~caterpillar_learn.ui.raupe`:
  each game's controller, views and widget;
* :mod:`~caterpillar_learn.ui.hosting`: Voila (``caterpillar-learn serve``) and Panel;
* :mod:`~caterpillar_learn.ui.assets`: the front-end files in ``widgets/``.

This module imports nothing, so a host can load :mod:`assets` alone.
"""
