"""What the teacher's console and the pupils' door draw: the JSON of each view trait, described once.

Each payload is a :class:`~typing.TypedDict` here and a JSDoc ``@typedef``
of the same name in ``widgets/classroom-teacher.js`` or
``widgets/classroom-join.js``.  The builders read a room and change
nothing; every word comes from the catalogue (``classroom.*``); the room's
join address is drawn as a QR code by :mod:`segno` (no network, no
JavaScript library).  Pupils appear by the nickname they typed and nothing
else, and only once their page has connected (a ghost is neither shown nor counted).

>>> from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
>>> room = CaterpillarsRoom("KX47PQ", RoomSettings.build("beginner", dice="typed"))
>>> ada, ghost = room.join("Ada"), room.join("Ghost")
>>> room.arrive(ada.id); _ = room.roll("3 5")
>>> view = room_view(room, "http://192.168.1.5:5006/join")
>>> view["code"], view["join_url"], view["placed"]["text"]
('KX47PQ', 'http://192.168.1.5:5006/join?room=KX47PQ', '0 of 1 placed')
>>> view["qr"].startswith("<svg")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, TypedDict
from urllib.parse import urlencode

import segno

from caterpillar_learn.caterpillars import CATERPILLARS, Move, Roll, SetupChoice, score
from caterpillar_learn.caterpillars.levels import Level
from caterpillar_learn.caterpillars.sheet import ROUNDS
from caterpillar_learn.classroom.rooms.caterpillars.room import (
    DICE_SOURCES,
    LAYOUTS,
    CaterpillarsRoom,
    RoomSettings,
    standard_labels,
)
from caterpillar_learn.classroom.rooms.lesson.pupil import RoomLesson
from caterpillar_learn.classroom.rooms.lesson.room import (
    LESSON_NAMES,
    MODES,
    LessonRoom,
    LessonSettings,
    ProgressRow,
    lesson_title,
)
from caterpillar_learn.classroom.rooms.raupe.room import RaupeRoom, TableSettings
from caterpillar_learn.i18n import available_languages, current_language, language_name, plural, text
from caterpillar_learn.practice import IDEAS
from caterpillar_learn.raupe import LEVELS, outcome

__all__ = [
    "ClassSheet",
    "DeskView",
    "DiceFaces",
    "JoinView",
    "LeaderRow",
    "LessonView",
    "ProgressRow",
    "PupilLine",
    "RequestLine",
    "RoomView",
    "TableLine",
    "class_sheet",
    "desk_view",
    "format_labels",
    "join_address",
    "lesson_view",
    "qr_svg",
    "room_view",
]


class DiceFaces(TypedDict, total=False):
    values: list[int]
    action: str | None
    label: str


class ClassBox(TypedDict):
    """One box of the class's sheet: its label ("" while blank), how many pupils wrote this roll there, in words."""

    slot: int
    label: str
    count: int
    text: str


class ClassCaterpillar(TypedDict):
    name: str
    boxes: list[ClassBox]


class ClassSheet(TypedDict):
    """The class's dice on the projector (issue 42): the dice big, the room's labels on one sheet, and how the
    class chose (a count on each box, once pupils have placed).  The teacher's console draws it the same way for a
    Caterpillars room and for a lesson room where the teacher rolls."""

    dice: DiceFaces
    caterpillars: list[ClassCaterpillar]
    #: "How the class chose" (above the boxes), and "2 of 3 placed" (a Caterpillars room says it in its own line).
    caption: str
    placed: str


class PupilLine(TypedDict):
    id: int
    nickname: str
    placed: bool
    filled: int


class RequestLine(TypedDict):
    id: int
    nickname: str
    text: str


class LeaderRow(TypedDict, total=False):
    place: int
    nickname: str
    final: int
    all_boxes: int
    flying: str
    flying_text: str
    complete: bool
    review: list[str]
    reviewing: bool  # the review is on its way from the server's workers


class TableLine(TypedDict):
    table: int
    title: str
    players: list[str]
    status: str
    pile: int
    cards: list[int]


class LessonView(TypedDict):
    """A lesson room's part of the projector: the grid, the steps the class can be held at, the switches."""

    lesson: str
    mode: str
    rows: list[ProgressRow]
    steps: list[dict[str, Any]]
    hold: int | None
    paused: bool
    anonymous: bool
    can_roll: bool
    roll_text: str
    released: int
    #: The grid's idea columns (every idea some pupil met), and the line naming the idea most pupils miss now.
    ideas: list[dict[str, str]]
    class_line: str
    #: Where the teacher rolls for the class (a Caterpillars lesson): the class's dice once rolled.
    sheet: ClassSheet | None
    #: The lesson's printed page (the plan, the guided game's dice and answers) for the room's seed and language.
    print_url: str


class RoomView(TypedDict, total=False):
    code: str
    game: str
    title: str
    join_url: str
    qr: str
    phase: str
    round_text: str
    dice_source: str
    dice_help: str
    can_roll: bool
    hints: bool
    auto: bool
    placed: dict[str, Any]
    pupils: list[PupilLine]
    requests: list[RequestLine]
    leaderboard: list[LeaderRow]
    tables: list[TableLine]
    #: The room's printable score sheets (``scoresheets.PATH``), relative to the console; the page adds its token.
    sheets_url: str
    lesson: LessonView
    #: The class's dice and how the class chose (once the teacher has rolled).
    sheet: ClassSheet
    watching: int
    #: Whether the teacher may archive the room now (finished, or stopped at a damaged event).
    archivable: bool


class DeskView(TypedDict, total=False):
    rooms: list[dict[str, Any]]
    current: str
    #: Good news for the teacher (a room archived, and where its file is): not an error.
    notice: str
    games: list[dict[str, str]]
    levels: list[dict[str, str]]
    layouts: list[dict[str, str]]
    dice: list[dict[str, str]]
    bots: list[dict[str, str]]
    #: The labels of each level's own sheet (the level's lesson), as the typed layout's field starts.
    standards: dict[str, str]
    lessons: list[dict[str, str]]
    modes: list[dict[str, str]]
    #: A lesson room's hints (the lesson's own, on, off) and its pages' first language (the server's, or one).
    hint_choices: list[dict[str, str]]
    languages: list[dict[str, str]]


class JoinView(TypedDict):
    """The door of a pupil's page (``JoinWidget.door``): the code and nickname to fill in, where the page stands,
    what it says there, and the page's secret once joined."""

    code: str
    nickname: str
    #: "door", "waiting", "refused", "removed" or "joined".
    state: str
    note: str
    secret: str


def join_address(base: str, code: str) -> str:
    """The address a pupil opens (and the QR code holds): the join page with the room's code filled in."""
    return f"{base}?room={code}"


@lru_cache(maxsize=64)
def qr_svg(data: str) -> str:
    """A QR code of ``data`` as inline SVG markup (medium error correction, scales with its box).

    The quiet zone around it is the standard's four modules: some phones'
    readers find nothing in a code drawn closer to its neighbours.
    """
    code = segno.make(data, error="m", micro=False)
    return str(code.svg_inline(scale=8, border=4, dark="#1b1b1b", light="#ffffff", svgclass="cr-qr-code"))


def format_labels(labels: tuple[int | None, ...]) -> str:
    """Twelve labels as the teacher types them: ``1 3 6 4 / 6 2 3 5 / 5 4 2 1``.

    >>> format_labels((1, None, 6, None, None, 2, None, 5, 5, None, 2, None))
    '1 - 6 - / - 2 - 5 / 5 - 2 -'
    """
    words = ["-" if label is None else str(label) for label in labels]
    return " / ".join(" ".join(words[i : i + 4]) for i in range(0, 12, 4))


def _choices(prefix: str, values: tuple[str, ...] | list[str]) -> list[dict[str, str]]:
    return [{"value": value, "text": text(f"{prefix}{value}")} for value in values]


#: A room as the desk lists it: its code, its settings and how many pupils it counts (``Lobby.listing``).
DeskRoom = tuple[str, RoomSettings | TableSettings | LessonSettings, int]


def desk_view(rooms: list[DeskRoom], current: str, own: Mapping[str, str] | None = None) -> DeskView:
    """The teacher's desk: the rooms of this server (newest first) and the choices of a new room.

    It reads the rooms' settings and pupil counts only, so a room asleep is listed without being replayed.
    ``own``: the teacher's own lessons (name → title) of the folder the classroom serves, listed after ours.
    """
    listed = [
        {"code": code, "title": _room_title(settings), "pupils": plural("classroom.desk.pupils", pupils)}
        for code, settings, pupils in reversed(rooms)
    ]
    return {
        "rooms": listed,
        "current": current,
        "games": _choices("classroom.game.", ["caterpillars", "raupe", "lesson"]),
        "levels": [{"value": level.value, "text": text(f"caterpillars.level.{level.value}")} for level in Level],
        "layouts": _choices("classroom.layout.", LAYOUTS),
        "dice": _choices("classroom.dice.", DICE_SOURCES),
        "bots": [{"value": name, "text": name} for name in LEVELS],
        "standards": {level.value: format_labels(standard_labels(level)) for level in Level},
        "lessons": [{"value": name, "text": f"{name[:2]} · {lesson_title(name)}"} for name in LESSON_NAMES]
        + [{"value": name, "text": f"{title} ({name}.toml)"} for name, title in (own or {}).items()],
        "modes": _choices("classroom.mode.", MODES),
        "hint_choices": _choices("classroom.lesson_hints.", ["lesson", "on", "off"]),
        "languages": [{"value": "", "text": text("classroom.lesson_lang.server")}]
        + [{"value": code, "text": language_name(code)} for code in available_languages()],
    }


def _room_title(settings: RoomSettings | TableSettings | LessonSettings) -> str:
    if isinstance(settings, LessonSettings):
        mode = text(f"classroom.mode.{settings.mode}")
        title = text("classroom.title.lesson", lesson=settings.title(), mode=mode)
        # What the teacher set the room up with, on the console (issue 42): the seed, the hints, the language.
        extra = [text("classroom.title.seed", seed=settings.seed)]
        if settings.hints is not None:
            extra.append(text(f"classroom.title.hints_{'on' if settings.hints else 'off'}"))
        if settings.lang is not None:
            extra.append(language_name(settings.lang))
        return " · ".join([title, *extra])
    if isinstance(settings, TableSettings):
        return text("classroom.title.raupe", seats=settings.seats)
    return text(
        "classroom.title.caterpillars",
        level=text(f"caterpillars.level.{settings.level.value}"),
        layout=text(f"classroom.layout.{settings.layout}"),
    )


def room_view(room: CaterpillarsRoom | RaupeRoom | LessonRoom | None, join_base: str) -> RoomView:
    """The projector: code, QR code, round, dice, who has placed; at the end the ranking."""
    if room is None:
        return {}
    url = join_address(join_base, room.code)
    view: RoomView = {"code": room.code, "game": room.game_name, "title": _room_title(room.settings), "join_url": url}
    view["qr"] = qr_svg(url)
    view["requests"] = [
        {
            "id": request.id,
            "nickname": room.pupils[request.pupil].nickname,
            "text": text("classroom.rejoin.request", nickname=room.pupils[request.pupil].nickname),
        }
        for request in room.roster.requests.values()
        if request.pupil in room.pupils
    ]
    if isinstance(room, LessonRoom):
        view["pupils"] = [
            {"id": p.id, "nickname": room.shown(p.id, p.nickname), "placed": True, "filled": 0} for p in room.counted()
        ]
        view["phase"] = "play"
        view["lesson"] = lesson_view(room)
        return view
    if isinstance(room, RaupeRoom):
        view["tables"] = [_table_line(table) for table in room.tables]
        view["pupils"] = [{"id": p.id, "nickname": p.nickname, "placed": True, "filled": 0} for p in room.counted()]
        view["phase"] = "play" if any(t.started for t in room.tables) else "waiting"
        return view
    settings = room.settings
    placed = room.placed()
    counted = room.counted()
    if room.turn == 0:
        phase, round_text = "waiting", text("classroom.round.waiting")
    elif room.turn <= room.setup_turns:
        phase = "setup"
        round_text = text("classroom.round.setup", number=room.turn, count=room.setup_turns)
    elif room.is_over:
        phase, round_text = "over", text("classroom.round.over")
    else:
        phase = "play"
        round_text = text("lessons.ui.round", round=room.turn - room.setup_turns)
    view.update(
        {
            "phase": phase,
            "round_text": round_text,
            "dice_source": settings.dice,
            "dice_help": text(
                "classroom.dice.help_setup" if room.turn < room.setup_turns else "classroom.dice.help_play"
            ),
            "can_roll": room.can_roll(),
            "sheets_url": f"sheets?room={room.code}",
            "hints": room.hints,
            "auto": room.auto,
            "placed": {
                "count": placed,
                "total": len(counted),
                "text": text("classroom.placed", count=placed, total=len(counted)),
            },
            "pupils": [
                {"id": p.id, "nickname": p.nickname, "placed": room.has_placed(p), "filled": p.game.state.filled}
                for p in counted
            ],
        }
    )
    if room.rolls:
        chosen = [p.game.history[room.turn - 1].choice for p in counted if len(p.game.history) >= room.turn]
        view["sheet"] = class_sheet(settings.labels, room.rolls[-1], chosen, len(counted))
    if not room.can_roll() and counted:
        view["leaderboard"] = _leaderboard(room)
    return view


def class_sheet(
    labels: tuple[int | None, ...], roll: Roll, chosen: list[Move | SetupChoice], pupils: int
) -> ClassSheet:
    """The class's dice on one sheet, and how many pupils wrote this roll in each box (``chosen``: the choices made
    for it so far, one a pupil who placed; a setup choice counts each box it labels).

    >>> from caterpillar_learn.caterpillars import DEFAULT_LABELS
    >>> sheet = class_sheet(DEFAULT_LABELS, Roll((3, 5)), [Move(2, 5), Move(2, 5), Move(7, 3)], 4)
    >>> sheet["caption"], sheet["placed"], sheet["dice"]["values"]
    ('How the class chose', '3 of 4 placed', [3, 5])
    >>> alex = sheet["caterpillars"][0]["boxes"]
    >>> [(box["label"], box["count"]) for box in alex], alex[2]["text"]
    ([('1', 0), ('', 0), ('6', 2), ('', 0)], 'Alex, box 3, label 6: 2 pupils')
    """
    counts = [0] * len(labels)
    for choice in chosen:
        slots = [slot for slot, _ in choice.assignments] if isinstance(choice, SetupChoice) else [choice.slot]
        for slot in slots:
            counts[slot] += 1
    caterpillars: list[ClassCaterpillar] = []
    for row, name in enumerate(CATERPILLARS):
        boxes: list[ClassBox] = []
        for box in range(4):
            slot = row * 4 + box
            label = labels[slot]
            shown = text("classroom.sheet.blank") if label is None else str(label)
            words = plural("classroom.sheet.box", counts[slot], caterpillar=name, number=box + 1, label=shown)
            written = "" if label is None else str(label)
            boxes.append({"slot": slot, "label": written, "count": counts[slot], "text": words})
        caterpillars.append({"name": name, "boxes": boxes})
    return {
        "dice": {"values": list(roll.dice), "action": roll.action, "label": str(roll)},
        "caterpillars": caterpillars,
        "caption": text("classroom.sheet.caption"),
        "placed": text("classroom.placed", count=len(chosen), total=pupils),
    }


def _lesson_sheet(room: LessonRoom) -> ClassSheet | None:
    """A lesson room where the teacher rolls for a Caterpillars lesson: the class's latest roll on the lesson's
    sheet, counted over the pupils who have it (a pupil held back, or behind, is not counted yet)."""
    if room.settings.mode != "together" or room.kind != "caterpillars" or room.released == 0:
        return None
    games = [p.session.game for p in room.counted() if isinstance(p.session, RoomLesson)]
    if not games:
        return None
    turn = games[0].turns - ROUNDS + room.released - 1  # the class's latest roll, a turn of every pupil's game
    dealt = [game for game in games if turn < len(game.rolls)]
    if not dealt or turn >= games[0].turns:  # past the guided game: each pupil's own game
        return None
    chosen = [game.history[turn].choice for game in games if len(game.history) > turn]
    shown = dealt[0].state if dealt[0].state.is_setup_done else dealt[0].initial
    return class_sheet(shown.labels, dealt[0].rolls[turn], chosen, len(games))


def lesson_view(room: LessonRoom) -> LessonView:
    """A lesson room's grid: one row per pupil (step, questions, right at the first try, stuck), and the switches.

    >>> from caterpillar_learn.classroom.rooms.lesson.room import LessonSettings
    >>> room = LessonRoom("KX47PQ", LessonSettings.build("01-beginner"))
    >>> ada = room.join("Ada"); room.arrive(ada.id); room.hide_names(True)
    >>> row = lesson_view(room)["rows"][0]
    >>> row["name"], row["nickname"], row["step"], row["steps"]
    ('Pupil 1', '', 1, 13)
    """
    rows = room.progress()
    met = {idea for row in rows for idea in row["ideas"]}
    missed = room.most_missed()
    class_line = ""
    if missed is not None:
        idea, count = missed
        key = "most_missed" if 2 * count > len(rows) else "some_missed"  # "most" only above half (issue 42)
        class_line = text(f"classroom.lesson.{key}", idea=text(f"practice.idea.{idea}"), count=count, pupils=len(rows))
    roll_key = "classroom.ui.start_lesson" if room.kind == "raupe" else "classroom.ui.roll_lesson"
    return {
        "lesson": room.settings.lesson,
        "mode": room.settings.mode,
        "rows": rows,
        "steps": [{"value": number, "text": f"{number} · {title}"} for number, title in enumerate(room.steps(), 1)],
        "hold": None if room.hold is None else room.hold + 1,
        "paused": room.paused,
        "anonymous": room.anonymous,
        "can_roll": room.can_roll() and not (room.kind == "raupe" and room.released > 0),
        "roll_text": text(roll_key),
        "released": room.released,
        "ideas": [{"idea": idea, "text": text(f"practice.idea.{idea}")} for idea in IDEAS if idea in met],
        "class_line": class_line,
        "sheet": _lesson_sheet(room),
        # The printed page is of our lessons (a teacher's own has no printed plan yet): none for a lesson file.
        "print_url": ""
        if room.settings.source is not None
        else f"print/{room.settings.lesson}?"
        + urlencode({"seed": room.settings.seed, "lang": room.settings.lang or current_language()}),
    }


def _leaderboard(room: CaterpillarsRoom) -> list[LeaderRow]:
    rows: list[LeaderRow] = []
    for standing in room.ranking():
        pupil = room.pupil_named(standing.player)
        assert pupil is not None
        result = score(pupil.game.state)
        row: LeaderRow = {
            "place": standing.place,
            "nickname": standing.player,
            "final": standing.final,
            "all_boxes": standing.all_boxes,
            "flying": result.flying,
            "flying_text": text("classroom.flying", name=result.flying, colour=text(f"lessons.colour.{result.flying}")),
            "complete": result.complete,
        }
        cached = room.reviewed(pupil)
        if cached is not None:
            row["review"] = [*cached["summary"], *cached["rounds"]]
        elif room.reviewing(pupil):
            row["reviewing"] = True
        rows.append(row)
    return rows


def _table_line(table: Any) -> TableLine:
    state = table.game.state
    result = outcome(state)
    if result is not None:
        status = table.winner_text()
    elif table.started:
        status = text("classroom.raupe.running", mode=text(f"raupe.mode.{state.mode.word}"))
    else:
        status = text("classroom.raupe.waiting")
    return {
        "table": table.index + 1,
        "title": text("classroom.raupe.table", number=table.index + 1),
        "players": [table.name(seat) for seat in range(len(table.seats))],
        "status": status,
        "pile": len(state.pile),
        "cards": [len(hand) for hand in state.hands],
    }
