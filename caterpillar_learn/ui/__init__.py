"""Widgets (Python side) for the lessons; their front ends live in ``widgets/``.

Import the widget classes from :mod:`caterpillar_learn.ui.widgets`; this
package module stays import-light so the hosts can load :mod:`assets` alone.
"""
