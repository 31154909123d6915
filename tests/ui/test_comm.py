"""A lesson widget in a real kernel, driven through the real comm path.

The test is the front end: it sends the kernel the very ``comm_msg`` updates
a page sends (``{"method": "update", "state": {...}}``), first tampered and
hostile ones (traits other than ``event``, wrong types, huge numbers, unknown
event names, junk), then the events of a whole game, and reads the widget
back with ``execute`` requests (which the kernel handles after every comm
message sent before them).  The game must end at the score the engine gives
the same choices.
"""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator
from typing import Any

import pytest
from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.manager import KernelManager, start_new_kernel

from caterpillar_learn.i18n import text
from caterpillar_learn.lessons.teacher import sample_game
from caterpillar_learn.ui.hosting.serve import KERNEL_NAME, pinned_kernel

pytestmark = pytest.mark.slow


class Kernel:
    def __init__(self, manager: KernelManager, client: BlockingKernelClient) -> None:
        self.manager, self.client = manager, client
        self.backlog: list[dict[str, Any]] = []  # iopub messages that answered something else

    def run(self, code: str) -> Any:
        """Execute ``code``; its last line must print one JSON value, which is returned."""
        msg_id = self.client.execute(code)
        printed: list[str] = []
        while True:
            msg = self.client.get_iopub_msg(timeout=60)
            if msg["parent_header"].get("msg_id") != msg_id:
                self.backlog.append(msg)
                continue
            kind = msg["msg_type"]
            if kind == "stream":
                printed.append(msg["content"]["text"])
            elif kind == "error":
                raise AssertionError("\n".join(msg["content"]["traceback"]))
            elif kind == "status" and msg["content"]["execution_state"] == "idle":
                break
        return json.loads("".join(printed)) if printed else None

    def update(self, comm_id: str, state: dict[str, Any]) -> None:
        """What a page sends when it writes traits (``model.set`` + ``model.save_changes``)."""
        data = {"method": "update", "state": state, "buffer_paths": []}
        self.client.shell_channel.send(self.client.session.msg("comm_msg", {"comm_id": comm_id, "data": data}))

    def updates_sent(self, comm_id: str) -> list[dict[str, Any]]:
        """The ``update`` messages the kernel sent to the page since the last call."""
        found = []
        while True:
            if self.backlog:
                msg = self.backlog.pop(0)
            else:
                try:
                    msg = self.client.get_iopub_msg(timeout=0.5)
                except queue.Empty:
                    return found
            content = msg["content"]
            ours = msg["msg_type"] == "comm_msg" and content.get("comm_id") == comm_id
            if ours and content["data"].get("method") == "update":
                found.append(content["data"]["state"])


@pytest.fixture(scope="module")
def kernel() -> Iterator[Kernel]:
    with pinned_kernel():
        manager, client = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=120)
    try:
        yield Kernel(manager, client)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_tampered_traits_and_hostile_events_change_nothing_then_the_game_plays_on(kernel: Kernel) -> None:
    comm_id = kernel.run(
        "import json\n"
        "from caterpillar_learn.ui.caterpillars import CaterpillarsLesson\n"
        "w = CaterpillarsLesson('01-beginner')\n"
        "esm = w._esm\n"
        "def look():\n"
        "    print(json.dumps({'step': w.step, 'final': w.final, 'message': w.message, 'esm': w._esm == esm,\n"
        "        'lang': w.lang, 'filled': w.session.game.state.filled, 'rolled': w.dice['rolled'],\n"
        "        'legal': len(w.legal), 'views': w.view_names, 'svg': w.sheet['svg'][:4],\n"
        "        'asking': bool(w.question) and not w.question.get('answered'), 'target': w.lesson['target'],\n"
        "        'options': [o['id'] for o in w.question.get('options', [])]}))\n"
        "print(json.dumps(w.comm.comm_id))"
    )
    start = kernel.run("look()")
    kernel.updates_sent(comm_id)  # forget what came before

    # Traits only Python may write: dropped, and the page gets the true values back.
    tampered = {
        "step": 7,
        "final": {"final": 99, "text": "Final score: 99"},
        "sheet": {"svg": "<script>alert(1)</script>"},
        "_esm": "export default {render() { alert(1) }}",
        "lang": "xx",
        "view_names": ["_esm"],
        "message": "hacked",
    }
    kernel.update(comm_id, tampered)
    after = kernel.run("look()")
    assert after == start
    restored = {name for state in kernel.updates_sent(comm_id) for name in state}
    assert {"final", "sheet", "_esm", "lang", "view_names", "message"} <= restored

    # Hostile events: each refused in one short line, nothing changes.
    hostile: list[object] = [
        "roll",
        ["roll"],
        None,
        {"type": "launch_missiles"},
        {"type": 5},
        {"type": {"nested": ["deep"] * 3}},
        {"type": "box", "caterpillar": "Alex", "box": 10**4000},
        {"type": "option", "index": 1e308},
        {"type": "option", "index": -(10**30)},
        {"type": "die", "index": True},
        {"type": "step", "delta": "1"},
        {"type": "step", "delta": 10**40},
        {"type": "box", "caterpillar": "A" * 100_000, "box": 0},
        {"type": "roll", **{f"junk{i}": i for i in range(100)}},
    ]
    for event in hostile:
        kernel.update(comm_id, {"event": event})
        seen = kernel.run("look()")
        assert seen["message"] and "\n" not in seen["message"] and len(seen["message"]) < 300, event
        assert "Traceback" not in seen["message"] and "Something went wrong" not in seen["message"], event
        assert {**seen, "message": ""} == {**start, "message": ""}, event

    # Then the whole lesson by events, doing what it marks: roll, answer (the first option, until the
    # lesson shows the answer), the first legal move (its menu's first option), next.
    expected = sample_game("01-beginner")
    for seq in range(1, 400):
        now = kernel.run("look()")
        target = now["target"]
        if now["final"] and target == "new_game":
            break
        if target == "question":
            events = [{"type": "answer", "option": now["options"][0]}, {"type": "check"}]
        elif target.startswith("answer:"):
            events = [{"type": "answer", "option": target.removeprefix("answer:")}]
        else:
            events = [
                {"roll": {"type": "roll"}, "check": {"type": "check"}, "next": {"type": "step", "delta": 1}}.get(
                    target, {"type": "option", "index": 0}
                )
            ]
        for offset, event in enumerate(events):
            kernel.update(comm_id, {"event": {**event, "seq": seq * 10 + offset}})
    final = kernel.run("look()")
    assert final["final"]["final"] == expected.score().final
    assert final["filled"] == 12 and final["esm"] and final["step"] > 0
    assert text("lessons.final.text", final=expected.score().final) == final["final"]["text"]
