"""What both servers share on the network: the lessons' server (``caterpillar-learn serve``,
:mod:`caterpillar_learn.ui.hosting`) and the classroom server (``caterpillar-learn classroom``,
:mod:`caterpillar_learn.classroom`) each import their network policy from here, as equals
(:mod:`~caterpillar_learn.hosting.network`)."""
