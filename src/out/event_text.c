/* Text pieces the listing and JSON writers share (event_text.h). */
#include <stdlib.h>
#include "out/event_text.h"
#include "out/fmt.h"

/* What the writer derives from the image as it is now: whether to name
 * files, and (none yet) the symbol span, which a file loaded since may
 * have split. */
static void follow_image(rvt_out_text *o)
{
    o->several = rvt_image_file_count(o->img) > 1;
    o->span = (rvt_sym_span){ 0 };
    o->gen = *o->img_gen;
}

rvt_out_text *rvt_out_text_new(FILE *f, rvt_image *img, rvt_il_format format)
{
    rvt_out_text *o = calloc(1, sizeof *o);
    if (o) {
        rvt_obuf_init(&o->b, f);
        o->img = img;
        o->img_gen = img_generation_at(img);
        rvt_il_init(&o->lines, format, o);
        follow_image(o);
    }
    return o;
}

void rvt_out_text_forget(rvt_out_text *o)
{
    rvt_il_init(&o->lines, o->lines.format, o->lines.ctx);
    follow_image(o);
}

const char *rvt_out_text_image(const rvt_out_text *o, uint64_t pc)
{
    return o->several ? rvt_fmt_image_name(rvt_image_file_at(o->img, pc)) : NULL;
}

void rvt_out_text_end(rvt_out_text *o)
{
    rvt_obuf_flush(&o->b);
}

void rvt_out_text_finish(void *state)
{
    rvt_out_text *o = state;
    rvt_obuf_flush(&o->b);
    free(o);
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
        char esc[8];
        fwrite(esc, 1, rvt_fmt_json_char(esc, (unsigned char)*s), f);
    }
    fputc('"', f);
}
