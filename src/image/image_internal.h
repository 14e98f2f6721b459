/* Internal layout of rvt_image, shared by the files of src/image. */
#ifndef RVT_IMAGE_INTERNAL_H
#define RVT_IMAGE_INTERNAL_H

#include "rvtrace/image.h"
#include "image/image_names.h"
#include "image/image_gen.h"

/* The decoded-instruction cache of a segment is split into chunks of
 * 2^IMG_CHUNK_SHIFT bytes of code, allocated on first use, so memory
 * follows the code actually executed, not the segment size. */
#define IMG_CHUNK_SHIFT 12
#define IMG_CHUNK_BYTES (1u << IMG_CHUNK_SHIFT)
#define IMG_CHUNK_INSNS (IMG_CHUNK_BYTES / 2)

/* One chunk of decoded instructions.  gen[k] is the generation insn[k]
 * was decoded in: the image's own cache uses generation 0 only (a slot is
 * valid when its len is not 0); a decoder's view over an rvt_mem
 * (mem_view.c) counts generations so that a flush never clears a slot a
 * walk may still hold. */
typedef struct img_chunk {
    rvt_insn insn[IMG_CHUNK_INSNS];
    uint32_t gen[IMG_CHUNK_INSNS];
} img_chunk;

/* Decoded-instruction cache over the file-backed bytes of one segment. */
typedef struct img_icache {
    img_chunk **chunks;      /* nchunks pointers, each allocated on first use */
    size_t nchunks;
} img_icache;

typedef struct img_seg {
    rvt_segment pub;
    uint8_t *own;            /* pub.data, owned */
    char *name;              /* pub.name, owned */
    img_icache cache;        /* the image's own cache (rvt_image_insn) */
    uint64_t cache_span;     /* filesz rounded up to a chunk */
    bool shadowed;           /* a later segment overlaps this one */
} img_seg;

typedef struct img_sym {
    uint64_t addr;
    uint64_t size;
    uint64_t lim;            /* end of the section holding the symbol */
    const char *name;        /* in img->names: never moves */
    uint8_t rank;            /* lower wins at one address: FUNC < NOTYPE */
} img_sym;

typedef struct img_code {
    uint64_t start, end;
    const char *name;        /* in img->names: never moves */
} img_code;

/* One file loaded: the positions [names_lo, names_hi) in img->names its
 * symbols' and sections' names took (rvt_image_symbol_file,
 * image_files.c). */
typedef struct img_file {
    char *path;
    size_t names_lo, names_hi;
} img_file;

/* One step of an image's generation: the addresses it changed. */
typedef struct img_change {
    uint64_t gen;            /* the generation this step made */
    img_span span;
} img_change;

struct rvt_image {
    img_code *code;
    img_file *files;
    size_t nfiles, capfiles;
    size_t ncode, capcode;
    img_seg *segs;
    size_t nsegs, capsegs;
    img_seg *hint;           /* last segment rvt_image_insn hit */
    uint64_t gen;            /* rvt_image_generation: bumped by every change
                                of the code served (a region added or dropped,
                                rvt_image_invalidate) */
    img_change changes[IMG_CHANGE_LOG];  /* what the last steps of gen
                                changed, step g in slot g % IMG_CHANGE_LOG
                                (image_change.c) */
    img_sym *syms;
    size_t nsyms, capsyms;
    img_names names;         /* of the symbols and code sections */
    uint64_t entry;
    unsigned xlen;
    bool have_elf;
    rvt_insn zero_insn;      /* decode of the zero fill past filesz */
    rvt_diag_fn diag;
    void *diag_ctx;
    /* the last error, kept for rvt_image_error without a diag hook */
    char error[512];
    uint64_t error_offset;
};

/* printf-style diagnostic through the image's callback; an error is also
 * kept for rvt_image_error. */
void img_diag(rvt_image *img, int level, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Add a segment taking ownership of `data` (filesz bytes, may be NULL when
 * filesz is 0). */
int img_add_segment(rvt_image *img, uint64_t vaddr, uint64_t memsz, uint8_t *data,
                    uint64_t filesz, uint32_t flags, const char *name);
/* Segment covering addr (the latest added wins), or NULL. */
img_seg *img_find(const rvt_image *img, uint64_t addr);
/* Add a symbol (name copied). */
int img_sym_add(rvt_image *img, const char *name, uint64_t addr, uint64_t size,
                uint64_t lim, unsigned rank);
void img_icache_free(img_icache *c);
/* The slot of the instruction at offset off (< s->cache_span) of segment
 * s in cache c (sized for s on first use); NULL when out of memory. */
rvt_insn *img_icache_slot(img_icache *c, const img_seg *s, uint64_t off, uint32_t **gen);
/* Decode the instruction at pc from the image's bytes (an instruction
 * running past its segment reads zeros there). */
void img_decode_at(const rvt_image *img, uint64_t pc, rvt_insn *out);
/* Forget the image's own decoded instructions at pcs [lo, hi) in every
 * segment (their bytes changed, or an instruction there reads some). */
void img_icache_forget(rvt_image *img, uint64_t lo, uint64_t hi);
void img_syms_free(rvt_image *img);
/* Record an executable section. */
int img_code_add(rvt_image *img, const char *name, uint64_t start, uint64_t end);
/* Sort symbols by address and keep the best name per address. */
void img_syms_sort(rvt_image *img);
/* Open a regular file for reading: rejects directories, FIFOs, devices and
 * empty files with a diagnostic.  Returns the fd or a negative status. */
int img_open_regular(rvt_image *img, const char *path, uint64_t *size);
/* Drop segments and symbols added after the counts given. */
void img_truncate(rvt_image *img, size_t nsegs, size_t nsyms);
/* A file loaded whole: its path and the positions [lo, hi) of its names
 * in img->names. */
int img_file_add(rvt_image *img, const char *path, size_t names_lo, size_t names_hi);
void img_files_free(rvt_image *img);
/* Read exactly len bytes at file offset off; false on a short read. */
bool img_pread_all(int fd, void *buf, uint64_t len, uint64_t off);

#endif
