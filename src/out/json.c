/* The "json" writer: one JSON object per event (docs/formats.md JSON
 * lines): the event named in "kind", the first key; addresses as "0x..."
 * strings; counts as integers. */
#include <inttypes.h>
#include <string.h>
#include "out/writers.h"
#include "out/event_text.h"

/* What follows "kind" (and "src") in an instruction's object, to the
 * end of the line (cached per pc by insn_lines.h). */
static void json_insn_line(void *ctx, rvt_obuf *b, uint64_t pc, const rvt_insn *insn)
{
    rvt_out_text *o = ctx;
    char text[128];
    const rvt_insn *same;
    rvt_out_disasm(o->img, pc, &same, text, sizeof text);
    uint64_t off = 0;
    const char *sym = rvt_image_symbol(o->img, pc, &off);
    char *p = rvt_obuf_reserve(b, 64);
    p = rvt_fmt_hex(rvt_fmt_str(p, ",\"pc\":\"0x"), pc);
    p = rvt_fmt_hex0(rvt_fmt_str(p, "\",\"insn\":\"0x"), insn ? insn->raw : 0u, insn && insn->len == 2 ? 4 : 8);
    rvt_obuf_commit(b, rvt_fmt_str(p, "\",\"asm\":"));
    char *tab = strchr(text, '\t');
    if (tab)
        *tab = ' ';     /* docs/formats.md JSON: mnemonic, one space, operands */
    rvt_obuf_json_string(b, text);
    const char *file = rvt_out_text_image(o, pc);
    if (file) {
        rvt_obuf_puts(b, ",\"image\":");
        rvt_obuf_json_string(b, file);
    }
    if (sym) {
        rvt_obuf_puts(b, ",\"sym\":");
        rvt_obuf_json_string(b, sym);
        p = rvt_obuf_reserve(b, 32);
        rvt_obuf_commit(b, rvt_fmt_dec(rvt_fmt_str(p, ",\"off\":"), off));
    }
    rvt_obuf_write(b, "}\n", 2);
}

/* The hot path: {"kind":"insn"[,"src":N] and the pc's cached rest. */
static void json_insn(rvt_out_text *o, const rvt_flow_event *ev)
{
    char *p = rvt_obuf_reserve(&o->b, 40);
    p = rvt_fmt_str(p, "{\"kind\":\"insn\"");
    if (ev->src)
        p = rvt_fmt_dec(rvt_fmt_str(p, ",\"src\":"), ev->src);
    rvt_obuf_commit(&o->b, p);
    rvt_out_text_sync(o);
    rvt_il_put(&o->lines, &o->b, ev->pc, rvt_image_insn(o->img, ev->pc));
}

static void json_event(void *state, const rvt_flow_event *ev)
{
    rvt_out_text *o = state;
    rvt_obuf *f = &o->b;
    if (ev->kind == RVT_EV_INSN) {
        json_insn(o, ev);
        return;
    }
    static const char *const kinds[] = {
        "insn", "sync", "trap", "interrupt", "priv", "context", "time", "lost", "error", "end", "stop",
        "notify",
    };
    const char *kind = ev->kind < sizeof kinds / sizeof kinds[0] ? kinds[ev->kind] : "unknown";
    rvt_obuf_printf(f, "{\"kind\":\"%s\"", kind);
    if (ev->src)
        rvt_obuf_printf(f, ",\"src\":%u", (unsigned)ev->src);
    switch (ev->kind) {
    case RVT_EV_SYNC:
        rvt_obuf_printf(f, ",\"pc\":\"0x%" PRIx64 "\",\"priv\":\"%s\"", ev->pc, rvt_out_priv_name(ev->priv));
        if (ev->msg) {
            rvt_obuf_puts(f, ",\"reason\":");
            rvt_obuf_json_string(f, ev->msg);
        }
        break;
    case RVT_EV_STOP:
        rvt_obuf_printf(f, ",\"pc\":\"0x%" PRIx64 "\",\"code\":%" PRIu64, ev->pc, ev->aux);
        if (ev->msg) {
            rvt_obuf_puts(f, ",\"reason\":");
            rvt_obuf_json_string(f, ev->msg);
        }
        break;
    case RVT_EV_NOTIFY: rvt_obuf_printf(f, ",\"pc\":\"0x%" PRIx64 "\"", ev->pc); break;
    case RVT_EV_TRAP:
    case RVT_EV_INTERRUPT:
        /* No "cause" key where the protocol carries none (N-Trace). */
        if (ev->flags & RVT_EVF_CAUSE_UNKNOWN)
            rvt_obuf_puts(f, ",\"cause_known\":false");
        else if (ev->kind == RVT_EV_TRAP)
            rvt_obuf_printf(f, ",\"cause\":%" PRIu64 ",\"%s\":\"0x%" PRIx64 "\"", ev->aux, rvt_out_tval_name(ev),
                    ev->aux2);
        else
            rvt_obuf_printf(f, ",\"cause\":%" PRIu64, ev->aux);
        break;
    case RVT_EV_END:
        rvt_obuf_printf(f, ",\"complete\":%s", ev->aux & RVT_END_INCOMPLETE ? "false" : "true");
        if (ev->aux & RVT_END_INCOMPLETE)
            rvt_obuf_printf(f, ",\"offset\":%" PRIu64, ev->offset);
        break;
    case RVT_EV_PRIV: rvt_obuf_printf(f, ",\"priv\":\"%s\"", rvt_out_priv_name((unsigned)ev->aux)); break;
    case RVT_EV_CONTEXT: rvt_obuf_printf(f, ",\"context\":\"0x%" PRIx64 "\"", ev->aux); break;
    case RVT_EV_TIME: rvt_obuf_printf(f, ",\"time\":%" PRIu64, ev->aux); break;
    case RVT_EV_LOST:
    case RVT_EV_ERROR:
        rvt_obuf_printf(f, ",\"offset\":%" PRIu64, ev->offset);
        if (ev->kind == RVT_EV_LOST && ev->aux != UINT64_MAX)
            rvt_obuf_printf(f, ",\"lost\":%" PRIu64, ev->aux);
        if (ev->msg) {
            rvt_obuf_puts(f, ",\"msg\":");
            rvt_obuf_json_string(f, ev->msg);
        }
        break;
    default: break;
    }
    rvt_obuf_write(f, "}\n", 2);
    if (ev->kind == RVT_EV_END)
        rvt_out_text_end(o);
}

static void *json_open(FILE *f, rvt_image *img)
{
    return rvt_out_text_new(f, img, json_insn_line);
}

const rvt_out_writer rvt_out_json_writer = {
    .name = "json", .needs_image = true,
    .open = json_open, .event = json_event, .finish = rvt_out_text_finish,
};
