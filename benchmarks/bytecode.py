"""The checkout's ``inexeval`` package byte-compiled before anything is timed.

An installed package has its ``.pyc`` files (pip writes them); a checkout run with
``PYTHONDONTWRITEBYTECODE=1`` would compile every edited module again in every timed process
(4 ms for ``trec_eval_cli.py`` alone), which no user pays.  The files go to ``__pycache__``
(ignored by git), as a first run would put them.
"""

from __future__ import annotations

import compileall
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def compile_checkout() -> None:
    compileall.compile_dir(str(ROOT / "inexeval"), quiet=1)
