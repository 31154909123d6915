"""A Caterpillars room: the class plays one game on the dice the teacher rolls (``room``), each pupil on the lessons'
board (``pupil``)."""
