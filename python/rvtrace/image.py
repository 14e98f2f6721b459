"""Program images (include/rvtrace/image.h): ELF files whose code the
decoders read and whose symbols name the functions of a profile.  A file
may be keyed to an address space as the CLI's `--elf FILE@KEY` is
(mem.h: KEY = ctx=N,priv=U|S|M|0-3,src=N, each optional): its code is
then that space's only, e.g. one program per N-Trace source (hart)."""
from ._lib import ffi, lib, text
from .errors import RvtError

ANY_CONTEXT, ANY_PRIV, ANY_SOURCE = 2**64 - 1, 2**32 - 1, 2**32 - 1   # RVT_SPACE_ANY_*
PRIVS = {"U": 0, "S": 1, "M": 3, "0": 0, "1": 1, "2": 2, "3": 3}
SRC_MAX = 4095                  # N-Trace SRC: at most 12 bits (table 8)


def split_spec(spec):
    """(path, key or None): FILE@KEY when what follows the last '@' has a
    '=' (so a path with '@' in it still loads), as the CLI splits it."""
    at = spec.rfind("@")
    return (spec, None) if at < 0 or "=" not in spec[at:] else (spec[:at], spec[at + 1:])


def space(key, spec):
    """The rvt_space of KEY (its fields not named match every value)."""
    sp = ffi.new("rvt_space *", {"context": ANY_CONTEXT, "priv": ANY_PRIV, "source": ANY_SOURCE})
    for field in key.split(","):
        name, _, value = field.partition("=")
        try:
            if name == "ctx":
                sp.context = int(value, 0)
            elif name == "priv" and value in PRIVS:
                sp.priv = PRIVS[value]
            elif name == "src" and int(value, 0) <= SRC_MAX:
                sp.source = int(value, 0)
            else:
                raise ValueError(field)
        except (ValueError, OverflowError):
            raise RvtError(f"{spec}: want FILE@KEY, KEY = ctx=N,priv=U|S|M|0-3,src=N (each optional)",
                           -2) from None
    return sp


def _load(paths):
    img = ffi.gc(lib.rvt_image_new(), lib.rvt_image_free)
    if img == ffi.NULL:
        raise MemoryError("rvt_image_new")
    for p in paths:
        st = lib.rvt_image_load_elf(img, p.encode())
        if st < 0:   # the image says why without a diag hook (rvt_image_error)
            raise RvtError(text(lib.rvt_image_error(img, ffi.NULL)), st)
    return img


class Image:
    """The ELF files given (e.g. kernel + user program), each a path or
    "PATH@KEY".  Unkeyed files make one image for every space; a keyed
    file is its space's.  _img holds every file in the order given (a later
    one shadows an earlier one where they overlap): what the profile and
    the symbols look up by address alone, as the CLI's outputs do."""

    def __init__(self, *elfs):
        self.specs = [str(p) for p in elfs]
        parsed = [split_spec(s) for s in self.specs]
        self.paths = [p for p, _ in parsed]
        self._img = _load(self.paths)
        keyed = [(p, k, s) for (p, k), s in zip(parsed, self.specs) if k is not None]
        self._plain = self._img if not keyed else _load([p for p, k in parsed if k is None])
        self._keyed = [(space(k, s), _load([p])) for p, k, s in keyed]

    def add_to(self, mem):
        """Into an rvt_mem: the unkeyed files for every space, then each
        keyed file under its key (more specific: it wins where they
        overlap), as `rvtrace decode --elf` builds it."""
        st = lib.rvt_mem_add_image(mem, ffi.NULL, self._plain)
        for sp, img in self._keyed:
            st = st if st < 0 else lib.rvt_mem_add_image(mem, sp, img)
        if st < 0:
            raise RvtError(f"{self.specs}: rvt_mem_add_image: {text(lib.rvt_status_str(st))}", st)

    @property
    def xlen(self):
        return lib.rvt_image_xlen(self._img)

    @property
    def entry(self):
        return lib.rvt_image_entry(self._img)

    def symbol(self, addr):
        """(name, offset) of the function holding addr, or (None, 0)."""
        off = ffi.new("uint64_t *")
        name = lib.rvt_image_symbol(self._img, addr, off)
        return (text(name), off[0]) if name != ffi.NULL else (None, 0)
