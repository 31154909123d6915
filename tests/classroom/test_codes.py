"""Room codes cannot be counted out, nicknames are one short line, and joins are limited per client."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from caterpillar_learn.classroom.codes import (
    CODE_ALPHABET,
    CODE_LENGTH,
    ClassroomError,
    JoinLimit,
    new_code,
    parse_code,
    parse_nickname,
)
from caterpillar_learn.classroom.lobby import Lobby
from caterpillar_learn.classroom.rooms.caterpillars.room import RoomSettings
from caterpillar_learn.classroom.store import EventStore


def test_codes_are_random_not_counted() -> None:
    # 3000 draws from 23**6 codes repeat one with a chance of about 3 %: a room never gets a taken one.
    codes: list[str] = []
    for _ in range(3000):
        codes.append(new_code(codes))
    assert len(set(codes)) == len(codes)
    assert all(len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET) for code in codes)
    # Counting would change only the last characters from one code to the next.
    same_start = sum(a[:4] == b[:4] for a, b in itertools.pairwise(codes))
    assert same_start < 5
    # Every position uses the whole alphabet about evenly (a uniform draw).
    for position in range(CODE_LENGTH):
        counts = Counter(code[position] for code in codes)
        assert set(counts) == set(CODE_ALPHABET)
        assert max(counts.values()) < 3 * len(codes) / len(CODE_ALPHABET)
    assert CODE_LENGTH * math.log2(len(CODE_ALPHABET)) > 26  # > 60 million codes


def test_a_new_code_is_never_one_already_taken() -> None:
    taken = {new_code() for _ in range(50)}
    assert all(new_code(taken) not in taken for _ in range(200))


def test_the_alphabet_has_no_characters_a_child_confuses() -> None:
    assert not set("0O1IL2Z5S8B6G") & set(CODE_ALPHABET)


@pytest.mark.parametrize(("typed", "code"), [("kx47pq", "KX47PQ"), (" KX-47 PQ ", "KX47PQ"), ("kx4\t7pq", "KX47PQ")])
def test_codes_are_read_as_children_type_them(typed: str, code: str) -> None:
    assert parse_code(typed) == code


@pytest.mark.parametrize("typed", ["", "KX47P", "KX47PQQ", "KX47P0", "<script>", "x" * 100_000, 7, None, ["KX47PQ"]])
def test_a_bad_code_is_one_short_line(typed: object) -> None:
    with pytest.raises(ClassroomError) as refused:
        parse_code(typed)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 200


@pytest.mark.parametrize(
    ("typed", "name"),
    [("Ada", "Ada"), ("  Jo   Ann ", "Jo Ann"), ("Zoë", "Zoë"), ("d'Arcy-2", "d'Arcy-2"), ("Ada\nBen", "Ada Ben")],
)
def test_nicknames(typed: str, name: str) -> None:
    assert parse_nickname(typed) == name


@pytest.mark.parametrize(
    "typed", ["", "   ", "A" * 21, "<b>Ada</b>", "Ada\u202eneB", "Ada; DROP TABLE", 5, None, "x" * 10**6]
)
def test_bad_nicknames_are_refused(typed: object) -> None:
    with pytest.raises(ClassroomError) as refused:
        parse_nickname(typed)
    assert len(str(refused.value)) < 200


def test_the_join_limit_refills_with_time_and_forgets_old_clients() -> None:
    now = [0.0]
    limit = JoinLimit(burst=3, per_minute=6, clock=lambda: now[0])
    assert [limit.allow("a") for _ in range(4)] == [True, True, True, False]
    now[0] = 9.0
    assert not limit.allow("a")
    now[0] = 20.0  # 0.9 left at 9 s, then 0.1 a second
    assert [limit.allow("a") for _ in range(3)] == [True, True, False]
    limit.MAX_CLIENTS = 10
    for n in range(100):
        limit.allow(f"client-{n}")
    assert len(limit._buckets) == 10


def test_joins_of_one_client_are_limited_even_with_wrong_codes() -> None:
    lobby = Lobby(EventStore(":memory:"), limit=JoinLimit(burst=5, per_minute=1))
    room = lobby.create(RoomSettings.build("beginner"))
    refused = 0
    for attempt in range(20):
        try:
            lobby.join(new_code(), f"Guess{attempt}", client="10.0.0.66")
        except ClassroomError as error:
            refused += "Too many tries" in str(error)
    assert refused == 15
    with pytest.raises(ClassroomError, match="Too many tries"):
        lobby.join(room.code, "Ada", client="10.0.0.66")  # even the right code now waits
    assert lobby.join(room.code, "Ben", client="10.0.0.67")[1].nickname == "Ben"
    assert len(room.pupils) == 1
