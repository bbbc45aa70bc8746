"""numpy's AVX2 sorts instead of its AVX-512 ones on AMD Zen 4, chosen before numpy loads (no numpy here).

numpy (2.0 and later) sorts 32- and 64-bit numbers with x86-simd-sort, built for AVX2 and for AVX-512
and picked by the CPU at numpy's import.  Its AVX-512 partition stores every vector with a masked
compress-store to memory (``vpcompressq``), which AMD's Zen 4 runs as microcode (reported at about
140 cycles each; reportedly fast again on Zen 5): there the AVX-512 sorts are several times slower
than the AVX2 ones.  Measured on an EPYC (Zen 4), numpy 2.0–2.5, 300,000 values: ``np.sort``
of int64 13.4 ms against 3.0 ms with AVX2, ``np.argsort`` 18.4 against 7.1 ms; the ``trec-eval``
drop-in on 300 topics × 1,000 results 0.32 against 0.25 s, with the same output.  numpy's maintainers know of
it (x86-simd-sort issue 6; numpy pull request 32690) and leave the choice to numpy's own switch,
``NPY_DISABLE_CPU_FEATURES``, read once as numpy loads.

:func:`prefer_avx2_sorts` sets that switch for the command line (:mod:`inexeval.launch`) when all of
these hold, and otherwise changes nothing:

- numpy is not loaded yet (the switch is read once);
- neither ``NPY_DISABLE_CPU_FEATURES`` nor ``NPY_ENABLE_CPU_FEATURES`` is set, even empty: the
  user's own choice stands (``NPY_DISABLE_CPU_FEATURES=`` keeps numpy's);
- the CPU is a Zen 4: ``/proc/cpuinfo`` (Linux) says AuthenticAMD, family 25, with ``avx512f``
  (Zen 3 is family 25 without AVX-512, Zen 5 family 26);
- numpy is one of PyPI's manylinux or musllinux x86-64 wheels of a release in
  :data:`AVX512_TARGETS`.  Those wheels build no AVX-512 into their baseline: naming a baseline
  feature would stop numpy from loading (a RuntimeError, and numpy cannot be loaded twice), and
  naming one numpy does not dispatch to prints a warning.  numpy 1.x has no AVX2 sort to fall back
  to; a release not in the table is left alone until checked.

Every AVX-512 target is switched off, not only the sorts' (numpy has no finer switch): on Zen 4 the
other AVX-512 loops split each instruction in two 256-bit halves anyway, and the benchmarks ran as
fast or faster (benchmarks/README.md).  The variable is inherited by ``--jobs`` workers.
"""

from __future__ import annotations

import os
import sys

#: numpy's names of its AVX-512 dispatch targets, by release (major, minor): the targets its
#: manylinux x86-64 wheels dispatch to and do not build into their baseline
#: (``numpy._core._multiarray_umath.__cpu_dispatch__`` and ``__cpu_baseline__``, read from each
#: release's wheel; tests/test_numpy_sorts.py checks the installed one).
_AVX512_2_0 = "AVX512F AVX512CD AVX512_KNL AVX512_KNM AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL"
AVX512_TARGETS: dict[tuple[int, int], str] = {
    (2, 0): _AVX512_2_0,
    (2, 1): _AVX512_2_0,
    (2, 2): _AVX512_2_0,
    (2, 3): _AVX512_2_0 + " AVX512_SPR",
    (2, 4): "X86_V4 AVX512_ICL AVX512_SPR",
    (2, 5): "X86_V4 AVX512_ICL AVX512_SPR",  # (2.5 needs Python 3.12 or later)
}

#: the variables numpy reads; either one set means the user chose
SWITCHES = ("NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES")

CPUINFO = "/proc/cpuinfo"


def prefer_avx2_sorts(environ=os.environ) -> str | None:
    """Switch numpy's AVX-512 targets off in ENVIRON (``NPY_DISABLE_CPU_FEATURES``) where the module
    docstring says: the names set, or None where nothing changed."""
    if "numpy" in sys.modules:
        return None
    names = avx2_sort_targets(environ)
    if names:
        environ["NPY_DISABLE_CPU_FEATURES"] = names
    return names


def avx2_sort_targets(environ=os.environ) -> str | None:
    """The names :func:`prefer_avx2_sorts` sets on this machine with ENVIRON before numpy loads, or None
    (numpy's own choice), whether or not numpy is loaded (the benchmarks print it)."""
    if any(name in environ for name in SWITCHES) or not is_zen4(_read_cpuinfo()):
        return None
    return targets_for(_numpy_wheel())


def is_zen4(cpuinfo: str) -> bool:
    """Whether the first processor of CPUINFO (``/proc/cpuinfo``'s text) is an AMD Zen 4: vendor
    AuthenticAMD, ``cpu family`` 25 and the ``avx512f`` flag."""
    fields: dict[str, str] = {}
    for line in cpuinfo.splitlines():
        if not line.strip():
            if fields:
                break  # (the first processor's block)
            continue
        key, sep, value = line.partition(":")
        if sep:
            fields.setdefault(key.strip(), value.strip())
    return (fields.get("vendor_id") == "AuthenticAMD" and fields.get("cpu family") == "25"
            and "avx512f" in fields.get("flags", "").split())


def targets_for(wheel: tuple[str, list[str]] | None) -> str | None:
    """The AVX-512 targets to switch off for numpy's WHEEL (its version and its wheel tags, as
    :func:`_numpy_wheel` reads them): None unless a manylinux or musllinux x86-64 wheel of a
    release in :data:`AVX512_TARGETS`."""
    if wheel is None:
        return None
    version, tags = wheel
    major, _, rest = version.partition(".")
    minor = rest.partition(".")[0]
    if not (major.isdigit() and minor.isdigit()):
        return None
    names = AVX512_TARGETS.get((int(major), int(minor)))
    platforms = [tag.rsplit("-", 1)[-1] for tag in tags]
    pypi = any(p.startswith(("manylinux", "musllinux")) and p.endswith("_x86_64") for p in platforms)
    return names if pypi else None


def _read_cpuinfo() -> str:
    """The start of ``/proc/cpuinfo`` (its first processor), or '' where there is none."""
    try:
        with open(CPUINFO, "rb") as f:
            return f.read(16384).decode("ascii", "replace")
    except OSError:
        return ""


def _numpy_wheel() -> tuple[str, list[str]] | None:
    """numpy's version and wheel tags, read from its ``.dist-info`` beside the package that an
    import would load (without importing it); None if there is not exactly one, or no WHEEL file.
    Read by hand: ``importlib.metadata`` takes about 24 ms to load and find it, on every command
    run on a Zen 4."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("numpy")
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if len(locations) != 1:
        return None
    site = os.path.dirname(os.path.abspath(locations[0]))
    try:
        infos = [e for e in os.listdir(site) if e.startswith("numpy-") and e.endswith(".dist-info")]
        if len(infos) != 1:
            return None
        with open(os.path.join(site, infos[0], "WHEEL"), encoding="utf-8", errors="replace") as f:
            tags = [line.split(":", 1)[1].strip() for line in f if line.startswith("Tag:")]
    except OSError:
        return None
    return infos[0][len("numpy-"):-len(".dist-info")], tags
