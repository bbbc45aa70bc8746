"""The README's first command on the sample data (issue 19): only the warnings the sample data is there
to demonstrate, all about Poor.xml, the run of quirks (README "Install and score"; sample_data/README.md)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from inexeval.cli.command import main

ROOT = Path(__file__).resolve().parent.parent


def test_first_run_warns_only_about_the_run_of_quirks(tmp_path):
    res = CliRunner().invoke(main, ["-config", str(ROOT / "configs" / "co-thorough.prop"),
                                    "--results-dir", str(tmp_path), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    poor = str(ROOT / "sample_data" / "inex2005" / "runs" / "CO" / "Poor.xml")
    warnings = [line for line in res.stderr.splitlines() if line.startswith("inexeval: warning:")]
    assert warnings == [
        f"inexeval: warning: {poor}: 1 invalid result skipped (topic 203); first at line 39: "
        "invalid path step '' in '/article[1]//p[2]'",
        f"inexeval: warning: {poor}: 1 duplicate result dropped (topic 202; first at line 13)",
        f"inexeval: warning: {poor}: 1 topic(s) not in the recall-base ignored: 299",
        f"inexeval: warning: {poor}: run task 'CO.Focussed' differs from TASK CO.Thorough",
    ]
    assert res.stderr.count("\n") == len(warnings)  # nothing else on standard error
