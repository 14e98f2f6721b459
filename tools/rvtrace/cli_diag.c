/* Diagnostics of the library's decoders and readers on stderr.
 *
 * A decoder that walks damaged data byte by byte reports the same error at
 * every offset: those repeats are folded into one line after the first,
 * and at most RVTRACE_MAX_ERRORS lines (default 100, 0 = no limit) are
 * printed per command; cli_diag_flush() says what was left out.  This is
 * the CLI's own state (one process, one command), not the library's. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "rvtrace/io.h"

#define DIAG_DEFAULT_MAX 100u

static struct {
    bool init;
    uint64_t max;            /* lines to print, 0 = all */
    uint64_t printed, hidden;
    /* the last diagnostic, while it repeats at consecutive offsets */
    bool have;
    const void *ctx;
    int level;
    char msg[256];
    uint64_t first, last;    /* offsets of the repeats after the printed one */
    uint64_t repeats;
} dg;

static const char *kind_of(int level)
{
    return level >= RVT_DIAG_ERROR ? "error" : level == RVT_DIAG_WARN ? "warning" : "note";
}

static bool may_print(void)
{
    if (!dg.init) {
        const char *v = getenv("RVTRACE_MAX_ERRORS");
        dg.max = DIAG_DEFAULT_MAX;
        if (v && *v && !cli_parse_u64(v, &dg.max))
            dg.max = DIAG_DEFAULT_MAX;
        dg.init = true;
    }
    if (dg.max && dg.printed >= dg.max) {
        dg.hidden++;
        return false;
    }
    dg.printed++;
    return true;
}

/* End a run of repeats: one line for all of them. */
static void fold_end(void)
{
    if (dg.repeats && may_print())
        fprintf(stderr, "rvtrace: %s: offsets %" PRIu64 "-%" PRIu64 ": the same %s %" PRIu64 " more time%s\n",
                dg.ctx ? (const char *)dg.ctx : "input", dg.first, dg.last, kind_of(dg.level), dg.repeats,
                dg.repeats == 1 ? "" : "s");
    dg.repeats = 0;
}

void cli_diag(void *ctx, int level, uint64_t offset, const char *msg)
{
    const char *file = ctx ? ctx : "input";
    if (dg.have && offset != UINT64_MAX && dg.last != UINT64_MAX && offset == dg.last + 1 &&
        dg.ctx == ctx && dg.level == level &&
        !strncmp(dg.msg, msg, sizeof dg.msg)) {
        if (!dg.repeats)
            dg.first = offset;
        dg.repeats++;
        dg.last = offset;
        return;
    }
    fold_end();
    dg.have = true;
    dg.ctx = ctx;
    dg.level = level;
    dg.last = offset;
    snprintf(dg.msg, sizeof dg.msg, "%s", msg);
    if (!may_print())
        return;
    if (offset == UINT64_MAX)
        fprintf(stderr, "rvtrace: %s: %s: %s\n", file, kind_of(level), msg);
    else
        fprintf(stderr, "rvtrace: %s: offset %" PRIu64 ": %s: %s\n", file, offset, kind_of(level), msg);
}

void cli_diag_flush(void)
{
    fold_end();
    if (dg.hidden)
        fprintf(stderr, "rvtrace: %" PRIu64 " more diagnostic line%s not shown (RVTRACE_MAX_ERRORS=0 shows all)\n",
                dg.hidden, dg.hidden == 1 ? "" : "s");
    dg.hidden = 0;
    dg.have = false;
}
