"""The classroom's memory after many rooms played, once they have gone back to sleep (docs/DEPLOY.md).

    .venv/bin/python benchmarks/rooms_sleep.py [--rooms 30]

Runs the server's rooms in this process, on the C allocator as the server
does (``PYTHONMALLOC=malloc``; the script starts itself again with it), on a
fresh data folder: one room of each kind is played and put to sleep first
(what any first room loads, once), and the resident memory (RSS) is taken as
**fresh**.  Then ``--rooms`` rooms are played through the rooms' own API, a
third of each kind: a Caterpillars room (3 pupils, every roll placed), a
lesson room (``01-beginner``, 5 pupils, 30 taps each, as the lesson marks
them) and a Räuber Raupe room (2 pupils, the table played to its end by
bots); the memory is taken with every room **awake**; then every room goes
to sleep (:meth:`Lobby.doze`), the garbage is collected and the C heap's
free pages handed back, as the server's :class:`~.tweaks.Freezer` does
once the class settles, and the memory is taken **asleep**.  Target: asleep
at most 20 MB above fresh.  Pages (Bokeh sessions) are not part of this:
their memory is ``benchmarks/classroom_memory.py``'s.  Prints one JSON
document; nothing is asserted.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from caterpillar_learn.classroom.lobby import Lobby

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_MB = 20.0


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


NAMES = ("Ada", "Ben", "Cem", "Dia", "Eli", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lea", "Max", "Nia", "Oli")


def play(lobby: Lobby, kind: str, rng: random.Random, pupils_per_room: int) -> str:
    """Create one room of ``kind`` and play it; its code."""
    from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
    from caterpillar_learn.classroom.rooms.lesson.room import LessonRoom, LessonSettings
    from caterpillar_learn.classroom.rooms.raupe.room import RaupeRoom, TableSettings
    from caterpillar_learn.raupe import next_table_event
    from tests.classroom.lessonbot import todo_tap

    if kind == "caterpillars":
        room = lobby.create(RoomSettings.build("beginner", dice="server", hints=False))
        assert isinstance(room, CaterpillarsRoom)
        pupils = [room.join(name) for name in NAMES[:pupils_per_room]]
        while room.can_roll():
            room.roll()
            for pupil in pupils:
                moves = pupil.game.legal_moves()
                pupil.game.play(moves[rng.randrange(len(moves))])
    elif kind == "lesson":
        room = lobby.create(LessonSettings.build("01-beginner"))
        assert isinstance(room, LessonRoom)
        pupils = [room.join(name) for name in NAMES[:pupils_per_room]]
        for pupil in pupils:
            room.arrive(pupil.id)
            for _ in range(60):
                try:
                    if todo_tap(room, pupil) is None:
                        break
                except Exception:  # a tap the lesson refuses: the next one
                    continue
    else:
        room = lobby.create(TableSettings.build(2, "beginner", cards=25))
        assert isinstance(room, RaupeRoom)
        for name in NAMES[:pupils_per_room]:
            room.join(name)
        room.start_all()
        for shared in room.tables:
            bot = shared.setup.bot_level(shared.setup.level)
            for _ in range(3000):
                if shared.game.state.finished:
                    break
                event = next_table_event(shared.game.state, [bot, bot], rng)
                if event is None:
                    break
                shared.submit(event)
    return str(room.code)


def settle() -> None:
    """What the server does once the class settles: collect, then hand the free pages back."""
    from caterpillar_learn.classroom.tweaks import give_back

    gc.collect()
    give_back()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=30)
    parser.add_argument("--pupils", type=int, default=15, help="pupils a room (at most 15)")
    args = parser.parse_args()
    if os.environ.get("PYTHONMALLOC") != "malloc":  # as the server runs (classroom/tweaks.py)
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONMALLOC": "malloc"})
    from caterpillar_learn.classroom.lobby import Lobby

    kinds = ["caterpillars", "lesson", "raupe"]
    rng = random.Random(46)
    with tempfile.TemporaryDirectory() as folder:
        lobby = Lobby.open(folder, hold=True, sleep_after=1.0)
        for kind in kinds:  # what a first room of each kind loads (modules, tables), once
            play(lobby, kind, rng, args.pupils)
        lobby.doze(now=time.monotonic())
        lobby.doze(now=time.monotonic() + 10)
        settle()
        fresh = rss_mb()
        started = time.perf_counter()
        for i in range(args.rooms):
            play(lobby, kinds[i % 3], rng, args.pupils)
        played = time.perf_counter() - started
        settle()
        awake = rss_mb()
        awake_rooms = len(lobby.awake())
        lobby.doze(now=time.monotonic())
        slept = lobby.doze(now=time.monotonic() + 10)
        settle()
        asleep = rss_mb()
        woken = lobby.rooms[slept[0]]  # a room asleep wakes from its log as it was
        lobby.close()
    print(
        json.dumps(
            {
                "rooms": args.rooms,
                "pupils_a_room": args.pupils,
                "seconds_to_play": round(played, 1),
                "rss_fresh_mb": round(fresh, 1),
                "rss_awake_mb": round(awake, 1),
                "rooms_awake": awake_rooms,
                "rss_asleep_mb": round(asleep, 1),
                "rooms_slept": len(slept),
                "per_room_awake_mb": round((awake - fresh) / args.rooms, 2),
                "growth_asleep_mb": round(asleep - fresh, 1),
                "target_mb": TARGET_MB,
                "met": asleep - fresh <= TARGET_MB,
                "woken_events": len(woken.log),
            },
            indent=1,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
