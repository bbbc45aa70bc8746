"""Every output of inexeval on the shipped configs and sample data, as one manifest of checksums.

A restructuring that must not change behaviour is checked by comparing the manifest before and
after: ``python -m inexeval.devtools.snapshot --write FILE`` writes it, ``--check FILE`` compares
(exit 1 and the differing entries when they differ), ``--keep DIR`` also keeps every output for a
diff.  ``tests/test_outputs_snapshot.py`` checks the committed manifest
(``tests/golden/outputs.manifest``).

What is run, each in a fresh copy of ``configs/`` and ``sample_data/`` (paths in messages are
written relative to that copy, so the manifest does not depend on where it runs):

- every shipped config: the evaluation with its default output (and every result file it
  writes), ``-q -e --format tsv``, ``--format json``, and the tool layouts (``--format trec_eval
  --digits 4 -q`` for ``trec``; ``--format inex_eval -q`` for the FOL tasks); ``validate``;
- ``compare`` and ``assessments`` on a config per kind of input;
- ``--format latex`` and ``markdown``, of the evaluation and of ``compare``, on the 2005 sample;
- the drop-ins on the sample data: ``trec-eval`` (``-q -m all_trec``, ``-c``, ``-m official``) and
  ``inex-eval`` (every task letter).

Each entry is ``command<TAB>what<TAB>sha256``, ``what`` being ``status``, ``stdout``, ``stderr`` or
a result file's path; ``--show`` prints the outputs themselves instead of their checksums.

``compare``'s statistics files (``anova``, ``groups``, ``significance``, ``tukey``; TSV and JSON)
print p-values, intervals and test statistics at full precision.  Their last digits, about 1e-15
relative, come from scipy's special functions, root searches and sums whose order depends on the
numpy and scipy releases and on the CPU (numpy 2.3 and 2.4, scipy 1.16 and 1.17, AVX2 and AVX-512 all
differ there).  They are checksummed with every number written with a point or an exponent rounded to
10 significant digits (:func:`canonical`), so that the manifest checks inexeval, not the libraries;
``--keep`` keeps the bytes as written.
This module is a development tool: evaluation never imports it.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: compare's statistics files, checksummed after :func:`canonical` (module docstring)
_STATISTICS = re.compile(r"(?:^|/)(?:anova|groups|significance|tukey)\.(?:tsv|json)$")
#: a number written with a point or an exponent (not an integer, not a word holding digits)
_FLOAT = re.compile(rb"(?<![\w.])-?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+(?=[eE]))(?:[eE][-+]?[0-9]+)?(?![\w.])")


def canonical(what: str, data: bytes) -> bytes:
    """DATA as checksummed: a statistics file's numbers rounded to 10 significant digits, else DATA."""
    if _STATISTICS.search(what) is None:
        return data
    return _FLOAT.sub(lambda m: b"%.10g" % float(m.group()), data)

#: (name, arguments after ``python -m inexeval``) with ``{cfg}`` for the config's path.
_PER_CONFIG = [
    ("default", ["-config", "{cfg}", "--results-dir", "{tmp}/r1"]),
    ("tsv", ["-config", "{cfg}", "-q", "-e", "--format", "tsv", "--results-dir", "{tmp}/r2"]),
    ("json", ["-config", "{cfg}", "--format", "json", "--results-dir", "{tmp}/r3"]),
    ("validate", ["validate", "-config", "{cfg}"]),
]
_TOOL_LAYOUT = {
    "trec": ["--format", "trec_eval", "--digits", "4", "-q"],
    "fol": ["--format", "inex_eval", "-q"],
}
_OTHERS = [
    ("compare-thorough", ["compare", "-config", "{configs}/co-thorough.prop", "--samples", "200"]),
    ("compare-trec", ["compare", "-config", "{configs}/trec.prop", "--measure", "map", "--test", "randomisation",
                      "--samples", "200", "--runs", "good,poor"]),
    ("assessments-2005", ["assessments", "-config", "{configs}/co-thorough.prop"]),
    ("assessments-trec", ["assessments", "-config", "{configs}/trec.prop"]),
    ("trec-eval-all", ["trec-eval", "-q", "-m", "all_trec", "{data}/trec/qrels.txt", "{data}/trec/runs/good.txt"]),
    ("trec-eval-c", ["trec-eval", "-q", "-c", "{data}/trec/qrels.txt", "{data}/trec/runs/poor.txt"]),
    ("trec-eval-stop", ["trec-eval", "{data}/trec/qrels.txt", "{data}/trec/runs/poor.txt"]),
    ("trec-eval-9", ["trec-eval", "--trec-eval-version=9.0.8", "-m", "official", "{data}/trec/qrels.txt",
                     "{data}/trec/runs/medium.txt"]),
] + [(f"inex-eval-{t}", ["inex-eval", f"-{t}", "-q", "{tmp}/fol-qrels.txt", "{tmp}/fol-run.txt"]) for t in "ftrbi"] + [
    ("latex-thorough", ["-config", "{configs}/co-thorough.prop", "-q", "--format", "latex", "--results-dir", "{tmp}/r"]),
    ("markdown-thorough", ["-config", "{configs}/co-thorough.prop", "--format", "markdown", "--results-dir",
                           "{tmp}/r"]),
    ("compare-thorough-latex", ["compare", "-config", "{configs}/co-thorough.prop", "--format", "latex",
                                "--results-dir", "{tmp}/r"]),
    ("compare-thorough-markdown", ["compare", "-config", "{configs}/co-thorough.prop", "--format", "markdown",
                                   "--runs", "Medium,Poor", "--results-dir", "{tmp}/r"]),
]


def _commands(configs: Path) -> list[tuple[str, list[str]]]:
    out = []
    for cfg in sorted(configs.glob("*.prop")):
        text = cfg.read_text()
        kind = "trec" if "TASK: trec" in text else "fol" if "TASK: FOL." in text else None
        for name, args in _PER_CONFIG:
            out.append((f"{cfg.stem}:{name}", [a.replace("{cfg}", str(cfg)) for a in args]))
        if kind is not None:
            out.append((f"{cfg.stem}:tool", ["-config", str(cfg), *_TOOL_LAYOUT[kind],
                                             "--results-dir", "{tmp}/r4"]))
    return out + _OTHERS


def _fol_inputs(data: Path, tmp: Path) -> None:
    """The FOL drop-in's inputs: the sample qrels and its first run, uncompressed."""
    import gzip

    folder = data / "inex2009-2010"
    (tmp / "fol-qrels.txt").write_bytes(gzip.decompress((folder / "qrels.txt.gz").read_bytes()))
    run = sorted((folder / "runs" / "original").iterdir())[0]
    raw = run.read_bytes()
    (tmp / "fol-run.txt").write_bytes(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)


def _run(name: str, args: list[str], work: Path, keep: Path | None, show: bool) -> list[str]:
    tmp = work / "tmp" / name.replace(":", "_")
    tmp.mkdir(parents=True, exist_ok=True)
    subst = {"{tmp}": str(tmp), "{configs}": str(work / "configs"), "{data}": str(work / "sample_data")}
    argv = []
    for a in args:
        for k, v in subst.items():
            a = a.replace(k, v)
        argv.append(a)
    env = dict(os.environ, COLUMNS="100", LC_ALL="C.UTF-8", PYTHONHASHSEED="0")
    before = _files(tmp)
    proc = subprocess.run([sys.executable, "-m", "inexeval", *argv], capture_output=True, cwd=work, env=env,
                          timeout=600)
    outputs = {"status": str(proc.returncode).encode(), "stdout": proc.stdout, "stderr": proc.stderr}
    for path, data in sorted(_files(tmp).items()):
        if before.get(path) != data:
            outputs[path] = data
    lines = []
    for what, data in outputs.items():
        data = data.replace(str(work).encode(), b"<work>")
        if keep is not None:
            target = keep / name.replace(":", "/") / what.replace("/", "__")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        data = canonical(what, data)
        value = data.decode("utf-8", "replace") if show else hashlib.sha256(data).hexdigest()
        lines.append(f"{name}\t{what}\t{value}")
    return lines


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under FOLDER (but inexeval's own bookkeeping: locks, stamps), by relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith(".")}


def snapshot(keep: Path | None = None, show: bool = False, jobs: int = 2) -> list[str]:
    """The manifest lines (or, with SHOW, the outputs) of every command, in a fixed order."""
    with tempfile.TemporaryDirectory(prefix="inexeval-snapshot-") as d:
        work = Path(d)
        shutil.copytree(ROOT / "configs", work / "configs")
        shutil.copytree(ROOT / "sample_data", work / "sample_data")
        commands = _commands(work / "configs")
        (work / "tmp").mkdir()
        for name, _ in _OTHERS:
            if name.startswith("inex-eval"):
                t = work / "tmp" / name
                t.mkdir(parents=True, exist_ok=True)
                _fol_inputs(work / "sample_data", t)
        with ThreadPoolExecutor(jobs) as pool:
            lines = [line for got in pool.map(lambda c: _run(c[0], c[1], work, keep, show), commands)
                     for line in got]
        return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m inexeval.devtools.snapshot", description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", type=Path, help="write the manifest to this file")
    ap.add_argument("--check", type=Path, help="compare with this manifest (exit 1 when it differs)")
    ap.add_argument("--keep", type=Path, help="also keep every output under this folder")
    ap.add_argument("--show", action="store_true", help="print the outputs instead of their checksums")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    lines = snapshot(args.keep, args.show, args.jobs)
    text = "".join(line + "\n" for line in lines)
    if args.write:
        args.write.write_text(text)
    if args.check:
        want = args.check.read_text().splitlines()
        if want != lines:
            old, new = set(want), set(lines)
            for line in sorted(old - new):
                print(f"- {line}")
            for line in sorted(new - old):
                print(f"+ {line}")
            return 1
    if not args.write and not args.check:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
