/* Text pieces the listing and JSON writers share (event_text.h). */
#include <stdlib.h>
#include "out/event_text.h"

void *rvt_out_text_open(FILE *f, rvt_image *img)
{
    rvt_out_text *o = calloc(1, sizeof *o);
    if (o) {
        o->f = f;
        o->img = img;
    }
    return o;
}

void rvt_out_text_finish(void *state)
{
    free(state);
}

const char *rvt_out_priv_name(unsigned p)
{
    static const char *const names[] = { "U", "S", "H", "M", "D" };
    return p < 5 ? names[p] : "?";
}

const char *rvt_out_tval_name(const rvt_flow_event *ev)
{
    return ev->flags & RVT_EVF_TVAL_EPC ? "epc" : "tval";
}

void rvt_out_disasm(rvt_image *img, uint64_t pc, const rvt_insn **insn_out, char *buf, size_t n)
{
    const rvt_insn *insn = rvt_image_insn(img, pc);
    *insn_out = insn;
    if (!insn) {
        snprintf(buf, n, "<no code>");
        return;
    }
    rvt_isa_disasm(insn, pc, buf, n, rvt_image_symbol, img);
}

void rvt_out_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}
