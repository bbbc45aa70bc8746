"""Write docs/measures.md's topic T1 and its runs as real INEX XML files (for end-to-end tests)."""

from __future__ import annotations

from pathlib import Path

from inexeval.model import E_TOO_SMALL
from t1data import EL, T1_ROWS


def write_t1_assessments(path: Path, topic: str = "1", pool: str = "11") -> Path:
    by_file: dict[str, list[str]] = {"f1": [], "f2": [], "f3": []}
    for f, p, e, size, rsize in T1_ROWS.values():
        ev = "?" if e == E_TOO_SMALL else str(e)
        by_file[f].append(f'    <element path="{p}" exhaustivity="{ev}" size="{size:,}" rsize="{rsize}"/>')
    body = []
    for f, els in by_file.items():
        if els:
            body.append(f'  <file collection="ieee" name="{f}">\n' + "\n".join(els) + "\n  </file>")
        else:
            body.append(f'  <file collection="ieee" name="{f}"/>')
    text = (f'<?xml version="1.0"?>\n<assessments pool="{pool}" topic="{topic}" version="2">\n'
            f'  <inex_topic topic_id="{topic}" query_type="CO+S"/>\n' + "\n".join(body) + "\n</assessments>\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def write_run(path: Path, run_id: str, keys, topic: str = "1", task: str = "CO.Thorough") -> Path:
    results = "\n".join(f"    <result><file>{EL[k][0]}</file><path>{EL[k][1]}</path></result>" for k in keys)
    text = (f'<?xml version="1.0"?>\n<inex-submission participant-id="1" run-id="{run_id}" task="{task}">\n'
            f'  <topic topic-id="{topic}">\n{results}\n  </topic>\n</inex-submission>\n')
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def write_config(path: Path, **keys) -> Path:
    lines = [f"{k.upper()}: {v}" for k, v in keys.items()]
    path.write_text("\n".join(lines) + "\n")
    return path
