"""Shared fixtures: the rvtrace CLI (RVT_BIN, else build/rvtrace), the
programs/ ELFs, and traces the CLI writes of them (E-Trace and N-Trace with
their sidecars, and the retired PCs `rvtrace run --pcs-retired` lists)."""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(SRC, "python"))
PROGRAMS = os.path.join(SRC, "programs")
# RV64 and RV32, traps, compressed and not, indirect calls
WORKLOADS = ["sort", "ecall", "crc_rv32", "fptr", "recurse", "sort_nc"]


def rvtrace_bin():
    return os.environ.get("RVT_BIN") or os.path.join(SRC, "build", "rvtrace")


def cli(*args, **kw):
    return subprocess.run([rvtrace_bin(), *map(str, args)], check=True, capture_output=True, **kw)


class Traced:
    """One workload run by the CLI: elf, te, nt and the CLI's retired PCs."""

    def __init__(self, name, d):
        self.name = name
        self.elf = os.path.join(PROGRAMS, name + ".elf")
        self.te = os.path.join(d, name + ".te")
        self.nt = os.path.join(d, name + ".nt")
        pcs = os.path.join(d, name + ".pcs")
        cli("run", self.elf, "--etrace", self.te, "--ntrace", self.nt, "--pcs-retired", pcs)
        with open(pcs) as f:
            self.pcs = [int(line, 16) for line in f]


@pytest.fixture(scope="session")
def traced(tmp_path_factory):
    d = tmp_path_factory.mktemp("traces")
    return {w: Traced(w, str(d)) for w in WORKLOADS}
