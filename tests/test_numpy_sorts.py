"""inexeval.numpy_sorts: numpy's AVX2 sorts chosen on AMD Zen 4 by the command line, before numpy loads, and
only where that is safe (a PyPI wheel of a checked release, the user's own switch untouched)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from inexeval import numpy_sorts
from inexeval.numpy_sorts import AVX512_TARGETS, avx2_sort_targets, is_zen4, prefer_avx2_sorts, targets_for

ROOT = Path(__file__).resolve().parents[1]


def _cpu(vendor: str, family: int, flags: str) -> str:
    return (f"processor\t: 0\nvendor_id\t: {vendor}\ncpu family\t: {family}\nmodel\t\t: 17\n"
            f"model name\t: some cpu\nflags\t\t: fpu sse sse2 {flags}\n\n")


ZEN4 = _cpu("AuthenticAMD", 25, "avx2 avx512f avx512bw avx512vl")
ZEN3 = _cpu("AuthenticAMD", 25, "avx2 fma")
ZEN5 = _cpu("AuthenticAMD", 26, "avx2 avx512f avx512bw avx512vl")
SAPPHIRE_RAPIDS = _cpu("GenuineIntel", 6, "avx2 avx512f avx512bw avx512vl avx512fp16")
WHEEL_2_4 = ("2.4.6", ["cp311-cp311-manylinux_2_27_x86_64", "cp311-cp311-manylinux_2_28_x86_64"])


@pytest.mark.parametrize(("text", "zen4"), [
    (ZEN4, True),
    (ZEN4 + ZEN3, True),  # the first processor decides
    (ZEN3, False),  # Zen 3: no AVX-512
    (ZEN5, False),  # Zen 5 (family 26) stores compressed vectors fast
    (SAPPHIRE_RAPIDS, False),
    (_cpu("AuthenticAMD", 25, "avx2 avx512fp16 avx512bw"), False),  # flags compared whole
    (ZEN3 + ZEN4, False),
    ("", False),
    ("vendor_id: AuthenticAMD\ncpu family: 25\n", False),  # no flags line
])
def test_a_zen4_is_told_from_cpuinfo(text, zen4):
    assert is_zen4(text) is zen4


@pytest.mark.parametrize(("wheel", "names"), [
    (WHEEL_2_4, "X86_V4 AVX512_ICL AVX512_SPR"),
    (("2.4.0rc1", ["cp312-cp312-manylinux_2_27_x86_64"]), "X86_V4 AVX512_ICL AVX512_SPR"),
    (("2.4.6", ["cp311-cp311-musllinux_1_2_x86_64"]), "X86_V4 AVX512_ICL AVX512_SPR"),
    (("2.3.5", ["cp311-cp311-manylinux_2_27_x86_64", "cp311-cp311-manylinux_2_28_x86_64"]),
     "AVX512F AVX512CD AVX512_KNL AVX512_KNM AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR"),
    (("2.0.2", ["cp311-cp311-manylinux_2_17_x86_64", "cp311-cp311-manylinux2014_x86_64"]),
     "AVX512F AVX512CD AVX512_KNL AVX512_KNM AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL"),
    (("1.26.4", ["cp311-cp311-manylinux_2_17_x86_64"]), None),  # numpy 1.x: no AVX2 sort to fall back to
    (("2.5.5", ["cp313-cp313-manylinux_2_27_x86_64", "cp313-cp313-manylinux_2_28_x86_64"]),
     "X86_V4 AVX512_ICL AVX512_SPR"),  # (read from its wheel; its AVX-512 sorts as slow on Zen 4)
    (("2.6.0", ["cp313-cp313-manylinux_2_28_x86_64"]), None),  # not checked yet
    (("2.4.6", ["cp311-cp311-linux_x86_64"]), None),  # built from source: its baseline unknown
    (("2.4.6", ["cp311-cp311-manylinux_2_28_aarch64"]), None),
    (("2.4.6", []), None),
    (("main", ["cp311-cp311-manylinux_2_28_x86_64"]), None),
    (("2", ["cp311-cp311-manylinux_2_28_x86_64"]), None),
    (("2.4", ["cp311-cp311-manylinux_2_28_x86_64"]), "X86_V4 AVX512_ICL AVX512_SPR"),
    (("2.40.1", ["cp311-cp311-manylinux_2_28_x86_64"]), None),
    (("12.4.1", ["cp311-cp311-manylinux_2_28_x86_64"]), None),
    (("2.4.6", ["cp311-cp311-manylinux_2_28_x86_64_v2"]), None),
    (None, None),
])
def test_the_targets_depend_on_the_release_and_the_wheel(wheel, names):
    assert targets_for(wheel) == names


@pytest.fixture
def numpy_not_loaded(monkeypatch):
    """prefer_avx2_sorts as at the command line's start (numpy not loaded yet), a Zen 4 and a 2.4 wheel."""
    monkeypatch.delitem(sys.modules, "numpy")
    monkeypatch.setattr(numpy_sorts, "_read_cpuinfo", lambda: ZEN4)
    monkeypatch.setattr(numpy_sorts, "_numpy_wheel", lambda: WHEEL_2_4)
    return monkeypatch


def test_the_switch_is_set_on_a_zen4_with_a_wheel(numpy_not_loaded):
    env = {"PATH": "/bin"}
    assert prefer_avx2_sorts(env) == "X86_V4 AVX512_ICL AVX512_SPR"
    assert env == {"PATH": "/bin", "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR"}


@pytest.mark.parametrize("given", [{"NPY_DISABLE_CPU_FEATURES": ""}, {"NPY_DISABLE_CPU_FEATURES": "AVX512_SPR"},
                                   {"NPY_ENABLE_CPU_FEATURES": "X86_V3"}])
def test_the_users_own_switch_stands(numpy_not_loaded, given):
    env = dict(given)
    assert prefer_avx2_sorts(env) is None
    assert env == given


@pytest.mark.parametrize(("cpu", "wheel"), [(ZEN3, WHEEL_2_4), (ZEN5, WHEEL_2_4), (SAPPHIRE_RAPIDS, WHEEL_2_4),
                                            ("", WHEEL_2_4), (ZEN4, None),
                                            (ZEN4, ("2.4.6", ["cp311-cp311-linux_x86_64"]))])
def test_nothing_changes_elsewhere(numpy_not_loaded, cpu, wheel):
    numpy_not_loaded.setattr(numpy_sorts, "_read_cpuinfo", lambda: cpu)
    numpy_not_loaded.setattr(numpy_sorts, "_numpy_wheel", lambda: wheel)
    env: dict[str, str] = {}
    assert prefer_avx2_sorts(env) is None
    assert env == {}


def test_nothing_changes_once_numpy_is_loaded(monkeypatch):
    monkeypatch.setattr(numpy_sorts, "_read_cpuinfo", lambda: ZEN4)
    monkeypatch.setattr(numpy_sorts, "_numpy_wheel", lambda: WHEEL_2_4)
    env: dict[str, str] = {}
    assert "numpy" in sys.modules and prefer_avx2_sorts(env) is None and env == {}
    # what it would have set, for the benchmarks' record
    assert avx2_sort_targets(env) == "X86_V4 AVX512_ICL AVX512_SPR" and env == {}
    assert avx2_sort_targets({"NPY_DISABLE_CPU_FEATURES": ""}) is None


def test_the_installed_numpy_is_found_without_importing_it():
    wheel = numpy_sorts._numpy_wheel()
    if wheel is None:
        pytest.skip("numpy is not installed from a wheel here (no single numpy-*.dist-info with a WHEEL file)")
    assert wheel[0] == np.__version__
    assert wheel[1] and all(tag.count("-") == 2 for tag in wheel[1])


def _installed_targets() -> str:
    names = targets_for(numpy_sorts._numpy_wheel())
    if names is None:
        pytest.skip(f"numpy {np.__version__} here is not a PyPI x86-64 wheel of a release in AVX512_TARGETS")
    return names


def test_the_installed_numpys_targets_are_dispatched_and_not_in_its_baseline():
    from numpy._core._multiarray_umath import __cpu_baseline__, __cpu_dispatch__

    names = _installed_targets().split()
    assert set(names) <= set(__cpu_dispatch__)
    assert not set(names) & set(__cpu_baseline__)


def test_the_installed_numpy_loads_with_them_switched_off_and_says_nothing():
    names = _installed_targets()
    probe = ("from numpy._core._multiarray_umath import __cpu_features__ as f\n"
             f"print(' '.join(str(f[n]) for n in {names.split()!r}))")
    env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=names)
    proc = subprocess.run([sys.executable, "-W", "error", "-c", probe], capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.split() == ["False"] * len(names.split())


def test_every_release_row_names_avx512_targets_only():
    for release, names in AVX512_TARGETS.items():
        assert release >= (2, 0)
        assert all(n.startswith("AVX512") or n == "X86_V4" for n in names.split()), release


# --- the command line sets it before numpy loads, on each of its paths ---

_DRIVER = r"""
import atexit, os, sys
import inexeval.numpy_sorts as s
s.CPUINFO = sys.argv[1]
sys.argv = ["inexeval", *sys.argv[2:]]
def switch():  # (as the process ends: the command may end it without returning, inexeval.launch.end)
    from numpy._core._multiarray_umath import __cpu_features__ as f
    names = os.environ.get("NPY_DISABLE_CPU_FEATURES")
    print("SWITCH", repr(names), [f[n] for n in (names or "").split()], file=sys.stderr)
atexit.register(switch)
from inexeval.launch import main
main()
"""


def _tied_run(tmp_path: Path) -> tuple[Path, Path]:
    """qrels and a run of 30 topics × 500 results with five distinct scores (ties everywhere, so
    that the sort's handling of equal keys would show), docnos in random order."""
    rng = random.Random(35)
    q, r = [], []
    for t in range(1, 31):
        docs = [f"d{n}" for n in rng.sample(range(10**6), 500)]
        for d in docs[:60]:
            q.append(f"{t} 0 {d} {rng.choice((0, 1, 2))}")
        for i, d in enumerate(docs):
            r.append(f"{t} Q0 {d} {i + 1} {rng.choice(('1', '2.5', '2.50', '3', '0'))} tied")
    rng.shuffle(r)
    (tmp_path / "qrels").write_text("\n".join(q) + "\n")
    (tmp_path / "run").write_text("\n".join(r) + "\n")
    return tmp_path / "qrels", tmp_path / "run"


def _launch(tmp_path: Path, cpu: str, args: list[str], **env: str) -> tuple[str, str]:
    (tmp_path / "cpuinfo").write_text(cpu)
    full = {k: v for k, v in os.environ.items() if k not in numpy_sorts.SWITCHES}
    full.update(env, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", _DRIVER, str(tmp_path / "cpuinfo"), *args], capture_output=True,
                          text=True, env=full, cwd=tmp_path)
    switch = [line for line in proc.stderr.splitlines() if line.startswith("SWITCH")]
    assert len(switch) == 1, proc.stderr
    return proc.stdout, switch[0]


def test_the_drop_in_switches_numpy_on_a_zen4_and_prints_the_same(tmp_path):
    names = _installed_targets()
    qrels, run = _tied_run(tmp_path)
    args = ["trec-eval", "-q", "-m", "all_trec", str(qrels), str(run)]
    out, switch = _launch(tmp_path, ZEN4, args)
    assert switch == f"SWITCH {names!r} {[False] * len(names.split())!r}"
    kept, switch = _launch(tmp_path, ZEN4, args, NPY_DISABLE_CPU_FEATURES="")
    assert switch == "SWITCH '' []"
    elsewhere, switch = _launch(tmp_path, ZEN5, args)
    assert switch == "SWITCH None []"
    assert out == kept == elsewhere and out.count("\n") > 30 * 90


def test_the_config_paths_switch_numpy_on_a_zen4(tmp_path):
    names = _installed_targets()
    qrels, run = _tied_run(tmp_path)
    (tmp_path / "runs").mkdir()
    run.rename(tmp_path / "runs" / "tied.txt")
    (tmp_path / "trec.prop").write_text(f"TASK: trec\nASSESSMENTS_DIR: {qrels}\nSUBMISSIONRUNS_DIR: runs/\n"
                                        "RESULTS_DIR: out\n")
    switched = f"SWITCH {names!r} {[False] * len(names.split())!r}"
    # the fast path of -config, then click's (an option only click reads)
    for extra in ([], ["--digits", "4"]):
        out, switch = _launch(tmp_path, ZEN4, ["-config", str(tmp_path / "trec.prop"), "--quiet", *extra])
        assert switch == switched, extra
    assert (tmp_path / "out").is_dir()
