"""rvtrace.dask on a LocalCluster of two worker processes: the merged
counts, coverage and profile equal the single-process run, and the merge
rules (docs/python.md) hold against the CLI's own numbers."""
import json
import os
from collections import Counter

import pytest

from conftest import SRC, cli

pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
import rvtrace  # noqa: E402
import rvtrace.dask as rd  # noqa: E402

NAMES = ["sort", "ecall", "fptr", "recurse"]


@pytest.fixture(scope="module")
def client():
    # the workers import rvtrace and load the same library
    os.environ["PYTHONPATH"] = os.path.join(SRC, "python") + os.pathsep + os.environ.get("PYTHONPATH", "")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        yield c


def test_two_workers_equal_one_process(client, traced):
    # many traces: E-Trace and N-Trace of each program, each with its ELF
    ps = rd.pieces([(getattr(traced[n], p), traced[n].elf) for n in NAMES for p in ("te", "nt")])
    got = rd.analyse(client, ps, fan_in=3)
    want = rd.analyse_local(ps)
    assert got["counts"] == want["counts"]
    assert got["coverage"] == want["coverage"]
    assert got["profile"] == want["profile"]
    # ... and the rules against the CLI: every retired PC twice (te and nt)
    pcs = Counter(pc for n in NAMES for pc in traced[n].pcs)
    assert got["coverage"] == {pc: 2 * k for pc, k in pcs.items()}
    assert got["counts"]["instructions"] == 2 * sum(len(traced[n].pcs) for n in NAMES)
    # a function's self instructions: the sum of the CLI's reports
    selfs = Counter()
    for n in NAMES:
        rep = json.loads(cli("report", "--json", "--elf", traced[n].elf, traced[n].nt).stdout)
        selfs.update({f["name"]: 2 * f["self"] for f in rep["functions"]})
    assert {k: f.self for k, f in got["profile"].functions.items()} == dict(selfs)


@pytest.mark.parametrize("kind", ["te", "nt"])
def test_one_trace_split_at_its_index(client, tmp_path, kind):
    # one trace with periodic sync, cut at every index point (E-Trace: a
    # format 3 every 2^4 packets; N-Trace: a sync each 2^1 messages), the
    # pieces on two workers: the instruction count and the coverage are
    # the whole trace's, single-process and as the CLI retires them
    elf = os.path.join(SRC, "programs", "sort.elf")
    tr, pcs = str(tmp_path / ("s." + kind)), str(tmp_path / "s.pcs")
    opt = ["--etrace", tr, "--te-attr", "resync_max=4"] if kind == "te" else \
          ["--ntrace", tr, "--nt-opt", "sync=1:0"]
    cli("run", elf, "--quiet", *opt, "--pcs-retired", pcs)
    ps = rd.split(tr, elf)
    assert len(ps) > 10
    got = rd.analyse(client, ps, what=rd.SPLIT_WHAT, fan_in=4)
    whole = rd.analyse_local(rd.pieces([tr], elf=elf), what=("counts", "coverage"))
    assert got["coverage"] == whole["coverage"]
    assert got["counts"]["instructions"] == whole["counts"]["instructions"]
    with open(pcs) as f:
        retired = Counter(int(line, 16) for line in f)
    assert got["coverage"] == dict(retired)
    # fewer, longer pieces give the same
    few = rd.split(tr, elf, min_gap=len(open(tr, "rb").read()) // 5)
    assert 1 < len(few) < len(ps)
    assert rd.analyse_local(few, what=rd.SPLIT_WHAT) == got
    with pytest.raises(rvtrace.RvtError):
        rd.analyse_piece(ps[1])                     # a profile of a range is refused
