"""Build hook (the project's metadata is in pyproject.toml): a wheel ships the sample configs and data,
and the documentation.

``configs/``, ``sample_data/`` and ``docs/`` stay where they are in the repository; building copies them
into the wheel as ``inexeval/_data/``, where ``inexeval init --sample`` finds the first two
(inexeval/starter.py) and ``inexeval docs`` the Markdown files of the third (inexeval/docs_files.py).
The sdist carries them through MANIFEST.in.  An editable install reads them from the repository instead.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: folder -> the files of it a wheel ships (every file of configs/ and sample_data/; docs/*.md)
DATA = {"configs": "*", "sample_data": "*", "docs": "*.md"}


class BuildPyWithData(build_py):
    """build_py, then configs/, sample_data/ and docs/*.md copied under inexeval/_data/ of the build."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        here = Path(__file__).resolve().parent
        for name, pattern in DATA.items():
            target = Path(self.build_lib) / "inexeval" / "_data" / name
            if pattern == "*":
                shutil.copytree(here / name, target, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
                continue
            target.mkdir(parents=True, exist_ok=True)
            for path in sorted((here / name).glob(pattern)):
                shutil.copy2(path, target / path.name)


setup(cmdclass={"build_py": BuildPyWithData})
