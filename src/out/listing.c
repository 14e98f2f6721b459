/* The "listing" writer: each instruction disassembled, with its symbol
 * header when the function changes, and "-- " lines for every other event
 * (docs/formats.md listing). */
#include <inttypes.h>
#include "out/writers.h"
#include "out/event_text.h"

/* The line of the instruction at pc, as objdump -d prints it (cached per
 * pc by insn_lines.h): "    ADDR:\tBITS \tDISASSEMBLY". */
static void listing_line(void *ctx, rvt_obuf *b, uint64_t pc, const rvt_insn *insn)
{
    rvt_out_text *o = ctx;
    char text[128];
    const rvt_insn *same;
    rvt_out_disasm(o->img, pc, &same, text, sizeof text);
    char *p = rvt_obuf_reserve(b, 64);
    p = rvt_fmt_hex_right(rvt_fmt_str(p, "    "), pc, 8);
    p = rvt_fmt_str(p, ":\t");
    if (insn && insn->len == 2)
        p = rvt_fmt_str(rvt_fmt_hex0(p, insn->raw & 0xffff, 4), "     \t");
    else
        p = rvt_fmt_str(rvt_fmt_hex0(p, insn ? insn->raw : 0u, 8), " \t");
    rvt_obuf_commit(b, p);
    rvt_obuf_puts(b, text);
    rvt_obuf_write(b, "\n", 1);
}

/* An instruction: its function's header line when the function changes
 * (or the pc is its start) or, over several images, when the image does:
 * "ADDR <sym>:", "ADDR <sym> [IMAGE]:" or, code without a symbol,
 * "ADDR [IMAGE]:"; then its line. */
static void listing_insn(rvt_out_text *o, const rvt_flow_event *ev)
{
    uint64_t off = 0;
    rvt_out_text_sync(o);
    const char *sym = rvt_sym_span_at(&o->span, o->img, ev->pc, &off);
    const char *file = o->several && (sym != o->last_sym || !sym) ? rvt_out_text_image(o, ev->pc) : o->last_file;
    if ((sym && (sym != o->last_sym || off == 0)) || (file && file != o->last_file)) {
        char *p = rvt_obuf_reserve(&o->b, 24);
        rvt_obuf_commit(&o->b, rvt_fmt_hex0(p, ev->pc - (sym ? off : 0), 16));
        if (sym) {
            rvt_obuf_puts(&o->b, " <");
            rvt_obuf_puts(&o->b, sym);
            rvt_obuf_puts(&o->b, ">");
        }
        if (file) {
            rvt_obuf_puts(&o->b, " [");
            rvt_obuf_puts(&o->b, file);
            rvt_obuf_puts(&o->b, "]");
        }
        rvt_obuf_write(&o->b, ":\n", 2);
    }
    o->last_sym = sym;
    o->last_file = file;
    rvt_il_put(&o->lines, &o->b, ev->pc, rvt_image_insn(o->img, ev->pc));
}

/* A trace-notify (watchpoint) hit: its PC, and the symbol if known. */
static void listing_notify(rvt_out_text *o, const rvt_flow_event *ev)
{
    uint64_t off = 0;
    const char *sym = rvt_image_symbol(o->img, ev->pc, &off);
    rvt_obuf_printf(&o->b, "-- notify at %" PRIx64, ev->pc);
    if (sym && off)
        rvt_obuf_printf(&o->b, " <%s+0x%" PRIx64 ">", sym, off);
    else if (sym)
        rvt_obuf_printf(&o->b, " <%s>", sym);
    rvt_obuf_write(&o->b, "\n", 1);
}

static void listing_event(void *state, const rvt_flow_event *ev)
{
    rvt_out_text *o = state;
    rvt_obuf *f = &o->b;
    if (ev->kind == RVT_EV_INSN) {      /* the hot path */
        listing_insn(o, ev);
        return;
    }
    switch (ev->kind) {
    case RVT_EV_SYNC:
        rvt_obuf_printf(f, "-- sync at %" PRIx64 " (%s-mode)%s%s\n", ev->pc, rvt_out_priv_name(ev->priv),
                ev->msg ? ": " : "", ev->msg ? ev->msg : "");
        break;
    case RVT_EV_STOP:
        rvt_obuf_printf(f, "-- trace stopped after %" PRIx64 "%s%s\n", ev->pc, ev->msg ? ": " : "",
                ev->msg ? ev->msg : "");
        break;
    case RVT_EV_TRAP:
        if (ev->flags & RVT_EVF_CAUSE_UNKNOWN)
            rvt_obuf_puts(f, "-- exception\n");
        else
            rvt_obuf_printf(f, "-- exception cause=%" PRIu64 " %s=0x%" PRIx64 "\n", ev->aux, rvt_out_tval_name(ev),
                    ev->aux2);
        break;
    case RVT_EV_INTERRUPT:
        if (ev->flags & RVT_EVF_CAUSE_UNKNOWN)
            rvt_obuf_puts(f, "-- interrupt\n");
        else
            rvt_obuf_printf(f, "-- interrupt cause=%" PRIu64 "\n", ev->aux);
        break;
    case RVT_EV_PRIV: rvt_obuf_printf(f, "-- privilege %s\n", rvt_out_priv_name((unsigned)ev->aux)); break;
    case RVT_EV_CONTEXT: rvt_obuf_printf(f, "-- context 0x%" PRIx64 "\n", ev->aux); break;
    case RVT_EV_TIME: rvt_obuf_printf(f, "-- time %" PRIu64 "\n", ev->aux); break;
    case RVT_EV_LOST:
        if (ev->aux == UINT64_MAX)
            rvt_obuf_printf(f, "-- trace lost at offset %" PRIu64 "%s%s\n", ev->offset,
                    ev->msg ? ": " : "", ev->msg ? ev->msg : "");
        else
            rvt_obuf_printf(f, "-- trace lost at offset %" PRIu64 ": %" PRIu64 " instructions%s%s\n",
                    ev->offset, ev->aux, ev->msg ? ": " : "", ev->msg ? ev->msg : "");
        break;
    case RVT_EV_ERROR:
        rvt_obuf_printf(f, "-- error at offset %" PRIu64 ": %s\n", ev->offset, ev->msg ? ev->msg : "");
        break;
    case RVT_EV_END:
        if (ev->aux & RVT_END_INCOMPLETE)
            rvt_obuf_printf(f, "-- incomplete trace: the stream ends without its end marker"
                       " (last complete packet ends at offset %" PRIu64 ")\n", ev->offset);
        else
            rvt_obuf_printf(f, "-- end of trace\n");
        rvt_out_text_end(o);
        break;
    case RVT_EV_NOTIFY: listing_notify(o, ev); break;
    default: break;
    }
}

static void *listing_open(FILE *f, rvt_image *img)
{
    return rvt_out_text_new(f, img, listing_line);
}

const rvt_out_writer rvt_out_listing_writer = {
    .name = "listing", .needs_image = true,
    .open = listing_open, .event = listing_event, .finish = rvt_out_text_finish,
};
