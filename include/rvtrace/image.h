/* rvtrace program image: ELF32/ELF64 (libelf) and raw binaries, symbols,
 * and a decoded-instruction cache for single-threaded callers (listings).
 * Decoders read images through an rvt_mem (mem.h) with caches of their
 * own, so one image can serve decoders on several threads. */
#ifndef RVTRACE_IMAGE_H
#define RVTRACE_IMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "rvtrace/isa.h"
#include "rvtrace/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rvt_image rvt_image;

/* One loaded region (an ELF PT_LOAD segment or a raw binary). */
typedef struct rvt_segment {
    uint64_t vaddr;
    uint64_t memsz;          /* bytes past filesz read as zero */
    uint64_t filesz;
    const uint8_t *data;     /* filesz bytes, owned by the image */
    uint32_t flags;          /* PF_R/PF_W/PF_X as in ELF */
    const char *name;        /* file it came from */
} rvt_segment;

rvt_image *rvt_image_new(void);
void rvt_image_free(rvt_image *img);

/* Optional diagnostics sink (the library never prints). */
void rvt_image_set_diag(rvt_image *img, rvt_diag_fn fn, void *ctx);
/* Why the last load failed, with or without a diag hook: the message of
 * the image's last error ("FILE: what", "" before any) and, in *offset
 * (may be NULL), the file's byte offset it names (UINT64_MAX: none). */
const char *rvt_image_error(const rvt_image *img, uint64_t *offset);

/* Add every PT_LOAD segment and the symbol table of an ELF file.  Several
 * images may be added (e.g. kernel + user program).  Returns 0 or
 * RVT_ERR_ELF / RVT_ERR_IO with a diagnostic naming the file. */
int rvt_image_load_elf(rvt_image *img, const char *path);
/* Add an ELF as a process maps it: the file's bytes [pgoff, pgoff + len)
 * at addr (mmap(2)'s offset; what a perf.data MMAP/MMAP2 record says, and
 * how perf maps a sample to a file: address - addr + pgoff is a file
 * offset).  Each PT_LOAD segment whose p_offset lies in that window is
 * loaded at addr + (p_offset - pgoff) instead of its p_vaddr, and the
 * symbols and code sections inside it move with it; segments outside the
 * window are not loaded (another mapping of the file holds them).  An
 * object linked where it runs (pgoff = p_offset, addr = p_vaddr) loads as
 * rvt_image_load_elf does.  RVT_ERR_ELF when no segment starts in the
 * window; otherwise as rvt_image_load_elf. */
int rvt_image_load_elf_mapped(rvt_image *img, const char *path, uint64_t addr, uint64_t len,
                              uint64_t pgoff);
/* Add a raw binary file at `base`. */
int rvt_image_load_raw(rvt_image *img, const char *path, uint64_t base);
/* Add bytes (copied) at `base`; later regions shadow earlier ones. */
int rvt_image_add_bytes(rvt_image *img, uint64_t base, const void *data,
                        size_t len, const char *name);

/* Spike's reset vector (src/image/image_rom.c): `auipc t0,0; addi a1,t0,32;
 * csrr a0,mhartid; ld t0,24(t0) (lw on RV32); jr t0` at 0x1000, where a
 * Spike trace starts before it jumps to the program. */
#define RVT_SPIKE_RESET_VECTOR 0x1000u
#define RVT_SPIKE_RESET_VECTOR_WORDS 5
void rvt_spike_reset_vector_words(unsigned xlen, uint32_t w[RVT_SPIKE_RESET_VECTOR_WORDS]);
/* Add those five words at 0x1000 (xlen 32 or 64). */
int rvt_image_add_spike_reset_vector(rvt_image *img, unsigned xlen);

uint64_t rvt_image_entry(const rvt_image *img);     /* first ELF's entry */
unsigned rvt_image_xlen(const rvt_image *img);      /* 32/64 from ELF class, 0 if unknown */
size_t rvt_image_segment_count(const rvt_image *img);
/* The i-th region; the pointer is valid until the next region is added
 * (a load or rvt_image_add_bytes), its data and name until rvt_image_free. */
const rvt_segment *rvt_image_segment(const rvt_image *img, size_t i);

/* Executable sections (SHF_EXECINSTR) of the loaded ELF files, in load
 * order: [*start, *end) and the section name (valid, at the same address,
 * until rvt_image_free, whatever is loaded later).  False past the last. */
size_t rvt_image_code_count(const rvt_image *img);
bool rvt_image_code_range(const rvt_image *img, size_t i, uint64_t *start, uint64_t *end,
                          const char **name);

/* Copy up to len bytes at addr, each from the latest region holding its
 * address (later regions shadow earlier ones, also over part of an
 * instruction); returns the number copied: it stops at the first address
 * no region holds. */
size_t rvt_image_read(const rvt_image *img, uint64_t addr, void *buf, size_t len);

/* Decoded instruction at pc, cached in the image (never decoded twice).
 * NULL when no image covers pc.  Fills the image's cache: not while other
 * threads use the image (decoders over an rvt_mem do not call it). */
const rvt_insn *rvt_image_insn(rvt_image *img, uint64_t pc);
/* rvt_image_insn in the shape of the flow decoders' instruction callbacks
 * (rvt_te_insn_fn, rvt_nt_insn_fn): pass it with the image as context. */
const rvt_insn *rvt_image_insn_cb(void *img, uint64_t pc);
/* Drop cached decodes in [addr, addr+len) (self-modifying code). */
void rvt_image_invalidate(rvt_image *img, uint64_t addr, uint64_t len);
/* A number that changes whenever the code the image serves may have
 * changed: a region added (rvt_image_add_bytes and the loads: it may
 * shadow code served before) or dropped (a failed load), and every
 * rvt_image_invalidate; lookups (rvt_image_insn) leave it.  What keeps
 * something derived from the image's code (the output writers' block
 * shapes, docs/api.md "Code that changes") compares it to drop what the
 * change made stale.  0 for NULL. */
uint64_t rvt_image_generation(const rvt_image *img);

/* Name of the function symbol containing addr (NULL if none); *off gets
 * addr - symbol start.  Matches rvt_isa_symbolizer.  The names returned
 * here and by rvt_image_symbol_span stay valid, at the same address,
 * until rvt_image_free, whatever is loaded after (docs/api.md "Code that
 * changes"). */
const char *rvt_image_symbol(void *img, uint64_t addr, uint64_t *off);
/* rvt_image_symbol for a whole span: the name (NULL if none) and start
 * (*sym_addr) of the function symbol containing addr, and the addresses
 * [*lo, *hi) holding addr for which rvt_image_symbol gives that same
 * answer, so a caller looks up once per function, not per instruction. */
const char *rvt_image_symbol_span(const rvt_image *img, uint64_t addr, uint64_t *sym_addr,
                                  uint64_t *lo, uint64_t *hi);
/* The file (path as loaded) of the region holding addr, the one
 * rvt_image_read reads there where regions overlap; NULL when none. */
const char *rvt_image_file_at(const rvt_image *img, uint64_t addr);
/* The ELF file a name returned by rvt_image_symbol or
 * rvt_image_symbol_span comes from (the pointer, not the spelling, tells:
 * two files may both have a `main`); NULL for any other string. */
const char *rvt_image_symbol_file(const rvt_image *img, const char *sym);
/* How many files (ELF or raw binary) were loaded into the image (bytes
 * added by rvt_image_add_bytes are none). */
size_t rvt_image_file_count(const rvt_image *img);

/* Address of a named symbol; returns false if absent. */
bool rvt_image_lookup(const rvt_image *img, const char *name, uint64_t *addr);

#ifdef __cplusplus
}
#endif
#endif
