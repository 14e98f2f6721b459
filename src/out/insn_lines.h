/* The text of an instruction's line, cached by pc (insn_lines.c): the
 * listing and JSON writers format a pc's line once (disassembly, symbol,
 * printf-free hex) and copy it each time the pc retires again, which is
 * most of the time (issue #18: listing >= 20 M, JSON >= 10 M instr/s).
 * Keyed by pc and the instruction's bits, so code that changes (fence.i,
 * rvt_image_invalidate) gets a new line. */
#ifndef RVT_OUT_INSN_LINES_H
#define RVT_OUT_INSN_LINES_H

#include "rvtrace/isa.h"
#include "out/fmt.h"

#define RVT_IL_SLOTS 4096u          /* direct mapped by pc */
#define RVT_IL_TEXT 120u            /* longer lines are formatted each time */

/* Appends the line of insn (NULL: no code) at pc to b. */
typedef void (*rvt_il_format)(void *ctx, rvt_obuf *b, uint64_t pc, const rvt_insn *insn);

typedef struct rvt_il_slot {
    uint64_t pc;
    uint32_t raw;
    uint8_t ilen;                   /* the instruction's length; 0: no code */
    uint8_t len;                    /* of text; 0: empty slot */
    char text[RVT_IL_TEXT];
} rvt_il_slot;

typedef struct rvt_insn_lines {
    rvt_il_format format;
    void *ctx;
    rvt_il_slot slot[RVT_IL_SLOTS];
} rvt_insn_lines;

void rvt_il_init(rvt_insn_lines *c, rvt_il_format format, void *ctx);
/* Formats pc's line into b, and caches it when it fits. */
void rvt_il_miss(rvt_insn_lines *c, rvt_obuf *b, uint64_t pc, const rvt_insn *insn);

/* pc's line (for insn, NULL: no code) appended to b. */
static inline void rvt_il_put(rvt_insn_lines *c, rvt_obuf *b, uint64_t pc, const rvt_insn *insn)
{
    const rvt_il_slot *s = &c->slot[(pc >> 1) & (RVT_IL_SLOTS - 1)];
    uint32_t raw = insn ? insn->raw : 0;
    uint8_t ilen = insn ? insn->len : 0;
    if (s->len && s->pc == pc && s->raw == raw && s->ilen == ilen) {
        char *p = rvt_obuf_reserve(b, RVT_IL_TEXT);
        memcpy(p, s->text, RVT_IL_TEXT);    /* whole slot: a fixed-size copy */
        rvt_obuf_commit(b, p + s->len);
        return;
    }
    rvt_il_miss(c, b, pc, insn);
}

#endif
