/* Program image: ELF loading (a tiny ELF written byte by byte here, so the
 * expected values come from the bytes we wrote), hostile files, raw
 * binaries, symbols, and the interop programs when /work/shared exists. */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rvtrace/image.h"
#include "tharness.h"

/* ---- a tiny RISC-V ELF, ELF32 or ELF64 ---- */
enum { CODE_OFF = 0x100, DATA_OFF = 0x110, STR_OFF = 0x120, SYM_OFF = 0x140 };
#define CODE_VA 0x80000000u
#define DATA_VA 0x80001000u
#define BSS_MEMSZ 0x100000u

static uint8_t elf[0x400];
static size_t elf_len;
static size_t phoff_g, phent_g;    /* where the program headers are */

static void put(size_t off, unsigned width, uint64_t v)
{
    for (unsigned i = 0; i < width; i++)
        elf[off + i] = (uint8_t)(v >> (8 * i));
}

/* Field offsets/widths per class (ELF spec, gABI tables). */
typedef struct { unsigned w, entry, phoff, shoff, flags, ehsize, ph, sh, sym; } layout;
static const layout L64 = { 8, 24, 32, 40, 48, 64, 56, 64, 24 };
static const layout L32 = { 4, 24, 28, 32, 36, 52, 32, 40, 16 };

static void put_phdr(const layout *l, size_t off, uint32_t flags, uint64_t foff,
                     uint64_t va, uint64_t filesz, uint64_t memsz)
{
    put(off, 4, 1);                                   /* PT_LOAD */
    if (l->w == 8) {
        put(off + 4, 4, flags);
        put(off + 8, 8, foff); put(off + 16, 8, va); put(off + 24, 8, va);
        put(off + 32, 8, filesz); put(off + 40, 8, memsz); put(off + 48, 8, 0x1000);
    } else {
        put(off + 4, 4, foff); put(off + 8, 4, va); put(off + 12, 4, va);
        put(off + 16, 4, filesz); put(off + 20, 4, memsz); put(off + 24, 4, flags);
        put(off + 28, 4, 0x1000);
    }
}

static void put_shdr(const layout *l, size_t off, uint32_t name, uint32_t type, uint64_t flags,
                     uint64_t addr, uint64_t foff, uint64_t size, uint32_t link,
                     uint32_t info, uint64_t entsize)
{
    unsigned w = l->w;
    put(off, 4, name); put(off + 4, 4, type);
    put(off + 8, w, flags); put(off + 8 + w, w, addr); put(off + 8 + 2 * w, w, foff);
    put(off + 8 + 3 * w, w, size); put(off + 8 + 4 * w, 4, link); put(off + 12 + 4 * w, 4, info);
    put(off + 16 + 4 * w, w, 1); put(off + 16 + 5 * w, w, entsize);
}

static void put_sym(const layout *l, size_t off, uint32_t name, unsigned type, unsigned bind,
                    uint16_t shndx, uint64_t value, uint64_t size)
{
    put(off, 4, name);
    if (l->w == 8) {
        put(off + 4, 1, bind << 4 | type); put(off + 6, 2, shndx);
        put(off + 8, 8, value); put(off + 16, 8, size);
    } else {
        put(off + 4, 4, value); put(off + 8, 4, size);
        put(off + 12, 1, bind << 4 | type); put(off + 14, 2, shndx);
    }
}

/* Code: auipc t0,0 (00000297); nop (00000013); j . (0000006f);
 * c.nop c.nop (0001 0001).  Data: 4 bytes 11 22 33 44, then 1 MiB of bss.
 * Symbols: _start FUNC @+0, loop NOTYPE and loop_fn FUNC @+8 (FUNC wins),
 * .Lhidden NOTYPE @+12 (dropped), obj OBJECT @data (kept: a data name). */
static const char strtab[] = "\0_start\0loop\0loop_fn\0.Lhidden\0obj";
static const char shstr[] = "\0.text\0.data\0.symtab\0.strtab\0.shstrtab";

static void build_elf(int cls)
{
    const layout *l = cls == 64 ? &L64 : &L32;
    memset(elf, 0, sizeof elf);
    memcpy(elf, "\177ELF", 4);
    elf[4] = cls == 64 ? 2 : 1;   /* EI_CLASS */
    elf[5] = 1;                   /* ELFDATA2LSB */
    elf[6] = 1;                   /* EV_CURRENT */
    put(16, 2, 2);                /* ET_EXEC */
    put(18, 2, 243);              /* EM_RISCV */
    put(20, 4, 1);
    phoff_g = l->ehsize;
    phent_g = l->ph;
    size_t shoff = 0x200;
    put(l->entry, l->w, CODE_VA);
    put(l->phoff, l->w, phoff_g);
    put(l->shoff, l->w, shoff);
    size_t e = l->flags + 4;      /* e_ehsize follows e_flags */
    put(e, 2, l->ehsize);
    put(e + 2, 2, l->ph);
    put(e + 4, 2, 2);             /* e_phnum */
    put(e + 6, 2, l->sh);
    put(e + 8, 2, 6);             /* e_shnum */
    put(e + 10, 2, 5);            /* e_shstrndx */
    put_phdr(l, phoff_g, 5, CODE_OFF, CODE_VA, 16, 16);                  /* R+X */
    put_phdr(l, phoff_g + phent_g, 6, DATA_OFF, DATA_VA, 4, BSS_MEMSZ);  /* R+W */
    put(CODE_OFF, 4, 0x00000297); put(CODE_OFF + 4, 4, 0x00000013);
    put(CODE_OFF + 8, 4, 0x0000006f); put(CODE_OFF + 12, 4, 0x00010001);
    put(DATA_OFF, 4, 0x44332211);
    memcpy(elf + STR_OFF, strtab, sizeof strtab);
    size_t s = SYM_OFF;
    put_sym(l, s += l->sym, 1, 2, 1, 1, CODE_VA, 8);        /* _start FUNC GLOBAL */
    put_sym(l, s += l->sym, 8, 0, 0, 1, CODE_VA + 8, 0);    /* loop NOTYPE */
    put_sym(l, s += l->sym, 13, 2, 0, 1, CODE_VA + 8, 8);   /* loop_fn FUNC */
    put_sym(l, s += l->sym, 21, 0, 0, 1, CODE_VA + 12, 0);  /* .Lhidden */
    put_sym(l, s += l->sym, 30, 1, 1, 2, DATA_VA, 4);       /* obj OBJECT */
    size_t symsz = 6 * l->sym, shstr_off = SYM_OFF + symsz;
    memcpy(elf + shstr_off, shstr, sizeof shstr);
    size_t o = shoff + l->sh;
    put_shdr(l, o, 1, 1, 6, CODE_VA, CODE_OFF, 16, 0, 0, 0);   /* .text AX */
    put_shdr(l, o += l->sh, 7, 1, 3, DATA_VA, DATA_OFF, 4, 0, 0, 0);  /* .data WA */
    put_shdr(l, o += l->sh, 13, 2, 0, 0, SYM_OFF, symsz, 4, 3, l->sym); /* .symtab */
    put_shdr(l, o += l->sh, 21, 3, 0, 0, STR_OFF, sizeof strtab, 0, 0, 0);
    put_shdr(l, o += l->sh, 29, 3, 0, 0, shstr_off, sizeof shstr, 0, 0, 0);
    elf_len = o + l->sh;
}

/* ---- helpers ---- */
static char tmpdir[] = "/tmp/rvt_test_image_XXXXXX";
static char path[256];
static int n_err, n_warn;
static char last_msg[600];

static void diag(void *ctx, int level, uint64_t off, const char *msg)
{
    (void)ctx; (void)off;
    if (level >= RVT_DIAG_ERROR) n_err++;
    else if (level == RVT_DIAG_WARN) n_warn++;
    snprintf(last_msg, sizeof last_msg, "%s", msg);
    if (getenv("TH_VERBOSE")) fprintf(stderr, "diag: %s\n", msg);
}

static const char *write_file(const char *name, const void *data, size_t len)
{
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    if (len) fwrite(data, 1, len, f);
    fclose(f);
    return path;
}

/* Load a file into a fresh image; returns the status, counts diagnostics. */
static int try_load(const char *p)
{
    rvt_image *img = rvt_image_new();
    rvt_image_set_diag(img, diag, NULL);
    n_err = n_warn = 0;
    last_msg[0] = 0;
    int rc = rvt_image_load_elf(img, p);
    rvt_image_free(img);
    return rc;
}

static void test_good(int cls)
{
    build_elf(cls);
    rvt_image *img = rvt_image_new();
    rvt_image_set_diag(img, diag, NULL);
    n_err = n_warn = 0;
    CHECK_EQ(rvt_image_load_elf(img, write_file("good.elf", elf, elf_len)), 0);
    CHECK_EQ(n_err + n_warn, 0);
    CHECK_EQ(rvt_image_xlen(img), cls);
    CHECK_EQ(rvt_image_entry(img), CODE_VA);
    CHECK_EQ(rvt_image_segment_count(img), 2);
    const rvt_segment *s = rvt_image_segment(img, 1);
    CHECK(s && s->vaddr == DATA_VA && s->filesz == 4 && s->memsz == BSS_MEMSZ && s->flags == 6);
    CHECK(rvt_image_segment(img, 2) == NULL);
    uint8_t b[8];
    CHECK_EQ(rvt_image_read(img, CODE_VA, b, 4), 4);
    CHECK_EQ(b[0], 0x97);
    /* 2 data bytes then zero fill (memsz > filesz) */
    memset(b, 0xee, sizeof b);
    CHECK_EQ(rvt_image_read(img, DATA_VA + 2, b, 6), 6);
    uint8_t want[6] = { 0x33, 0x44, 0, 0, 0, 0 };
    CHECK_MEM(b, want, 6);
    /* read stops at the end of memsz */
    CHECK_EQ(rvt_image_read(img, DATA_VA + BSS_MEMSZ - 2, b, 8), 2);
    CHECK_EQ(rvt_image_read(img, CODE_VA + 14, b, 8), 2);
    CHECK_EQ(rvt_image_read(img, 0x1000, b, 4), 0);
    uint64_t off = 99;
    CHECK_STR(rvt_image_symbol(img, CODE_VA + 4, &off), "_start");
    CHECK_EQ(off, 4);
    CHECK_STR(rvt_image_symbol(img, CODE_VA + 8, &off), "loop_fn");
    CHECK_EQ(off, 0);
    CHECK_STR(rvt_image_symbol(img, CODE_VA + 12, &off), "loop_fn");   /* .L dropped */
    CHECK_EQ(off, 4);
    CHECK(rvt_image_symbol(img, CODE_VA + 16, &off) == NULL);   /* past .text */
    CHECK(rvt_image_symbol(img, CODE_VA - 2, &off) == NULL);
    /* data objects are names too (filters name buffers), up to the end of
     * their section (.data: 4 bytes) */
    CHECK_STR(rvt_image_symbol(img, DATA_VA + 2, &off), "obj");
    CHECK_EQ(off, 2);
    CHECK(rvt_image_symbol(img, DATA_VA + 4, &off) == NULL);
    uint64_t a = 0;
    CHECK(rvt_image_lookup(img, "_start", &a) && a == CODE_VA);
    CHECK(!rvt_image_lookup(img, "loop", &a));   /* merged into loop_fn */
    CHECK(rvt_image_lookup(img, "obj", &a) && a == DATA_VA);
    uint64_t cs, ce;
    const char *cn;
    CHECK_EQ(rvt_image_code_count(img), 1);
    CHECK(rvt_image_code_range(img, 0, &cs, &ce, &cn) && cs == CODE_VA && ce == CODE_VA + 16);
    CHECK_STR(cn, ".text");
    CHECK(!rvt_image_code_range(img, 1, &cs, &ce, &cn));
    rvt_image_free(img);
}

/* The decoded-instruction cache over the tiny ELF's code. */
static void test_insn_cache(void)
{
    build_elf(64);
    rvt_image *img = rvt_image_new();
    CHECK_EQ(rvt_image_load_elf(img, write_file("c.elf", elf, elf_len)), 0);
    const rvt_insn *a = rvt_image_insn(img, CODE_VA);
    CHECK(a && a->op == RVT_OP_AUIPC && a->len == 4 && a->raw == 0x00000297);
    CHECK(rvt_image_insn(img, CODE_VA) == a);                 /* cached, same entry */
    const rvt_insn *j = rvt_image_insn(img, CODE_VA + 8);      /* j . */
    CHECK(j && j->op == RVT_OP_JAL && j->rd == 0 && j->imm == 0);
    const rvt_insn *c = rvt_image_insn(img, CODE_VA + 12);     /* c.nop */
    CHECK(c && c->len == 2);
    CHECK(rvt_image_insn(img, CODE_VA + 1) == NULL);           /* odd pc */
    CHECK(rvt_image_insn(img, 0x1000) == NULL);                /* no image */
    const rvt_insn *z = rvt_image_insn(img, DATA_VA + 0x800);  /* zero fill */
    CHECK(z && z->op == RVT_OP_ILLEGAL && z->len == 2);
    CHECK(rvt_image_insn(img, DATA_VA + 0x1000) == z);
    /* self-modifying code: shadow the word with new bytes, invalidate */
    uint8_t nop[4] = { 0x13, 0, 0, 0 };
    CHECK_EQ(rvt_image_add_bytes(img, CODE_VA, nop, 4, "patch"), 0);
    rvt_image_invalidate(img, CODE_VA, 4);
    a = rvt_image_insn(img, CODE_VA);
    CHECK(a && a->op == RVT_OP_ADDI);
    rvt_image_free(img);
}

static void test_hostile(void)
{
    build_elf(64);
    /* Truncated at every byte: never a crash; anything cut before the end of
     * the loaded bytes is an error. */
    for (size_t n = 0; n < elf_len; n++) {
        int rc = try_load(write_file("trunc.elf", elf, n));
        if (n < DATA_OFF + 4)
            CHECK(rc < 0 && n_err > 0);
    }
    uint8_t save[sizeof elf];
    memcpy(save, elf, sizeof elf);
    size_t ph1 = phoff_g + phent_g;
    /* p_offset beyond EOF */
    put(ph1 + 8, 8, 0x100000);
    CHECK_EQ(try_load(write_file("off.elf", elf, elf_len)), RVT_ERR_ELF);
    CHECK(strstr(last_msg, "off.elf") && strstr(last_msg, "beyond the end"));
    /* p_filesz huge (would be a huge allocation if trusted) */
    memcpy(elf, save, sizeof elf);
    put(ph1 + 32, 8, UINT64_C(1) << 62); put(ph1 + 40, 8, UINT64_C(1) << 62);
    CHECK_EQ(try_load(write_file("fsz.elf", elf, elf_len)), RVT_ERR_ELF);
    /* p_memsz > 4 GiB */
    memcpy(elf, save, sizeof elf);
    put(ph1 + 40, 8, UINT64_C(1) << 33);
    CHECK_EQ(try_load(write_file("msz.elf", elf, elf_len)), RVT_ERR_ELF);
    CHECK(strstr(last_msg, "4 GiB") != NULL);
    /* filesz > memsz */
    memcpy(elf, save, sizeof elf);
    put(ph1 + 40, 8, 2);
    CHECK_EQ(try_load(write_file("fgtm.elf", elf, elf_len)), RVT_ERR_ELF);
    /* address wrap */
    memcpy(elf, save, sizeof elf);
    put(ph1 + 16, 8, UINT64_C(0xfffffffffffff000));
    CHECK_EQ(try_load(write_file("wrap.elf", elf, elf_len)), RVT_ERR_ELF);
    CHECK(strstr(last_msg, "wraps") != NULL);
    /* wrong machine (x86-64) */
    memcpy(elf, save, sizeof elf);
    put(18, 2, 62);
    CHECK_EQ(try_load(write_file("x86.elf", elf, elf_len)), RVT_ERR_ELF);
    CHECK(strstr(last_msg, "x86.elf") && strstr(last_msg, "not RISC-V"));
    /* 65535 program headers claimed */
    memcpy(elf, save, sizeof elf);
    put(56, 2, 0xffff);
    CHECK(try_load(write_file("phnum.elf", elf, elf_len)) < 0);
    /* entry outside every segment: loads, with a warning */
    memcpy(elf, save, sizeof elf);
    put(24, 8, 0x1234);
    CHECK_EQ(try_load(write_file("entry.elf", elf, elf_len)), 0);
    CHECK_EQ(n_warn, 1);
    /* not an ELF, empty, directory, FIFO, missing */
    CHECK(try_load(write_file("text.elf", "hello world\n", 12)) == RVT_ERR_ELF);
    CHECK(try_load(write_file("empty.elf", "", 0)) < 0 && n_err == 1);
    CHECK(try_load(tmpdir) == RVT_ERR_IO && strstr(last_msg, "is a directory"));
    snprintf(path, sizeof path, "%s/fifo", tmpdir);
    CHECK(mkfifo(path, 0600) == 0);
    CHECK(try_load(path) == RVT_ERR_IO && n_err == 1);
    CHECK(try_load("/nonexistent/x.elf") == RVT_ERR_IO);
    /* Every single-byte corruption of the headers: no crash. */
    for (size_t i = 0; i < elf_len; i++) {
        memcpy(elf, save, sizeof elf);
        elf[i] ^= 0xa5;
        try_load(write_file("flip.elf", elf, elf_len));
    }
}

static void test_raw_and_bytes(void)
{
    rvt_image *img = rvt_image_new();
    uint8_t a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, b[2] = { 0xaa, 0xbb };
    CHECK_EQ(rvt_image_add_bytes(img, 0x1000, a, 8, "a"), 0);
    CHECK_EQ(rvt_image_add_bytes(img, 0x1002, b, 2, "b"), 0);   /* shadows a[2..3] */
    uint8_t r[4], r8[8];
    /* Each byte from the latest region holding it: b, then a's own past b. */
    CHECK_EQ(rvt_image_read(img, 0x1002, r, 4), 4);
    CHECK_MEM(r, ((uint8_t[]){ 0xaa, 0xbb, 5, 6 }), 4);
    CHECK_EQ(rvt_image_read(img, 0x1000, r8, 8), 8);
    CHECK_MEM(r8, ((uint8_t[]){ 1, 2, 0xaa, 0xbb, 5, 6, 7, 8 }), 8);
    CHECK_EQ(rvt_image_read(img, 0x1004, r, 4), 4);
    CHECK_EQ(r[0], 5);
    CHECK_EQ(rvt_image_add_bytes(img, UINT64_MAX - 3, a, 8, "w"), RVT_ERR_RANGE);
    CHECK_EQ(rvt_image_load_raw(img, write_file("raw.bin", a, 8), 0x2000), 0);
    CHECK_EQ(rvt_image_read(img, 0x2007, r, 4), 1);
    CHECK_EQ(r[0], 8);
    CHECK_EQ(rvt_image_xlen(img), 0);
    rvt_image_free(img);
}

/* A region added over the upper half of a 4-byte instruction, and one
 * right after a region: the instruction is read from both.  addi a0,a0,1 is
 * 0x00150513 (I-type: imm 1 << 20 | rs1 10 << 15 | rd 10 << 7 | 0x13);
 * its upper half-word 0x0015 replaced by 0x0025 makes it addi a0,a0,2. */
static void test_shadow_part_of_insn(void)
{
    rvt_image *img = rvt_image_new();
    const uint8_t addi1[4] = { 0x13, 0x05, 0x15, 0x00 }, hi2[2] = { 0x25, 0x00 };
    CHECK_EQ(rvt_image_add_bytes(img, 0x1000, addi1, 4, "code"), 0);
    const rvt_insn *in = rvt_image_insn(img, 0x1000);
    CHECK(in && in->len == 4 && in->imm == 1 && in->rd == 10 && in->rs1 == 10);
    CHECK_EQ(rvt_image_add_bytes(img, 0x1002, hi2, 2, "patch"), 0);
    in = rvt_image_insn(img, 0x1000);        /* the cached one is forgotten */
    CHECK(in && in->raw == 0x00250513u && in->imm == 2);
    rvt_image_invalidate(img, 0x1000, 4);
    in = rvt_image_insn(img, 0x1000);
    CHECK(in && in->raw == 0x00250513u && in->imm == 2);
    /* Two adjacent regions holding one instruction's halves. */
    CHECK_EQ(rvt_image_add_bytes(img, 0x2000, addi1, 2, "lo"), 0);
    CHECK_EQ(rvt_image_add_bytes(img, 0x2002, hi2, 2, "hi"), 0);
    uint8_t r[4];
    CHECK_EQ(rvt_image_read(img, 0x2000, r, 4), 4);
    in = rvt_image_insn(img, 0x2000);
    CHECK(in && in->raw == 0x00250513u && in->imm == 2);
    rvt_image_free(img);
}

/* Two ELFs in one image: a "kernel" and a "user program" at other addresses. */
static void test_two_images(void)
{
    rvt_image *img = rvt_image_new();
    build_elf(64);
    CHECK_EQ(rvt_image_load_elf(img, write_file("k.elf", elf, elf_len)), 0);
    put(phoff_g + 16, 8, 0x10000);            /* move the code segment */
    put(phoff_g + 24, 8, 0x10000);
    put(0x200 + 64 + 16, 8, 0x10000);         /* and .text */
    put(SYM_OFF + 24 + 8, 8, 0x10000);        /* and _start */
    put(24, 8, 0x10000);
    CHECK_EQ(rvt_image_load_elf(img, write_file("u.elf", elf, elf_len)), 0);
    CHECK_EQ(rvt_image_segment_count(img), 4);
    CHECK_EQ(rvt_image_entry(img), CODE_VA);   /* the first file's */
    uint64_t off;
    CHECK_STR(rvt_image_symbol(img, 0x10002, &off), "_start");
    CHECK_STR(rvt_image_symbol(img, CODE_VA + 2, &off), "_start");
    rvt_image_free(img);
}

static void test_interop(void)
{
    const char *src = getenv("RVT_SRC");
    char dir[512];
    /* "$RVT_SRC/../shared"; one level more from a helper's worktree */
    snprintf(dir, sizeof dir, "%s/../shared/interop/programs", src ? src : ".");
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(dir, sizeof dir, "%s/../../shared/interop/programs", src ? src : ".");
        d = opendir(dir);
    }
    if (!d) {
        printf("interop programs absent: skipped\n");
        return;
    }
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".elf"))
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        rvt_image *img = rvt_image_new();
        rvt_image_set_diag(img, diag, NULL);
        n_err = n_warn = 0;
        CHECK_EQ(rvt_image_load_elf(img, p), 0);
        CHECK_EQ(n_err + n_warn, 0);
        /* README: every program starts at 0x80000000 with crt0's _start;
         * rv32mix is the one RV32 program. */
        CHECK_EQ(rvt_image_xlen(img), strcmp(e->d_name, "rv32mix.elf") ? 64 : 32);
        CHECK_EQ(rvt_image_entry(img), 0x80000000u);
        uint64_t off = 1;
        CHECK_STR(rvt_image_symbol(img, 0x80000000u, &off), "_start");
        CHECK_EQ(off, 0);
        uint64_t a;
        CHECK(rvt_image_lookup(img, "sim_exit", &a));
        rvt_image_free(img);
        n++;
    }
    closedir(d);
    CHECK(n >= 6);
}

/* The tiny ELF as a process maps it (rvt_image_load_elf_mapped, perf's
 * MMAP records): file bytes [0, 0x110) at 0x40000000 hold the code
 * segment (file offset CODE_OFF = 0x100) and not the data one (0x110), so
 * the code is at 0x40000100 with its symbols, .text range and entry moved
 * by the same 0x40000100 - CODE_VA; the data object is not loaded.  A
 * window holding no segment's start is an error. */
static void test_mapped(void)
{
    build_elf(64);
    const char *path = write_file("m.elf", elf, elf_len);
    const uint64_t at = 0x40000000u + CODE_OFF;
    rvt_image *img = rvt_image_new();
    rvt_image_set_diag(img, diag, NULL);
    n_err = n_warn = 0;
    CHECK_EQ(rvt_image_load_elf_mapped(img, path, 0x40000000u, 0x110, 0), 0);
    CHECK_EQ(n_err + n_warn, 0);
    CHECK_EQ(rvt_image_segment_count(img), 1);
    uint8_t b[4];
    CHECK_EQ(rvt_image_read(img, at, b, 4), 4);
    CHECK_EQ(b[0], 0x97);
    CHECK_EQ(rvt_image_read(img, CODE_VA, b, 4), 0);
    CHECK_EQ(rvt_image_entry(img), at);
    uint64_t a = 0, off = 99;
    CHECK(rvt_image_lookup(img, "_start", &a) && a == at);
    CHECK_STR(rvt_image_symbol(img, at + 12, &off), "loop_fn");
    CHECK_EQ(off, 4);
    CHECK(!rvt_image_lookup(img, "obj", &a));
    uint64_t cs, ce;
    const char *cn;
    CHECK(rvt_image_code_range(img, 0, &cs, &ce, &cn) && cs == at && ce == at + 16);
    rvt_image_free(img);
    img = rvt_image_new();
    rvt_image_set_diag(img, diag, NULL);
    n_err = 0;
    CHECK_EQ(rvt_image_load_elf_mapped(img, path, 0x40000000u, 0x100, 0), RVT_ERR_ELF);
    CHECK_EQ(n_err, 1);
    CHECK_EQ(rvt_image_segment_count(img), 0);
    rvt_image_free(img);
}

int main(void)
{
    if (!mkdtemp(tmpdir))
        return 1;
    test_good(64);
    test_good(32);
    test_mapped();
    test_insn_cache();
    test_hostile();
    test_raw_and_bytes();
    test_shadow_part_of_insn();
    test_two_images();
    test_interop();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        return 1;
    return TH_DONE();
}
