"""One trace split at its index (include/rvtrace/index.h), as `rvtrace
decode --jobs` splits it (docs/parallel.md), for pieces decoded apart (on
Dask workers, rvtrace.dask): the instructions of the pieces, in order, are
exactly those of the whole decode.

A piece starts at an index point (a sync packet/message a decoder can
start from, after the support packet / Ownership message the point names)
and goes through the next piece's sync unit: the walk up to a sync retires
when the sync arrives (E-Trace 11.1, N-Trace I-CNT/F-ADDR), so it is this
piece's, and what a fresh decoder retires for its own first sync is the
piece before's.  The events' offsets are those of the packet/message that
retired them (the push decoder's; the pull API hands out instructions it
walked ahead, tagged with the packet it was at, so pieces use the push
decoder).  A stream of several N-Trace sources is cut per source, each
piece decoded by a decoder of its source only (ranges)."""
from collections import namedtuple

from ._lib import ffi, lib
from .errors import check

# stream offsets: decode from start (after the state unit at `state`, or
# None), keep instructions retired at rec or after and before stop (None:
# the stream's end); src: the N-Trace source (SRC) decoded, None: every one
Range = namedtuple("Range", "start rec stop state src", defaults=(None,))
WHOLE = Range(0, 0, None, None)
INDEX_NONE = 2**64 - 1
EV_INSN = 0
EV_ERROR = 8        # RVT_EV_ERROR
EV_END = 9          # RVT_EV_END: the last piece's, wherever the stream stopped
END_INCOMPLETE = 1  # RVT_END_INCOMPLETE in its aux
DUMP_NOTEXT = 2
# more than any packet or message is long: a piece reads this far past its
# cut, so a damaged unit before the cut is read as the whole stream's reader
# reads it (events past the cut stop the decoder)
UNIT_MAX = 4096


def ranges(trace, min_gap=0):
    """The pieces of trace cut at its index points (points min_gap bytes
    apart or more, per source); [WHOLE] when the stream has no point past
    its start.  A stream of several N-Trace sources (SRC, one hart each)
    gives each source's pieces, in the order of the sources' first
    messages: each from byte 0 to the end, cut at that source's own points,
    decoded by a decoder of that source only (a source's state is its own,
    N-Trace 11.2; docs/parallel.md "Several N-Trace sources")."""
    buf, n = trace.stream()
    out = ffi.new("rvt_index **")
    check(lib.rvt_index_build(trace._cfg, buf, n, 0, min_gap, out), f"{trace.path}: index")
    x = ffi.gc(out[0], lib.rvt_index_free)
    pts = [lib.rvt_index_at(x, i) for i in range(lib.rvt_index_count(x))]
    if lib.rvt_index_sources(x) <= 1:
        return _cuts(pts, None)
    return [r for s in _sources(x, trace) for r in _cuts([p for p in pts if p.src == s], s)]


def _sources(x, trace):
    """The sources of an N-Trace stream, in the order of their first message."""
    src, first = ffi.new("uint16_t *"), ffi.new("uint64_t *")
    out = []
    for i in range(lib.rvt_index_sources(x)):
        check(lib.rvt_index_source(x, i, src, first), f"{trace.path}: index sources")
        out.append(src[0])
    return out


def _cuts(points, src):
    """A stream's (or a source's) pieces between its points."""
    pts = [(p.offset, p.offset + p.size, None if p.state == INDEX_NONE else p.state)
           for p in points if p.offset > 0]
    if not pts:
        return [Range(0, 0, None, None, src)]
    cuts = [Range(0, 0, pts[0][1], None, src)]
    for i, (off, end, state) in enumerate(pts):
        cuts.append(Range(off, end, pts[i + 1][1] if i + 1 < len(pts) else None, state, src))
    return cuts


def _unit_size(trace, at):
    """Bytes of the packet/message at `at` (the state unit a point names)."""
    size = []

    @ffi.callback("int(void *, const rvt_proto_item *)")
    def first(ctx, it):
        size.append(it.size)
        return 1

    tail = trace.data_slice(at, at + UNIT_MAX)
    lib.rvt_proto_dump(trace._cfg, tail, len(tail), DUMP_NOTEXT, first, ffi.NULL, ffi.NULL)
    return size[0] if size else 0


def each_event(trace, r, fn, errors=None):
    """fn(ev) (an rvt_flow_event) for each event piece r of trace owns, in
    order: from after its own first sync unit up to the next piece's, and
    the decoder's last events (the end) for the last piece.  A piece of
    one source of several (r.src) also tells errors(offset, own) of each
    of its errors, own when the decoder reported it as its own (none of
    its sources synchronised: rvt_proto_dec_stats.unsynced_errors), which
    one decoder of every source reports once, for src 0, and only when no
    source is synchronised: such an error is not passed to fn."""
    primer = b"" if r.state is None else trace.data_slice(r.state, r.state + _unit_size(trace, r.state))
    shift = r.start - len(primer)
    stop = INDEX_NONE if r.stop is None else r.stop
    stats, unsynced = ffi.new("rvt_proto_dec_stats *"), [0]

    def own():
        """The error just reported was the decoder's own (the count grew)."""
        lib.rvt_proto_decoder_stats(d, stats)
        seen, unsynced[0] = unsynced[0], stats.unsynced_errors
        return stats.unsynced_errors != seen

    @ffi.callback("int(void *, const rvt_flow_event *)")
    def on(ctx, ev):
        told = ev.kind == EV_ERROR and r.src is not None and errors is not None
        mine = told and own()           # asked at every error: the count stays in step
        if ev.offset + shift < r.rec and ev.kind != EV_END:
            return 0
        if ev.offset + shift >= stop:
            return 1                    # the next piece's
        if told:
            errors(ev.offset + shift, mine)
        if not mine:
            fn(ev)
        return 0

    d, mem = trace._decoder(on, ffi.NULL)
    if r.src is not None:
        check(lib.rvt_proto_decoder_set_source(d, r.src), f"{trace.path}: source {r.src}")
    feed = primer + trace.data_slice(r.start, None if r.stop is None else r.stop + UNIT_MAX)
    st = lib.rvt_proto_decoder_run(d, feed, len(feed))
    check(st if st < 0 else 0, f"{trace.path}: decode")
    if r.stop is None and st >= 0:
        check(lib.rvt_proto_decoder_finish(d), f"{trace.path}: decode")


def each_insn(trace, r, fn):
    """fn(pc) for each instruction piece r of trace retires, in order."""
    each_event(trace, r, lambda ev: fn(ev.pc) if ev.kind == EV_INSN else None)
