"""rvtrace past one machine (issue 18): trace pieces mapped to Dask
workers, their counts, coverage and profiles merged exactly.

    from dask.distributed import Client
    import rvtrace.dask as rd
    client = Client("tcp://scheduler:8786")          # or LocalCluster()
    result = rd.analyse(client, rd.pieces(["a.nt", "b.nt"], elf="prog.elf"))
    result["profile"].functions["main"].self

    # one huge trace, split at its index points (rvtrace.split): the same
    # counts, coverage and profile as the whole trace's
    result = rd.analyse(client, rd.split("huge.te", elf="prog.elf", min_gap=32 << 20))

A piece is one trace file (with its sidecar) and its program, or a range
of one trace between two of its index points (split): every piece is
decoded on a worker through the package (librvtrace.so there too) and the
partial results are merged on the workers by the rules of rvtrace.merge
(docs/python.md "Merge rules"), so the result equals analyse_local, the
single-process run.  A range piece's profile is recorded relative to the
call stack it starts with (include/rvtrace/profile_piece.h); the pieces of
one trace are composed in stream order at the end, each resolved with the
stack the one before ended with, so the profile is the whole trace's.  A
stream of several N-Trace sources is split per source (rvtrace.split),
its pieces composed source after source, and the errors every source's
decoder reports as its own counted once (docs/parallel.md "Sources decoded
apart, on other machines").

    elf = ["a.elf@src=0", "b.elf@src=1"]             # a program per hart
    result = rd.analyse(client, rd.split("harts.nt", elf=elf))"""
from collections import Counter, namedtuple
from functools import reduce

from . import merge, split as splitting
from ._lib import ffi, lib
from .image import Image
from .profile import compose, piece_text
from .trace import Trace

Piece = namedtuple("Piece", "path elf protocol range", defaults=(None,))
WHAT = ("counts", "coverage", "profile")
SPLIT_WHAT = WHAT       # a range piece gives all three (its profile as a piece)


def pieces(traces, elf=None, protocol=None):
    """Pieces of many traces: paths (all of program elf) or (path, elf) pairs."""
    out = []
    for t in traces:
        path, prog = (t if isinstance(t, tuple) else (t, elf))
        out.append(Piece(str(path), [str(p) for p in ([prog] if isinstance(prog, str) else prog)], protocol))
    return out


def split(path, elf, min_gap=0, protocol=None):
    """Pieces of one trace, cut at its index points min_gap bytes apart or
    more (rvtrace.split.ranges; indexed here, in the client)."""
    elf = [str(p) for p in ([elf] if isinstance(elf, str) else elf)]
    t = Trace(str(path), elf=elf, protocol=protocol)
    return [Piece(str(path), elf, protocol, r) for r in splitting.ranges(t, min_gap)]


def _range_results(t, piece, what):
    cov = Counter()
    prof = ffi.gc(lib.rvt_profile_piece_new(t.image._img), lib.rvt_profile_free) if "profile" in what else None
    end = [False]
    errors = ([], [])       # a merged piece's: its decoder's own, its source's

    def event(ev):
        if ev.kind == splitting.EV_INSN:
            cov[ev.pc] += 1
        elif ev.kind == splitting.EV_END:
            end[0] = bool(ev.aux & splitting.END_INCOMPLETE)
        if prof is not None:
            lib.rvt_profile_event(prof, ev)

    splitting.each_event(t, piece.range, event, lambda at, own: errors[0 if own else 1].append(at))
    out = {}
    if "counts" in what:
        out["counts"] = {"instructions": sum(cov.values())}
    if "coverage" in what:
        out["coverage"] = dict(cov)
    if prof is not None:    # composed with the trace's other pieces by finish()
        r = piece.range
        out["pieces"] = [((piece.path, tuple(piece.elf)), (r.src, r.start, end[0]), piece_text(prof), errors)]
    return out


def analyse_piece(piece, what=WHAT):
    """One piece's results (on a worker): {what: result}."""
    t = Trace(piece.path, elf=piece.elf, protocol=piece.protocol)
    if piece.range is not None:
        return _range_results(t, piece, what)
    out = {}
    if "counts" in what:
        out["counts"] = merge.counts(t)
    if "coverage" in what:
        out["coverage"] = merge.coverage(t)
    if "profile" in what:
        out["profile"] = t.profile()
    return out


MERGES = {"counts": merge.merge_counts, "coverage": merge.merge_coverage, "profile": merge.merge_profiles,
          "pieces": lambda parts: [p for part in parts for p in part]}


def merge_results(results):
    """Results of pieces (or of earlier merges) merged: one result (a
    result alone is kept as it is: a lone profile keeps its report)."""
    results = list(results)
    keys = reduce(lambda a, r: a | set(r), results, set())
    parts = {k: [r[k] for r in results if k in r] for k in keys}
    return {k: MERGES[k](v) if len(v) > 1 else v[0] for k, v in parts.items()}


def _in_order(parts):
    """A trace's piece texts in composing order: each source's pieces in
    stream order, source after source (a source's state is its own, and
    composing switches to the piece's hart, profile_piece.h).  The composed
    end is the last piece's, so the sources whose stream ends incomplete
    go last: the end is then incomplete when any source's is, as one
    decoder's is (docs/parallel.md "Sources decoded apart, on other
    machines")."""
    by_src = {}
    for (src, start, incomplete), text in parts:
        by_src.setdefault(src, []).append((start, incomplete, text))
    for ps in by_src.values():
        ps.sort(key=lambda p: p[0])
    order = sorted(by_src, key=lambda src: (by_src[src][-1][1], -1 if src is None else src))
    return [text for src in order for _, _, text in by_src[src]]


def _own_errors(parts):
    """What one decoder of every source reports once for the errors the
    sources' decoders reported as their own (none of their sources
    synchronised, rvtrace.split.each_event): an error for src 0 at each
    such offset where no source was synchronised (no source's error there),
    and then an incomplete end when src 0 is no source of the stream (one
    decoder counts src 0 among its sources then, and it has no end marker;
    docs/parallel.md "Sources decoded apart, on other machines")."""
    own, sources_ = set(), set()
    for (src, _, _), _, (mine, theirs) in parts:
        own.update(mine)
        sources_.update(theirs)
    ats = sorted(own - sources_)
    events = [{"kind": splitting.EV_ERROR, "src": 0, "offset": at} for at in ats]
    if ats and 0 not in {src for (src, _, _), _, _ in parts}:
        events.append({"kind": splitting.EV_END, "aux": splitting.END_INCOMPLETE})
    return events


def finish(result):
    """The merged result with the range pieces' profiles composed: each
    trace's pieces (_in_order) into one profile (rvt_profile_compose),
    with one decoder's own errors (_own_errors), then merged with the
    whole traces' profiles (a lone profile is kept as it is)."""
    result = dict(result)
    groups = {}
    for key, order, text, errors in result.pop("pieces", []):
        groups.setdefault(key, []).append((order, text, errors))
    profiles = [compose(Image(*elf), _in_order([(o, t) for o, t, _ in parts]), path, _own_errors(parts))
                for (path, elf), parts in groups.items()]
    if "profile" in result:
        profiles.append(result["profile"])
    if profiles:
        result["profile"] = profiles[0] if len(profiles) == 1 else merge.merge_profiles(profiles)
    return result


def analyse(client, pieces_, what=WHAT, fan_in=8):
    """Map the pieces to the client's workers and merge on the workers, fan_in
    results at a time (a tree: merging is associative, and the range
    pieces' profiles are kept apart until finish composes them in order)."""
    level = client.map(analyse_piece, pieces_, what=tuple(what), pure=False)
    while len(level) > 1:
        level = [client.submit(merge_results, level[i:i + fan_in], pure=False)
                 for i in range(0, len(level), fan_in)]
    return client.submit(finish, level[0], pure=False).result() if level else {}


def analyse_local(pieces_, what=WHAT):
    """The same in this process, piece after piece."""
    return finish(merge_results([analyse_piece(p, what) for p in pieces_]))
