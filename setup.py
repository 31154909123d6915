"""Packages for setuptools; everything else is in pyproject.toml.

The front-end sources live in the top-level ``widgets/`` folder (the design's
layout) and ship inside the package as ``caterpillar_learn.widgets``; the lesson
notebooks live in ``lessons/`` (the teacher's copies, for Binder and JupyterLab)
and ship as ``caterpillar_learn.notebooks``, which ``caterpillar-learn serve``
serves wherever it is run; the guides in ``docs/`` ship as ``caterpillar_learn.docs``
(``caterpillar-learn docs`` says where they are).  A ``packages.find`` table in pyproject.toml cannot
express either.
"""

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

#: Packages whose folders hold no Python modules: their ``.py`` files are the notebooks' jupytext twins.
NO_MODULES = ("caterpillar_learn.notebooks",)


class BuildPy(build_py):
    """setuptools' build_py, without the jupytext twins of the lessons (they stay in the checkout)."""

    def find_package_modules(self, package, package_dir):
        return [] if package in NO_MODULES else super().find_package_modules(package, package_dir)


setup(
    packages=[
        *find_namespace_packages(include=["caterpillar_learn", "caterpillar_learn.*"]),
        "caterpillar_learn.widgets",
        "caterpillar_learn.notebooks",
        "caterpillar_learn.docs",
    ],
    package_dir={
        "caterpillar_learn.widgets": "widgets",
        "caterpillar_learn.notebooks": "lessons",
        "caterpillar_learn.docs": "docs",
    },
    cmdclass={"build_py": BuildPy},
)
