/* Text pieces the listing and JSON writers share (event_text.c). */
#ifndef RVT_OUT_EVENT_TEXT_H
#define RVT_OUT_EVENT_TEXT_H

#include <stdio.h>
#include "rvtrace/out.h"
#include "rvtrace/isa.h"

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
