"""Build hook (the project's metadata is in pyproject.toml): a wheel ships the sample configs and data.

``configs/`` and ``sample_data/`` stay where they are in the repository; building copies them into the
wheel as ``inexeval/_data/``, where ``inexeval init --sample`` finds them (inexeval/starter.py).  The
sdist carries them through MANIFEST.in.  An editable install reads them from the repository instead.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA = ("configs", "sample_data")


class BuildPyWithData(build_py):
    """build_py, then configs/ and sample_data/ copied under inexeval/_data/ of the build."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        here = Path(__file__).resolve().parent
        for name in DATA:
            shutil.copytree(here / name, Path(self.build_lib) / "inexeval" / "_data" / name, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildPyWithData})
