"""How reliable a measure is over a topics × runs matrix (docs/measures.md §12.7).

* :func:`discriminative_power` (Sakai, "Evaluating evaluation metrics based on the bootstrap",
  SIGIR 2006): test every pair of runs, sort the m(m−1)/2 p-values (achieved significance levels,
  ASL) into the ASL curve and report the share of pairs significant at ``alpha``.
* :func:`swap_rate` (Voorhees and Buckley, "The effect of topic set size on retrieval experiment
  error", SIGIR 2002; Buckley and Voorhees 2000): draw two disjoint random topic subsets of size c,
  and count how often the two subsets order a pair of runs in opposite ways, by the size of the
  difference.

``x`` is a topics × runs matrix (rows topics, columns runs) of finite scores, at least 2 × 2.
Both functions are deterministic for a ``seed`` (numpy.random.default_rng).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from inexeval.numeric import TOLERANCE
from inexeval.records import record

RELIABILITY_TESTS = ("bootstrap", "randomised-tukey")

#: The default bin width of :func:`swap_rate` (Voorhees and Buckley's 0.01).
SWAP_BIN_WIDTH = 0.01

# Bounds on the values held at once (a few tens of MB); the random streams do not depend on them.
_CELLS = 1 << 21
_MAX_BINS = 1_000_000


def _matrix(x) -> np.ndarray:
    a = np.array(x, dtype=float)
    if a.ndim != 2:
        raise ValueError(f"expected a topics × runs matrix (two dimensions), not {a.ndim}")
    n, m = a.shape
    if n < 2 or m < 2:
        raise ValueError(f"at least 2 topics and 2 runs are needed, not {n} × {m}")
    if not np.all(np.isfinite(a)):
        raise ValueError("scores must be finite numbers (drop undefined values first)")
    return a


def _samples(samples) -> int:
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 1:
        raise ValueError(f"number of samples must be a positive integer, not {samples!r}")
    return int(samples)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


# ---------------------------------------------------------------------------
# Discriminative power


@record(frozen=True, eq=False)
class DiscriminativePower:
    """Sakai's discriminative power of one measure over a topics × runs matrix.

    ``p`` is the runs × runs matrix of p-values (symmetric, NaN on the diagonal); ``pairs`` lists
    the run pairs (i, j), i < j (column indices), in ascending order of p (ties in the order
    (0, 1), (0, 2), ..., (1, 2), ...); ``asl`` their p-values in that order (the ASL curve);
    ``share`` the share of pairs with p ≤ ``alpha``.
    """

    share: float
    asl: np.ndarray
    pairs: list[tuple[int, int]]
    p: np.ndarray
    test: str
    alpha: float
    samples: int


def _bootstrap_pvalues(x: np.ndarray, samples: int, seed) -> np.ndarray:
    """p of inexeval.compare.stats.bootstrap_test(x[:, i], x[:, j], samples, seed) for every pair
    i < j, in the order of np.triu_indices: the same computation over all pairs at once (every
    pair's test uses the same seed, so the same resampled topics)."""
    n, m = x.shape
    iu, ju = np.triu_indices(m, 1)
    d = x[:, iu].T - x[:, ju].T                      # pairs × topics, d_t = a_t - b_t
    scale = np.abs(d).max(axis=1)
    observed = d.mean(axis=1)
    shifted = d - observed[:, None]
    threshold = np.abs(observed) - TOLERANCE * scale
    count = np.zeros(d.shape[0], dtype=np.int64)
    rng = np.random.default_rng(seed)
    rows_per_batch = 2048
    done = 0
    while done < samples:
        rows = min(rows_per_batch, samples - done)
        u = rng.random((rows, n))
        idx = np.minimum((u * n).astype(np.int64), n - 1)
        chunk = max(1, _CELLS // (rows * n))
        for start in range(0, d.shape[0], chunk):
            stop = start + chunk
            means = shifted[start:stop][:, idx].mean(axis=2)        # pairs × rows
            count[start:stop] += np.count_nonzero(np.abs(means) >= threshold[start:stop, None], axis=1)
        done += rows
    p = (count + 1) / (samples + 1)
    p[scale == 0.0] = 1.0
    return p


def discriminative_power(x, test: str = "bootstrap", alpha: float = 0.05, samples: int = 1000,
                         seed: int = 0) -> DiscriminativePower:
    """Discriminative power (Sakai 2006) of the measure whose per-topic scores are ``x``.

    * ``"bootstrap"``: every pair of runs by inexeval.compare.stats.bootstrap_test (the paired
      bootstrap test of the mean difference, ``samples`` resamples, the same ``seed`` for every
      pair; p = (#{|mean of resampled shifted d| ≥ |d̄|} + 1)/(samples + 1)).
    * ``"randomised-tukey"``: the p-values of the randomised Tukey HSD test
      (inexeval.compare.anova.tukey_hsd(x, randomised=True, samples=samples, seed=seed)), which
      already account for all the pairs.

    A pair is significant when p ≤ ``alpha`` (the rule of inexeval compare's significance
    table).  No multiple-comparison correction is applied to the bootstrap p-values (Sakai's
    discriminative power counts every pair's ASL as it is).
    """
    a = _matrix(x)
    if test not in RELIABILITY_TESTS:
        raise ValueError(f"test must be one of {', '.join(repr(t) for t in RELIABILITY_TESTS)}, not {test!r}")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.floating)) or not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be between 0 and 1 (exclusive), not {alpha!r}")
    samples = _samples(samples)
    m = a.shape[1]
    iu, ju = np.triu_indices(m, 1)
    if test == "bootstrap":
        pvalues = _bootstrap_pvalues(a, samples, seed)
    else:
        from inexeval.compare.anova import tukey_hsd  # written beside this module; imported when used

        result = tukey_hsd(a, randomised=True, samples=samples, seed=seed)
        pvalues = np.asarray(result.p, dtype=float)[iu, ju]
    p = np.full((m, m), np.nan)
    p[iu, ju] = pvalues
    p[ju, iu] = pvalues
    order = np.argsort(pvalues, kind="stable")
    share = int(np.count_nonzero(pvalues <= alpha)) / pvalues.size
    return DiscriminativePower(
        share=share,
        asl=_frozen(pvalues[order].copy()),
        pairs=[(int(iu[k]), int(ju[k])) for k in order],
        p=_frozen(p),
        test=test,
        alpha=float(alpha),
        samples=samples,
    )


# ---------------------------------------------------------------------------
# Swap rate


@record(frozen=True, eq=False)
class SwapRate:
    """Voorhees and Buckley's swap rates of one measure, by the size of the difference.

    Bin k holds the run-pair observations whose |difference| on the first subset lies in
    [edges[k], edges[k+1]) (the last bin also takes everything beyond its upper edge); ``pairs``
    counts them, ``swaps`` those the second subset orders the other way, and ``rate`` =
    swaps / pairs (NaN for an empty bin).
    """

    edges: np.ndarray
    pairs: np.ndarray
    swaps: np.ndarray
    rate: np.ndarray
    subset_size: int
    samples: int


def _subset_batches(n: int, c: int, samples: int, seed: int,
                    batch: int = 1024) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The topic subsets :func:`swap_rate` draws: (first, second) index arrays of shape (rows, c).

    Each sample is a uniformly random permutation of the n topics, the argsort (stable) of n
    uniforms from numpy.random.default_rng(seed); its first c topics form the first subset, the
    next c the second (so the two are disjoint).  ``samples`` rows in all, ``batch`` at a time;
    the stream does not depend on ``batch``.
    """
    rng = np.random.default_rng(seed)
    done = 0
    while done < samples:
        rows = min(batch, samples - done)
        perm = np.argsort(rng.random((rows, n)), axis=1, kind="stable")
        yield perm[:, :c], perm[:, c:2 * c]
        done += rows


def _subset_means(x: np.ndarray, subsets: np.ndarray) -> np.ndarray:
    """Mean score of every run on every subset (rows × runs): the sum in subset order, over c."""
    c = subsets.shape[1]
    total = x[subsets[:, 0]].copy()
    for k in range(1, c):
        total += x[subsets[:, k]]
    return total / c


def _pair_differences(means: np.ndarray, iu: np.ndarray, ju: np.ndarray) -> np.ndarray:
    """mean_i − mean_j for every pair (rows × pairs); 0 where the means tie to 1e-9 (§10.3)."""
    a, b = means[:, iu], means[:, ju]
    d = a - b
    d[np.abs(d) <= TOLERANCE * np.maximum(np.abs(a), np.abs(b))] = 0.0
    return d


def _edges(bins, x: np.ndarray) -> tuple[np.ndarray, float | None]:
    """(edges, uniform width or None) for ``bins``: None, a width, or a sequence of edges."""
    if bins is None or isinstance(bins, (int, float, np.integer, np.floating)) and not isinstance(bins, bool):
        width = SWAP_BIN_WIDTH if bins is None else float(bins)
        if not (math.isfinite(width) and width > 0.0):
            raise ValueError(f"bin width must be a positive number, not {bins!r}")
        spread = float(x.max() - x.min())     # no mean difference is larger
        count = math.floor(spread / width) + 2
        if count > _MAX_BINS:
            raise ValueError(f"bin width {width!r} gives more than {_MAX_BINS} bins for scores "
                             f"spread over {spread!r}: choose a wider bin")
        return width * np.arange(count + 1, dtype=float), width
    edges = np.array(bins, dtype=float)
    if edges.ndim != 1 or edges.size < 2 or edges[0] != 0.0 or np.any(np.isnan(edges)) \
            or np.any(np.diff(edges) <= 0.0):
        raise ValueError("bins must be a bin width or increasing bin edges starting at 0")
    return edges, None


def swap_rate(x, subset_size: int, samples: int = 1000, seed: int = 0, bins=None) -> SwapRate:
    """Voorhees and Buckley's (2002) swap rates over ``samples`` pairs of disjoint topic subsets.

    Each sample draws two disjoint random subsets of c = ``subset_size`` topics
    (:func:`_subset_batches`; 2c ≤ n).  For every pair of runs i < j, d₁ and d₂ are the
    differences of the two runs' mean scores over the first and the second subset; means that
    tie to the relative tolerance 1e-9 (docs/measures.md §10.3) give d = 0.  The observation falls
    in the bin of |d₁| and is a swap when d₁ and d₂ have opposite signs (a zero difference is
    never a swap).

    ``bins``: None gives bins of width 0.01 from 0, as many as cover the largest |d₁| observed
    (trailing empty bins dropped); a number gives that width; a sequence gives the edges
    (increasing, from 0; the last bin also takes everything at or beyond the last edge).
    """
    a = _matrix(x)
    n, m = a.shape
    if isinstance(subset_size, bool) or not isinstance(subset_size, (int, np.integer)) or subset_size < 1:
        raise ValueError(f"subset size must be a positive integer, not {subset_size!r}")
    c = int(subset_size)
    if 2 * c > n:
        raise ValueError(f"two disjoint subsets of {c} topics need at least {2 * c} topics, there are {n}")
    samples = _samples(samples)
    edges, width = _edges(bins, a)
    nbins = edges.size - 1
    iu, ju = np.triu_indices(m, 1)
    pairs = np.zeros(nbins, dtype=np.int64)
    swaps = np.zeros(nbins, dtype=np.int64)
    batch = max(1, min(samples, _CELLS // max(iu.size, m)))
    for first, second in _subset_batches(n, c, samples, seed, batch):
        d1 = _pair_differences(_subset_means(a, first), iu, ju).ravel()
        d2 = _pair_differences(_subset_means(a, second), iu, ju).ravel()
        size = np.abs(d1)
        k = np.minimum(np.searchsorted(edges, size, side="right") - 1, nbins - 1)
        swapped = np.sign(d1) * np.sign(d2) < 0
        pairs += np.bincount(k, minlength=nbins)
        swaps += np.bincount(k[swapped], minlength=nbins)
    if width is not None:
        last = int(np.flatnonzero(pairs)[-1]) + 1
        edges, pairs, swaps = edges[:last + 1], pairs[:last], swaps[:last]
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(pairs > 0, swaps / np.maximum(pairs, 1), np.nan)
    return SwapRate(
        edges=_frozen(edges.copy()),
        pairs=_frozen(pairs),
        swaps=_frozen(swaps),
        rate=_frozen(rate),
        subset_size=c,
        samples=samples,
    )
