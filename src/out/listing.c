/* The "listing" writer: each instruction disassembled, with its symbol
 * header when the function changes, and "-- " lines for every other event
 * (docs/formats.md listing). */
#include <inttypes.h>
#include "out/writers.h"
#include "out/event_text.h"

static void listing_insn(rvt_out_text *o, const rvt_flow_event *ev)
{
    uint64_t off = 0;
    const char *sym = rvt_image_symbol(o->img, ev->pc, &off);
    if (sym && (sym != o->last_sym || off == 0))
        fprintf(o->f, "%016" PRIx64 " <%s%s>:\n", ev->pc - off, sym, "");
    o->last_sym = sym;
    char text[128];
    const rvt_insn *insn;
    rvt_out_disasm(o->img, ev->pc, &insn, text, sizeof text);
    if (insn && insn->len == 2)
        fprintf(o->f, "    %8" PRIx64 ":\t%04x     \t%s\n", ev->pc, (unsigned)(insn->raw & 0xffff), text);
    else
        fprintf(o->f, "    %8" PRIx64 ":\t%08x \t%s\n", ev->pc, insn ? insn->raw : 0u, text);
}

/* A trace-notify (watchpoint) hit: its PC, and the symbol if known. */
static void listing_notify(rvt_out_text *o, const rvt_flow_event *ev)
{
    uint64_t off = 0;
    const char *sym = rvt_image_symbol(o->img, ev->pc, &off);
    fprintf(o->f, "-- notify at %" PRIx64, ev->pc);
    if (sym && off)
        fprintf(o->f, " <%s+0x%" PRIx64 ">", sym, off);
    else if (sym)
        fprintf(o->f, " <%s>", sym);
    fputc('\n', o->f);
}

static void listing_event(void *state, const rvt_flow_event *ev)
{
    rvt_out_text *o = state;
    FILE *f = o->f;
    switch (ev->kind) {
    case RVT_EV_INSN: listing_insn(o, ev); break;
    case RVT_EV_SYNC:
        fprintf(f, "-- sync at %" PRIx64 " (%s-mode)%s%s\n", ev->pc, rvt_out_priv_name(ev->priv),
                ev->msg ? ": " : "", ev->msg ? ev->msg : "");
        break;
    case RVT_EV_STOP:
        fprintf(f, "-- trace stopped after %" PRIx64 "%s%s\n", ev->pc, ev->msg ? ": " : "",
                ev->msg ? ev->msg : "");
        break;
    case RVT_EV_TRAP:
        if (ev->flags & RVT_EVF_CAUSE_UNKNOWN)
            fputs("-- exception\n", f);
        else
            fprintf(f, "-- exception cause=%" PRIu64 " %s=0x%" PRIx64 "\n", ev->aux, rvt_out_tval_name(ev),
                    ev->aux2);
        break;
    case RVT_EV_INTERRUPT:
        if (ev->flags & RVT_EVF_CAUSE_UNKNOWN)
            fputs("-- interrupt\n", f);
        else
            fprintf(f, "-- interrupt cause=%" PRIu64 "\n", ev->aux);
        break;
    case RVT_EV_PRIV: fprintf(f, "-- privilege %s\n", rvt_out_priv_name((unsigned)ev->aux)); break;
    case RVT_EV_CONTEXT: fprintf(f, "-- context 0x%" PRIx64 "\n", ev->aux); break;
    case RVT_EV_TIME: fprintf(f, "-- time %" PRIu64 "\n", ev->aux); break;
    case RVT_EV_LOST:
        if (ev->aux == UINT64_MAX)
            fprintf(f, "-- trace lost at offset %" PRIu64 "%s%s\n", ev->offset,
                    ev->msg ? ": " : "", ev->msg ? ev->msg : "");
        else
            fprintf(f, "-- trace lost at offset %" PRIu64 ": %" PRIu64 " instructions%s%s\n",
                    ev->offset, ev->aux, ev->msg ? ": " : "", ev->msg ? ev->msg : "");
        break;
    case RVT_EV_ERROR:
        fprintf(f, "-- error at offset %" PRIu64 ": %s\n", ev->offset, ev->msg ? ev->msg : "");
        break;
    case RVT_EV_END:
        if (ev->aux & RVT_END_INCOMPLETE)
            fprintf(f, "-- incomplete trace: the stream ends without its end marker"
                       " (last complete packet ends at offset %" PRIu64 ")\n", ev->offset);
        else
            fprintf(f, "-- end of trace\n");
        break;
    case RVT_EV_NOTIFY: listing_notify(o, ev); break;
    default: break;
    }
}

const rvt_out_writer rvt_out_listing_writer = {
    .name = "listing", .needs_image = true,
    .open = rvt_out_text_open, .event = listing_event, .finish = rvt_out_text_finish,
};
