/* The "json" writer: one JSON object per event (docs/formats.md JSON
 * lines): the event named in "kind", the first key; addresses as "0x..."
 * strings; counts as integers. */
#include <inttypes.h>
#include <string.h>
#include "out/writers.h"
#include "out/event_text.h"

static void json_event(void *state, const rvt_flow_event *ev)
{
    rvt_out_text *o = state;
    FILE *f = o->f;
    static const char *const kinds[] = {
        "insn", "sync", "trap", "interrupt", "priv", "context", "time", "lost", "error", "end", "stop",
        "notify",
    };
    const char *kind = ev->kind < sizeof kinds / sizeof kinds[0] ? kinds[ev->kind] : "unknown";
    fprintf(f, "{\"kind\":\"%s\"", kind);
    if (ev->src)
        fprintf(f, ",\"src\":%u", (unsigned)ev->src);
    switch (ev->kind) {
    case RVT_EV_INSN: {
        char text[128];
        const rvt_insn *insn;
        rvt_out_disasm(o->img, ev->pc, &insn, text, sizeof text);
        uint64_t off = 0;
        const char *sym = rvt_image_symbol(o->img, ev->pc, &off);
        fprintf(f, ",\"pc\":\"0x%" PRIx64 "\",\"insn\":\"0x%0*x\",\"asm\":", ev->pc,
                insn && insn->len == 2 ? 4 : 8, insn ? insn->raw : 0u);
        char *tab = strchr(text, '\t');
        if (tab)
            *tab = ' ';     /* docs/formats.md JSON: mnemonic, one space, operands */
        rvt_out_json_string(f, text);
        if (sym) {
            fputs(",\"sym\":", f);
            rvt_out_json_string(f, sym);
            fprintf(f, ",\"off\":%" PRIu64, off);
        }
        break;
    }
    case RVT_EV_SYNC:
        fprintf(f, ",\"pc\":\"0x%" PRIx64 "\",\"priv\":\"%s\"", ev->pc, rvt_out_priv_name(ev->priv));
        if (ev->msg) {
            fputs(",\"reason\":", f);
            rvt_out_json_string(f, ev->msg);
        }
        break;
    case RVT_EV_STOP:
        fprintf(f, ",\"pc\":\"0x%" PRIx64 "\",\"code\":%" PRIu64, ev->pc, ev->aux);
        if (ev->msg) {
            fputs(",\"reason\":", f);
            rvt_out_json_string(f, ev->msg);
        }
        break;
    case RVT_EV_NOTIFY: fprintf(f, ",\"pc\":\"0x%" PRIx64 "\"", ev->pc); break;
    case RVT_EV_TRAP:
    case RVT_EV_INTERRUPT:
        /* No "cause" key where the protocol carries none (N-Trace). */
        if (ev->flags & RVT_EVF_CAUSE_UNKNOWN)
            fputs(",\"cause_known\":false", f);
        else if (ev->kind == RVT_EV_TRAP)
            fprintf(f, ",\"cause\":%" PRIu64 ",\"%s\":\"0x%" PRIx64 "\"", ev->aux, rvt_out_tval_name(ev),
                    ev->aux2);
        else
            fprintf(f, ",\"cause\":%" PRIu64, ev->aux);
        break;
    case RVT_EV_END:
        fprintf(f, ",\"complete\":%s", ev->aux & RVT_END_INCOMPLETE ? "false" : "true");
        if (ev->aux & RVT_END_INCOMPLETE)
            fprintf(f, ",\"offset\":%" PRIu64, ev->offset);
        break;
    case RVT_EV_PRIV: fprintf(f, ",\"priv\":\"%s\"", rvt_out_priv_name((unsigned)ev->aux)); break;
    case RVT_EV_CONTEXT: fprintf(f, ",\"context\":\"0x%" PRIx64 "\"", ev->aux); break;
    case RVT_EV_TIME: fprintf(f, ",\"time\":%" PRIu64, ev->aux); break;
    case RVT_EV_LOST:
    case RVT_EV_ERROR:
        fprintf(f, ",\"offset\":%" PRIu64, ev->offset);
        if (ev->kind == RVT_EV_LOST && ev->aux != UINT64_MAX)
            fprintf(f, ",\"lost\":%" PRIu64, ev->aux);
        if (ev->msg) {
            fputs(",\"msg\":", f);
            rvt_out_json_string(f, ev->msg);
        }
        break;
    default: break;
    }
    fputs("}\n", f);
}

const rvt_out_writer rvt_out_json_writer = {
    .name = "json", .needs_image = true,
    .open = rvt_out_text_open, .event = json_event, .finish = rvt_out_text_finish,
};
