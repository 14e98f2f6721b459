"""The cdef in rvtrace/_lib.py mirrors the public headers: the size and
every field's offset of each struct it declares equal the C compiler's
(skipped without a compiler)."""
import os
import shutil
import subprocess

import pytest

from conftest import SRC
from rvtrace._lib import ffi

STRUCTS = ["rvt_block", "rvt_flow_insn", "rvt_proto_item", "rvt_proto_dump_end", "rvt_trace_opts",
           "rvt_hart_cfg", "rvt_hart_stats", "rvt_profile_opts", "rvt_space", "rvt_index_point",
           "rvt_proto_dec_stats"]


def test_struct_layouts_match_headers(tmp_path):
    cc = shutil.which(os.environ.get("CC", "cc"))
    if not cc:
        pytest.skip("no C compiler")
    lines, want = [], []
    for s in STRUCTS:
        lines.append(f'printf("%zu\\n", sizeof({s}));')
        want.append(ffi.sizeof(s))
        for name, _ in ffi.typeof(s).fields:
            lines.append(f'printf("%zu\\n", offsetof({s}, {name}));')
            want.append(ffi.offsetof(s, name))
    prog = tmp_path / "layout.c"
    prog.write_text("#include <stddef.h>\n#include <stdio.h>\n"
                    + "".join(f'#include "rvtrace/{h}.h"\n' for h in ("flow", "proto", "trace", "hart", "profile", "mem", "index"))
                    + "int main(void) {\n" + "\n".join(lines) + "\nreturn 0;\n}\n")
    exe = tmp_path / "layout"
    subprocess.run([cc, "-I", os.path.join(SRC, "include"), str(prog), "-o", str(exe)], check=True)
    got = [int(x) for x in subprocess.run([str(exe)], check=True, capture_output=True).stdout.split()]
    assert got == want
