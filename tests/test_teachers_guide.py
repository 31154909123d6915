"""docs/TEACHERS.md is written for teachers: no issue numbers, no test files, and every
``caterpillar-learn`` command it shows (with its options) is one the command line has."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from caterpillar_learn.cli import build_parser

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "TEACHERS.md"
#: "issue 12", "Issue 12", "#12", "issues 12 and 13": the project's bookkeeping, not a teacher's.
ISSUE = re.compile(r"\bissues?\s+\d+|#\d+", re.IGNORECASE)
#: A test file or folder of the project.
TEST_FILE = re.compile(r"\btests?/|\btest_\w+\.py\b|\bconftest\.py\b")
#: ``caterpillar-learn COMMAND --option ...`` inside code (a code block or an inline code span).
COMMAND = re.compile(r"(?:^|[\s/`])caterpillar-learn\s+([a-z][a-z-]*)((?:\s+[^\s`]+)*)")
CODE = re.compile(r"```[a-z]*\n(.*?)```|`([^`\n]+)`", re.DOTALL)


def problems(guide: str) -> list[str]:
    """What a teacher's guide must not say, one line each.

    >>> problems("See issue 12 and tests/test_x.py, fixed in #40.")
    ["issue number: 'issue 12'", "issue number: '#40'", "test file: 'tests/'", "test file: 'test_x.py'"]
    >>> problems("Press Print (Ctrl+P).")
    []
    """
    found = [f"issue number: {match.group(0)!r}" for match in ISSUE.finditer(guide)]
    return found + [f"test file: {match.group(0)!r}" for match in TEST_FILE.finditer(guide)]


def commands(guide: str) -> list[tuple[str, list[str]]]:
    """Each ``caterpillar-learn`` command shown in code, with the options written after it.

    >>> commands("Run `caterpillar-learn serve --lang de` then\\n```bash\\nx/bin/caterpillar-learn docs\\n```")
    [('serve', ['--lang']), ('docs', [])]
    """
    shown = []
    for block, span in CODE.findall(guide):
        for line in (block or span).splitlines():
            for name, rest in COMMAND.findall(line):
                shown.append((name, [word.split("=")[0] for word in rest.split() if word.startswith("--")]))
    return shown


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_the_guide_speaks_to_teachers() -> None:
    assert problems(GUIDE.read_text(encoding="utf-8")) == []


def test_the_check_finds_what_it_looks_for() -> None:
    said = "Fixed in issue 15 (tests/browser/test_x.py), see #7."
    assert len(problems(said)) == 4


def test_every_command_in_the_guide_exists() -> None:
    shown = commands(GUIDE.read_text(encoding="utf-8"))
    assert {"serve", "classroom"} <= {name for name, _ in shown}, shown  # the first lesson's two
    known = subcommands()
    for name, options in shown:
        assert name in known, f"caterpillar-learn {name}: no such command"
        strings = {string for action in known[name]._actions for string in action.option_strings}
        for option in options:
            assert option in strings, f"caterpillar-learn {name} {option}: no such option"


@pytest.mark.parametrize("wrong", ["`caterpillar-learn teach`", "`caterpillar-learn serve --projector`"])
def test_a_command_the_cli_lacks_is_caught(wrong: str) -> None:
    known = subcommands()
    ((name, options),) = commands(wrong)
    strings = {s for action in known.get(name, argparse.ArgumentParser())._actions for s in action.option_strings}
    assert name not in known or any(option not in strings for option in options)
