"""Random learners never break the table: no crash, cards kept, the screen tells the truth."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from caterpillar_learn.lessons import SETUPS
from caterpillar_learn.raupe import Game
from tests.raupe_ui.helpers import ready

EVENTS = st.one_of(
    st.builds(lambda dt: {"type": "tick", "dt": dt}, st.floats(0, 2, allow_nan=False)),
    st.builds(lambda i: {"type": "play", "index": i}, st.integers(-1, 30)),
    st.builds(lambda i: {"type": "flip", "index": i}, st.integers(-1, 30)),
    st.builds(lambda w: {"type": "shout", "word": w}, st.sampled_from(["shape", "colour", "aphid", "oops"])),
    st.just({"type": "mistake"}),
    st.just({"type": "start"}),
    st.just({"type": "pause"}),
    st.builds(lambda v: {"type": "speed", "value": v}, st.floats(0, 3, allow_nan=False)),
)


@settings(max_examples=40, deadline=None)
@given(lesson=st.sampled_from(sorted(SETUPS)), seed=st.integers(0, 10_000), events=st.lists(EVENTS, max_size=60))
def test_random_events_keep_the_table_whole(lesson: str, seed: int, events: list[dict[str, object]]) -> None:
    widget = ready(lesson, seed=seed)
    total = len(widget.session.setup.deck())
    for number, event in enumerate(events):
        paused, before = widget.session.paused, widget.session.game.state
        widget.event = {**event, "seq": number + 1}
        state = widget.session.game.state
        if paused and event["type"] not in ("start", "pause"):
            assert state is before  # a paused game does not move
        assert sum(map(len, state.hands)) + len(state.pile) + len(state.out) == total
        assert widget.table["pile"]["size"] == len(state.pile)
        assert [o["cards"] for o in widget.table["opponents"]] == [
            len(hand) for seat, hand in enumerate(state.hands) if seat != widget.session.human
        ]
        assert len(widget.hand) == (0 if widget.session.human is None else len(state.hands[0]))
        assert "Something went wrong" not in widget.message
    record = widget.table["record"]
    assert Game.from_json(record).state == widget.session.game.state
