/* rvtrace memory: program images keyed by address space, and a
 * read-memory callback for code no image holds.
 *
 * An rvt_mem is a list of (address-space key, image) entries plus an
 * optional read callback.  Decoders built over an rvt_mem
 * (rvt_te_decoder_new_mem, rvt_nt_decoder_new_mem) look code up in the
 * address space of what they are decoding: the privilege and context of
 * the last E-Trace format 3 packet (E-Trace 2.0 ch. 7, te_inst subformats
 * 0-2), the last N-Trace Ownership message of the source (N-Trace 7.1) and
 * the source id.  Each decoder keeps its own decoded-instruction and block
 * caches: an rvt_mem and its images are only read while decoders use them,
 * so several decoders on several threads may share one (libipt's image
 * and section cache shape; OpenCSD keys memory by trace ID and space).
 *
 * Thread rules: build the rvt_mem (add images, set the callback) before
 * the decoders that use it, then do not change it or its images while they
 * run.  The read callback is called from every decoder over the rvt_mem,
 * on their threads.  rvt_image_insn fills the image's own cache: do not
 * call it on a shared image while other threads decode. */
#ifndef RVTRACE_MEM_H
#define RVTRACE_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "rvtrace/image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An address space: context (satp ASID, scontext or whatever the trace's
 * context field carries), privilege (0 U, 1 S/HS, 3 M, as E-Trace's
 * privilege field and N-Trace's Ownership PRV encode them) and source
 * (hart / N-Trace SRC).  In a key, a field set to its RVT_SPACE_ANY_*
 * value matches every value. */
typedef struct rvt_space {
    uint64_t context;
    uint32_t priv;
    uint32_t source;
} rvt_space;

#define RVT_SPACE_ANY_CONTEXT UINT64_MAX
#define RVT_SPACE_ANY_PRIV UINT32_MAX
#define RVT_SPACE_ANY_SOURCE UINT32_MAX

/* The key that matches every space. */
rvt_space rvt_space_any(void);
/* True when key matches space (each field equal, or a wildcard in key). */
bool rvt_space_matches(const rvt_space *key, const rvt_space *space);

typedef struct rvt_mem rvt_mem;

rvt_mem *rvt_mem_new(void);
/* Frees the rvt_mem, not the images added to it. */
void rvt_mem_free(rvt_mem *m);

/* Add an image (borrowed: it must outlive m and every decoder over m)
 * under key (NULL: every space).  One image may be added under several
 * keys.  For a lookup, the entries whose key matches the space are tried
 * most specific first (more non-wildcard fields), the latest added first
 * among equals; the first whose image holds the address answers.  Returns
 * 0, RVT_ERR_INVAL (NULL m or img) or RVT_ERR_NOMEM. */
int rvt_mem_add_image(rvt_mem *m, const rvt_space *key, const rvt_image *img);
size_t rvt_mem_image_count(const rvt_mem *m);
/* The i-th image added and its key (key may be NULL); NULL past the end. */
const rvt_image *rvt_mem_image(const rvt_mem *m, size_t i, rvt_space *key);

/* Read-memory callback: copy up to size bytes at addr of space into buf
 * and return how many it copied (0: it has none there).  It must give
 * the same bytes for the same request until the decoder is flushed
 * (rvt_te_decoder_flush, rvt_nt_decoder_flush_cache): decoders cache
 * what they decoded. */
typedef size_t (*rvt_mem_read_fn)(void *ctx, const rvt_space *space, uint64_t addr, void *buf,
                                  size_t size);

/* When the callback is asked. */
#define RVT_MEM_READ_MISS 0u     /* where no image holds the address */
#define RVT_MEM_READ_FIRST 1u    /* before the images (code patched at run time:
                                    self-modifying code); 0 bytes falls back to them */

/* Set (fn non-NULL) or clear the callback.  RVT_ERR_INVAL: NULL m or an
 * unknown flag. */
int rvt_mem_set_read(rvt_mem *m, rvt_mem_read_fn fn, void *ctx, unsigned flags);

/* The image holding addr in space (NULL: none). */
const rvt_image *rvt_mem_image_at(const rvt_mem *m, const rvt_space *space, uint64_t addr);
/* Copy up to len bytes at addr of space, as a decoder sees them (callback
 * and images by the rules above); returns the bytes copied, 0 when nothing
 * holds addr or an argument is NULL. */
size_t rvt_mem_read(const rvt_mem *m, const rvt_space *space, uint64_t addr, void *buf,
                    size_t len);
/* XLEN decoders over m decode with: the first image's ELF class that
 * gives one, else 64. */
unsigned rvt_mem_xlen(const rvt_mem *m);

/* ---- code patched at run time (self-modifying code; N-Trace 11.4) ----
 * Words a program writes into its code, grouped in numbered contents:
 * content k is in force once the k-th fence.i has retired (what the
 * reference code's .smc.txt files list).  Attached to an rvt_mem, the
 * patches are served through its read callback (RVT_MEM_READ_FIRST);
 * bytes they do not cover come from the images.  A patch list follows the
 * fence.i of one decode: one decoder, one thread. */
typedef struct rvt_mem_patches rvt_mem_patches;

rvt_mem_patches *rvt_mem_patches_new(void);
void rvt_mem_patches_free(rvt_mem_patches *p);
/* size (1..4) low bytes of word, little-endian, at addr, in force from
 * content (>= 1) on.  RVT_ERR_INVAL (NULL p, size or content out of
 * range, bytes past 2^64), RVT_ERR_NOMEM. */
int rvt_mem_patches_add(rvt_mem_patches *p, unsigned content, uint64_t addr, unsigned size,
                        uint32_t word);
/* Add the lines "CONTENT ADDR SIZE WORD" of a text file (decimal CONTENT
 * and SIZE, hex ADDR and WORD, then any annotation after white space;
 * '#' comments and blank lines skipped).
 * RVT_ERR_IO, RVT_ERR_FORMAT (a diagnostic names the file and the byte
 * offset of the bad line), RVT_ERR_NOMEM. */
int rvt_mem_patches_load(rvt_mem_patches *p, const char *path, rvt_diag_fn diag, void *ctx);
size_t rvt_mem_patches_count(const rvt_mem_patches *p);
/* Serve the patches through m's read callback (replacing any); p must
 * outlive the decoders over m. */
int rvt_mem_patches_attach(rvt_mem_patches *p, rvt_mem *m);
/* A fence.i retired: the next content is in force.  True when that
 * changed bytes served: flush the decoder (rvt_te_decoder_flush,
 * rvt_nt_decoder_flush_cache). */
bool rvt_mem_patches_fence(rvt_mem_patches *p);

#ifdef __cplusplus
}
#endif
#endif
