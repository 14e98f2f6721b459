/* Text pieces the listing and JSON writers share (event_text.c). */
#ifndef RVT_OUT_EVENT_TEXT_H
#define RVT_OUT_EVENT_TEXT_H

#include <stdio.h>
#include "rvtrace/out.h"
#include "rvtrace/isa.h"
#include "out/fmt.h"
#include "out/insn_lines.h"
#include "out/sym_span.h"
#include "image/image_gen.h"

/* The state of the text writers (listing, JSON): the buffered output, the
 * image to disassemble from, the lines of the pcs seen (format: the
 * writer's), the current symbol span, and the listing's symbol of the
 * previous instruction. */
typedef struct rvt_out_text {
    rvt_obuf b;
    rvt_image *img;
    const char *last_sym;
    const char *last_file;      /* the listing's image of the previous instruction */
    bool several;               /* img comes from several files: name each one */
    const uint64_t *img_gen;    /* img's generation (image/image_gen.h) */
    uint64_t gen;               /* its value when the lines were kept */
    rvt_sym_span span;
    rvt_insn_lines lines;
} rvt_out_text;

/* Internal to rvt_out_text_sync: the kept lines dropped. */
void rvt_out_text_forget(rvt_out_text *o);
/* A line kept by pc, bits and length names the file of the pc's region
 * when the writer names images (JSON's "image"), which a patch of the
 * same bits changes (rvt_image_add_bytes names its region), and the pc's
 * symbol, which a file loaded later may change; and a file loaded later
 * makes an image of one file one of several, whose files are named from
 * then on.  So the lines and the listing's symbol span go, and whether to
 * name files is decided again, when the code changed
 * (rvt_image_generation; docs/api.md "Code that changes").  Per
 * instruction, so only then. */
static inline void rvt_out_text_sync(rvt_out_text *o)
{
    if (__builtin_expect(*o->img_gen != o->gen, 0))
        rvt_out_text_forget(o);
}

/* The image (file name) of the instruction at pc when the writer names
 * images (o->several), else NULL. */
const char *rvt_out_text_image(const rvt_out_text *o, uint64_t pc);

/* rvt_out_writer open/finish of the text writers; open with the writer's
 * line formatter (called with the rvt_out_text as context). */
rvt_out_text *rvt_out_text_new(FILE *f, rvt_image *img, rvt_il_format format);
void rvt_out_text_finish(void *state);
/* The end of the trace: what the buffer holds goes out, so that what the
 * caller prints next (decode --count) follows it. */
void rvt_out_text_end(rvt_out_text *o);

/* "U", "S", "H", "M", "D", or "?" past them. */
const char *rvt_out_priv_name(unsigned p);
/* What a trap's aux2 holds: "tval", or "epc" with RVT_EVF_TVAL_EPC. */
const char *rvt_out_tval_name(const rvt_flow_event *ev);
/* The instruction at pc disassembled into buf ("<no code>" if the image
 * has none); *insn_out is the instruction or NULL. */
void rvt_out_disasm(rvt_image *img, uint64_t pc, const rvt_insn **insn_out, char *buf, size_t n);
/* s as a JSON string literal, quotes included (NULL as ""); the escapes
 * are rvt_fmt_json_char's. */
void rvt_out_json_string(FILE *f, const char *s);

#endif
