"""A lesson room: the class plays one of the lessons (``room``), each pupil the lesson's own controller (``pupil``)
on the lesson's own page (``page``)."""
