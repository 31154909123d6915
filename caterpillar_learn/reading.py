"""Reading input that may be hostile: files, standard input, JSON and numbers.

Every command line reads through these helpers, so that no input can make
it read without end, fill the memory, recurse until Python gives up or print
a message longer than a line.  A document (``--state FILE``, ``--deck FILE``)
or a ``--jsonl`` line may hold at most :data:`MAX_DOCUMENT_BYTES`; JSON may
nest at most :data:`MAX_JSON_DEPTH` deep and its whole numbers have at most
:data:`MAX_INT_DIGITS` digits (the depth is measured before parsing starts).

>>> parse_json('{"roll": "2 3 6", "seed": 7}', "state")
{'roll': '2 3 6', 'seed': 7}
>>> parse_json("[" * 100_000, "state")
Traceback (most recent call last):
...
caterpillar_learn.reading.InputError: state: got JSON nested more than 64 deep, expected at most 64 levels
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import BinaryIO

from caterpillar_learn.errors import CaterpillarLearnError, brief

#: Largest document or JSON line read, in bytes (1 MB); a save or a deck is a few kB.
MAX_DOCUMENT_BYTES = 1_000_000
#: Deepest JSON nesting accepted; a state or a saved game nests 4 deep.
MAX_JSON_DEPTH = 64
#: Longest whole number accepted, in digits; seeds need 20.
MAX_INT_DIGITS = 40
#: How much of an overlong ``--jsonl`` line is skipped looking for its end before the batch stops.
MAX_SKIPPED_BYTES = 16 * MAX_DOCUMENT_BYTES
#: Most games one ``simulate`` command plays.
MAX_GAMES = 100_000

_CHUNK = 1 << 16
#: A JSON string; its closing quote is optional, so that matching never backtracks.
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_WHOLE = re.compile(r"\s*[+-]?(?P<digits>[0-9]+)\s*")


class InputError(CaterpillarLearnError):
    """Input that cannot be read: too large, too deep, not UTF-8, not JSON."""


Error = type[CaterpillarLearnError]


def read_document(path: str, field: str, *, error: Error = InputError, limit: int = MAX_DOCUMENT_BYTES) -> str:
    """The text of the file ``path`` (``-``: standard input), reading at most ``limit`` bytes.

    >>> read_document("/no/such/file.json", "--state")
    Traceback (most recent call last):
    ...
    caterpillar_learn.reading.InputError: --state: got '/no/such/file.json', \
expected a readable text file (No such file or directory)
    >>> read_document("/dev/zero", "--state")
    Traceback (most recent call last):
    ...
    caterpillar_learn.reading.InputError: --state: got more than 1000000 bytes, expected at most 1000000 bytes
    """
    if path == "-":
        data = standard_input().read(limit + 1)
    else:
        try:
            with open(path, "rb") as handle:
                data = handle.read(limit + 1)
        except OSError as failure:
            why = failure.strerror or type(failure).__name__
            raise error(f"{field}: got {brief(path)}, expected a readable text file ({why})") from None
    if len(data) > limit:
        raise error(f"{field}: got more than {limit} bytes, expected at most {limit} bytes")
    return decode(data, field, error=error)


def decode(data: bytes, field: str, *, error: Error = InputError) -> str:
    """``data`` as UTF-8 text (a byte order mark is dropped).

    >>> decode(b"\\xff", "deck file")
    Traceback (most recent call last):
    ...
    caterpillar_learn.reading.InputError: deck file: got a byte that is not UTF-8 at byte 0, expected UTF-8 text
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as failure:
        raise error(f"{field}: got a byte that is not UTF-8 at byte {failure.start}, expected UTF-8 text") from None


def standard_input() -> BinaryIO:
    """Standard input as bytes (a text stream without bytes beneath, as tests set, is encoded)."""
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is not None:
        return buffer  # type: ignore[no-any-return]
    return io.BytesIO(sys.stdin.read().encode("utf-8"))


def json_depth(text: str) -> int:
    """How deep the arrays and objects of the JSON ``text`` nest (brackets inside strings do not count).

    >>> json_depth('{"a": [1, {"b": "[[["}]}')
    3
    """
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    return max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)


def parse_json(text: str, field: str, *, error: Error = InputError) -> object:
    """The JSON value of ``text``, refusing deep nesting, huge whole numbers, NaN and Infinity.

    >>> parse_json('{"labels": ' + "9" * 5000 + "}", "state")
    Traceback (most recent call last):
    ...
    caterpillar_learn.reading.InputError: state: got a whole number of 5000 digits, expected at most 40 digits
    >>> parse_json('{"level": ', "state")
    Traceback (most recent call last):
    ...
    caterpillar_learn.reading.InputError: state: malformed JSON (Expecting value, line 1 column 11)
    """
    if json_depth(text) > MAX_JSON_DEPTH:
        raise error(
            f"{field}: got JSON nested more than {MAX_JSON_DEPTH} deep, expected at most {MAX_JSON_DEPTH} levels"
        )

    def whole(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise error(
                f"{field}: got a whole number of {len(digits.lstrip('-'))} digits, "
                f"expected at most {MAX_INT_DIGITS} digits"
            )
        return int(digits)

    def constant(name: str) -> object:
        raise error(f"{field}: got {name}, expected standard JSON numbers")

    try:
        return json.loads(text, parse_int=whole, parse_constant=constant)
    except json.JSONDecodeError as failure:
        where = f"line {failure.lineno} column {failure.colno}"
        raise error(f"{field}: malformed JSON ({failure.msg}, {where})") from None


@dataclass(frozen=True)
class Line:
    """One non-blank line of a JSON lines stream; ``complete`` is false when it was longer than ``limit``."""

    number: int
    data: bytes
    complete: bool = True
    limit: int = MAX_DOCUMENT_BYTES

    def json(self, *, error: Error = InputError) -> object:
        """The line's JSON value, or an error naming the line."""
        field = f"line {self.number}"
        if not self.complete:
            raise error(f"{field}: got more than {self.limit} bytes, expected a line of at most {self.limit} bytes")
        return parse_json(decode(self.data, field, error=error), field, error=error)


def read_lines(stream: BinaryIO, *, limit: int = MAX_DOCUMENT_BYTES) -> Iterator[Line]:
    """The non-blank lines of ``stream``, none of them held longer than ``limit`` bytes.

    A longer line is given cut short (``complete=False``) and the rest of it
    is skipped; input with no line end within :data:`MAX_SKIPPED_BYTES` is
    not JSON lines at all, and stops the batch with an :class:`InputError`.

    >>> [(line.number, line.complete) for line in read_lines(io.BytesIO(b"1\\n\\n" + b"2" * 20 + b"\\n3"), limit=10)]
    [(1, True), (3, False), (4, True)]
    """
    number = 0
    while True:
        data = stream.readline(limit + 1)
        if not data:
            return
        number += 1
        if len(data) <= limit or data.endswith(b"\n"):
            if data.strip():
                yield Line(number, data)
            continue
        yield Line(number, data[:limit], complete=False, limit=limit)
        skipped = 0
        while not data.endswith(b"\n"):
            data = stream.readline(_CHUNK)
            if not data:
                return
            skipped += len(data)
            if skipped > MAX_SKIPPED_BYTES:
                raise InputError(
                    f"line {number}: got no line end within {MAX_SKIPPED_BYTES} bytes, expected JSON lines"
                )


def whole_number_argument(low: int, high: int) -> Callable[[str], int]:
    """An ``argparse`` type: a whole number from ``low`` to ``high``, refused in one short line.

    >>> games = whole_number_argument(1, MAX_GAMES)
    >>> games("250")
    250
    >>> games("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: got 0, expected 1 to 100000
    >>> games("9" * 5000)
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: got a whole number of 5000 digits, expected 1 to 100000
    """

    def whole_number(text: str) -> int:
        match = _WHOLE.fullmatch(text)
        if match is None:
            raise argparse.ArgumentTypeError(f"got {brief(text)}, expected a whole number from {low} to {high}")
        digits = len(match.group("digits"))
        if digits > MAX_INT_DIGITS:
            raise argparse.ArgumentTypeError(f"got a whole number of {digits} digits, expected {low} to {high}")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"got {value}, expected {low} to {high}")
        return value

    return whole_number


#: ``--seed``: the seeds a saved game can record.
seed_argument = whole_number_argument(0, 2**64 - 1)
#: ``--games`` of every ``simulate`` command.
games_argument = whole_number_argument(1, MAX_GAMES)

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_GAMES",
    "MAX_INT_DIGITS",
    "MAX_JSON_DEPTH",
    "InputError",
    "Line",
    "decode",
    "games_argument",
    "json_depth",
    "parse_json",
    "read_document",
    "read_lines",
    "seed_argument",
    "standard_input",
    "whole_number_argument",
]
