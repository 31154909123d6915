"""The class's score sheets on paper: one printable page per pupil, for the teacher (``/sheets``).

Caterpillars is a roll-and-write game: a class may play it with pens on
printed sheets, the teacher rolling at the front.  The console's "Print
score sheets" opens ``/sheets?room=CODE``: a page per pupil of the room,
with the pupil's nickname, the room's level and code, the three
caterpillars with their labelled boxes (each pupil's own labels, in a room
whose labels come from the class's setup rolls), the ``=`` boxes, the bonus
boxes at Advanced and Expert, the final scoring track, and at Expert what
each face of the action die does (:func:`sheets_page`, drawn by
:func:`~caterpillar_learn.caterpillars.paper.paper_svg`).  A room without
pupils yet gives one sheet without a name, to copy.

**Paper.** Every page fits both A4 and US Letter with 12 mm margins (the
sheet is at most 186 mm wide, the width of A4 inside them, and shorter than
Letter inside them), so either paper prints one pupil to a page.  The
teacher's choice (``paper=a4`` or ``paper=letter``, a4 unless chosen) sets
the page's CSS ``@page`` size, which the browser's print dialog takes as
its paper.

**The teacher's only.**  The page is authorised as the console is, by the
token printed at start; once, as the console's link carries it:
:class:`ScoreSheets` then sets a cookie holding a pass derived from the
token (:func:`sheets_pass`, never the token itself; ``HttpOnly``,
``SameSite=Strict``, for ``/sheets`` alone) and sends the browser to the
same address without the token.  So the address the teacher prints (a
browser prints it in the page's footer) and keeps in the history has no
token, and the log shows ``token=[hidden]`` for the one request that had
it (:func:`~caterpillar_learn.network.redact`).  The page is an
answer of the classroom server's own Tornado application, so it carries the
same security headers (:func:`~caterpillar_learn.network.harden`);
it is never cached (``no-store``: it names the pupils).  Under a JupyterHub
the hub's login decides instead, as for the console
(:class:`~caterpillar_learn.classroom.hub.TeacherGate`): no token, no pass.

>>> from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
>>> room = CaterpillarsRoom("KX47PQ", RoomSettings.build("advanced", dice="typed"))
>>> for name in ("Cleo", "Ada"):
...     room.arrive(room.join(name).id)
>>> page = sheets_page(room, "letter")
>>> page.count('data-testid="score-sheet"'), "@page { size: letter" in page
(2, True)
>>> page.index('data-nickname="Ada"') < page.index('data-nickname="Cleo"')
True
>>> blank = sheets_page(CaterpillarsRoom("KX47PQ", RoomSettings.build("beginner")), "a4")
>>> blank.count('data-testid="score-sheet"'), 'class="sheet-write"' in blank  # a line to write a name on
(1, True)
"""

from __future__ import annotations

import hashlib
import hmac
import html
import logging
import secrets
from dataclasses import dataclass
from typing import Any, ClassVar
from urllib.parse import quote, urlencode

import tornado.web

from caterpillar_learn.caterpillars.paper import paper_svg
from caterpillar_learn.caterpillars.sheet import State
from caterpillar_learn.classroom.codes import ClassroomError, parse_code
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom
from caterpillar_learn.classroom.screens import format_labels
from caterpillar_learn.errors import brief
from caterpillar_learn.i18n import current_language, text
from caterpillar_learn.network import notice_page
from caterpillar_learn.ui.hosting.print_page import answer_print

__all__ = [
    "COOKIE",
    "PAPERS",
    "PATH",
    "PRINT_PATH",
    "LessonPrint",
    "PaperSheet",
    "ScoreSheets",
    "TeacherOnly",
    "paper_sheets",
    "print_patterns",
    "sheets_page",
    "sheets_pass",
]

log = logging.getLogger("caterpillar_learn.classroom")

#: The page's address on the classroom server.
PATH = "/sheets"
#: Paper by the name the address uses → its CSS ``@page`` size; the first one unless the teacher chooses.
PAPERS = {"a4": "A4", "letter": "letter"}
#: The cookie that lets the teacher's browser in after the first request (it holds :func:`sheets_pass`).
COOKIE = "caterpillar_learn_sheets"
#: The faces of the action die, in the order the rule book lists them (their words: ``lessons.ui.face_*``).
ACTION_FACES = ("A", "B", "C", "2x", "10", "butterfly")

_STYLE = """
@page { size: %(size)s; margin: 12mm; }
html { background: #e9e9e4; }
body { margin: 0; color: #1a1a1a; font: 16px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
.controls { max-width: 186mm; margin: 16px auto; padding: 12px 16px; background: #ffffff; border-radius: 12px; }
.controls h1 { margin: 0 0 4px; font-size: 26px; }
.controls p { margin: 4px 0; }
.choices { display: flex; flex-wrap: wrap; align-items: center; gap: 10px; margin-top: 8px; }
.choice, .print { font: inherit; font-size: 18px; min-height: 44px; min-width: 44px; padding: 6px 16px;
  display: inline-flex; align-items: center; border-radius: 10px; border: 2px solid #1a1a1a;
  background: #ffffff; color: #1a1a1a; text-decoration: none; cursor: pointer; box-sizing: border-box; }
.choice[aria-current="true"] { background: #1a1a1a; color: #ffffff; font-weight: 700; }
.print { background: #1a1a1a; color: #ffffff; font-weight: 700; margin-left: auto; }
.choice:focus-visible, .print:focus-visible { outline: 4px solid #0057d9; outline-offset: 2px; }
.sheet { box-sizing: border-box; max-width: 210mm; margin: 16px auto; padding: 12mm; background: #ffffff;
  box-shadow: 0 1px 6px rgba(0, 0, 0, 0.25); }
.sheet-head { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: baseline; gap: 4px 24px;
  border-bottom: 2px solid #1a1a1a; padding-bottom: 6px; }
.sheet-name { margin: 0; font-size: 26px; }
.sheet-name strong { font-size: 30px; }
.sheet-name .sheet-write { display: inline-block; width: 70mm; height: 1.2em; vertical-align: bottom;
  border-bottom: 2px solid #1a1a1a; }
.sheet-level { margin: 0; font-size: 17px; }
.sheet svg { display: block; width: 100%%; height: auto; margin-top: 10px; }
.sheet-note { margin: 6px 0; font-weight: 700; }
.sheet-faces { margin: 6px 0; padding-left: 1.3em; columns: 2; font-size: 15px; }
.sheet-faces-title { margin: 8px 0 2px; font-size: 17px; }
.sheet-labels { margin: 8px 0 0; font-size: 13px; color: #444444; }
@media print {
  html { background: #ffffff; }
  .controls { display: none; }
  .sheet { max-width: 186mm; margin: 0 auto; padding: 0; box-shadow: none; break-inside: avoid; break-after: page; }
  .sheet:last-of-type { break-after: auto; }
}
"""


def sheets_pass(token: str) -> str:
    """What the teacher's cookie holds: a pass derived from the token, so no cookie ever holds the token.

    >>> sheets_pass("k7m2x9qp4hvr") == sheets_pass("k7m2x9qp4hvr") != sheets_pass("k7m2x9qp4hvs")
    True
    """
    return hmac.new(token.encode(), b"caterpillar-learn score sheets", hashlib.sha256).hexdigest()


def parse_paper(value: object) -> str:
    """The paper named in the address (``a4`` or ``letter``, any case), or a one-line error.

    >>> parse_paper("Letter"), parse_paper(None)
    ('letter', 'a4')
    >>> parse_paper("A3")
    Traceback (most recent call last):
    ...
    caterpillar_learn.classroom.codes.ClassroomError: paper: got 'A3', expected a4 or letter
    """
    if value is None or value == "":
        return next(iter(PAPERS))
    if isinstance(value, str) and value.lower() in PAPERS:
        return value.lower()
    raise ClassroomError(text("classroom.sheets.bad_paper", value=brief(value)))


@dataclass(frozen=True)
class PaperSheet:
    """One printed page: whose it is ("" for a sheet without a name) and the sheet's level and labels."""

    nickname: str
    state: State


def paper_sheets(room: CaterpillarsRoom) -> list[PaperSheet]:
    """A sheet for every pupil of ``room`` (by nickname), with their own labels; one without a name if none.

    >>> from caterpillar_learn.classroom.rooms.caterpillars.room import RoomSettings
    >>> room = CaterpillarsRoom("KX47PQ", RoomSettings.build("beginner"))
    >>> [(sheet.nickname, sheet.state.labels[:4]) for sheet in paper_sheets(room)]
    [('', (1, 2, 6, 3))]
    """
    with room.lock:
        pupils = sorted(room.counted(), key=lambda pupil: (pupil.nickname.casefold(), pupil.id))
        level = room.settings.level
        sheets = [PaperSheet(pupil.nickname, State.new(level, pupil.game.state.labels)) for pupil in pupils]
    return sheets or [PaperSheet("", State.new(room.settings.level, room.settings.labels))]


def _escape(words: object) -> str:
    return html.escape(str(words), quote=True)


def _sheet(sheet: PaperSheet, code: str, uid: str) -> str:
    state = sheet.state
    level = text("lessons.sheet.title", level=text("caterpillars.level." + state.level.value))
    name = _escape(sheet.nickname)
    parts = [
        f'<section class="sheet" data-testid="score-sheet" data-nickname="{_escape(sheet.nickname)}" '
        f'aria-label="{_escape(sheet.nickname or text("classroom.sheets.name"))}">',
        '<header class="sheet-head">',
        f'<p class="sheet-name">{_escape(text("classroom.sheets.name"))}: '
        f'<strong class="{"" if name else "sheet-write"}" data-testid="sheet-nickname">{name}</strong></p>',
        f'<p class="sheet-level">{_escape(level)} · {_escape(text("classroom.sheets.room", code=code))}</p>',
        "</header>",
        paper_svg(state, uid=uid),
    ]
    if not state.is_setup_done:
        parts.append(f'<p class="sheet-note">{_escape(text("classroom.sheets.setup"))}</p>')
    if state.level.rules.action_die:
        faces = "".join(f"<li>{_escape(text(f'lessons.ui.face_{face}'))}</li>" for face in ACTION_FACES)
        parts.append(f'<h2 class="sheet-faces-title">{_escape(text("classroom.sheets.action_die"))}</h2>')
        parts.append(f'<ul class="sheet-faces" data-testid="action-faces">{faces}</ul>')
    labels = text("classroom.sheets.labels", labels=format_labels(state.labels))
    parts.append(f'<p class="sheet-labels" data-testid="sheet-labels">{_escape(labels)}</p></section>')
    return "".join(parts)


def _address(code: str, paper: str) -> str:
    return "sheets?" + urlencode({"room": code, "paper": paper})


def sheets_page(room: CaterpillarsRoom, paper: str) -> str:
    """The printable page of ``room``'s score sheets on ``paper`` (a key of :data:`PAPERS`)."""
    sheets = paper_sheets(room)
    title = text("classroom.sheets.title", code=room.code)
    choices = "".join(
        f'<a class="choice" data-testid="paper-{name}" href="{_escape(_address(room.code, name))}" '
        f'aria-current="{str(name == paper).lower()}">{_escape(text(f"classroom.sheets.paper_{name}"))}</a>'
        for name in PAPERS
    )
    blank = "" if sheets[0].nickname else f'<p data-testid="sheets-blank">{_escape(text("classroom.sheets.blank"))}</p>'
    controls = (
        '<header class="controls" data-testid="sheets-controls">'
        f"<h1>{_escape(title)}</h1><p>{_escape(text('classroom.sheets.help'))}</p>{blank}"
        f'<div class="choices" role="group" aria-label="{_escape(text("classroom.sheets.paper"))}">'
        f"<span>{_escape(text('classroom.sheets.paper'))}:</span>{choices}"
        '<button type="button" class="print" data-testid="print-now" onclick="window.print()">'
        f"{_escape(text('classroom.sheets.print'))}</button></div></header>"
    )
    pages = "".join(_sheet(sheet, room.code, f"s{index}") for index, sheet in enumerate(sheets))
    return (
        f'<!DOCTYPE html>\n<html lang="{current_language()}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<link rel="icon" href="data:,"><title>{_escape(title)}</title>'
        f"<style>{_STYLE % {'size': PAPERS[paper]}}</style></head>"
        f"<body>{controls}<main>{pages}</main></body></html>\n"
    )


class TeacherOnly(tornado.web.RequestHandler):
    """A page for the teacher's browser alone: the token once (the console's link), then the pass in a cookie
    for this page's :attr:`path` and the same address without the token; a hub's login under a JupyterHub."""

    #: Where the page lives (the cookie's path too), and the address's arguments kept when the token is taken out.
    path: ClassVar[str] = PATH
    kept: ClassVar[tuple[str, ...]] = ("room", "paper")

    def initialize(self, lobby: Any, gate: Any = None) -> None:
        self.lobby, self.gate = lobby, gate

    async def get(self, *parts: str) -> None:
        self.set_header("Cache-Control", "no-store")
        if self.gate is not None:  # a hub's: its teacher, or its login first (anyone else is refused there)
            if await self.gate.teacher(self) is None:
                self.redirect(self.gate.login_for(self.request.uri))
                return
            await self.answer(*parts)
            return
        token = self.get_query_argument("token", None)
        if token is not None:  # the console's link: the token once, then a cookie and an address without it
            if not self.lobby.is_teacher(token):
                self._refuse()
                return
            self.set_cookie(COOKIE, sheets_pass(self.lobby.token), path=self.path, httponly=True, samesite="Strict")
            kept = {key: self.get_query_argument(key) for key in self.kept if self.get_query_argument(key, "")}
            self.redirect(self.here(*parts) + ("?" + urlencode(kept) if kept else ""), status=303)
            return
        shown = self.get_cookie(COOKIE, "") or ""
        if not secrets.compare_digest(shown.encode(), sheets_pass(self.lobby.token).encode()):
            self._refuse()
            return
        await self.answer(*parts)

    def here(self, *parts: str) -> str:
        """This page's address relative to itself (where the browser goes once the token is taken out)."""
        return self.path.rsplit("/", 1)[-1]

    async def answer(self, *parts: str) -> None:
        """The page, to a browser known to be the teacher's."""
        raise NotImplementedError

    def _refuse(self) -> None:
        log.warning("a teacher's page (%s) asked for without the teacher's token, from %s", self.path,
                    self.request.remote_ip)  # fmt: skip
        self._notice(403, text("classroom.page.teacher_only"))

    def _notice(self, status: int, message: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.finish(notice_page(text("classroom.ui.print_sheets"), message))


class ScoreSheets(TeacherOnly):
    """``GET /sheets?room=CODE[&paper=letter]``: the room's score sheets, for the teacher's browser alone."""

    async def answer(self, *parts: str) -> None:
        """The sheets of the room asked for, to a browser known to be the teacher's."""
        try:
            code = parse_code(self.get_query_argument("room", ""))
            paper = parse_paper(self.get_query_argument("paper", ""))
        except ClassroomError as error:
            self._notice(400, str(error))
            return
        room = self.lobby.rooms.get(code)
        if room is None:
            self._notice(404, text("classroom.msg.no_room", code=code))
        elif not isinstance(room, CaterpillarsRoom):
            self._notice(400, text("classroom.sheets.not_caterpillars", code=code))
        else:
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.finish(sheets_page(room, paper))


#: Where a lesson's printed page lives on the classroom server (``/print/01-beginner?seed=1&lang=de``).
PRINT_PATH = "/print"


class LessonPrint(TeacherOnly):
    """``GET /print/<lesson>?seed=N&lang=L``: the lesson's printed page (its plan, the guided game's dice and
    answers, a rules card; :mod:`caterpillar_learn.lessons.printable`), as ``serve`` prints it, for the teacher
    alone (its answers are not for the pupils' tablets)."""

    path = PRINT_PATH
    kept = ("seed", "lang")

    def here(self, *parts: str) -> str:
        return quote(parts[0])

    async def answer(self, *parts: str) -> None:
        await answer_print(self, parts[0])


def print_patterns(lobby: Any, gate: Any = None) -> list[tuple[str, type[TeacherOnly], dict[str, Any]]]:
    """The teacher's printed pages as Tornado routes: the class's score sheets and every lesson's page."""
    handed = {"lobby": lobby, "gate": gate}
    return [(PATH, ScoreSheets, handed), (PRINT_PATH + "/([A-Za-z0-9_-]+)", LessonPrint, handed)]
