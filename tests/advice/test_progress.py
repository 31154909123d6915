"""Long runs show their progress on a terminal and say nothing on standard error in a pipe."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import time

COMMAND = [sys.executable, "-m", "caterpillar_learn", "simulate", "--level", "beginner", "--strategy", "random"]
COMMAND += ["--games", "3000"]


def on_a_terminal(command: list[str]) -> str:
    """What ``command`` writes to a pseudo-terminal (its standard output and error both)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: run the command with the terminal (80 columns, as a window has) as its streams
        fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.execvp(command[0], command)
    seen = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.waitpid(pid, 0)
    return seen.decode("utf-8", "replace")


def test_a_terminal_sees_the_bar() -> None:
    said = on_a_terminal(COMMAND)
    assert "random at beginner" in said and "game" in said, said[-400:]
    assert '"mean"' in said or "{" in said  # the result still comes


def test_a_pipe_gets_the_result_and_no_noise() -> None:
    done = subprocess.run(COMMAND, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.lstrip().startswith("{")


def test_asked_for_in_a_pipe_the_bar_goes_to_standard_error() -> None:
    done = subprocess.run([*COMMAND, "--progress"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "random at beginner" in done.stderr


def test_the_first_solve_of_a_layout_shows_its_own_bar_before_the_games() -> None:
    """At Advanced the hint's first move solves the layout (the estimate's exact backbone): that solve has a bar
    of its own, so the games' bar does not stand at 0 through it."""
    hint = [sys.executable, "-m", "caterpillar_learn", "simulate", "--level", "advanced", "--strategy", "hint"]
    done = subprocess.run([*hint, "--games", "1", "--progress"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-400:]
    solving, games = done.stderr.find("solving this layout"), done.stderr.find("hint at advanced")
    assert 0 <= solving < games, done.stderr[-400:]
