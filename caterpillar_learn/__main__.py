"""``python -m caterpillar_learn``: the ``caterpillar-learn`` command (:mod:`caterpillar_learn.cli`)."""

import sys

from caterpillar_learn.cli import main

if __name__ == "__main__":
    sys.exit(main())
