/* Output writers for flow events: PC lists, listings, JSON lines, folded
 * stacks (folded.c).  Every
 * decoder (E-Trace, N-Trace) feeds these through rvt_out_event(). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "rvtrace/out.h"
#include "rvtrace/isa.h"
#include "out/folded.h"

struct rvt_out {
    rvt_out_kind kind;
    FILE *f;
    rvt_image *img;
    uint64_t insns, errors, lost;
    const char *last_sym;   /* listing: symbol of the previous instruction */
    rvt_folded *fold;       /* RVT_OUT_FOLDED */
};

rvt_out *rvt_out_new(rvt_out_kind kind, FILE *f, rvt_image *img)
{
    if (!f || (kind != RVT_OUT_PCS && !img))
        return NULL;
    rvt_out *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->kind = kind;
    o->f = f;
    o->img = img;
    if (kind == RVT_OUT_FOLDED && !(o->fold = rvt_folded_new(img))) {
        free(o);
        return NULL;
    }
    return o;
}

void rvt_out_free(rvt_out *o)
{
    if (!o)
        return;
    if (o->fold) {
        rvt_folded_write(o->fold, o->f);
        rvt_folded_free(o->fold);
    }
    fflush(o->f);
    free(o);
}

uint64_t rvt_out_insns(const rvt_out *o) { return o->insns; }
uint64_t rvt_out_errors(const rvt_out *o) { return o->errors; }
uint64_t rvt_out_lost(const rvt_out *o) { return o->lost; }

/* Lowercase hex without leading zeros, as the PC lists use; faster than
 * fprintf on the hot path of `decode --pcs`. */
static void put_hex_line(FILE *f, uint64_t v)
{
    char buf[20];
    int i = 19;
    buf[i] = '\n';
    do {
        buf[--i] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    fwrite(buf + i, 1, (size_t)(20 - i), f);
}

static const char *priv_name(unsigned p)
{
    static const char *const names[] = { "U", "S", "H", "M", "D" };
    return p < 5 ? names[p] : "?";
}

static void json_string(FILE *f, const char *s)
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

static void disasm_at(rvt_out *o, uint64_t pc, const rvt_insn **insn_out, char *buf, size_t n)
{
    const rvt_insn *insn = rvt_image_insn(o->img, pc);
    *insn_out = insn;
    if (!insn) {
        snprintf(buf, n, "<no code>");
        return;
    }
    rvt_isa_disasm(insn, pc, buf, n, rvt_image_symbol, o->img);
}

static void listing_insn(rvt_out *o, const rvt_flow_event *ev)
{
    uint64_t off = 0;
    const char *sym = rvt_image_symbol(o->img, ev->pc, &off);
    if (sym && (sym != o->last_sym || off == 0))
        fprintf(o->f, "%016" PRIx64 " <%s%s>:\n", ev->pc - off, sym, "");
    o->last_sym = sym;
    char text[128];
    const rvt_insn *insn;
    disasm_at(o, ev->pc, &insn, text, sizeof text);
    if (insn && insn->len == 2)
        fprintf(o->f, "    %8" PRIx64 ":\t%04x     \t%s\n", ev->pc, (unsigned)(insn->raw & 0xffff), text);
    else
        fprintf(o->f, "    %8" PRIx64 ":\t%08x \t%s\n", ev->pc, insn ? insn->raw : 0u, text);
}

/* A trace-notify (watchpoint) hit: its PC, and the symbol if known. */
static void listing_notify(rvt_out *o, const rvt_flow_event *ev)
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

/* What a trap's aux2 holds: the trap value, or the trapping instruction's
 * address (RVT_EVF_TVAL_EPC). */
static const char *tval_name(const rvt_flow_event *ev)
{
    return ev->flags & RVT_EVF_TVAL_EPC ? "epc" : "tval";
}

static void listing_event(rvt_out *o, const rvt_flow_event *ev)
{
    FILE *f = o->f;
    switch (ev->kind) {
    case RVT_EV_INSN: listing_insn(o, ev); break;
    case RVT_EV_SYNC:
        fprintf(f, "-- sync at %" PRIx64 " (%s-mode)%s%s\n", ev->pc, priv_name(ev->priv),
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
            fprintf(f, "-- exception cause=%" PRIu64 " %s=0x%" PRIx64 "\n", ev->aux, tval_name(ev),
                    ev->aux2);
        break;
    case RVT_EV_INTERRUPT:
        if (ev->flags & RVT_EVF_CAUSE_UNKNOWN)
            fputs("-- interrupt\n", f);
        else
            fprintf(f, "-- interrupt cause=%" PRIu64 "\n", ev->aux);
        break;
    case RVT_EV_PRIV: fprintf(f, "-- privilege %s\n", priv_name((unsigned)ev->aux)); break;
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

static void json_event(rvt_out *o, const rvt_flow_event *ev)
{
    FILE *f = o->f;
    static const char *const kinds[] = {
        "insn", "sync", "trap", "interrupt", "priv", "context", "time", "lost", "error", "end", "stop",
        "notify",
    };
    const char *kind = ev->kind < sizeof kinds / sizeof kinds[0] ? kinds[ev->kind] : "unknown";
    fprintf(f, "{\"event\":\"%s\"", kind);
    if (ev->src)
        fprintf(f, ",\"src\":%u", (unsigned)ev->src);
    switch (ev->kind) {
    case RVT_EV_INSN: {
        char text[128];
        const rvt_insn *insn;
        disasm_at(o, ev->pc, &insn, text, sizeof text);
        uint64_t off = 0;
        const char *sym = rvt_image_symbol(o->img, ev->pc, &off);
        fprintf(f, ",\"pc\":\"0x%" PRIx64 "\",\"insn\":\"0x%0*x\",\"asm\":", ev->pc,
                insn && insn->len == 2 ? 4 : 8, insn ? insn->raw : 0u);
        char *tab = strchr(text, '\t');
        if (tab)
            *tab = ' ';     /* docs/formats.md JSON: mnemonic, one space, operands */
        json_string(f, text);
        if (sym) {
            fputs(",\"sym\":", f);
            json_string(f, sym);
            fprintf(f, ",\"off\":%" PRIu64, off);
        }
        break;
    }
    case RVT_EV_SYNC:
        fprintf(f, ",\"pc\":\"0x%" PRIx64 "\",\"priv\":\"%s\"", ev->pc, priv_name(ev->priv));
        if (ev->msg) {
            fputs(",\"reason\":", f);
            json_string(f, ev->msg);
        }
        break;
    case RVT_EV_STOP:
        fprintf(f, ",\"pc\":\"0x%" PRIx64 "\",\"code\":%" PRIu64, ev->pc, ev->aux);
        if (ev->msg) {
            fputs(",\"reason\":", f);
            json_string(f, ev->msg);
        }
        break;
    case RVT_EV_NOTIFY: fprintf(f, ",\"pc\":\"0x%" PRIx64 "\"", ev->pc); break;
    case RVT_EV_TRAP:
    case RVT_EV_INTERRUPT:
        /* No "cause" key where the protocol carries none (N-Trace). */
        if (ev->flags & RVT_EVF_CAUSE_UNKNOWN)
            fputs(",\"cause_known\":false", f);
        else if (ev->kind == RVT_EV_TRAP)
            fprintf(f, ",\"cause\":%" PRIu64 ",\"%s\":\"0x%" PRIx64 "\"", ev->aux, tval_name(ev),
                    ev->aux2);
        else
            fprintf(f, ",\"cause\":%" PRIu64, ev->aux);
        break;
    case RVT_EV_END:
        fprintf(f, ",\"complete\":%s", ev->aux & RVT_END_INCOMPLETE ? "false" : "true");
        if (ev->aux & RVT_END_INCOMPLETE)
            fprintf(f, ",\"offset\":%" PRIu64, ev->offset);
        break;
    case RVT_EV_PRIV: fprintf(f, ",\"priv\":\"%s\"", priv_name((unsigned)ev->aux)); break;
    case RVT_EV_CONTEXT: fprintf(f, ",\"context\":\"0x%" PRIx64 "\"", ev->aux); break;
    case RVT_EV_TIME: fprintf(f, ",\"time\":%" PRIu64, ev->aux); break;
    case RVT_EV_LOST:
    case RVT_EV_ERROR:
        fprintf(f, ",\"offset\":%" PRIu64, ev->offset);
        if (ev->kind == RVT_EV_LOST && ev->aux != UINT64_MAX)
            fprintf(f, ",\"lost\":%" PRIu64, ev->aux);
        if (ev->msg) {
            fputs(",\"msg\":", f);
            json_string(f, ev->msg);
        }
        break;
    default: break;
    }
    fputs("}\n", f);
}

int rvt_out_event(void *ctx, const rvt_flow_event *ev)
{
    rvt_out *o = ctx;
    if (ev->kind == RVT_EV_INSN)
        o->insns++;
    else if (ev->kind == RVT_EV_ERROR)
        o->errors++;
    else if (ev->kind == RVT_EV_LOST)
        o->lost++;
    switch (o->kind) {
    case RVT_OUT_PCS:
        if (ev->kind == RVT_EV_INSN)
            put_hex_line(o->f, ev->pc);
        break;
    case RVT_OUT_LISTING: listing_event(o, ev); break;
    case RVT_OUT_JSON: json_event(o, ev); break;
    case RVT_OUT_FOLDED: rvt_folded_event(o->fold, ev); break;
    }
    return 0;
}
