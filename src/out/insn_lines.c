/* The text of an instruction's line, cached by pc (insn_lines.h). */
#include "out/insn_lines.h"

void rvt_il_init(rvt_insn_lines *c, rvt_il_format format, void *ctx)
{
    c->format = format;
    c->ctx = ctx;
    memset(c->slot, 0, sizeof c->slot);
}

void rvt_il_miss(rvt_insn_lines *c, rvt_obuf *b, uint64_t pc, const rvt_insn *insn)
{
    size_t start = b->n;
    uint64_t flushes = b->flushes;
    c->format(c->ctx, b, pc, insn);
    size_t len = b->n - start;
    if (b->flushes != flushes || len == 0 || len > RVT_IL_TEXT)
        return;     /* not whole in the buffer, or too long to keep */
    const char *p = b->buf + start;
    rvt_il_slot *s = &c->slot[(pc >> 1) & (RVT_IL_SLOTS - 1)];
    s->pc = pc;
    s->raw = insn ? insn->raw : 0;
    s->ilen = insn ? insn->len : 0;
    s->len = (uint8_t)len;
    memcpy(s->text, p, len);
}
