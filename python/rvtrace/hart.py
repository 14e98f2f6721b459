"""The reference hart (include/rvtrace/hart.h): run an ELF and get its
retired PCs, console output and statistics."""
from array import array
from collections import namedtuple

from ._lib import ffi, lib, text
from .errors import RvtError
from .image import Image

try:
    import numpy as np
except ImportError:
    np = None

Run = namedtuple("Run", "pcs exit_code exited stop instret executed cycles exceptions interrupts console")
STOPS = {1: "exited", 2: "max_instr", 3: "step_limit", 4: "fatal"}   # rvt_hart_stop


def run(elf, max_instr=0, pcs=True, ram_size=0, misaligned_emulate=False):
    """Run elf (a path or an Image) as `rvtrace run` does; pcs: collect the
    retired PCs (numpy uint64 array or array('Q'))."""
    img = elf if isinstance(elf, Image) else Image(elf)
    retired = array("Q")
    console = bytearray()

    @ffi.callback("void(void *, uint64_t, bool)")
    def on_pc(ctx, pc, ok):
        if ok:
            retired.append(pc)

    @ffi.callback("void(void *, const char *, size_t)")
    def on_console(ctx, buf, n):
        console.extend(ffi.buffer(buf, n))

    cfg = ffi.new("rvt_hart_cfg *", {
        "max_instr": max_instr, "ram_size": ram_size, "misaligned_emulate": misaligned_emulate,
        "console": on_console, "sbi_pmu": lib.rvt_hart_wants_sbi(img._img),
        "on_pc": on_pc if pcs else ffi.NULL})
    st = ffi.new("int *")
    h = lib.rvt_hart_new(cfg, img._img, st)
    if h == ffi.NULL:
        raise RvtError(f"{img.paths}: cannot start the hart: {text(lib.rvt_status_str(st[0]))}", st[0])
    h = ffi.gc(h, lib.rvt_hart_free)
    why = lib.rvt_hart_run(h, 0)
    lib.rvt_hart_finish(h)
    if why < 0:
        raise RvtError(f"hart: {text(lib.rvt_status_str(why))}", why)
    if why == 4:
        raise RvtError(f"hart: {text(lib.rvt_hart_fatal_msg(h))}", -14)
    s = ffi.new("rvt_hart_stats *")
    lib.rvt_hart_get_stats(h, s)
    out = np.frombuffer(retired, dtype=np.uint64).copy() if np is not None else retired
    return Run(out, lib.rvt_hart_exit_code(h), bool(lib.rvt_hart_exited(h)), STOPS.get(why, str(why)),
               s.instret, s.executed, s.cycles, s.exceptions, s.interrupts, bytes(console))
