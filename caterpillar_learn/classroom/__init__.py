"""The classroom server: a Panel server where a class plays together (``caterpillar-learn classroom``).

A host, like Voila and the Panel app: it may use everything below it (the
engines, the advice, the widgets) and nothing imports it.

* :mod:`.store`: the SQLite event log, written and committed before anything is shown;
* :mod:`.eventroom`: what every room is, whatever it plays: its log, its lock, its door and its pages;
* :mod:`.rooms`: a Caterpillars room, the engine replaying its log;
* :mod:`.tables`: Räuber Raupe tables of 2-4 pupils, bots in the empty seats;
* :mod:`.lessonroom`: a lesson room, each pupil's lesson controller replaying their events;
* :mod:`.lessonpupil`: the lesson room's settings and a pupil's controller (the lesson's own, with the hold);
* :mod:`.lessonpage`: a pupil's lesson widget in a lesson room (and the teacher's read-only look at it);
* :mod:`.roomindex`: one row a room in the store, so a restart reads the index, not every event;
* :mod:`.lobby`: every room of the server, listed from the index at a restart and woken when used; joining;
* :mod:`.archive`: a finished room's record written to a file before it leaves the live log;
* :mod:`.codes`: room codes (:mod:`secrets`), nicknames, the join limit;
* :mod:`.pupil`: a pupil's page (the lessons' widgets on the room's game: the room's dice, the room's helper);
* :mod:`.consoles`: the teacher's console and the pupils' door (their controllers and widgets), and
  :mod:`.screens` what they show (the desk, the room on the projector, the door, a lesson room's grid);
* :mod:`.components`: the widgets as Panel components (a cheaper redraw than the lessons');
* :mod:`.pages`: the teacher's console, the pupils' door and a pupil's sheet as Panel pages;
* :mod:`.push`: a room's changes to every page that follows it, one page a turn of the event loop;
* :mod:`.tweaks`: the tweaks of Bokeh, Tornado and the interpreter, each with the upstream hook it uses;
* :mod:`.server`: the Panel server itself (:func:`~.server.serve`), and :mod:`.cli` its command line.
"""
