"""The projector's QR code, read back: it holds exactly the join address the page prints beside it."""

from __future__ import annotations

import pytest

from caterpillar_learn.classroom.codes import new_code
from caterpillar_learn.classroom.rooms.caterpillars.room import CaterpillarsRoom, RoomSettings
from caterpillar_learn.classroom.rooms.raupe.room import RaupeRoom, TableSettings
from caterpillar_learn.classroom.screens import join_address, qr_svg, room_view
from caterpillar_learn.classroom.server import join_base
from tests.qr import decode, svg_image, svg_modules


@pytest.mark.parametrize(
    "base",
    [
        join_base("127.0.0.1", 5006),
        join_base("192.168.178.23", 65535),
        "http://classroom-pc.fritz.box:8080/join",
    ],
)
def test_the_room_s_qr_code_decodes_to_its_join_address(base: str) -> None:
    room = CaterpillarsRoom(new_code(), RoomSettings.build("beginner"))
    view = room_view(room, base)
    assert view["join_url"] == join_address(base, room.code) == f"{base}?room={room.code}"
    assert decode(svg_image(view["qr"])) == [view["join_url"]]


def test_a_raupe_room_s_qr_code_decodes_to_its_join_address() -> None:
    room = RaupeRoom(new_code(), TableSettings.build(2))
    view = room_view(room, join_base("10.0.0.7", 5006))
    assert decode(svg_image(view["qr"])) == [f"http://10.0.0.7:5006/join?room={room.code}"]


def test_each_room_s_code_is_its_own() -> None:
    first, second = (qr_svg(join_address("http://127.0.0.1:5006/join", code)) for code in ("KX47PQ", "KX47PR"))
    assert decode(svg_image(first)) == ["http://127.0.0.1:5006/join?room=KX47PQ"]
    assert decode(svg_image(second)) == ["http://127.0.0.1:5006/join?room=KX47PR"]
    assert (svg_modules(first) != svg_modules(second)).any()


def test_the_reader_refuses_markup_it_does_not_understand() -> None:
    markup = qr_svg("http://127.0.0.1:5006/join?room=KX47PQ").replace("h7", "l7 0", 1)
    with pytest.raises(ValueError, match="path command 'l'"):
        svg_modules(markup)
