/* Text pieces the listing and JSON writers share (event_text.c). */
#ifndef RVT_OUT_EVENT_TEXT_H
#define RVT_OUT_EVENT_TEXT_H

#include <stdio.h>
#include "rvtrace/out.h"
#include "rvtrace/isa.h"

/* The state of the text writers (listing, JSON): where to, the image to
 * disassemble from, and the listing's symbol of the previous instruction. */
typedef struct rvt_out_text {
    FILE *f;
    rvt_image *img;
    const char *last_sym;
} rvt_out_text;

/* rvt_out_writer open/finish of the text writers. */
void *rvt_out_text_open(FILE *f, rvt_image *img);
void rvt_out_text_finish(void *state);

/* "U", "S", "H", "M", "D", or "?" past them. */
const char *rvt_out_priv_name(unsigned p);
/* What a trap's aux2 holds: "tval", or "epc" with RVT_EVF_TVAL_EPC. */
const char *rvt_out_tval_name(const rvt_flow_event *ev);
/* The instruction at pc disassembled into buf ("<no code>" if the image
 * has none); *insn_out is the instruction or NULL. */
void rvt_out_disasm(rvt_image *img, uint64_t pc, const rvt_insn **insn_out, char *buf, size_t n);
/* s as a JSON string literal, quotes included (NULL as ""). */
void rvt_out_json_string(FILE *f, const char *s);

#endif
