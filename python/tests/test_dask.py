"""rvtrace.dask on a LocalCluster of two worker processes: the merged
counts, coverage and profile equal the single-process run, and the merge
rules (docs/python.md) hold against the CLI's own numbers."""
import json
import os
import subprocess
from collections import Counter

import pytest

from conftest import SRC, cli, rvtrace_bin

pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
import rvtrace  # noqa: E402
import rvtrace.profile  # noqa: E402
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


def _periodic(tmp_path, elf, kind):
    """A trace of elf with periodic sync (E-Trace: a format 3 every 2^4
    packets; N-Trace: a sync each 2^1 messages) and the CLI's retired PCs."""
    tr, pcs = str(tmp_path / ("s." + kind)), str(tmp_path / "s.pcs")
    opt = ["--etrace", tr, "--te-attr", "resync_max=4"] if kind == "te" else \
          ["--ntrace", tr, "--nt-opt", "sync=1:0"]
    cli("run", elf, "--quiet", *opt, "--pcs-retired", pcs)
    with open(pcs) as f:
        return tr, Counter(int(line, 16) for line in f)


@pytest.mark.parametrize("kind", ["te", "nt"])
def test_one_trace_split_at_its_index(client, tmp_path, kind):
    # one trace cut at every index point, the pieces on two workers: the
    # instruction count, the coverage and the profile are the whole
    # trace's, single-process and as the CLI retires them
    elf = os.path.join(SRC, "programs", "sort.elf")
    tr, retired = _periodic(tmp_path, elf, kind)
    ps = rd.split(tr, elf)
    assert len(ps) > 10
    got = rd.analyse(client, ps, fan_in=4)
    whole = rd.analyse_local(rd.pieces([tr], elf=elf))
    assert got["coverage"] == whole["coverage"]
    assert got["counts"]["instructions"] == whole["counts"]["instructions"]
    assert got["coverage"] == dict(retired)
    # the profile composed from the pieces: the single decode's report, byte for byte
    assert got["profile"].json_text == whole["profile"].json_text
    rep = json.loads(cli("report", "--json", "--elf", elf, tr).stdout)
    assert dict(got["profile"].raw, title=None) == dict(rep, title=None)    # the CLI's, but for the title
    # fewer, longer pieces give the same
    few = rd.split(tr, elf, min_gap=len(open(tr, "rb").read()) // 5)
    assert 1 < len(few) < len(ps)
    local = rd.analyse_local(few)
    assert local["coverage"] == got["coverage"] and local["counts"] == got["counts"]
    assert local["profile"].json_text == got["profile"].json_text


@pytest.mark.parametrize("kind", ["te", "nt"])
def test_split_inside_deep_call_chains(client, tmp_path, kind):
    # recurse.elf calls itself 4,002 deep (deeper than the 1,024 frames a
    # stack names): its pieces start and end inside the chain, with
    # returns below their start; composed, the profile is the whole's
    elf = os.path.join(SRC, "programs", "recurse.elf")
    tr, _ = _periodic(tmp_path, elf, kind)
    assert "deepest 4002" in cli("decode", "--elf", elf, tr, "--folded").stdout.decode()
    ps = rd.split(tr, elf, min_gap=4000)
    assert len(ps) > 20
    got = rd.analyse(client, ps, what=("profile",), fan_in=5)
    assert got["profile"].json_text == rvtrace.Trace(tr, elf=elf).profile().json_text


def test_sources_split_per_source(client, tmp_path):
    # the three-hart stream of tests/e2e/decode_jobs_sources.sh: privs,
    # fptr and setjmp on N-Trace SRC 0-2, messages interleaved, HTM with
    # implicit return, context and timestamps, one program per source
    # (FILE@src=N).  Each source's pieces are cut at its own points and
    # decoded by a decoder of that source only; merged, the result is the
    # whole trace's single-process profile and one decoder's (the CLI's)
    # retired PCs and report
    progs = [os.path.join(SRC, "programs", n + ".elf") for n in ("privs", "fptr", "setjmp")]
    rvis = [str(tmp_path / f"{i}.rvi") for i in range(3)]
    for elf, rvi in zip(progs, rvis):      # privs exits non-zero on purpose
        subprocess.run([rvtrace_bin(), "run", elf, "--quiet", "--ingress", rvi], capture_output=True)
    tr = str(tmp_path / "three.nt")
    cli("encode", "--ntrace", *rvis, "-o", tr, "--nt-opt", "sync=1:0,implicit-return=3,context,timestamps")
    elfs = [f"{elf}@src={i}" for i, elf in enumerate(progs)]
    elf_args = [a for e in elfs for a in ("--elf", e)]

    ps = rd.split(tr, elfs)
    assert [p.range.src for p in ps if p.range.start == 0] == [0, 1, 2]    # each source from byte 0
    assert len(ps) > 60
    got = rd.analyse(client, ps, fan_in=4)
    local = rd.analyse_local(ps)
    assert got["counts"] == local["counts"] and got["coverage"] == local["coverage"]
    assert got["profile"] == local["profile"]
    assert got["profile"] == rvtrace.Trace(tr, elf=elfs).profile()
    # one decoder's: the CLI's retired PCs (every source's) and its report
    pcs = Counter(int(x, 16) for x in cli("decode", *elf_args, tr, "--pcs", "-").stdout.split())
    assert got["coverage"] == dict(pcs)
    assert got["counts"]["instructions"] == sum(pcs.values())
    rep = rvtrace.profile.Profile(json.loads(cli("report", "--json", *elf_args, tr).stdout))
    assert got["profile"] == rep
    # fewer, longer pieces (per source) give the same
    few = rd.split(tr, elfs, min_gap=os.path.getsize(tr) // 4)
    assert 3 < len(few) < len(ps)
    again = rd.analyse_local(few)
    assert again["coverage"] == got["coverage"] and again["profile"] == got["profile"]


def _bytes_damaged(data):
    """Damaged copies of a stream: junk before the first message (every
    source's decoder reports it as its own: one decoder once), junk after
    the last, a cut, bytes changed inside messages."""
    junk = b"\x07\x13\x01" * 3
    mid = len(data) // 2
    return {"junk-first": junk + data, "junk-last": data + junk, "cut": data[:len(data) * 2 // 3],
            "changed": data[:mid] + b"\xff\xff\xff" + data[mid + 3:]}


def test_sources_damaged(tmp_path):
    # two harts on SRC 1 and 2 (no src 0: one decoder's own errors make
    # it a source, with no end marker), damaged: the pieces' profile is
    # the whole trace's, the coverage one decoder's (single process: the
    # cluster's merge is the same code, test above)
    progs = [os.path.join(SRC, "programs", n + ".elf") for n in ("privs", "fptr")]
    rvis = [str(tmp_path / f"{i}.rvi") for i in range(2)]
    for elf, rvi in zip(progs, rvis):      # privs exits non-zero on purpose
        subprocess.run([rvtrace_bin(), "run", elf, "--quiet", "--ingress", rvi], capture_output=True)
    good = str(tmp_path / "two.nt")
    cli("encode", "--ntrace", *rvis, "-o", good, "--nt-opt", "sync=1:0,context", "--nt-src", "2:1")
    elfs = [f"{elf}@src={i + 1}" for i, elf in enumerate(progs)]
    elf_args = [a for e in elfs for a in ("--elf", e)]
    with open(good, "rb") as f:
        data = f.read()
    for name, bad in _bytes_damaged(data).items():
        tr = str(tmp_path / f"{name}.nt")
        with open(tr, "wb") as f:
            f.write(bad)
        with open(good + ".attrs", "rb") as f, open(tr + ".attrs", "wb") as g:
            g.write(f.read())
        ps = rd.split(tr, elfs, min_gap=64)
        assert {1, 2} <= {p.range.src for p in ps}, name      # a changed byte may make another
        got = rd.analyse_local(ps)
        whole = rvtrace.Trace(tr, elf=elfs).profile()
        assert got["profile"] == whole, name
        run = subprocess.run([rvtrace_bin(), "decode", *elf_args, tr, "--pcs", "-"], capture_output=True)
        assert got["coverage"] == dict(Counter(int(x, 16) for x in run.stdout.split())), name
        rep = subprocess.run([rvtrace_bin(), "report", "--json", *elf_args, tr], capture_output=True)
        assert got["profile"] == rvtrace.profile.Profile(json.loads(rep.stdout)), name
        if name == "junk-first":     # 9 bytes of junk: the decoder's own errors, src 0's end
            assert got["profile"].errors > 0 and got["profile"].incomplete
