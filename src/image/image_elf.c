/* ELF32/ELF64 RISC-V loading with libelf: PT_LOAD segments, entry, xlen
 * and symbols.  Every field that sizes an allocation or a read is checked
 * against the file size first: a hostile file gets a diagnostic naming it,
 * never a crash or a huge allocation. */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "image/image_internal.h"

#define IMG_MAX_SEGMENT (UINT64_C(1) << 32)   /* largest accepted p_memsz */

typedef struct elf_ctx {
    rvt_image *img;
    const char *path;
    int fd;
    uint64_t fsize;
    Elf *elf;
    unsigned xlen;
    uint64_t first_seg;      /* index of this file's first segment */
    size_t shstrndx;
    /* rvt_image_load_elf_mapped: the mapping, and the segments it moved */
    bool mapped;
    uint64_t map_addr, map_len, map_pgoff;
    struct { uint64_t vaddr, memsz, bias; } moved[16];
    size_t nmoved;
} elf_ctx;

/* Where link-time address v is in the image: v itself, or for a mapped
 * file v moved with the segment holding it (false: no loaded segment
 * holds it, so the mapping does not cover it). */
static bool placed(const elf_ctx *c, uint64_t v, uint64_t *at)
{
    if (!c->mapped) {
        *at = v;
        return true;
    }
    for (size_t i = 0; i < c->nmoved; i++)
        if (v - c->moved[i].vaddr < c->moved[i].memsz) {
            *at = v + c->moved[i].bias;
            return true;
        }
    return false;
}

/* A mapped file: the segment at its place in the mapping (false: it starts
 * outside the window [pgoff, pgoff + len) of the file). */
static bool map_segment(elf_ctx *c, GElf_Phdr *ph)
{
    if (!c->mapped)
        return true;
    uint64_t in = ph->p_offset - c->map_pgoff;   /* wraps when before the window */
    if (in >= c->map_len || c->nmoved == sizeof c->moved / sizeof c->moved[0])
        return false;
    uint64_t to = c->map_addr + in;
    c->moved[c->nmoved].vaddr = ph->p_vaddr;
    c->moved[c->nmoved].memsz = ph->p_memsz;
    c->moved[c->nmoved++].bias = to - ph->p_vaddr;
    ph->p_vaddr = to;
    return true;
}

static int elf_fail(const elf_ctx *c, uint64_t off, const char *what)
{
    int e = elf_errno();
    const char *why = e ? elf_errmsg(e) : NULL;
    img_diag(c->img, RVT_DIAG_ERROR, off, "%s: %s%s%s", c->path, what,
             why ? ": " : "", why ? why : "");
    return RVT_ERR_ELF;
}

static int check_header(elf_ctx *c, GElf_Ehdr *eh)
{
    if (elf_kind(c->elf) != ELF_K_ELF)
        return elf_fail(c, 0, "not an ELF file");
    if (!gelf_getehdr(c->elf, eh))
        return elf_fail(c, 0, "bad ELF header");
    int cls = gelf_getclass(c->elf);
    if (cls != ELFCLASS32 && cls != ELFCLASS64)
        return elf_fail(c, 4, "unknown ELF class");
    if (eh->e_ident[EI_DATA] != ELFDATA2LSB)
        return elf_fail(c, 5, "not little-endian (RISC-V is)");
    if (eh->e_machine != EM_RISCV) {
        img_diag(c->img, RVT_DIAG_ERROR, 18, "%s: machine %u is not RISC-V (EM_RISCV=%u)",
                 c->path, (unsigned)eh->e_machine, (unsigned)EM_RISCV);
        return RVT_ERR_ELF;
    }
    c->xlen = cls == ELFCLASS32 ? 32 : 64;
    return RVT_OK;
}

/* Two PT_LOADs of one file over the same addresses: which bytes the
 * program sees would depend on load order (gABI: loadable segments are
 * sorted by p_vaddr; their address ranges do not overlap). */
static bool overlaps_loaded(const elf_ctx *c, const GElf_Phdr *ph)
{
    for (size_t i = c->first_seg; i < c->img->nsegs; i++) {
        const rvt_segment *s = &c->img->segs[i].pub;
        if (ph->p_vaddr - s->vaddr < s->memsz || s->vaddr - ph->p_vaddr < ph->p_memsz)
            return true;
    }
    return false;
}

static int check_phdr(const elf_ctx *c, size_t i, const GElf_Phdr *ph, uint64_t phoff)
{
    const char *bad = NULL;
    uint64_t amax = c->xlen == 32 ? UINT32_MAX : UINT64_MAX;
    if (ph->p_filesz > ph->p_memsz)
        bad = "p_filesz larger than p_memsz";
    else if (ph->p_memsz > IMG_MAX_SEGMENT)
        bad = "p_memsz larger than 4 GiB";
    else if (ph->p_offset > c->fsize || ph->p_filesz > c->fsize - ph->p_offset)
        bad = "p_offset+p_filesz beyond the end of the file";
    else if (ph->p_vaddr > amax || (ph->p_memsz && ph->p_memsz - 1 > amax - ph->p_vaddr))
        bad = "segment wraps the address space";
    else if (overlaps_loaded(c, ph))
        bad = "segment overlaps an earlier loadable segment";
    if (!bad)
        return RVT_OK;
    img_diag(c->img, RVT_DIAG_ERROR, phoff, "%s: program header %zu: %s (offset 0x%llx, "
             "filesz 0x%llx, memsz 0x%llx, file size %llu)", c->path, i, bad,
             (unsigned long long)ph->p_offset, (unsigned long long)ph->p_filesz,
             (unsigned long long)ph->p_memsz, (unsigned long long)c->fsize);
    return RVT_ERR_ELF;
}

static int load_segment(elf_ctx *c, size_t i, const GElf_Phdr *ph, uint64_t phoff)
{
    int rc = check_phdr(c, i, ph, phoff);
    if (rc < 0)
        return rc;
    uint8_t *data = NULL;
    if (ph->p_filesz) {
        data = malloc((size_t)ph->p_filesz);    /* bounded by the file size */
        if (!data)
            return RVT_ERR_NOMEM;
        if (!img_pread_all(c->fd, data, ph->p_filesz, ph->p_offset)) {
            free(data);
            img_diag(c->img, RVT_DIAG_ERROR, ph->p_offset, "%s: read error", c->path);
            return RVT_ERR_IO;
        }
    }
    /* ELF p_flags: PF_X=1, PF_W=2, PF_R=4, the same bits as rvt_segment.flags. */
    rc = img_add_segment(c->img, ph->p_vaddr, ph->p_memsz, data, ph->p_filesz,
                         ph->p_flags & 7u, c->path);
    if (rc < 0)
        free(data);
    return rc;
}

static int load_segments(elf_ctx *c, const GElf_Ehdr *eh)
{
    size_t n;
    if (elf_getphdrnum(c->elf, &n) != 0)
        return elf_fail(c, 0, "bad program header count");
    size_t loads = 0;
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        uint64_t phoff = eh->e_phoff + (uint64_t)i * eh->e_phentsize;
        if (!gelf_getphdr(c->elf, (int)i, &ph))
            return elf_fail(c, phoff, "bad program header");
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0 || !map_segment(c, &ph))
            continue;
        int rc = load_segment(c, i, &ph, phoff);
        if (rc < 0)
            return rc;
        loads++;
    }
    if (!loads && c->mapped) {
        img_diag(c->img, RVT_DIAG_ERROR, UINT64_MAX,
                 "%s: no loadable segment in the mapped file bytes [0x%llx, +0x%llx)", c->path,
                 (unsigned long long)c->map_pgoff, (unsigned long long)c->map_len);
        return RVT_ERR_ELF;
    }
    if (!loads) {
        img_diag(c->img, RVT_DIAG_ERROR, UINT64_MAX, "%s: no loadable segment", c->path);
        return RVT_ERR_ELF;
    }
    return RVT_OK;
}

static void check_entry(const elf_ctx *c, uint64_t entry)
{
    for (size_t i = c->first_seg; i < c->img->nsegs; i++) {
        const rvt_segment *s = &c->img->segs[i].pub;
        if (entry - s->vaddr < s->memsz)
            return;
    }
    img_diag(c->img, RVT_DIAG_WARN, 24, "%s: entry 0x%llx is outside every loaded segment",
             c->path, (unsigned long long)entry);
}

/* Functions, and untyped labels in executable sections so hand-written
 * assembly gets names too; data objects and labels in the other allocated
 * sections, so that filters can name a buffer (docs/filter.md) and data
 * addresses get names.  Local labels (.L*) and mapping symbols ($x) are
 * not names a reader wants to see. */
static int load_symtab(elf_ctx *c, Elf_Scn *scn, const GElf_Shdr *sh)
{
    Elf_Data *d = elf_getdata(scn, NULL);
    if (!d || sh->sh_entsize == 0)
        return RVT_OK;
    size_t n = d->d_size / (size_t)gelf_fsize(c->elf, ELF_T_SYM, 1, EV_CURRENT);
    for (size_t i = 1; i < n; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(d, (int)i, &sym))
            break;
        unsigned type = GELF_ST_TYPE(sym.st_info);
        if ((type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE) ||
            sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
            continue;
        GElf_Shdr tsh;
        Elf_Scn *ts = elf_getscn(c->elf, sym.st_shndx);
        if (!ts || !gelf_getshdr(ts, &tsh) || !(tsh.sh_flags & SHF_ALLOC))
            continue;
        bool code = (tsh.sh_flags & SHF_EXECINSTR) != 0;
        if (type == (code ? STT_OBJECT : STT_FUNC))
            continue;
        const char *name = elf_strptr(c->elf, sh->sh_link, sym.st_name);
        uint64_t at;
        if (!name || !*name || name[0] == '$' || !strncmp(name, ".L", 2) ||
            !placed(c, sym.st_value, &at))
            continue;
        int rc = img_sym_add(c->img, name, at, sym.st_size,
                             tsh.sh_addr + tsh.sh_size + (at - sym.st_value),
                             type == STT_NOTYPE ? 1 : 0);
        if (rc < 0)
            return rc;
    }
    return RVT_OK;
}

static int load_symbols(elf_ctx *c)
{
    if (elf_getshdrstrndx(c->elf, &c->shstrndx) != 0)
        c->shstrndx = 0;
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    bool have_symtab = false;
    while ((scn = elf_nextscn(c->elf, scn)))
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
            have_symtab = true;
    /* Prefer the full .symtab; fall back to .dynsym of a stripped file. */
    unsigned want = have_symtab ? SHT_SYMTAB : SHT_DYNSYM;
    while ((scn = elf_nextscn(c->elf, scn))) {
        if (!gelf_getshdr(scn, &sh))
            continue;
        if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR) &&
            (sh.sh_flags & SHF_ALLOC) && sh.sh_size && sh.sh_addr + sh.sh_size > sh.sh_addr) {
            const char *nm = elf_strptr(c->elf, c->shstrndx, sh.sh_name);
            uint64_t at;
            int rc = placed(c, sh.sh_addr, &at)
                         ? img_code_add(c->img, nm ? nm : "?", at, at + sh.sh_size)
                         : 0;
            if (rc < 0)
                return rc;
        }
        if (sh.sh_type != want)
            continue;
        int rc = load_symtab(c, scn, &sh);
        if (rc < 0)
            return rc;
    }
    return RVT_OK;
}

static int load_elf(elf_ctx *c)
{
    GElf_Ehdr eh;
    int rc = check_header(c, &eh);
    if (rc < 0)
        return rc;
    c->first_seg = c->img->nsegs;
    rc = load_segments(c, &eh);
    if (rc < 0)
        return rc;
    uint64_t entry = eh.e_entry;
    if (placed(c, eh.e_entry, &entry) || !c->mapped)
        check_entry(c, entry);     /* a mapping need not hold the entry */
    rc = load_symbols(c);
    if (rc < 0)
        return rc;
    if (!c->img->have_elf) {
        c->img->have_elf = true;
        c->img->entry = entry;
        c->img->xlen = c->xlen;
    } else if (c->img->xlen != c->xlen) {
        img_diag(c->img, RVT_DIAG_WARN, 4, "%s: RV%u file added to an RV%u image", c->path,
                 c->xlen, c->img->xlen);
    }
    return RVT_OK;
}

static int load_file(elf_ctx *c);

int rvt_image_load_elf(rvt_image *img, const char *path)
{
    if (!img || !path)
        return RVT_ERR_INVAL;
    elf_ctx c = { .img = img, .path = path };
    return load_file(&c);
}

int rvt_image_load_elf_mapped(rvt_image *img, const char *path, uint64_t addr, uint64_t len,
                              uint64_t pgoff)
{
    if (!img || !path)
        return RVT_ERR_INVAL;
    elf_ctx c = { .img = img, .path = path, .mapped = true, .map_addr = addr, .map_len = len,
                  .map_pgoff = pgoff };
    return load_file(&c);
}

static int load_file(elf_ctx *c)
{
    rvt_image *img = c->img;
    c->fd = img_open_regular(img, c->path, &c->fsize);
    if (c->fd < 0)
        return c->fd;
    int rc;
    if (elf_version(EV_CURRENT) == EV_NONE) {
        rc = elf_fail(c, UINT64_MAX, "libelf initialisation failed");
    } else if (!(c->elf = elf_begin(c->fd, ELF_C_READ, NULL))) {
        rc = elf_fail(c, 0, "cannot read ELF");
    } else {
        /* A failure part-way leaves the segments added so far; drop them so
         * the image holds whole files only. */
        size_t nsegs = img->nsegs, nsyms = img->nsyms, ncode = img->ncode;
        size_t names = img_names_end(&img->names);
        rc = load_elf(c);
        if (rc >= 0)
            rc = img_file_add(img, c->path, names, img_names_end(&img->names));
        if (rc < 0) {
            img_truncate(img, nsegs, nsyms);
            img->ncode = ncode;
        }
        img_syms_sort(img);
        elf_end(c->elf);
    }
    close(c->fd);
    return rc;
}
