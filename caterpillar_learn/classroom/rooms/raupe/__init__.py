"""A Räuber Raupe room: tables of two to four pupils in real time, bots in the empty seats (``room``), each pupil at
the lessons' card table (``pupil``)."""
