#!/usr/bin/env python3
"""Write docs/lesson.schema.json: the lesson file's format as a JSON Schema (caterpillar_learn/lessons/schema.py),
made from the reader's own names.  A test compares the file with what this writes; after a change to the format,
run it and commit the file:

    .venv/bin/python scripts/write_lesson_schema.py
"""

from __future__ import annotations

import json
from pathlib import Path

from caterpillar_learn.lessons.schema import schema

OUT = Path(__file__).resolve().parent.parent / "docs" / "lesson.schema.json"


def main() -> None:
    OUT.write_text(json.dumps(schema(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
