"""The Voila ``caterpillar-learn serve`` runs: :class:`~caterpillar_learn.ui.hosting.voila_app.ClassroomVoila`
with the lessons' printed pages (:mod:`~caterpillar_learn.ui.hosting.print_page`) at ``/print/<lesson>``.

A module of its own so that ``voila_app`` stays as it is; the route could as well be one more line of
``ClassroomVoila.init_handlers``.  Voila is imported here, at the top: only
:func:`caterpillar_learn.ui.hosting.serve.serve` imports this module, when the server really starts.
"""

from __future__ import annotations

from typing import Any

from caterpillar_learn.ui.hosting.print_page import print_route
from caterpillar_learn.ui.hosting.voila_app import ClassroomVoila

__all__ = ["PrintingVoila"]


class PrintingVoila(ClassroomVoila):
    """The lessons' Voila, and each lesson's printed page."""

    def init_handlers(self) -> list[Any]:
        handlers: list[Any] = super().init_handlers()
        return [*handlers, print_route(self.server_url)]
