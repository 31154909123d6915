"""A teacher's own lessons in a lesson room: the lesson files of the folder the classroom serves
(``caterpillar-learn classroom --lessons DIR``), each offered on the console beside ours.

The folder is read again each time the console lists the lessons, so a file added or mended during the day is
offered at once; a file the engine refuses is left out (``lesson check`` says why).  A room made from a file keeps
the file's text in its log (:attr:`~caterpillar_learn.classroom.rooms.lesson.pupil.LessonSettings.source`): the page
never sends a lesson, only the name of one the server offered.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as folder:
...     _ = pathlib.Path(folder, "doubles.toml").write_text('format = 1\\nlevel = "beginner"\\ntitle = "Doubles"\\n'
...         'age = 5\\nline = "L"\\n[[step]]\\nroll = "2 2"\\n', encoding="utf-8")
...     _ = pathlib.Path(folder, "broken.toml").write_text("format = 2", encoding="utf-8")
...     own = OwnLessons(pathlib.Path(folder))
...     sorted(own.titles()), own.source("broken"), own.source("doubles").startswith("format = 1")
(['doubles'], None, True)
"""

from __future__ import annotations

from pathlib import Path

from caterpillar_learn.classroom.codes import ClassroomError
from caterpillar_learn.classroom.rooms.lesson.pupil import LESSON_NAMES, MOST_SOURCE, own_lesson
from caterpillar_learn.lessons.caterpillars import lesson_title

__all__ = ["OwnLessons"]


class OwnLessons:
    """The lesson files of ``folder`` (``None``: the classroom serves no folder of lessons)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self._seen: tuple[tuple[str, int, int], ...] = ()
        self._found: dict[str, str] = {}

    def _sources(self) -> dict[str, str]:
        """Each fine lesson file's name (its file name without ``.toml``) and text, in name order; read again
        only when a file of the folder has changed (the console asks at every redraw)."""
        if self.folder is None or not self.folder.is_dir():
            return {}
        paths = sorted(self.folder.glob("*.toml"))
        try:
            seen = tuple((path.name, path.stat().st_mtime_ns, path.stat().st_size) for path in paths)
        except OSError:  # a file went while the folder was read: read it all
            seen = ()
        if seen and seen == self._seen:
            return self._found
        found = {}
        for path in paths:
            name = path.stem
            if name in LESSON_NAMES or not path.is_file() or path.stat().st_size > MOST_SOURCE:
                continue  # one of ours keeps its name; a file far larger than a lesson is not one
            try:
                source = path.read_text(encoding="utf-8")
                own_lesson(name, source)
            except (OSError, UnicodeDecodeError, ClassroomError):
                continue
            found[name] = source
        self._seen, self._found = seen, found
        return found

    def titles(self) -> dict[str, str]:
        """Each fine lesson's name and title, as the console lists them."""
        return {name: lesson_title(own_lesson(name, source)) for name, source in self._sources().items()}

    def source(self, name: object) -> str | None:
        """The text of the lesson file called ``name``, if the folder has one the engine finds fine."""
        return self._sources().get(name) if isinstance(name, str) else None
