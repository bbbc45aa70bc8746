"""A slow, literal second reading of the inex_eval 3.1 computation, for cross-checking the fast scorer.

Written straight from the rules of docs/inex_eval.md §3-§8 in a different
style from ``inexeval.measures.fol``: one dict per line, no caches, no early
exits, Thorough novelty from explicit sets of covered character positions
(so only for small offsets), T2I reading order rebuilt from scratch.  It
returns plain dicts; the test compares them with FolOutcome.
"""

from __future__ import annotations

import math


def _wrap(v: int) -> int:
    return (v + 2**31) % 2**32 - 2**31


def _div(a, b):
    a, b = float(a), float(b)
    if b == 0:
        if a == 0 or a != a:
            return math.nan
        return math.inf if (a > 0) == (math.copysign(1, b) > 0) else -math.inf
    return a / b


def _floor(x: float) -> int:
    if x != x:
        return 0
    return max(-(2**31), min(2**31 - 1, math.floor(x))) if math.isfinite(x) else (2**31 - 1 if x > 0 else -(2**31))


def _rel(s, e, spans):
    total = 0
    for k, l in spans:
        if s <= k:
            total += 0 if e <= k else (l - k if e >= l else e - k)
        else:
            total += 0 if s >= l else (e - s if e <= l else l - s)
    return total


def _jint(s: str):
    import re
    if not re.fullmatch(r"[+-]?[0-9]+", s):
        return None
    v = int(s)
    return v if -(2**31) <= v < 2**31 else None


def _t2i(record, judgement, T):
    starts = sorted(record, key=lambda p: p[0])
    reading = list(starts)
    c = 0
    for s, e in starts:
        if s > c:
            reading.append((c, s))
        c = e
    if c < judgement["doc_length"]:
        reading.append((c, judgement["doc_length"]))
    rel = nonrel = 0
    stop = False
    for x, y in reading:
        if stop:
            break
        done = False
        for k, l in judgement["spans"]:
            if done:
                break
            if x <= k and y <= k:
                nonrel += y - x
                done = True
            elif x <= k < y <= l:
                nonrel += k - x
                if nonrel >= T:
                    nonrel = T
                else:
                    rel += y - k
                done = True
            elif x <= k and y > l:
                nonrel += k - x
                if nonrel >= T:
                    nonrel = T
                    done = True
                else:
                    rel += l - k
                    x = l
            elif x > k and x >= l:
                pass
            elif k < x < l and y <= l:
                rel += y - x
                done = True
            else:
                rel += l - x
                x = l
        if not done:
            nonrel += y - x
        if nonrel >= T:
            nonrel = T
            stop = True
    return 0.0 if rel + nonrel == 0 else rel / (rel + nonrel)


def reference(qrels, lines, task, complete=False, n=500, beta=0.25, irr=300):
    """(kind, payload): ("rejected", first message line), ("death", line), or ("scored", (impossible, topics, all))."""
    topics = {t: {"num_rel": q.num_rel, "rel_size": q.rel_size,
                  "j": {a: {"rel": j.rel_chars, "doc_length": j.doc_length, "bep": j.bep, "spans": list(j.spans)}
                        for a, j in q.judgements.items()}}
              for t, q in qrels.topics.items()}
    state = {t: {"R": 0, "num_ret": 0, "num_rel_ret": 0, "ret": 0, "relret": 0, "iP": [0.0] * 101, "ranks": []}
             for t in topics}
    counter, prev, table = 0, "", {}
    impossible = []
    run_id = ""
    for number, raw, f in lines:
        if len(f) != 8:
            return ("rejected", f"{'too many fields' if len(f) > 8 else 'fields missing'} in line {number}")
        t = f[0]
        if t not in topics:
            continue
        st = state[t]
        if st["R"] == 0:
            counter, prev, table = 0, "", {}
        art = f[2]
        j = topics[t]["j"].get(art)
        relchars = j["rel"] if j else 0
        if art != prev:
            counter += 1
            st["R"] = counter
            prev = art
            if art in table:
                if task in "rbi":
                    return ("rejected", f"article results are interleaved in topic {t}\tarticle id: {art}")
            else:
                table[art] = {"stored": [], "covered": set()}
                st["num_ret"] += 1
                st["num_rel_ret"] += relchars > 0
        else:
            if task == "b":
                return ("rejected", f"multiple results from single article in topic {t}\tarticle id: {art}"
                                    f"\tin line: {number}")
            if task == "f":
                counter += 1
                st["R"] = counter
        rec = table[art]
        run_id = f[5]
        unknown = f[6] in ("X", "-1")
        if unknown:
            start = end = -10000
            size = 18
        else:
            start, length = _jint(f[6]), _jint(f[7]) if _jint(f[6]) is not None else None
            if start is None or length is None:
                return ("death", number)
            end = _wrap(start + length)
            size = length
            if task != "t":
                if any(s2 < end and e2 > start for s2, e2 in rec["stored"]):
                    return ("rejected", f"passage overlaps with previously retrieved passages in topic {t}"
                                        f"\tarticle id: {art}\tin line: {number}")
                rec["stored"].append((start, end))
            if end < start:
                return ("rejected", f"negative passage size {number}: {raw}")
        if task == "b":
            s = 0.0
            if relchars > 0 and j["bep"] > -1:
                d = _wrap(abs(_wrap(j["bep"] - start)))
                if d > -1:
                    s = 0.0 if d > n else _div(float(n) - d, n)
            st["ranks"].append({"s": s, "relchars": relchars, "found": st["num_rel_ret"]})
            continue
        if task == "t":
            rel = 0
            if not unknown:
                novel = set(range(start, end)) - rec["covered"]
                rec["covered"] |= novel
            if relchars > 0:
                size = 0
                if not unknown:
                    size = len(novel)
                    run_start = last = None  # (last is read only once run_start is set)
                    for p in sorted(novel) + [None]:
                        if run_start is not None and (p is None or p != last + 1):
                            rel += _rel(run_start, last + 1, j["spans"])
                            run_start = None
                        if p is not None and run_start is None:
                            run_start = p
                        last = p
        else:
            rel = _rel(start, end, j["spans"]) if (relchars > 0 and not unknown) else 0
        st["ret"] += size
        st["relret"] += rel
        if task in "ft":
            p = _div(st["relret"], st["ret"])
            b = _floor(100 * _div(st["relret"], topics[t]["rel_size"]))
            if b < 0 or b > 100:
                impossible.append(b)
            elif st["iP"][b] < p:
                st["iP"][b] = p
        else:
            ranks = st["ranks"]
            if counter == len(ranks):
                if st["R"] - 1 >= len(ranks):
                    return ("death", number)
                ranks[st["R"] - 1]["ret"] += size
                ranks[st["R"] - 1]["relret"] += rel
                # -i scores a rank with its last line's judgement and record (D25)
                ranks[st["R"] - 1]["j"] = j
                ranks[st["R"] - 1]["rec"] = rec
            else:
                ranks.append({"ret": size, "relret": rel, "relchars": relchars, "found": st["num_rel_ret"],
                              "j": j, "rec": rec})

    order = sorted(topics, key=lambda k: k.encode("utf-16-be"))
    included = [t for t in order if complete or state[t]["R"] > 0]
    per_topic = {}
    for t in order:
        st, q = state[t], topics[t]
        if task in "ft":
            ip = st["iP"]
            for i in range(99, -1, -1):
                ip[i] = max(ip[i], ip[i + 1])
            ap = st["num_rel_ret"] / st["num_ret"] if st["num_ret"] else 0.0
            ar = _div(st["num_rel_ret"], q["num_rel"])
            cp = st["relret"] / st["ret"] if st["ret"] > 0 else 0.0
            cr = _div(st["relret"], q["rel_size"])
            aip = 0.0
            for v in ip:
                aip += v
            per_topic[t] = {"num_ret": st["num_ret"], "num_rel": q["num_rel"], "num_rel_ret": st["num_rel_ret"],
                            "ret_size": st["ret"], "rel_size": q["rel_size"], "rel_ret_size": st["relret"],
                            "art_prec": ap, "art_rec": ar, "art_f1": _div(2 * ap * ar, ap + ar) if ap > 0 else 0.0,
                            "char_prec": cp, "char_rec": cr, "char_f1": _div(2 * cp * cr, cp + cr) if cp > 0 else 0.0,
                            "iP[0.00]": ip[0], "iP[0.01]": ip[1], "iP[0.05]": ip[5], "iP[0.10]": ip[10],
                            "AiP": aip / 101, "curve": ip}
            continue
        R, ranks = st["R"], st["ranks"]
        if len(ranks) < R:
            return ("death", None)
        total = sum_gp = 0.0
        gps, grs = [], []
        ip = [0.0] * 101
        for k in range(R):
            e = ranks[k]
            if task == "b":
                s = e["s"]
            elif task == "r":
                if e["relret"] > 0:
                    p, rc = _div(e["relret"], e["ret"]), _div(e["relret"], e["relchars"])
                    s = _div((1 + beta * beta) * p * rc, beta * beta * p + rc)
                else:
                    s = 0.0
            else:
                s = _t2i(e["rec"]["stored"], e["j"], irr) if e["j"] is not None else 0.0
            total += s
            gp, gr = total / (k + 1), _div(e["found"], q["num_rel"])
            gps.append(gp)
            grs.append(gr)
            if e["relchars"] > 0:
                sum_gp += gp
            b = _floor(10 * gr)
            if b > 100:
                return ("death", None)
            if ip[b] < gp:
                ip[b] = gp
        for i in range(9, -1, -1):
            ip[i] = max(ip[i], ip[i + 1])
        row = {"num_ret": R, "num_rel": q["num_rel"], "num_rel_ret": st["num_rel_ret"], "ret_size": st["ret"],
               "rel_size": q["rel_size"], "rel_ret_size": st["relret"]}
        for r in (1, 2, 3, 5, 10, 25, 50):
            row[f"gP[{r}]"] = gps[min(r, R) - 1] if R else 0.0
            row[f"gR[{r}]"] = grs[min(r, R) - 1] if R else 0.0
        row["AgP"] = _div(sum_gp, q["num_rel"])
        row["curve"] = ip[:11]
        per_topic[t] = row
    nq = len(included)
    counted = included if task in "ft" else order
    result = {"num_q": nq}
    for name in ("num_ret", "num_rel", "num_rel_ret", "ret_size", "rel_size", "rel_ret_size"):
        result[name] = sum(per_topic[t][name] for t in counted)
    names = [k for k in per_topic[order[0]] if k not in result and k != "curve"] if order else []
    for name in names:
        acc = 0.0
        for t in included:
            acc += per_topic[t][name]
        result["M" + name if name in ("AiP", "AgP") else name] = _div(acc, nq)
    points = 101 if task in "ft" else 11
    for i in range(points):
        acc = 0.0
        for t in included:
            acc += per_topic[t]["curve"][i]
        result[f"ircl:{i}"] = _div(acc, nq)
    return ("scored", (impossible, {t: per_topic[t] for t in included}, result, run_id))
