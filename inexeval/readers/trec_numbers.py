"""Numbers of the text inputs, read by the rule each format documents (docs/formats.md §1.7):

- C's ``strtod``/``atof`` and ``atol`` (:func:`strtod`, :func:`atof`, :func:`atol`), as trec_eval 10.0
  reads its numbers (docs/trec-eval.md §3), and the whole-field forms the config path takes for TREC
  scores and judgements (:func:`c_number`, :func:`c_integer`): a field is a number only when C's
  parser reads all of it, so that every value accepted is the value trec_eval reads;
- inexeval's own decimal syntax for the other formats (:func:`decimal_number`,
  :func:`decimal_integer`): ASCII digits, an optional sign, point and exponent; no ``_``, no
  ``inf``/``nan``, no hexadecimal, no other script's digits;
- the fast path below for the usual TREC fields.

Plain decimal scores of a TREC run (and plain integer judgements of a qrels file), parsed
straight from the file's bytes, exactly.

A score written ``[-]digits[.digits]`` with at most 8 digits before and 8
after the point and at most 15 in all (``14.2``, ``-3.25``, ``0.012345``,
``12.345600``) is read here without a Python object or a string column:

1. per row, the 8 bytes from the first digit and the 8 bytes after the
   point are gathered from an unaligned ``uint64`` view of the buffer (as in
   :mod:`inexeval.readers.trec`);
2. the digits are checked byte by byte, and each run of up to 8 digits is
   turned into its integer with three multiply-and-shift steps (the
   "eight digits at once" technique of fast float parsers);
3. the value is ``M / 10**F`` with M the digits as one integer (< 10^15 <
   2^53) and F the digits after the point (<= 8): both are exact doubles, and
   one IEEE division is correctly rounded, so the result is the double
   nearest the decimal, the same as ``float()`` or numpy's conversion gives.

Every other row (an exponent, ``+``, ``inf``, more digits, anything
malformed, the last few bytes of the buffer) is left to the caller, who
converts it the slow way and reports errors with file and line.
"""

from __future__ import annotations

import re

import numpy as np

__all__ = ["plain_decimals", "plain_integers", "strtod", "atof", "atol", "c_number", "c_integer", "c_reading",
           "decimal_number", "decimal_integer", "LONG_MIN", "LONG_MAX", "only_decimal_bytes"]

# ------------------------------------------------------------------ C's strtod, atof, atol ----

LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1

#: glibc's ``strtod`` in the C locale: white space (``isspace``), then the longest prefix that is a
#: hexadecimal float, a decimal float, ``inf``/``infinity`` or ``nan``/``nan(chars)`` (any case); an
#: incomplete exponent (``1e``, ``1e+``, ``0x1p``) is not part of the number.
_STRTOD = re.compile(
    r"[ \t\n\v\f\r]*([+-]?)(?:"
    r"(0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?)"
    r"|((?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
    r"|([iI][nN][fF](?:[iI][nN][iI][tT][yY])?)"
    r"|([nN][aA][nN](?:\([0-9A-Za-z_]*\))?)"
    r")")
#: ``strtol(s, NULL, 10)``: white space, an optional sign, ASCII digits.
_STRTOL = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_INTEGER = re.compile(r"[+-]?[0-9]+")


def _text(s: str | bytes) -> str:
    # (bytes: as Latin-1, one character a byte; no byte above 0x7F is part of a C number)
    return s.decode("latin-1") if isinstance(s, (bytes, bytearray)) else s


def strtod(s: str | bytes) -> tuple[float, int]:
    """glibc's ``strtod(s, &end)`` in the C locale: the value and how many characters it read (0: no
    number, value 0.0).  Decimal and hexadecimal values are correctly rounded, as glibc rounds them
    (Python's ``float`` and ``float.fromhex``; but for a hexadecimal denormal of more than 53 bits,
    which glibc 2.36 rounds without its 54th bit: docs/trec-eval.md §7); too large is ±inf, too small
    ±0 or a denormal; ``-nan`` has its sign bit set."""
    t = _text(s)
    m = _STRTOD.match(t)
    if m is None:
        return 0.0, 0
    sign, hexa, dec, inf, _nan = m.groups()
    if dec is not None:
        value = float(dec)
    elif hexa is not None:
        try:
            value = float.fromhex(hexa)
        except OverflowError:
            value = float("inf")
    elif inf is not None:
        value = float("inf")
    else:
        value = float("nan")
    return (-value if sign == "-" else value), m.end()


def atof(s: str | bytes) -> float:
    """C's ``atof``: :func:`strtod`'s value, 0.0 when S does not start with a number."""
    return strtod(s)[0]


def atol(s: str | bytes) -> int:
    """C's ``atol`` (glibc: ``strtol`` base 10): white space, an optional sign, then the leading ASCII
    digits (0 if none), saturated to the range of a 64-bit ``long``."""
    m = _STRTOL.match(_text(s))
    if m is None:
        return 0
    digits = m.group(1)
    if len(digits) > 21:  # (no int() of a million digits: the value saturates anyway)
        body = digits.lstrip("+-").lstrip("0")
        if len(body) > 19:
            return LONG_MIN if digits[0] == "-" else LONG_MAX
    return max(LONG_MIN, min(int(digits), LONG_MAX))


def c_reading(s: str | bytes, integer: bool = False) -> str:
    """How trec_eval reads the field S (its ``atol`` when INTEGER, else ``atof``), for messages."""
    value = atol(s) if integer else atof(s)
    return str(value) if integer else repr(value)


def c_number(s: str | bytes) -> float | None:
    """The value of S when C's ``strtod`` reads all of it (no white space around), else None; may be
    ±inf or nan (the caller decides whether those are numbers)."""
    t = _text(s)
    if not t or t[0] in " \t\n\v\f\r":
        return None
    value, used = strtod(t)
    return value if used == len(t) else None


def c_integer(s: str | bytes) -> int | None:
    """The value of S when it is ``[+-]digits`` (ASCII) within a 64-bit ``long`` (so that ``atol``
    reads all of it, without saturating), else None."""
    t = _text(s)
    if _INTEGER.fullmatch(t) is None:
        return None
    body = t.lstrip("+-").lstrip("0")
    if len(body) > 19:
        return None
    v = int(t)
    return v if LONG_MIN <= v <= LONG_MAX else None


# ------------------------------------------------------------------ inexeval's own decimals ----


def decimal_number(s: str) -> float | None:
    """S as a decimal number: an optional sign, ASCII digits with an optional point (``12``, ``1.5``,
    ``.5``, ``3.``), an optional exponent (``1e-3``); anything else (``1_0``, ``inf``, ``nan``, ``0x10``,
    other scripts' digits, white space inside) is None.  A value too large for a double is None too."""
    if _DECIMAL.fullmatch(s) is None:
        return None
    value = float(s)
    return value if value - value == 0.0 else None


def decimal_integer(s: str) -> int | None:
    """S as a decimal integer: an optional sign and ASCII digits (``007``, ``-3``, ``+4``); anything
    else (``1_0``, ``1.0``, ``1e3``, other scripts' digits) is None.  At most 4,000 digits."""
    if _INTEGER.fullmatch(s) is None or len(s) > 4000:
        return None
    return int(s)


#: Bytes that may appear in a decimal number (see :func:`only_decimal_bytes`).
_DECIMAL_BYTES = np.zeros(256, dtype=bool)
_DECIMAL_BYTES[list(b"0123456789+-.eE")] = True


def only_decimal_bytes(data: bytes, s: np.ndarray, e: np.ndarray) -> bool:
    """Whether the fields ``data[s[i]:e[i]]`` hold only the bytes ``0-9 + - . e E``.  On such text,
    Python's ``float``/``int`` (and numpy's conversion, which uses them) accept exactly what
    :func:`c_number` and :func:`c_integer` accept: their extensions (``_``, white space, ``inf``,
    ``nan``, other scripts' digits) need other bytes, and C's hexadecimal needs ``x``."""
    if not s.size:
        return True
    length = e - s
    total = int(length.sum())
    if total > 4 * len(data) + 64:  # (overlapping fields: not the reader's)
        return False
    buf = np.frombuffer(data, dtype=np.uint8)
    # the bytes of every field, gathered: offsets s[i] + 0 .. length[i] - 1
    idx = np.repeat(s - np.concatenate(([0], np.cumsum(length)[:-1])), length) + np.arange(total)
    return bool(_DECIMAL_BYTES[buf[idx]].all())


# ------------------------------------------------------------------ the fast path ----

_WORD = np.dtype("<u8")
_LOW = np.array([(1 << (8 * m)) - 1 for m in range(9)], dtype=np.uint64)
_POW10 = 10.0 ** np.arange(9)
_POW10_INT = np.array([10**k for k in range(9)], dtype=np.uint64)
#: the left shift that moves the first m bytes of a word to its top (m = 0: its bytes are masked to 0)
_TO_TOP = np.array([8 * (8 - m) % 64 for m in range(9)], dtype=np.uint64)


def _eight_digits(words: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The integers written by the first M[i] bytes of WORDS[i] (ASCII digits, checked by the caller).

    The M digits are moved to the top M bytes, in order (the first digit is the lowest byte, the
    most significant place of the SWAR conversion); the zero bytes shifted in below them read as
    leading zeros, as ASCII "0" would (only the low four bits of each byte count).  Then the three multiply-shift steps of the SWAR
    conversion add pairs of digits, of 2-digit numbers, of 4-digit numbers (in place)."""
    v = words & _LOW[m]
    v <<= _TO_TOP[m]
    v &= np.uint64(0x0F0F0F0F0F0F0F0F)
    v *= np.uint64(2561)
    v >>= np.uint64(8)
    v &= np.uint64(0x00FF00FF00FF00FF)
    v *= np.uint64(6553601)
    v >>= np.uint64(16)
    v &= np.uint64(0x0000FFFF0000FFFF)
    v *= np.uint64(42949672960001)
    v >>= np.uint64(32)  # (the top 32 bits are 0 now)
    return v


def _leading_digits(words: np.ndarray) -> np.ndarray:
    """How many of the 8 bytes of each word, from the lowest, are ASCII digits before the first other byte."""
    b = words.view(np.uint8).reshape(words.size, 8)
    nondigit = ((b - np.uint8(48)) >= 10).view(np.uint64).reshape(words.size)  # one byte (0 or 1) per position
    lowest = nondigit & (~nondigit + np.uint64(1))  # the lowest set bit, 0 if none
    return (np.bitwise_count(lowest - np.uint64(1)) >> np.uint8(3)).astype(np.int64)  # 64 bits below: 8


def _inside(data: bytes, s: np.ndarray, e: np.ndarray, reach: int):
    """DATA as bytes and as unaligned little-endian words (element i: the 8 bytes at offset i), the
    number M of leading rows whose fields start at least REACH bytes before the end (the rest are
    the caller's), and their starts S and ends E, contiguous; None when no row is read here."""
    size = len(data)
    if s.size == 0 or size < 8:
        return None
    buf = np.frombuffer(data, dtype=np.uint8)
    word = np.ndarray(shape=(size - 7,), dtype=_WORD, buffer=data, strides=(1,))
    m = int(np.searchsorted(s, size - reach, side="right"))
    # (columns of the token table are strided)
    return buf, word, m, np.ascontiguousarray(s[:m]), np.ascontiguousarray(e[:m])


#: Rows read at a time by the vectorised readers: each temporary (8 bytes a row) stays in a core's
#: L2 cache; a whole 4 MB piece of a run (115,000 rows) made the score parser twice as slow.
BLOCK_ROWS = 1 << 15


def plain_decimals(data: bytes, s: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values of the fields ``data[s[i]:e[i]]`` that are plain decimals (see the module doc), and a mask of
    those rows; the other rows' values are NaN.  :data:`BLOCK_ROWS` rows at a time."""
    if s.size <= BLOCK_ROWS:
        return _plain_decimals(data, s, e)
    out = np.empty(s.size)
    ok = np.empty(s.size, dtype=bool)
    for lo in range(0, s.size, BLOCK_ROWS):
        out[lo:lo + BLOCK_ROWS], ok[lo:lo + BLOCK_ROWS] = _plain_decimals(data, s[lo:lo + BLOCK_ROWS],
                                                                          e[lo:lo + BLOCK_ROWS])
    return out, ok


def _plain_decimals(data: bytes, s: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`plain_decimals` on one block of rows."""
    out = np.full(s.size, np.nan)
    ok = np.zeros(s.size, dtype=bool)
    # rows whose 8-byte windows (from the first digit, from the point) may pass the buffer's end: the slow way
    inside = _inside(data, s, e, 18)
    if inside is None:
        return out, ok
    buf, word, m, s, e = inside
    # (temporaries are dropped as soon as they are used: a run has millions of rows)
    neg = buf[s] == 45  # "-"
    a = s + neg
    del s
    w0 = word[a]
    i_len = _leading_digits(w0)  # digits before the point (up to 8 counted)
    after = a + i_len  # the point, or the field's end
    plain = after == e
    dot = buf[np.minimum(after, buf.size - 1)] == 46  # "."
    dot &= ~plain
    after += 1  # the first digit after the point
    f_len = np.where(dot, e - after, 0)
    del e
    w1 = word[np.where(dot, after, a)]
    del a, after
    # (more than 8 digits before the point: the 9th byte is a digit, neither the end nor the point)
    good = _leading_digits(w1) >= f_len
    good &= dot
    good |= plain
    del plain
    digits = i_len + f_len
    good &= (digits >= 1) & (f_len <= 8) & (digits <= 15)
    del digits
    i_len[~good] = 0
    f_len[~good] = 0
    mant = _eight_digits(w0, i_len)
    del w0, i_len
    mant *= _POW10_INT[f_len]
    mant += _eight_digits(w1, f_len)
    del w1
    val = mant.astype(np.float64)
    del mant
    val /= _POW10[f_len]
    np.negative(val, out=val, where=neg)
    val[~good] = np.nan
    out[:m] = val
    ok[:m] = good
    return out, ok


def plain_integers(data: bytes, s: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values (int64) of the fields ``data[s[i]:e[i]]`` written ``[-]digits`` with 1 to 8 digits (a
    qrels judgement: ``1``, ``-2``, ``007``), and a mask of those rows; the other rows' values are 0,
    left to the caller (steps 1 and 2 of the module doc, on one word)."""
    out = np.zeros(s.size, dtype=np.int64)
    ok = np.zeros(s.size, dtype=bool)
    inside = _inside(data, s, e, 9)  # (the word after a sign)
    if inside is None:
        return out, ok
    buf, word, m, s, e = inside
    neg = buf[s] == 45  # "-"
    a = s + neg
    w = word[a]
    digits = _leading_digits(w)
    good = (digits >= 1) & (a + digits == e)  # digits only, up to the field's end (9 or more: not here)
    digits[~good] = 0
    val = _eight_digits(w, digits).astype(np.int64)
    np.negative(val, out=val, where=neg)
    out[:m] = np.where(good, val, 0)
    ok[:m] = good
    return out, ok
