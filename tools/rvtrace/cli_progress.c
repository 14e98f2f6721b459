/* A progress line on stderr for long runs (run, decode): "\rrvtrace: ..."
 * every RVTRACE_PROGRESS seconds (default 2) while stderr is a terminal and
 * the command's own output does not go there too.  CLI state, not the
 * library's: the library never prints. */
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "rvtrace/out.h"

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void cli_progress_init(cli_progress *p, bool enable)
{
    const char *v = getenv("RVTRACE_PROGRESS");
    char *end;
    p->interval = 2.0;
    if (v && *v) {
        double s = strtod(v, &end);
        if (!*end && s >= 0)
            p->interval = s;
    }
    p->on = enable && isatty(STDERR_FILENO);
    p->t0 = p->last = cli_now();
    p->shown = false;
}

bool cli_progress_due(cli_progress *p)
{
    if (!p->on)
        return false;
    double t = cli_now();
    if (t - p->last < p->interval)
        return false;
    p->last = t;
    return true;
}

void cli_progress_show(cli_progress *p, const char *fmt, ...)
{
    va_list ap;
    fputs("\rrvtrace: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, ", %.0f s ", cli_now() - p->t0);
    fflush(stderr);
    p->shown = true;
}

void cli_progress_done(cli_progress *p)
{
    if (p->shown)
        fputc('\n', stderr);
    p->shown = false;
}

void cli_decode_progress_init(cli_decode_progress *d, const char *file, uint64_t len, bool quiet_out)
{
    cli_progress_init(&d->p, quiet_out || !isatty(STDOUT_FILENO));
    d->file = file;
    d->len = len;
    d->insns = 0;
}

/* Per event: a counter, and the clock once in 2^20 instructions. */
/* The line, once in 2^20 instructions (counted in blocks or one by one). */
static void decode_progress(cli_decode_progress *d, uint64_t before, uint64_t offset)
{
    if ((before >> 20) == (d->insns >> 20) || !cli_progress_due(&d->p))
        return;
    char a[32];
    unsigned pct = d->len && offset < d->len ? (unsigned)(offset * 100 / d->len) : 100;
    cli_progress_show(&d->p, "%s: %u%% of %llu bytes, %s instructions", d->file, pct,
                      (unsigned long long)d->len, cli_thousands(d->insns, a, sizeof a));
}

void cli_decode_progress_event(cli_decode_progress *d, const rvt_flow_event *ev)
{
    if (ev->kind == RVT_EV_INSN) {
        d->insns++;
        decode_progress(d, d->insns - 1, ev->offset);
    }
}

void cli_decode_progress_insns(cli_decode_progress *d, uint64_t n, uint64_t offset)
{
    d->insns += n;
    decode_progress(d, d->insns - n, offset);
}

void cli_decode_progress_run(cli_decode_progress *d, const rvt_flow_event *ev)
{
    if (ev->kind == RVT_EV_INSN)
        cli_decode_progress_insns(d, ev->aux, ev->offset);
}

/* The line, with the clock read once in 2^20 instructions. */
static void sp_show(cli_sink_progress *sp)
{
    if (sp->insns < sp->next_check)
        return;
    sp->next_check = sp->insns + (1u << 20);
    if (cli_progress_due(&sp->p)) {
        char a[32];
        cli_progress_show(&sp->p, "%s: %s instructions", sp->file, cli_thousands(sp->insns, a, sizeof a));
    }
}

/* Only a shown line needs the instructions: without one (not a
 * terminal) a batch costs one addition, not a pass over its records. */
static int sp_put(void *ctx, const rvt_irec *recs, size_t n)
{
    cli_sink_progress *sp = ctx;
    sp->records += n;
    if (sp->p.on) {
        for (size_t i = 0; i < n; i++)
            sp->insns += recs[i].ninstr;
        sp_show(sp);
    }
    return sp->down.put(sp->down.ctx, recs, n);
}

/* A run of steps (one instruction each) passes on whole. */
static int sp_steps(void *ctx, const rvt_irec *prev, size_t n, const uint8_t *sizes)
{
    cli_sink_progress *sp = ctx;
    sp->records += n;
    if (sp->p.on) {
        sp->insns += n;
        sp_show(sp);
    }
    return sp->down_steps.steps(sp->down_steps.ctx, prev, n, sizes);
}

static int sp_data(void *ctx, const rvt_drec *recs, size_t n)
{
    cli_sink_progress *sp = ctx;
    return sp->down.data ? sp->down.data(sp->down.ctx, recs, n) : 0;
}

static int sp_end(void *ctx)
{
    cli_sink_progress *sp = ctx;
    cli_progress_done(&sp->p);
    return sp->down.end ? sp->down.end(sp->down.ctx) : 0;
}

int cli_sink_nonempty(const cli_sink_progress *sp)
{
    if (sp->records)
        return CLI_OK;
    cli_err("%s: no records to encode (an empty input, or an ingress file with only its header)", sp->file);
    return CLI_FAIL;
}

rvt_irec_sink cli_progress_sink(cli_sink_progress *sp, const char *file, const rvt_irec_sink *down)
{
    cli_progress_init(&sp->p, true);
    sp->down = *down;
    sp->file = file;
    sp->insns = 0;
    sp->records = 0;
    sp->next_check = 1u << 20;
    sp->down_steps = (rvt_irec_steps){ NULL, NULL };
    rvt_irec_sink s = { sp, sp_put, down->data ? sp_data : NULL, sp_end };
    return s;
}

rvt_irec_steps cli_progress_steps(cli_sink_progress *sp, const rvt_irec_steps *down)
{
    sp->down_steps = *down;
    return (rvt_irec_steps){ sp, down->steps ? sp_steps : NULL };
}
