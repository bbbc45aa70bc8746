"""Agreement between the labels (grades) two or more judgement sets give the same items
(docs/measures.md §13.1–§13.3): pure numpy over confusion matrices and count matrices, no I/O.

Two sets, A the reference and B the compared one, are summed up by their **confusion matrix**
``C`` (K × K, ``C[i, j]`` the items A put in category i and B in category j; categories are grade
values ``v_0 < v_1 < … < v_{K-1}``).  Every two-set figure is a function of C:

* raw agreement p_o = Σ_i C_ii / N;
* Cohen's κ = (p_o − p_e) / (1 − p_e), p_e = Σ_i r_i c_i / N² (r, c the row and column sums;
  Cohen 1960); weighted κ_w = 1 − Σ w_ij C_ij / Σ w_ij E_ij, E_ij = r_i c_j / N, with linear
  weights w_ij = |v_i − v_j| or quadratic ones (v_i − v_j)² (Cohen 1968), the grades' own
  distances (scikit-learn's ``cohen_kappa_score`` with ``labels`` = every integer between the
  lowest and the highest grade);
* Krippendorff's α = 1 − D_o / D_e from the coincidence matrix o (Krippendorff, "Content
  Analysis", 2004, §11.3; "Computing Krippendorff's alpha-reliability", 2011): for two sets
  o = C + Cᵀ; in general o_ck = Σ_u n_uc (n_uk − [c = k]) / (m_u − 1) over the units u with
  m_u ≥ 2 values, n_uc of them in category c.  With n_c = Σ_k o_ck and n = Σ_c n_c,
  α = 1 − (n − 1) Σ_ck o_ck δ²_ck / Σ_ck n_c n_k δ²_ck, where δ²_ck is 1 for c ≠ k (nominal),
  (v_c − v_k)² (interval), or (Σ_{g=c..k} n_g − (n_c + n_k)/2)² (ordinal);
* Fleiss' κ (Fleiss 1971) over the items every set judged: P_u = (Σ_c n_uc² − m)/(m(m − 1)),
  p_c = Σ_u n_uc / (U m), κ = (mean P_u − Σ p_c²) / (1 − Σ p_c²);
* on the binary view (relevant or not): precision tp/(tp + fp) and recall tp/(tp + fn) of B's
  relevant items against A's, F1 = 2 tp / (2 tp + fp + fn), Jaccard tp / (tp + fp + fn);
* bias: the mean of d = v_B − v_A over the items, and Bland–Altman limits of agreement
  bias ± 1.96 s_d, s_d the sample standard deviation (n − 1) (Bland and Altman, Lancet 1986).

A figure whose denominator is 0 (κ with one category used by both, α with one value, P with no
item relevant for B, limits with fewer than two items) is undefined: ``None``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

#: The two-set quantities of :func:`pair_figures`, in the order they are written.
PAIR_QUANTITIES = ("agreement", "kappa", "kappa_linear", "kappa_quadratic", "alpha_nominal", "alpha_ordinal",
                   "alpha_interval", "precision", "recall", "f1", "jaccard", "bias", "loa_low", "loa_high")
ALPHA_METRICS = ("nominal", "ordinal", "interval")
#: Bland and Altman's multiple of the standard deviation of the differences (95 % of them, normally)
LOA_Z = 1.96


def confusion(codes_a: np.ndarray, codes_b: np.ndarray, k: int) -> np.ndarray:
    """The K × K confusion matrix of two category-code vectors (0 … K − 1) of the same items."""
    a = np.asarray(codes_a, dtype=np.int64)
    b = np.asarray(codes_b, dtype=np.int64)
    return np.bincount(a * k + b, minlength=k * k).reshape(k, k)


def _div(num: float, den: float) -> float | None:
    return None if den == 0 else num / den


def kappa(c: np.ndarray) -> float | None:
    """Cohen's κ of confusion matrix C; None without items or when chance agreement is 1."""
    c = np.asarray(c, dtype=float)
    n = c.sum()
    if n == 0:
        return None
    po = np.trace(c) / n
    pe = float(c.sum(axis=1) @ c.sum(axis=0)) / (n * n)
    return None if pe >= 1.0 else (po - pe) / (1.0 - pe)


def weighted_kappa(c: np.ndarray, values: Sequence[float], power: int) -> float | None:
    """Cohen's weighted κ of C with weights |v_i − v_j|^POWER (1 linear, 2 quadratic); None when the
    expected disagreement Σ w E is 0."""
    c = np.asarray(c, dtype=float)
    n = c.sum()
    if n == 0:
        return None
    v = np.asarray(values, dtype=float)
    w = np.abs(v[:, None] - v[None, :]) ** power
    expected = np.outer(c.sum(axis=1), c.sum(axis=0)) / n
    den = float((w * expected).sum())
    return None if den == 0 else 1.0 - float((w * c).sum()) / den


def _delta2(n_c: np.ndarray, values: np.ndarray, metric: str) -> np.ndarray:
    """Krippendorff's squared differences δ²_ck of the categories (module docstring)."""
    if metric == "nominal":
        return 1.0 - np.eye(len(n_c))
    if metric == "interval":
        return (values[:, None] - values[None, :]) ** 2
    if metric != "ordinal":
        raise ValueError(f"unknown level of measurement {metric!r} (one of {', '.join(ALPHA_METRICS)})")
    cum = np.concatenate(([0.0], np.cumsum(n_c)))  # cum[i] = Σ_{g < i} n_g
    lo = np.minimum.outer(np.arange(len(n_c)), np.arange(len(n_c)))
    hi = np.maximum.outer(np.arange(len(n_c)), np.arange(len(n_c)))
    between = cum[hi + 1] - cum[lo]  # Σ_{g = c..k} n_g
    return (between - (n_c[:, None] + n_c[None, :]) / 2.0) ** 2


def alpha_from_coincidences(o: np.ndarray, values: Sequence[float], metric: str) -> float | None:
    """Krippendorff's α of coincidence matrix O (categories in the order of VALUES, ascending);
    None when fewer than two pairable values or every pairable value is the same."""
    o = np.asarray(o, dtype=float)
    n_c = o.sum(axis=1)
    n = float(n_c.sum())
    if n <= 1.0:
        return None
    d2 = _delta2(n_c, np.asarray(values, dtype=float), metric)
    expected = float(n_c @ d2 @ n_c)
    if expected <= 0.0:
        return None
    return 1.0 - (n - 1.0) * float((o * d2).sum()) / expected


def coincidences(counts: np.ndarray) -> np.ndarray:
    """Krippendorff's coincidence matrix of COUNTS (units × categories: how many sets put unit u in
    category c); units with fewer than two values are not pairable and left out."""
    n = np.asarray(counts, dtype=float)
    m = n.sum(axis=1)
    n = n[m >= 2]
    w = n / (m[m >= 2] - 1.0)[:, None]
    return w.T @ n - np.diag(w.sum(axis=0))


def alpha(counts: np.ndarray, values: Sequence[float], metric: str) -> float | None:
    """Krippendorff's α of any number of sets with missing judgements (COUNTS as :func:`coincidences`)."""
    return alpha_from_coincidences(coincidences(counts), values, metric)


def fleiss_kappa(counts: np.ndarray) -> float | None:
    """Fleiss' κ of COUNTS (units × categories), every unit judged by the same number m ≥ 2 of sets;
    None without units or when the expected agreement Σ p_c² is 1."""
    n = np.asarray(counts, dtype=float)
    if n.shape[0] == 0:
        return None
    m = n.sum(axis=1)
    if np.any(m != m[0]) or m[0] < 2:
        raise ValueError("Fleiss' kappa needs every unit judged by the same number (at least 2) of sets")
    m0 = float(m[0])
    p_u = ((n * n).sum(axis=1) - m0) / (m0 * (m0 - 1.0))
    p_c = n.sum(axis=0) / (n.shape[0] * m0)
    pe = float(p_c @ p_c)
    return None if pe >= 1.0 else (float(p_u.mean()) - pe) / (1.0 - pe)


def binary_counts(c: np.ndarray, relevant: np.ndarray) -> tuple[int, int, int, int]:
    """(tp, fp, fn, tn) of C collapsed to relevant / not relevant (RELEVANT: a mask of the categories)."""
    c = np.asarray(c)
    r = np.asarray(relevant, dtype=bool)
    return (int(c[np.ix_(r, r)].sum()), int(c[np.ix_(~r, r)].sum()), int(c[np.ix_(r, ~r)].sum()),
            int(c[np.ix_(~r, ~r)].sum()))


def bias_limits(c: np.ndarray, values: Sequence[float]) -> tuple[float | None, float | None, float | None]:
    """(bias, low, high): the mean of v_B − v_A over the items of C and bias ∓ 1.96 s_d (n − 1)."""
    c = np.asarray(c, dtype=float)
    n = c.sum()
    if n == 0:
        return None, None, None
    v = np.asarray(values, dtype=float)
    d = v[None, :] - v[:, None]  # B's grade minus A's
    bias = float((c * d).sum()) / n
    if n < 2:
        return bias, None, None
    sd = math.sqrt(float((c * (d - bias) ** 2).sum()) / (n - 1.0))
    return bias, bias - LOA_Z * sd, bias + LOA_Z * sd


def pair_figures(c: np.ndarray, values: Sequence[float], relevant: np.ndarray) -> dict[str, float | None]:
    """Every two-set figure of confusion matrix C (rows A, columns B) over categories VALUES,
    RELEVANT marking the categories that count as relevant (the binary view)."""
    c = np.asarray(c)
    n = int(c.sum())
    tp, fp, fn, _ = binary_counts(c, relevant)
    o = c + c.T
    out = {"agreement": _div(float(np.trace(c)), n), "kappa": kappa(c),
           "kappa_linear": weighted_kappa(c, values, 1), "kappa_quadratic": weighted_kappa(c, values, 2)}
    for metric in ALPHA_METRICS:
        out[f"alpha_{metric}"] = alpha_from_coincidences(o, values, metric)
    out.update(precision=_div(tp, tp + fp), recall=_div(tp, tp + fn), f1=_div(2 * tp, 2 * tp + fp + fn),
               jaccard=_div(tp, tp + fp + fn))
    out["bias"], out["loa_low"], out["loa_high"] = bias_limits(c, values)
    return out


def collapse(c: np.ndarray, relevant: np.ndarray) -> np.ndarray:
    """The 2 × 2 confusion matrix (not relevant, relevant) of C."""
    r = np.asarray(relevant, dtype=np.int64)
    k = len(r)
    out = np.zeros((2, 2), dtype=np.int64)
    np.add.at(out, (np.repeat(r, k), np.tile(r, k)), np.asarray(c, dtype=np.int64).ravel())
    return out


__all__ = ["PAIR_QUANTITIES", "ALPHA_METRICS", "confusion", "kappa", "weighted_kappa", "alpha",
           "alpha_from_coincidences", "coincidences", "fleiss_kappa", "binary_counts", "bias_limits",
           "pair_figures", "collapse"]
