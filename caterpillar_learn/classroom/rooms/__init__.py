"""The kinds of room a class plays in, a package each: its room, its pupil's controller, its pupil's page.

* :mod:`~caterpillar_learn.classroom.rooms.caterpillars`: one Caterpillars game, the class's dice;
* :mod:`~caterpillar_learn.classroom.rooms.raupe`: Räuber Raupe tables of two to four pupils and bots;
* :mod:`~caterpillar_learn.classroom.rooms.lesson`: one of the lessons, each pupil at their own pace.

What every room shares (its log, its door, its pages) is beside this package:
:mod:`~caterpillar_learn.classroom.eventroom`, :mod:`~caterpillar_learn.classroom.lobby`,
:mod:`~caterpillar_learn.classroom.pages`, :mod:`~caterpillar_learn.classroom.store`.
"""
