"""Packages for setuptools; everything else is in pyproject.toml.

The front-end sources live in the top-level ``widgets/`` folder (the design's
layout) and ship inside the package as ``caterpillar_learn.widgets``, which a
``packages.find`` table in pyproject.toml cannot express.
"""

from setuptools import find_namespace_packages, setup

setup(
    packages=[
        *find_namespace_packages(include=["caterpillar_learn", "caterpillar_learn.*"]),
        "caterpillar_learn.widgets",
    ],
    package_dir={"caterpillar_learn.widgets": "widgets"},
)
