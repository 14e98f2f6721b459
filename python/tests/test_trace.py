"""The package against the CLI on programs/*.elf: decoded PCs (instructions
and blocks, E-Trace and N-Trace), the hart's retired PCs, the dump and the
profile equal what the CLI gives; failures raise RvtError with the
library's words."""
import json
import os

import pytest

import rvtrace
from conftest import SRC, WORKLOADS, cli


def as_list(a):
    return a.tolist() if hasattr(a, "tolist") else list(a)


@pytest.mark.parametrize("name", WORKLOADS)
@pytest.mark.parametrize("proto", ["te", "nt"])
def test_insns_equal_cli_pcs(traced, name, proto):
    w = traced[name]
    t = rvtrace.Trace(getattr(w, proto), elf=w.elf)
    assert t.protocol == {"te": "etrace", "nt": "ntrace"}[proto]
    assert t.found_by == "sidecar"   # run writes FILE.attrs (issue 14: sidecar first)
    assert as_list(t.pcs()) == w.pcs


@pytest.mark.parametrize("name", WORKLOADS)
def test_blocks_cover_the_pcs(traced, name):
    w = traced[name]
    t = rvtrace.Trace(w.nt, elf=w.elf)
    pcs, n = w.pcs, 0
    for batch in t.blocks(batch_size=1000):
        for b in batch:
            start, ninsn = int(b[0]), int(b[2])
            assert pcs[n] == start      # a block starts where the PCs are
            n += ninsn
    assert n == len(pcs)


@pytest.mark.parametrize("name", WORKLOADS)
def test_hart_retired_pcs(traced, name):
    r = rvtrace.run(traced[name].elf)
    assert r.stop == "exited" and r.exit_code == 0
    assert as_list(r.pcs) == traced[name].pcs
    assert r.instret == len(traced[name].pcs)


def test_batches_numpy_or_tuples(traced):
    w = traced["sort"]
    batches = list(rvtrace.Trace(w.te, elf=w.elf).insns(batch_size=1000))
    assert len(batches) == (len(w.pcs) + 999) // 1000
    first = batches[0]
    np = pytest.importorskip("numpy")
    assert isinstance(first, np.ndarray) and first["pc"][0] == w.pcs[0]
    assert first.dtype.names == ("pc", "context", "offset", "priv", "src")


@pytest.mark.parametrize("proto", ["te", "nt"])
def test_dump_equals_cli(traced, proto):
    w = traced["ecall"]
    path = getattr(w, proto)
    want = [json.loads(line) for line in cli("dump", "--json", path).stdout.decode().splitlines()]
    got = [it for b in rvtrace.Trace(path).items(json=True) for it in b]
    assert [json.loads(it.text) for it in got] == want
    assert all(it.status == 0 for it in got)


@pytest.mark.parametrize("name", ["sort", "ecall", "recurse"])
def test_profile_equals_cli_report(traced, name):
    w = traced[name]
    want = json.loads(cli("report", "--json", "--elf", w.elf, w.nt).stdout)
    p = rvtrace.Trace(w.nt, elf=w.elf).profile()
    assert p.instructions == want["instructions"] == len(w.pcs)
    assert [f._asdict() for f in p.functions.values()] == \
        [{k: f[k] for k in ("name", "children", "self", "calls")} for f in want["functions"]]
    assert p.traps == want["traps"]


def test_sidecar_and_bytes(traced, tmp_path):
    w = traced["sort"]
    # no telling name: the sidecar says N-Trace
    renamed = tmp_path / "trace.bin"
    renamed.write_bytes(open(w.nt, "rb").read())
    (tmp_path / "trace.bin.attrs").write_bytes(open(w.nt + ".attrs", "rb").read())
    t = rvtrace.Trace(renamed, elf=w.elf)
    assert (t.protocol, t.found_by) == ("ntrace", "sidecar")
    assert t.setting("trTeInstMode") == rvtrace.Trace(w.nt).setting("trTeInstMode")
    assert as_list(t.pcs()) == w.pcs
    os.unlink(tmp_path / "trace.bin.attrs")
    t = rvtrace.Trace(renamed, elf=w.elf)
    assert t.found_by == "bytes"


def test_errors_say_why(traced, tmp_path):
    w = traced["sort"]
    with pytest.raises(rvtrace.RvtError, match="is an ELF program, not a trace"):
        rvtrace.Trace(w.elf)
    with pytest.raises(rvtrace.RvtError, match="cannot open"):
        rvtrace.Image(tmp_path / "missing.elf")
    with pytest.raises(rvtrace.RvtError, match="needs the program"):
        rvtrace.Trace(w.nt).pcs()
    assert rvtrace.version().count(".") == 2


def test_keyed_programs(tmp_path):
    # one program per N-Trace source, "FILE@src=N" as the CLI's --elf
    # FILE@KEY: the profile is `rvtrace report`'s, byte for byte
    progs = [os.path.join(SRC, "programs", n + ".elf") for n in ("sort", "fptr")]
    rvis = [str(tmp_path / f"{i}.rvi") for i in range(2)]
    retired = []
    for elf, rvi in zip(progs, rvis):
        cli("run", elf, "--quiet", "--ingress", rvi, "--pcs-retired", rvi + ".pcs")
        with open(rvi + ".pcs") as f:
            retired.append(sum(1 for _ in f))
    tr = str(tmp_path / "two.nt")
    cli("encode", "--ntrace", *rvis, "-o", tr)
    elfs = [f"{elf}@src={i}" for i, elf in enumerate(progs)]
    want = cli("report", "--json", *[a for e in elfs for a in ("--elf", e)], tr).stdout
    got = rvtrace.Trace(tr, elf=elfs).profile()
    assert got.json_text == want
    assert got.tables["harts"] == {0: retired[0], 1: retired[1]}
    assert got.tables["images"] == {progs[1]: got.instructions}    # the later file shadows the earlier
    # the pull API gives every instruction from its own source's program,
    # also where the walk has gone on into the other source's messages
    # (the library once stepped through queued blocks with the other's
    # instruction lengths): the CLI's retired PCs, in its order
    pcs = [int(x, 16) for x in cli("decode", *[a for e in elfs for a in ("--elf", e)], tr,
                                   "--pcs", "-").stdout.split()]
    assert as_list(rvtrace.Trace(tr, elf=elfs).pcs()) == pcs
    for bad in ("src=4096", "priv=X", "cpu=1", "src=one"):
        with pytest.raises(rvtrace.RvtError, match="want FILE@KEY"):
            rvtrace.Image(f"{progs[0]}@{bad}")
