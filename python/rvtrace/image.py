"""Program images (include/rvtrace/image.h): ELF files whose code the
decoders read and whose symbols name the functions of a profile."""
from ._lib import ffi, lib, text
from .errors import RvtError


class Image:
    """One rvt_image holding every ELF given (e.g. kernel + user program)."""

    def __init__(self, *elfs):
        self._img = ffi.gc(lib.rvt_image_new(), lib.rvt_image_free)
        if self._img == ffi.NULL:
            raise MemoryError("rvt_image_new")
        self.paths = [str(p) for p in elfs]
        for p in self.paths:
            st = lib.rvt_image_load_elf(self._img, p.encode())
            if st < 0:   # the image says why without a diag hook (rvt_image_error)
                raise RvtError(text(lib.rvt_image_error(self._img, ffi.NULL)), st)

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
