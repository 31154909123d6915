"""Where the lessons are hosted: Voila (:mod:`~caterpillar_learn.ui.hosting.serve`,
``caterpillar-learn serve``) and Panel (:mod:`~caterpillar_learn.ui.hosting.panel_app`,
the same widgets through :class:`panel.custom.AnyWidgetComponent`).

Nothing here holds a rule or draws a picture: a host only carries events to
a widget's controller and views back to the page.
"""
