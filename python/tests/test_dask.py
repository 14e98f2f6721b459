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
