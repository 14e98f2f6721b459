#!/usr/bin/env python3
"""Random RV64GC / RV32GC instruction sequences as bare-metal ELFs for QEMU's
virt board and the rvtrace hart (docs/tv.md "QEMU as the DUT").

    scripts/rvgen.py SEED XLEN OUT.elf [--count N] [--seeds K] [--amo-aligned]

--seeds K: seeds SEED..SEED+K-1 one after the other in one program (one
QEMU run for many seeds); --count N instructions per seed (default 400).
Writes machine code directly (no toolchain needed).  The program:
  - points mtvec at a handler that skips the trapping instruction (its
    length from the low two bits) and returns with mret;
  - sets mstatus.FS, loads x1..x31 (but the reserved ones) and f0..f31
    from a table of edge values: 0, 1, -1, the signed/unsigned limits of
    32 and 64 bits, signed zeros, subnormals, infinities, quiet and
    signaling NaNs with payloads, NaN-boxed and unboxed singles;
  - runs N random instructions drawn from every RV64GC/RV32GC instruction
    class: integer register/immediate ops (W forms too), M, loads/stores of
    every width at aligned and misaligned offsets, LR/SC and every AMO,
    every F/D arithmetic, fused, sign-injection, min/max, compare,
    classify, move and conversion instruction in every rounding mode (and
    the reserved ones 5/6, which are illegal), fcsr/frm/fflags CSR ops,
    forward branches, jal, and the compressed forms;
  - writes the SiFive test finisher (pass).
Reserved registers: x2 and x8 (base of the data area, for the C.*SP and
C.L*/C.S* forms), x28 (AMO address), x29 (data base), x30/x31 (handler).
Same SEED and XLEN, same bytes.
"""
import random
import struct
import sys

BASE = 0x80000000
DATA = BASE + 0x10000      # data area: 8 KiB, base register points at its middle
DBASE = DATA + 0x1000
RESERVED = {2, 8, 28, 29, 30, 31}


def r_type(f7, rs2, rs1, f3, rd, op):
    return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op


def i_type(imm, rs1, f3, rd, op):
    return ((imm & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op


def s_type(imm, rs2, rs1, f3, op):
    imm &= 0xfff
    return ((imm >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((imm & 31) << 7) | op


def b_type(imm, rs2, rs1, f3):
    imm &= 0x1fff
    return (((imm >> 12) & 1) << 31) | (((imm >> 5) & 63) << 25) | (rs2 << 20) | (rs1 << 15) | \
        (f3 << 12) | (((imm >> 1) & 15) << 8) | (((imm >> 11) & 1) << 7) | 0x63


def u_type(imm20, rd, op):
    return ((imm20 & 0xfffff) << 12) | (rd << 7) | op


def j_type(imm, rd):
    imm &= 0x1fffff
    return (((imm >> 20) & 1) << 31) | (((imm >> 1) & 0x3ff) << 21) | (((imm >> 11) & 1) << 20) | \
        (((imm >> 12) & 0xff) << 12) | (rd << 7) | 0x6f


def r4_type(rs3, fmt, rs2, rs1, rm, rd, op):
    return (rs3 << 27) | (fmt << 25) | (rs2 << 20) | (rs1 << 15) | (rm << 12) | (rd << 7) | op


class Gen:
    def __init__(self, seeds, xlen, count, amo_aligned=False):
        self.amo_aligned = amo_aligned
        self.seeds = seeds
        self.rng = random.Random(seeds[0] * 2 + (xlen == 32))
        self.xlen = xlen
        self.count = count
        self.code = []          # (bytes) list
        self.rv64 = xlen == 64

    # ---- emit ----
    def w32(self, w):
        self.code.append(struct.pack('<I', w & 0xffffffff))

    def w16(self, h):
        self.code.append(struct.pack('<H', h & 0xffff))

    def pc(self):
        return BASE + sum(len(c) for c in self.code)

    def li(self, rd, v):
        """lui + addi(w) for 32-bit values; RV64 64-bit values via the table instead."""
        v &= 0xffffffff
        hi = ((v + 0x800) >> 12) & 0xfffff
        lo = v & 0xfff
        self.w32(u_type(hi, rd, 0x37))
        self.w32(i_type(lo, rd, 0, rd, 0x1b if self.rv64 else 0x13))
        if self.rv64 and v >= 0x80000000:      # zero-extend: slli 32, srli 32
            self.w32(i_type(32, rd, 1, rd, 0x13))
            self.w32(i_type(32, rd, 5, rd, 0x13))

    # ---- operands ----
    def xr(self):
        while True:
            r = self.rng.randrange(32)
            if r not in RESERVED:
                return r

    def xs(self):
        return self.rng.randrange(32) if self.rng.random() < 0.9 else 0

    def fr(self):
        return self.rng.randrange(32)

    def imm12(self):
        return self.rng.choice([0, 1, -1, 2047, -2048, 0x7ff, -0x800, 31, 32, 63,
                                self.rng.randrange(-2048, 2048)])

    def rm(self):
        return self.rng.choice([0, 1, 2, 3, 4, 7, 7, 0, 1, 2, 3, 4, 5, 6])

    # ---- instruction classes ----
    def alu_r(self):
        ops = [(0, 0), (0x20, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0x20, 5), (0, 6), (0, 7)]
        mops = [(1, f) for f in range(8)]
        f7, f3 = self.rng.choice(ops + mops)
        op = 0x33
        if self.rv64 and self.rng.random() < 0.35:
            f7, f3 = self.rng.choice([(0, 0), (0x20, 0), (0, 1), (0, 5), (0x20, 5),
                                      (1, 0), (1, 4), (1, 5), (1, 6), (1, 7)])
            op = 0x3b
        self.w32(r_type(f7, self.xs(), self.xs(), f3, self.xr(), op))

    def alu_i(self):
        f3 = self.rng.choice([0, 2, 3, 4, 6, 7, 1, 5, 5])
        rd, rs1 = self.xr(), self.xs()
        shmax = 64 if self.rv64 else 32
        if self.rv64 and self.rng.random() < 0.3:
            f3 = self.rng.choice([0, 1, 5, 5])
            if f3 == 0:
                self.w32(i_type(self.imm12(), rs1, 0, rd, 0x1b))
            else:
                sh = self.rng.randrange(32)
                top = 0x20 if (f3 == 5 and self.rng.random() < 0.5) else 0
                self.w32(i_type((top << 5) | sh, rs1, f3, rd, 0x1b))
            return
        if f3 in (1, 5):
            sh = self.rng.choice([0, 1, shmax - 1, shmax // 2, self.rng.randrange(shmax)])
            top = 0x10 if (f3 == 5 and self.rng.random() < 0.5) else 0
            self.w32(i_type((top << 6) | sh, rs1, f3, rd, 0x13))
        else:
            self.w32(i_type(self.imm12(), rs1, f3, rd, 0x13))

    def upper(self):
        self.w32(u_type(self.rng.randrange(1 << 20), self.xr(), self.rng.choice([0x37, 0x17])))

    def mem_off(self, size):
        off = self.rng.randrange(-2040, 2040 - 8)
        if self.rng.random() < 0.7:
            off &= ~(size - 1)
        return off

    def load(self):
        choices = [(0, 1), (1, 2), (2, 4), (4, 1), (5, 2)] + ([(3, 8), (6, 4)] if self.rv64 else [])
        f3, size = self.rng.choice(choices)
        self.w32(i_type(self.mem_off(size), 29, f3, self.xr(), 0x03))

    def store(self):
        choices = [(0, 1), (1, 2), (2, 4)] + ([(3, 8)] if self.rv64 else [])
        f3, size = self.rng.choice(choices)
        self.w32(s_type(self.mem_off(size), self.xs(), 29, f3, 0x23))

    def atomic(self):
        d = self.rv64 and self.rng.random() < 0.5
        size = 8 if d else 4
        f5 = self.rng.choice([0x02, 0x03, 0x01, 0x00, 0x04, 0x0c, 0x08, 0x10, 0x14, 0x18, 0x1c])
        off = self.rng.randrange(-1024, 1024) & ~(size - 1)
        if self.rng.random() < 0.1:
            mis = self.rng.choice([1, 2, 4]) % size or 1     # misaligned: traps
            # --amo-aligned: QEMU 7.2 reports a misaligned AMO as a load
            # misalignment (cause 4, not 6; docs/conformance-hart.md)
            off += 0 if (self.amo_aligned and f5 != 0x02) else mis
        self.w32(i_type(off, 29, 0, 28, 0x13))                 # addi x28, x29, off
        aqrl = self.rng.randrange(4)
        rs2 = 0 if f5 == 0x02 else self.xs()
        if f5 == 0x03 and self.rng.random() < 0.5:             # lr then sc on the same address
            self.w32(r_type((0x02 << 2) | aqrl, 0, 28, 3 if d else 2, self.xr(), 0x2f))
        self.w32(r_type((f5 << 2) | aqrl, rs2, 28, 3 if d else 2, self.xr(), 0x2f))

    def branch(self):
        f3 = self.rng.choice([0, 1, 4, 5, 6, 7])
        self.w32(b_type(8, self.xs(), self.xs(), f3))      # skip the next instruction
        self.alu_i()

    def jal(self):
        self.w32(j_type(8, self.rng.choice([0, 1, 5])))
        self.alu_i()

    def fp_arith(self):
        fmt = self.rng.choice([0, 1])     # S, D
        f5 = self.rng.choice([0x00, 0x01, 0x02, 0x03, 0x0b])
        rs2 = 0 if f5 == 0x0b else self.fr()
        self.w32(r_type((f5 << 2) | fmt, rs2, self.fr(), self.rm(), self.fr(), 0x53))

    def fp_fused(self):
        self.w32(r4_type(self.fr(), self.rng.choice([0, 1]), self.fr(), self.fr(), self.rm(),
                         self.fr(), self.rng.choice([0x43, 0x47, 0x4b, 0x4f])))

    def fp_misc(self):
        fmt = self.rng.choice([0, 1])
        k = self.rng.randrange(6)
        if k == 0:     # fsgnj/n/x
            self.w32(r_type((0x04 << 2) | fmt, self.fr(), self.fr(), self.rng.randrange(3), self.fr(), 0x53))
        elif k == 1:   # fmin/fmax
            self.w32(r_type((0x05 << 2) | fmt, self.fr(), self.fr(), self.rng.randrange(2), self.fr(), 0x53))
        elif k == 2:   # feq/flt/fle -> x
            self.w32(r_type((0x14 << 2) | fmt, self.fr(), self.fr(), self.rng.randrange(3), self.xr(), 0x53))
        elif k == 3:   # fclass / fmv.x.w / fmv.x.d
            if fmt == 1 and not self.rv64:
                f3 = 1
            else:
                f3 = self.rng.randrange(2)
            self.w32(r_type((0x1c << 2) | fmt, 0, self.fr(), f3, self.xr(), 0x53))
        elif k == 4:   # fmv.w.x / fmv.d.x
            if fmt == 1 and not self.rv64:
                fmt = 0
            self.w32(r_type((0x1e << 2) | fmt, 0, self.xs(), 0, self.fr(), 0x53))
        else:          # fcvt.s.d / fcvt.d.s
            self.w32(r_type((0x08 << 2) | fmt, 1 - fmt, self.fr(), self.rm(), self.fr(), 0x53))

    def fp_cvt(self):
        fmt = self.rng.choice([0, 1])
        kind = self.rng.randrange(4 if self.rv64 else 2)   # w, wu, l, lu
        if self.rng.random() < 0.5:    # fcvt.int.fp
            self.w32(r_type((0x18 << 2) | fmt, kind, self.fr(), self.rm(), self.xr(), 0x53))
        else:                          # fcvt.fp.int
            self.w32(r_type((0x1a << 2) | fmt, kind, self.xs(), self.rm(), self.fr(), 0x53))

    def fp_mem(self):
        d = self.rng.random() < 0.5
        size = 8 if d else 4
        if self.rng.random() < 0.5:
            self.w32(i_type(self.mem_off(size), 29, 3 if d else 2, self.fr(), 0x07))
        else:
            self.w32(s_type(self.mem_off(size), self.fr(), 29, 3 if d else 2, 0x27))

    def fcsr(self):
        csr = self.rng.choice([0x001, 0x002, 0x003])
        f3 = self.rng.choice([1, 2, 3, 5, 6, 7])
        src = self.rng.randrange(32) if f3 >= 5 else self.xs()
        self.w32(i_type(csr, src, f3, self.xr(), 0x73))

    def compressed(self):
        k = self.rng.randrange(12)
        rd = self.xr()
        rp = self.rng.choice([9, 10, 11, 12, 13, 14, 15])       # x8 is reserved
        if k == 0:     # c.addi
            self.w16((0 << 13) | ((self.rng.randrange(64) >> 5) << 12) | (rd << 7) | ((self.rng.randrange(32)) << 2) | 1)
        elif k == 1:   # c.li
            self.w16((2 << 13) | (self.rng.randrange(2) << 12) | (rd << 7) | (self.rng.randrange(32) << 2) | 1)
        elif k == 2:   # c.mv / c.add
            self.w16((4 << 13) | (self.rng.randrange(2) << 12) | (rd << 7) | (self.rng.choice([1, 3, 4, 5, 6, 7, 9, 10]) << 2) | 2)
        elif k == 3:   # c.sub/xor/or/and (+ subw/addw on RV64)
            top = 1 if (self.rv64 and self.rng.random() < 0.3) else 0
            f2 = self.rng.randrange(2 if top else 4)
            self.w16((0x23 << 10) | (top << 12) | ((rp - 8) << 7) | (f2 << 5) | ((self.rng.randrange(8)) << 2) | 1)
        elif k == 4:   # c.srli / c.srai / c.andi
            f2 = self.rng.randrange(3)
            hi = self.rng.randrange(2) if (self.rv64 or f2 == 2) else 0
            self.w16((4 << 13) | (hi << 12) | (f2 << 10) | ((rp - 8) << 7) | (self.rng.randrange(32) << 2) | 1)
        elif k == 5:   # c.slli
            hi = self.rng.randrange(2) if self.rv64 else 0
            self.w16((0 << 13) | (hi << 12) | (rd << 7) | (self.rng.randrange(1, 32) << 2) | 2)
        elif k == 6:   # c.lwsp / c.ldsp (RV64) / c.flwsp (RV32) / c.fldsp
            f3 = self.rng.choice([2, 1] + ([3] if self.rv64 else [3]))
            off = self.rng.randrange(32) << 3
            dst = rd if f3 == 2 or (f3 == 3 and self.rv64) else self.fr()
            self.w16((f3 << 13) | (((off >> 5) & 1) << 12) | (dst << 7) | (((off >> 3) & 3) << 5) | (((off >> 6) & 7) << 2) | 2)
        elif k == 7:   # c.swsp / c.sdsp / c.fsdsp / c.fswsp
            f3 = self.rng.choice([6, 5, 7])
            off = self.rng.randrange(32) << 3
            src = self.xs() if f3 == 6 or (f3 == 7 and self.rv64) else self.fr()
            self.w16((f3 << 13) | (((off >> 3) & 7) << 10) | (((off >> 6) & 7) << 7) | (src << 2) | 2)
        elif k == 8:   # c.lw / c.sw (base x8), c.ld / c.sd on RV64
            f3 = self.rng.choice([2, 6] + ([3, 7] if self.rv64 else []))
            off = self.rng.randrange(32) << 3
            self.w16((f3 << 13) | (((off >> 3) & 7) << 10) | ((8 - 8) << 7) | (((off >> 2) & 1) << 6) | (((off >> 6) & 1) << 5) | ((rp - 8) << 2) | 0)
        elif k == 9:   # c.lui
            rd2 = rd if rd != 2 else 1
            self.w16((3 << 13) | (self.rng.randrange(2) << 12) | (rd2 << 7) | (self.rng.randrange(1, 32) << 2) | 1)
        elif k == 10 and self.rv64:   # c.addiw
            self.w16((1 << 13) | (self.rng.randrange(2) << 12) | (rd << 7) | (self.rng.randrange(32) << 2) | 1)
        else:          # c.fld / c.fsd (base x8)
            f3 = self.rng.choice([1, 5])
            off = self.rng.randrange(32) << 3
            self.w16((f3 << 13) | (((off >> 3) & 7) << 10) | (0 << 7) | (((off >> 6) & 3) << 5) | ((rp - 8) << 2) | 0)

    # ---- program ----
    def edge_values(self):
        x = [0, 1, 2, -1, 0x7fffffff, 0x80000000, 0xffffffff, -0x80000000, 0x7fffffffffffffff,
             -0x8000000000000000, 0xfffffffffffffffe, 0x8000000000000001, 31, 32, 63, 64, 0x100000000]
        f = [0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000,
             0x0000000000000001, 0x800fffffffffffff, 0x7fefffffffffffff, 0x7ff0000000000000,
             0xfff0000000000000, 0x7ff8000000000000, 0x7ff4000000000001, 0xfff8000000000123,
             0x41dfffffffc00000, 0xc3e0000000000000, 0x43f0000000000000, 0x3fe0000000000000,
             0xffffffff00000000, 0xffffffff80000000, 0xffffffff3f800000, 0xffffffff00000001,
             0xffffffff7f800000, 0xffffffffff800000, 0xffffffff7fc00000, 0xffffffff7f800001,
             0xffffffff4f000000, 0xffffffffcf000000, 0xffffffff7f7fffff, 0x000000003f800000,
             0xffffffff007fffff, 0xffffffff5f000000]
        return x, f

    def data_bytes(self):
        x, f = self.edge_values()
        words = []
        for i in range(1024):
            if self.rng.random() < 0.5:
                v = self.rng.choice(x + f)
            else:
                v = self.rng.getrandbits(64)
            words.append(v & 0xffffffffffffffff)
        return b''.join(struct.pack('<Q', w) for w in words)

    def block(self, seed, xw, ld):
        """One seed: registers from the table, fcsr, `count` random instructions."""
        self.rng = random.Random(seed * 2 + (self.xlen == 32))
        for r in range(1, 32):
            if r not in RESERVED:
                self.w32(i_type(self.rng.randrange(-256, 256) * xw, 29, ld, r, 0x03))
        for r in range(32):
            self.w32(i_type(self.rng.randrange(-256, 256) * 8, 29, 3, r, 0x07))   # fld
        self.w32(i_type(self.rng.randrange(8) << 5, 0, 5, 0, 0x73))   # csrwi fcsr, frm
        classes = [self.alu_r, self.alu_i, self.upper, self.load, self.store, self.atomic,
                   self.branch, self.jal, self.fp_arith, self.fp_fused, self.fp_misc, self.fp_cvt,
                   self.fp_mem, self.fcsr, self.compressed, self.compressed, self.alu_r,
                   self.fp_arith]
        for _ in range(self.count):
            self.rng.choice(classes)()

    def program(self):
        xw = 8 if self.rv64 else 4
        ld = 3 if self.rv64 else 2
        # handler address patched after the body: auipc/addi x31 -> mtvec
        self.li(29, DBASE)
        self.w32(i_type(0, 29, 0, 2, 0x13))    # addi x2, x29, 0
        self.w32(i_type(0, 29, 0, 8, 0x13))    # addi x8, x29, 0
        at = len(self.code)
        self.w32(0)                            # auipc x31, handler (patched)
        self.w32(0)                            # addi x31, x31, handler (patched)
        self.w32(i_type(0x305, 31, 1, 0, 0x73))   # csrw mtvec, x31
        self.li(31, 0x2000)                    # mstatus.FS = Initial
        self.w32(i_type(0x300, 31, 2, 0, 0x73))   # csrs mstatus, x31
        for seed in self.seeds:
            self.block(seed, xw, ld)
        # finisher: pass
        self.li(31, 0x100000)
        self.li(30, 0x5555)
        self.w32(s_type(0, 30, 31, 2, 0x23))
        self.w32(j_type(0, 0))
        # handler (4-byte aligned for mtvec): mepc += the length of the
        # instruction there, mret
        if self.pc() & 2:
            self.w16(0)
        handler = self.pc()
        self.w32(i_type(0x341, 0, 2, 31, 0x73))   # csrr x31, mepc
        self.w32(i_type(0, 31, 5, 30, 0x03))      # lhu x30, 0(x31)
        self.w32(i_type(3, 30, 7, 30, 0x13))      # andi x30, x30, 3
        self.w32(i_type(-3, 30, 0, 30, 0x13))     # addi x30, x30, -3
        self.w32(b_type(8, 0, 30, 1))             # bnez x30, +8
        self.w32(i_type(2, 31, 0, 31, 0x13))      # addi x31, x31, 2
        self.w32(i_type(2, 31, 0, 31, 0x13))      # addi x31, x31, 2
        self.w32(i_type(0x341, 31, 1, 0, 0x73))   # csrw mepc, x31
        self.w32(0x30200073)                      # mret
        # patch auipc/addi
        here = BASE + sum(len(c) for c in self.code[:at])
        off = handler - here
        hi = ((off + 0x800) >> 12) & 0xfffff
        self.code[at] = struct.pack('<I', u_type(hi, 31, 0x17))
        self.code[at + 1] = struct.pack('<I', i_type(off & 0xfff, 31, 0, 31, 0x13))
        code = b''.join(self.code)
        if BASE + len(code) > DATA:
            raise SystemExit("rvgen.py: the code outgrows 64 KiB: fewer --seeds or --count")
        self.rng = random.Random(self.seeds[0])
        return code.ljust(DATA - BASE, b'\0') + self.data_bytes()


def elf(image, xlen):
    """One PT_LOAD RWX segment at BASE, entry BASE, EM_RISCV, RVC flag."""
    if xlen == 64:
        eh, ph = 64, 56
        hdr = b'\x7fELF' + bytes([2, 1, 1, 0]) + bytes(8)
        hdr += struct.pack('<HHIQQQIHHHHHH', 2, 243, 1, BASE, eh, 0, 0x5, eh, ph, 1, 64, 0, 0)
        phdr = struct.pack('<IIQQQQQQ', 1, 7, 0x1000, BASE, BASE, len(image), len(image), 0x1000)
    else:
        eh, ph = 52, 32
        hdr = b'\x7fELF' + bytes([1, 1, 1, 0]) + bytes(8)
        hdr += struct.pack('<HHIIIIIHHHHHH', 2, 243, 1, BASE, eh, 0, 0x5, eh, ph, 1, 40, 0, 0)
        phdr = struct.pack('<IIIIIIII', 1, 0x1000, BASE, BASE, len(image), len(image), 7, 0x1000)
    return (hdr + phdr).ljust(0x1000, b'\0') + image


def main():
    args = sys.argv[1:]
    count = 400
    nseeds = 1
    if '--seeds' in args:
        i = args.index('--seeds')
        nseeds = int(args[i + 1])
        del args[i:i + 2]
    amo_aligned = '--amo-aligned' in args
    if amo_aligned:
        args.remove('--amo-aligned')
    if '--count' in args:
        i = args.index('--count')
        count = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 3 or args[1] not in ('32', '64'):
        sys.stderr.write(__doc__)
        return 2
    seed, xlen, out = int(args[0]), int(args[1]), args[2]
    g = Gen(list(range(seed, seed + nseeds)), xlen, count, amo_aligned)
    with open(out, 'wb') as f:
        f.write(elf(g.program(), xlen))
    return 0


if __name__ == '__main__':
    sys.exit(main())
