"""A trace file with its sidecar and images (include/rvtrace/trace.h):
its packets/messages (the dump), its decoded instructions and blocks (the
pull API of flow.h, in batches) and its profile."""
from collections import namedtuple

from ._lib import ffi, lib, text
from .arrays import BLOCK_FIELDS, INSN_FIELDS, batch, column
from .errors import RvtError, check
from .image import Image
from .profile import Profile

Item = namedtuple("Item", "offset size name text status msg pc")
DUMP_JSON, DUMP_NOTEXT, DUMP_PCS = 1, 2, 4     # RVT_PROTO_DUMP_*


class Trace:
    """Trace(path, elf=..., protocol=None, container=None, settings=None).

    elf: one ELF path, a list of them, or an Image (needed to decode); a
    path may be "PATH@KEY" (rvtrace.image: e.g. "a.elf@src=1", the program
    of N-Trace source 1, as `rvtrace decode --elf a.elf@src=1`).
    protocol ("etrace", "ntrace", ...) and container ("encap", "refflow")
    override what rvt_trace_open finds; settings {name: value} override the
    sidecar's (rvt_proto_cfg_set, then the filled policies again)."""

    def __init__(self, path, elf=None, protocol=None, container=None, settings=None):
        self.path = str(path)
        keep = [ffi.new("char[]", s.encode()) if s else ffi.NULL for s in (protocol, container)]
        opts = ffi.new("rvt_trace_opts *", {"protocol": keep[0], "container": keep[1]})
        out = ffi.new("rvt_trace **")
        st = lib.rvt_trace_open(self.path.encode(), opts, out)
        self._t = ffi.gc(out[0], lib.rvt_trace_free) if out[0] != ffi.NULL else None
        if st < 0:
            raise RvtError(text(lib.rvt_trace_error(out[0])) if self._t else "out of memory", st)
        self._cfg = lib.rvt_trace_cfg(self._t)
        for name, value in (settings or {}).items():
            check(lib.rvt_proto_cfg_set(self._cfg, name.encode(), str(value).encode()), f"setting {name}")
        self.image = elf if isinstance(elf, Image) or elf is None else \
            Image(*([elf] if isinstance(elf, (str, bytes)) or hasattr(elf, "__fspath__") else elf))
        if self.image is not None:  # the program's class unless the settings state the width
            lib.rvt_proto_cfg_input_xlen(self._cfg, self.image.xlen)
        lib.rvt_proto_cfg_fill(self._cfg)
        why = ffi.new("const char **")
        if lib.rvt_proto_cfg_check(self._cfg, why) < 0:
            raise RvtError(f"{self.path}: {text(why[0])}", -2)

    # ---- what was found ----
    @property
    def protocol(self):
        return text(lib.rvt_proto_name(lib.rvt_trace_proto(self._t)))

    @property
    def found_by(self):
        return text(lib.rvt_trace_found_by(self._t))

    @property
    def container(self):
        return text(lib.rvt_trace_container(self._t)) or None

    @property
    def data(self):
        """The protocol's stream (unwrapped) as bytes."""
        return self.data_slice(0, None)

    def data_slice(self, start, stop):
        """Bytes start..stop of the stream (stop None: to its end), copied
        from the library's buffer without copying the rest."""
        ptr, n = self.stream()
        stop = n if stop is None else min(stop, n)
        return ffi.buffer(ptr, n)[start:stop] if start < stop else b""

    def stream(self):
        """The stream in the library's memory: (const uint8_t *, length)."""
        n = ffi.new("size_t *")
        return lib.rvt_trace_bytes(self._t, n), n[0]

    def file_offset(self, off):
        return lib.rvt_trace_file_offset(self._t, off)

    def setting(self, name):
        buf = ffi.new("char[256]")
        check(lib.rvt_proto_cfg_get(self._cfg, name.encode(), buf, 256), f"setting {name}")
        return text(buf)

    # ---- packets / messages ----
    def items(self, json=False, pcs=False, batch_size=4096):
        """Batches (lists) of Item, as `rvtrace dump` walks the stream."""
        got = []

        @ffi.callback("int(void *, const rvt_proto_item *)")
        def one(ctx, it):
            got.append(Item(self.file_offset(it.offset), it.size, text(it.name), text(it.text),
                            it.status, text(it.msg), it.pc if it.has_pc else None))
            return 0

        data = self.data
        flags = (DUMP_JSON if json else 0) | (DUMP_PCS if pcs else 0)
        check(lib.rvt_proto_dump(self._cfg, data, len(data), flags, one, ffi.NULL, ffi.NULL), "dump")
        for i in range(0, len(got), batch_size):
            yield got[i:i + batch_size]

    # ---- decoded flow ----
    def _decoder(self, fn=ffi.NULL, ctx=ffi.NULL):
        if self.image is None:
            raise RvtError(f"{self.path}: decoding needs the program (elf=...)", -2)
        mem = ffi.gc(lib.rvt_mem_new(), lib.rvt_mem_free)
        self.image.add_to(mem)
        st = ffi.new("int *")
        d = lib.rvt_proto_decoder_new(self._cfg, mem, fn, ctx, st)
        if d == ffi.NULL:
            check(st[0], f"{self.path}: decoder")
        return ffi.gc(d, lib.rvt_proto_decoder_free), mem

    def _pull(self, ctype, next_fn, fields, size):
        d, mem = self._decoder()
        data = self.data
        check(lib.rvt_proto_decoder_set_input(d, data, len(data)), "set_input")
        buf = ffi.new(f"{ctype}[]", size)
        while True:
            n = check(next_fn(d, buf, size), f"{self.path}: decode")
            if n == 0:
                return
            yield batch(buf, ctype, fields, n)

    def insns(self, batch_size=65536):
        """Batches of retired instructions: numpy records (pc, context,
        offset, priv, src) or tuples; rvt_proto_decoder_next_insns."""
        return self._pull("rvt_flow_insn", lib.rvt_proto_decoder_next_insns, INSN_FIELDS, batch_size)

    def blocks(self, batch_size=16384):
        """Batches of blocks (start_pc, end_pc, ninsn, next_pc, context,
        offset, end, priv, src); rvt_proto_decoder_next_blocks."""
        return self._pull("rvt_block", lib.rvt_proto_decoder_next_blocks, BLOCK_FIELDS, batch_size)

    def pcs(self):
        """Every retired PC, in order (numpy uint64 array or list)."""
        return column(list(self.insns()), "pc", INSN_FIELDS)

    def profile(self):
        """The perf-report-style profile (profile.h) as a Profile."""
        if self.image is None:
            raise RvtError(f"{self.path}: a profile needs the program (elf=...)", -2)
        prof = ffi.gc(lib.rvt_profile_new(self.image._img), lib.rvt_profile_free)
        d, mem = self._decoder(ffi.addressof(lib, "rvt_profile_event"), prof)
        data = self.data
        check(lib.rvt_proto_decoder_run(d, data, len(data)), f"{self.path}: decode")
        check(lib.rvt_proto_decoder_finish(d), f"{self.path}: decode")
        return Profile.from_c(prof, self.path)
