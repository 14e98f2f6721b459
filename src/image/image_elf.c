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
} elf_ctx;

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
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        int rc = load_segment(c, i, &ph, phoff);
        if (rc < 0)
            return rc;
        loads++;
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
        if (!name || !*name || name[0] == '$' || !strncmp(name, ".L", 2))
            continue;
        int rc = img_sym_add(c->img, name, sym.st_value, sym.st_size,
                             tsh.sh_addr + tsh.sh_size, type == STT_NOTYPE ? 1 : 0);
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
            int rc = img_code_add(c->img, nm ? nm : "?", sh.sh_addr, sh.sh_addr + sh.sh_size);
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
    check_entry(c, eh.e_entry);
    rc = load_symbols(c);
    if (rc < 0)
        return rc;
    if (!c->img->have_elf) {
        c->img->have_elf = true;
        c->img->entry = eh.e_entry;
        c->img->xlen = c->xlen;
    } else if (c->img->xlen != c->xlen) {
        img_diag(c->img, RVT_DIAG_WARN, 4, "%s: RV%u file added to an RV%u image", c->path,
                 c->xlen, c->img->xlen);
    }
    return RVT_OK;
}

int rvt_image_load_elf(rvt_image *img, const char *path)
{
    if (!img || !path)
        return RVT_ERR_INVAL;
    elf_ctx c = { .img = img, .path = path };
    c.fd = img_open_regular(img, path, &c.fsize);
    if (c.fd < 0)
        return c.fd;
    int rc;
    if (elf_version(EV_CURRENT) == EV_NONE) {
        rc = elf_fail(&c, UINT64_MAX, "libelf initialisation failed");
    } else if (!(c.elf = elf_begin(c.fd, ELF_C_READ, NULL))) {
        rc = elf_fail(&c, 0, "cannot read ELF");
    } else {
        /* A failure part-way leaves the segments added so far; drop them so
         * the image holds whole files only. */
        size_t nsegs = img->nsegs, nsyms = img->nsyms, ncode = img->ncode, pool = img->npool;
        rc = load_elf(&c);
        if (rc >= 0)
            rc = img_file_add(img, path, pool, img->npool);
        if (rc < 0) {
            img_truncate(img, nsegs, nsyms);
            img->ncode = ncode;
        }
        img_syms_sort(img);
        elf_end(c.elf);
    }
    close(c.fd);
    return rc;
}
