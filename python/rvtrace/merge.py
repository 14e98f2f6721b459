"""What one trace piece gives (counts, coverage, a profile) and how pieces
merge exactly; the rules are written down in docs/python.md "Merge rules"
and rvtrace.dask applies them."""
from collections import Counter

from .profile import TABLES, Profile

try:
    import numpy as np
except ImportError:
    np = None


def counts(trace):
    """{"instructions", "blocks", "items", "item_errors"} of one trace."""
    c = Counter(instructions=0, blocks=0, items=0, item_errors=0)
    for b in trace.blocks():
        c["blocks"] += len(b)
        c["instructions"] += int(b["ninsn"].sum()) if np is not None else sum(r[2] for r in b)
    for items in trace.items():
        c["items"] += len(items)
        c["item_errors"] += sum(1 for it in items if it.status < 0)
    return dict(c)


def coverage(trace):
    """{pc: times retired} of one trace."""
    cov = Counter()
    for b in trace.insns():
        if np is not None:
            pcs, n = np.unique(b["pc"], return_counts=True)
            cov.update(dict(zip(pcs.tolist(), n.tolist())))
        else:
            cov.update(r[0] for r in b)
    return dict(cov)


def merge_counts(parts):
    """Counts add up."""
    total = Counter()
    for p in parts:
        total.update(p)
    return dict(total)


def merge_coverage(parts):
    """Each PC's count is the sum of its counts (a PC in one piece only
    keeps its count)."""
    total = Counter()
    for p in parts:
        total.update(p)
    return dict(total)


def merge_profiles(parts, title="merged"):
    """Instructions, errors, lost, each function's children/self/calls and
    every per-mode/context/hart/image and per-trap count add up; incomplete
    is any piece's; shares are recomputed from the sums."""
    parts = list(parts)
    total = Counter()
    funcs, tables, traps = {}, {t: Counter() for t in TABLES}, Counter()
    incomplete = False
    for p in parts:
        total.update(instructions=p.instructions, errors=p.errors, lost=p.lost)
        incomplete = incomplete or p.incomplete
        for name, f in p.functions.items():
            c = funcs.setdefault(name, Counter())
            c.update(children=f.children, self=f.self, calls=f.calls)
        for t in TABLES:
            tables[t].update(p.tables[t])
        traps.update({t["trap"]: t["count"] for t in p.traps})
    n = total["instructions"] or 1
    raw = {"title": title, "instructions": total["instructions"], "errors": total["errors"],
           "lost": total["lost"], "incomplete": incomplete,
           "functions": [{"name": k, "children": v["children"], "self": v["self"], "calls": v["calls"],
                          "children_percent": round(100.0 * v["children"] / n, 2),
                          "self_percent": round(100.0 * v["self"] / n, 2)}
                         for k, v in sorted(funcs.items(), key=lambda kv: (-kv[1]["children"], kv[0]))],
           "traps": [{"trap": k, "count": v} for k, v in sorted(traps.items())]}
    for t, key in TABLES.items():
        raw[t] = [{key: k, "instructions": v} for k, v in sorted(tables[t].items(), key=str)]
    return Profile(raw)
