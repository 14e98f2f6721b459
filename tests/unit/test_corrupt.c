/* Deterministic corruption tests: every trace stream format the hart writes,
 * for a set of workloads, damaged in every way a capture gets damaged, then
 * decoded by the rvtrace CLI ($RVT_BIN) as a black box.  docs/reliability.md
 * lists the cases and what each asserts; in short, for every case:
 *  - no crash, no hang (timeout), no sanitizer report in the decoder's stderr
 *    (`make asan` runs this against the ASan + UBSan binary);
 *  - exit 0 or 1 (1 = bad data), and a non-zero exit names the file and an
 *    "offset N" inside the file;
 *  - damage that cannot be valid (truncation inside a packet/message, bytes
 *    the container forbids) must be reported (exit 1);
 *  - a stream cut at a packet/message boundary decodes to a prefix of what
 *    the hart retired;
 *  - when the decoder reports lost trace, the PCs after its last loss/resync
 *    marker are exactly the hart's last PCs, and a reported lost count equals
 *    the true gap when the PCs before the loss are an exact prefix.
 * Crashes, sanitizer reports, bad exit codes and errors without an offset
 * always fail.  The correctness checks (and a decode that runs past the
 * timeout) fail for a format marked strict; for the others they print
 * "OPEN: ..." lines: reported decoder bugs (docs/reliability.md).
 * Prerequisites missing (no workloads, or this build's `run` cannot write
 * the format yet): that format is skipped with a note, never failed. */
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rvtrace/perfdata.h"
#include "tharness.h"

#define MAX_CASES_PER_KIND 8    /* boundaries/offsets sampled per damage kind */
#define RUN_INSNS "20000"       /* a trace of the workload's first instructions */
#define DECODE_TIMEOUT "15"

static const char *bin, *src, *tmp;

/* ---- small file helpers ---- */

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return NULL;
    }
    uint8_t *b = malloc((size_t)st.st_size + 1);
    *n = b ? fread(b, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    if (b)
        b[*n] = 0;
    return b;
}

static bool spit(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(b, 1, n, f) == n;
    return (fclose(f) == 0) && ok;
}

/* Run a shell command; returns its exit status, or 128+signal. */
static int sh(const char *cmd)
{
    int st = system(cmd);
    if (st == -1)
        return -1;
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return WEXITSTATUS(st);
}

/* ---- PC lists ---- */

typedef struct pcs {
    uint64_t *v;
    size_t n, cap;
} pcs;

static void pcs_push(pcs *p, uint64_t pc)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 1024;
        p->v = realloc(p->v, p->cap * sizeof *p->v);
    }
    p->v[p->n++] = pc;
}

static bool read_pcs(const char *path, pcs *p)
{
    size_t n;
    char *t = (char *)slurp(path, &n);
    if (!t)
        return false;
    for (char *s = strtok(t, "\n"); s; s = strtok(NULL, "\n"))
        pcs_push(p, strtoull(s, NULL, 16));
    free(t);
    return true;
}

/* What one decode run produced (from --json lines). */
typedef struct outcome {
    int status;
    pcs all;             /* every retired PC */
    size_t tail_from;    /* index in all[] after the last lost/error/sync marker */
    size_t head_to;      /* index in all[] of the first lost/error marker */
    unsigned losses;     /* lost + error events */
    uint64_t lost_count; /* sum of reported lost counts */
    bool lost_unknown;   /* a lost event without a count */
    char *err;           /* stderr text */
} outcome;

static void outcome_free(outcome *o)
{
    free(o->all.v);
    free(o->err);
    memset(o, 0, sizeof *o);
}

static void parse_json(const char *path, outcome *o)
{
    size_t n;
    char *t = (char *)slurp(path, &n);
    o->head_to = SIZE_MAX;
    if (!t)
        return;
    bool synced_once = false;
    for (char *s = strtok(t, "\n"); s; s = strtok(NULL, "\n")) {
        if (strstr(s, "\"kind\":\"insn\"")) {
            const char *pc = strstr(s, "\"pc\":\"");
            if (pc)
                pcs_push(&o->all, strtoull(pc + 6, NULL, 16));
        } else if (strstr(s, "\"kind\":\"lost\"") || strstr(s, "\"kind\":\"error\"")) {
            o->losses++;
            if (o->head_to == SIZE_MAX)
                o->head_to = o->all.n;
            o->tail_from = o->all.n;
            const char *c = strstr(s, "\"lost\":");
            if (c)
                o->lost_count += strtoull(c + 7, NULL, 10);
            else if (strstr(s, "\"kind\":\"lost\""))
                o->lost_unknown = true;
        } else if (strstr(s, "\"kind\":\"sync\"")) {
            /* The first sync starts the trace; later ones after a loss
             * mark the resync point. */
            if (synced_once && o->losses)
                o->tail_from = o->all.n;
            synced_once = true;
        }
    }
    if (o->head_to == SIZE_MAX)
        o->head_to = o->all.n;
    free(t);
}

/* ---- stream formats ---- */

typedef struct fmt {
    const char *name;
    const char *ext;
    /* `rvtrace run` options writing the stream to %s (periodic syncs on, so
     * that a decoder can resynchronise inside the stream). */
    const char *run_opts;
    /* `rvtrace` arguments decoding %2$s with ELF %1$s into JSON lines on
     * stdout; NULL = the format has no flow decoder (dump only). */
    const char *decode_args;
    /* Start offsets of the packets/messages; returns how many (<= max),
     * or 0 when the container has no self-describing boundaries. */
    size_t (*bounds)(const uint8_t *b, size_t n, size_t *out, size_t max);
    uint8_t bad_byte;     /* a byte the container forbids at a packet start */
    bool ff_invalid;      /* an all-0xFF file is invalid (not idle) */
    bool zero_invalid;
    /* Resynchronisation and trailing-garbage checks fail the test (true) or
     * are counted and printed as OPEN (false: a reported decoder bug, see
     * docs/reliability.md; flip to true when it is fixed). */
    bool strict;
} fmt;

/* E-Trace raw container (docs/formats.md, DESIGN): one header byte
 * (bit 7 = 0, bits 4:0 = payload bytes) then the payload. */
static size_t te_bounds(const uint8_t *b, size_t n, size_t *out, size_t max)
{
    size_t k = 0, pos = 0;
    while (pos < n && k < max) {
        if (b[pos] & 0x80)
            break;
        out[k++] = pos;
        pos += 1u + (b[pos] & 0x1fu);
    }
    return k;
}

/* N-Trace 3.1: MSEO[1:0] = 11 ends a message; 0xFF bytes are idle. */
static size_t nt_bounds(const uint8_t *b, size_t n, size_t *out, size_t max)
{
    size_t k = 0;
    bool in_msg = false;
    for (size_t pos = 0; pos < n && k < max; pos++) {
        if (!in_msg && b[pos] == 0xff)
            continue;
        if (!in_msg) {
            out[k++] = pos;
            in_msg = true;
        }
        if ((b[pos] & 3u) == 3u)
            in_msg = false;
    }
    return k;
}

/* Encapsulation 1.0 with srcID 0 bits, no timestamp, no type (2.1):
 * null bytes (five LSBs zero) are null packets, a normal packet is its
 * header plus header.length bytes. */
static size_t encap_bounds(const uint8_t *b, size_t n, size_t *out, size_t max)
{
    size_t k = 0, pos = 0;
    while (pos < n && k < max) {
        if ((b[pos] & 0x1fu) == 0) {
            pos++;
            continue;
        }
        if (b[pos] & 0x80)
            break;
        out[k++] = pos;
        pos += 1u + (b[pos] & 0x1fu);
    }
    return k;
}

static const fmt formats[] = {
    /* E-Trace: sync every 16 packets (resync_max 0, table 2.1). */
    { "etrace", ".te", "--etrace %s --te-attr resync_mode=packets --te-attr resync_max=0",
      "decode --elf %s %s --json", te_bounds, 0x80, true, true, true },
    /* N-Trace: a sync message every 16 messages (sync=1:0, 4.x). */
    { "ntrace", ".nt", "--ntrace %s --nt-opt sync=1:0",
      "decode --elf %s %s --json", nt_bounds, 0x02, false, true, true },
    /* E-Trace in Encapsulation 1.0 with a sync sequence every 256 bytes
     * (2.3); a header with extend set and no timestamp width (0x81) is
     * forbidden, all-zero bytes are null packets (valid, empty).  Not
     * strict: payload damage reaches the E-Trace decoder as in .te. */
    { "encap", ".te", "--etrace %s --container encap --encap-sync-interval 256 "
      "--te-attr resync_mode=packets --te-attr resync_max=0",
      "decode --elf %s %s --json", encap_bounds, 0x81, true, false, false },
};

/* ---- one case ---- */

typedef enum expect {
    EX_SAFE = 0,        /* only the safety properties */
    EX_DETECT,          /* must exit 1 naming an offset >= detect_from */
    EX_PREFIX,          /* output must be a prefix of the hart's PCs */
    EX_RESYNC,          /* damage inside: if reported, tail equals the hart's */
    EX_RESYNC_SEEN,     /* EX_RESYNC, and output that differs must be reported */
} expect;

typedef struct ctx {
    const fmt *f;
    const char *elf, *good, *attrs;
    pcs hart;
    unsigned cases, detected, resynced, undetected, open;
} ctx;

/* A correctness (not safety) check failed: a test failure for a strict
 * format, else an OPEN finding that is printed and counted. */
#define CORRECTNESS_FAIL(c, ...) do { if ((c)->f->strict) TH_FAIL(__VA_ARGS__); else { \
    (c)->open++; printf("OPEN: "); printf(__VA_ARGS__); putchar('\n'); } } while (0)

static bool has_offset_in(const char *err, const char *file, size_t size)
{
    if (!err || !strstr(err, file))
        return false;
    for (const char *p = strstr(err, "offset"); p; p = strstr(p + 1, "offset")) {
        const char *q = p + 6;
        while (*q == ' ' || *q == ':' || *q == '=')
            q++;
        if (isdigit((unsigned char)*q) && strtoull(q, NULL, 0) <= size)
            return true;
    }
    return false;
}

static bool is_prefix(const pcs *a, const pcs *of, size_t n)
{
    return n <= of->n && (n == 0 || memcmp(a->v, of->v, n * sizeof *a->v) == 0);
}

static void run_case(ctx *c, const char *label, const uint8_t *b, size_t n, expect ex)
{
    char path[512], cmd[4096], args[1200], out[600], err[600];
    snprintf(path, sizeof path, "%s/case-%s%s", tmp, c->f->name, c->f->ext);
    snprintf(out, sizeof out, "%s.json", path);
    snprintf(err, sizeof err, "%s.err", path);
    if (!spit(path, b, n)) {
        TH_FAIL("%s: cannot write %s", label, path);
        return;
    }
    if (c->attrs) {
        snprintf(cmd, sizeof cmd, "cp '%s' '%s.attrs'", c->attrs, path);
        sh(cmd);
    }
    snprintf(args, sizeof args, c->f->decode_args, c->elf, path);
    snprintf(cmd, sizeof cmd, "timeout " DECODE_TIMEOUT " '%s' %s >'%s' 2>'%s'", bin, args, out, err);
    outcome o = { 0 };
    o.status = sh(cmd);
    size_t en;
    o.err = (char *)slurp(err, &en);
    parse_json(out, &o);
    c->cases++;

    if (o.status == 124)    /* a runaway decoder is OPEN until its fix lands */
        CORRECTNESS_FAIL(c, "%s %s: decoder hangs (timeout " DECODE_TIMEOUT " s)", c->f->name, label);
    else if (o.status != 0 && o.status != 1)
        TH_FAIL("%s %s: decoder exit %d (crash?)\n%s", c->f->name, label, o.status, o.err ? o.err : "");
    else
        th_passed++;
    if (o.err && (strstr(o.err, "Sanitizer") || strstr(o.err, "runtime error")))
        TH_FAIL("%s %s: sanitizer report\n%s", c->f->name, label, o.err);
    if (o.status == 1) {
        if (has_offset_in(o.err, path, n))
            th_passed++;
        else
            TH_FAIL("%s %s: the error does not name %s and an offset: %s",
                    c->f->name, label, path, o.err ? o.err : "");
    }
    if (o.status == 1 || o.losses)
        c->detected++;
    /* Damage may cost instructions, never multiply them: a decoder that
     * follows code past a lost reference emits a runaway. */
    if (o.all.n > 2 * c->hart.n + 100000)
        CORRECTNESS_FAIL(c, "%s %s: runaway: %zu PCs decoded, the hart retired %zu", c->f->name,
                         label, o.all.n, c->hart.n);

    switch (ex) {
    case EX_DETECT:
        if (o.status != 1)
            CORRECTNESS_FAIL(c, "%s %s: damage not reported (exit %d)", c->f->name, label, o.status);
        break;
    case EX_PREFIX:
        if (!is_prefix(&o.all, &c->hart, o.all.n))
            TH_FAIL("%s %s: %zu PCs decoded are not a prefix of the hart's %zu",
                    c->f->name, label, o.all.n, c->hart.n);
        break;
    case EX_RESYNC:
    case EX_RESYNC_SEEN: {
        if (!o.losses) {
            bool exact = o.all.n == c->hart.n && is_prefix(&o.all, &c->hart, o.all.n);
            if (!exact)
                c->undetected++;
            if (!exact && ex == EX_RESYNC_SEEN)
                CORRECTNESS_FAIL(c, "%s %s: %zu of the hart's %zu instructions decoded and no "
                                 "loss reported", c->f->name, label, o.all.n, c->hart.n);
            break;
        }
        size_t tail = o.all.n - o.tail_from;
        if (tail > c->hart.n || (tail && memcmp(o.all.v + o.tail_from, c->hart.v + c->hart.n - tail,
                                                tail * sizeof(uint64_t)) != 0)) {
            CORRECTNESS_FAIL(c, "%s %s: after the resync the %zu PCs differ from the hart's",
                             c->f->name, label, tail);
            break;
        }
        c->resynced++;
        /* A single loss with a count, and an exact prefix before it: the
         * count must be the true number of instructions lost. */
        if (o.losses == 1 && o.lost_count && !o.lost_unknown &&
            is_prefix(&o.all, &c->hart, o.head_to) && o.head_to == o.tail_from &&
            o.head_to + o.lost_count + tail != c->hart.n)
            CORRECTNESS_FAIL(c, "%s %s: %" PRIu64 " instructions reported lost, %zu really", c->f->name,
                             label, o.lost_count, c->hart.n - o.head_to - tail);
        break;
    }
    default:
        break;
    }
    outcome_free(&o);
}

/* Evenly spread sample of k indices out of n (all of them when n <= k). */
static size_t pick(size_t i, size_t n, size_t k)
{
    return n <= k ? i : (i * (n - 1)) / (k - 1);
}

static void damage_all(ctx *c, const uint8_t *g, size_t n)
{
    size_t *bd = malloc((n + 1) * sizeof *bd);
    size_t nb = c->f->bounds(g, n, bd, n);
    uint8_t *b = malloc(2 * n + 256);
    char label[128];
    size_t k = nb < MAX_CASES_PER_KIND ? nb : MAX_CASES_PER_KIND;

    /* Truncation at packet boundaries (a buffer that stopped cleanly) and in
     * the middle of a packet (a probe that dropped the end). */
    for (size_t i = 1; i < k; i++) {
        size_t at = bd[pick(i, nb, k)];
        snprintf(label, sizeof label, "truncated at boundary %zu", at);
        run_case(c, label, g, at, EX_PREFIX);
        size_t next = pick(i, nb, k) + 1 < nb ? bd[pick(i, nb, k) + 1] : n;
        if (next - at >= 2) {
            size_t mid = at + (next - at) / 2;
            snprintf(label, sizeof label, "truncated at %zu inside the packet at %zu", mid, at);
            run_case(c, label, g, mid, EX_DETECT);
        }
    }
    /* Every bit of byte 0 (the first packet/message header: the decoder
     * has no earlier state to fall back on).  Instructions can go missing
     * silently only if the flip leaves a valid stream with the same PCs. */
    for (unsigned bit = 0; bit < 8; bit++) {
        memcpy(b, g, n);
        b[0] ^= (uint8_t)(1u << bit);
        snprintf(label, sizeof label, "bit %u flipped at 0", bit);
        run_case(c, label, b, n, EX_RESYNC_SEEN);
    }
    /* Single bit flips, then bursts of 8 flips, spread over the stream. */
    for (size_t i = 0; i < 2 * MAX_CASES_PER_KIND; i++) {
        size_t at = pick(i, n, 2 * MAX_CASES_PER_KIND);
        memcpy(b, g, n);
        b[at] ^= (uint8_t)(1u << (i % 8));
        snprintf(label, sizeof label, "bit %zu flipped at %zu", i % 8, at);
        run_case(c, label, b, n, EX_RESYNC);
        for (unsigned j = 0; j < 8 && at + j * 7 < n; j++)
            b[at + j * 7] ^= (uint8_t)(0x81u >> (j % 8));
        snprintf(label, sizeof label, "burst of flips at %zu", at);
        run_case(c, label, b, n, EX_RESYNC);
    }
    /* Garbage prefix (bytes the container forbids, then pseudo-random) and
     * garbage suffix. */
    memset(b, c->f->bad_byte, 16);
    memcpy(b + 16, g, n);
    run_case(c, "invalid-byte prefix", b, n + 16, EX_DETECT);
    uint32_t x = 0x12345678;
    for (size_t i = 0; i < 64; i++) {
        x = x * 1103515245u + 12345u;
        b[i] = (uint8_t)(x >> 24);
    }
    memcpy(b + 64, g, n);
    run_case(c, "random prefix", b, n + 64, EX_RESYNC);
    memcpy(b, g, n);
    memset(b + n, c->f->bad_byte, 16);
    run_case(c, "invalid-byte suffix", b, n + 16, EX_DETECT);
    /* All-zero and all-0xFF files of the same size; an empty file. */
    memset(b, 0, n);
    run_case(c, "all zero", b, n, c->f->zero_invalid ? EX_DETECT : EX_SAFE);
    memset(b, 0xff, n);
    run_case(c, "all 0xFF", b, n, c->f->ff_invalid ? EX_DETECT : EX_PREFIX);
    run_case(c, "empty", b, 0, EX_PREFIX);
    /* Deleted and duplicated chunks: whole packets and arbitrary bytes. */
    for (size_t i = 1; i + 1 < k; i++) {
        size_t p = pick(i, nb, k), a = bd[p], e = p + 3 < nb ? bd[p + 3] : n;
        memcpy(b, g, a);
        memcpy(b + a, g + e, n - e);
        snprintf(label, sizeof label, "packets [%zu,%zu) deleted", a, e);
        run_case(c, label, b, n - (e - a), EX_RESYNC);
        memcpy(b, g, e);
        memcpy(b + e, g + a, n - a);
        snprintf(label, sizeof label, "packets [%zu,%zu) duplicated", a, e);
        run_case(c, label, b, n + (e - a), EX_RESYNC);
        size_t ra = a + 1 < n ? a + 1 : a, re = ra + 5 < n ? ra + 5 : n;
        memcpy(b, g, ra);
        memcpy(b + ra, g + re, n - re);
        snprintf(label, sizeof label, "bytes [%zu,%zu) deleted", ra, re);
        run_case(c, label, b, n - (re - ra), EX_RESYNC);
    }
    free(b);
    free(bd);
}

static void one_format(const fmt *f, const char *elf, const char *prog)
{
    char good[512], hartpcs[512], attrs[600], cmd[4096], opts[600];
    snprintf(good, sizeof good, "%s/good-%s-%s%s", tmp, prog, f->name, f->ext);
    snprintf(hartpcs, sizeof hartpcs, "%s/good-%s.pcs", tmp, prog);
    snprintf(opts, sizeof opts, f->run_opts, good);
    snprintf(cmd, sizeof cmd, "timeout 120 '%s' run '%s' --max-instr " RUN_INSNS
             " --pcs '%s' %s >/dev/null 2>'%s.err'", bin, elf, hartpcs, opts, good);
    int rc = sh(cmd);
    if (rc != 0 && rc != 1) {
        printf("SKIP %s on %s: `rvtrace run %s` failed (see %s.err)\n", f->name, prog, opts, good);
        return;
    }
    ctx c = { .f = f, .elf = elf, .good = good };
    snprintf(attrs, sizeof attrs, "%s.attrs", good);
    if (access(attrs, R_OK) == 0)
        c.attrs = attrs;
    size_t n;
    uint8_t *g = slurp(good, &n);
    if (!g || !read_pcs(hartpcs, &c.hart) || n == 0) {
        printf("SKIP %s on %s: `rvtrace run` wrote no stream or no PCs (see %s.err)\n", f->name,
               prog, good);
        free(g);
        return;
    }
    /* The pristine stream must decode to exactly the hart's PCs. */
    run_case(&c, "pristine", g, n, EX_PREFIX);
    damage_all(&c, g, n);
    printf("%s on %s: %zu bytes, %zu instructions: %u cases, %u reported, "
           "%u resynchronised, %u undetected damages, %u OPEN findings%s\n",
           f->name, prog, n, c.hart.n, c.cases, c.detected, c.resynced, c.undetected, c.open,
           f->strict ? "" : " (not strict: docs/reliability.md)");
    free(g);
    free(c.hart.v);
}

/* ---- perf.data (docs/perfdata.md): the container real captures come in ----
 * A file made by the library's writer, laid out (derived by hand from
 * perf.data-file-format.txt and the writer's choices, docs/perfdata.md):
 *     0   header, 104 bytes (magic, size, attr_size 128, attrs {104, 128},
 *         data {232, size}, event_types, features)
 *   104   one attribute: perf_event_attr VER5 (112 bytes) + its ids section
 *   232   COMM "sort": header 8 + pid/tid 8 + "sort" NUL-padded to 8 = 24
 *   256   MMAP2 "sort.elf": header 8 + fixed 64 + name padded to 16 = 88
 *   344   AUXTRACE: header 8 + fixed 40, then 16 bytes of AUX data
 *   408   end
 * Each damaged copy must make `dump` and `decode --symfs` exit 1 with an
 * error naming the file and the byte offset at fault. */
#define PERF_COMM_AT 232u
#define PERF_AUX_AT 344u

static void put_le(uint8_t *b, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static uint8_t *perf_good(size_t *n)
{
    static const uint8_t aux[16] = { 0 };   /* encapsulation null bytes */
    rvt_perf_writer *w = rvt_perf_writer_new(NULL);
    const uint8_t *b = NULL;
    CHECK(w != NULL);
    if (!w)
        return NULL;
    CHECK_EQ(rvt_perf_write_comm(w, 1, 1, "sort"), 0);
    CHECK_EQ(rvt_perf_write_mmap2(w, 1, 1, 0x80000000u, 0x10000, 0, 5, 2, "sort.elf"), 0);
    CHECK_EQ(rvt_perf_write_auxtrace(w, 0, 1, aux, sizeof aux), 0);
    CHECK_EQ(rvt_perf_writer_finish(w, &b, n), 0);
    uint8_t *copy = malloc(*n);
    if (copy)
        memcpy(copy, b, *n);
    rvt_perf_writer_free(w);
    CHECK_EQ(*n, 408);
    return copy;
}

/* `rvtrace CMD ARGS FILE`: exit 1 and "offset OFF" with the file's name. */
static void perf_case(const char *label, const uint8_t *b, size_t n, uint64_t off)
{
    char path[512], err[600], cmd[2048], want[64];
    snprintf(path, sizeof path, "%s/perf-%s.data", tmp, label);
    snprintf(err, sizeof err, "%s.err", path);
    if (!spit(path, b, n)) {
        TH_FAIL("perf %s: cannot write %s", label, path);
        return;
    }
    static const char *const cmds[] = { "dump", "decode --count --symfs" };
    for (size_t i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "timeout %s '%s' %s%s%s%s '%s' >/dev/null 2>'%s'",
                 DECODE_TIMEOUT, bin, cmds[i], i ? " '" : "", i ? src : "",
                 i ? "/programs'" : "", path, err);
        int rc = sh(cmd);
        size_t en;
        char *e = (char *)slurp(err, &en);
        snprintf(want, sizeof want, "offset %" PRIu64, off);
        if (rc != 1)
            TH_FAIL("perf %s, %s: exit %d, want 1", label, cmds[i], rc);
        if (!e || !strstr(e, path) || !strstr(e, want))
            TH_FAIL("perf %s, %s: error '%s' does not name the file and %s", label, cmds[i],
                    e ? e : "(none)", want);
        free(e);
    }
}

static void perf_cases(void)
{
    size_t n;
    uint8_t *g = perf_good(&n);
    uint8_t *b = g ? malloc(n) : NULL;
    if (!b) {
        free(g);
        return;
    }
    /* truncated header: 50 of its 104 bytes; the first missing byte */
    perf_case("header-cut", g, 50, 50);
    /* bad section offsets: data.offset (header bytes 40-47) past the end */
    memcpy(b, g, n);
    put_le(b + 40, n + 8, 8);
    perf_case("data-offset", b, n, 40);
    /* attrs.offset (bytes 24-31) past the end */
    memcpy(b, g, n);
    put_le(b + 24, 1u << 20, 8);
    perf_case("attrs-offset", b, n, 24);
    /* record size 0 (COMM's header.size, record bytes 6-7): the record */
    memcpy(b, g, n);
    put_le(b + PERF_COMM_AT + 6, 0, 2);
    perf_case("record-size-0", b, n, PERF_COMM_AT);
    /* AUX size (AUXTRACE body bytes 0-7) past the end of the file */
    memcpy(b, g, n);
    put_le(b + PERF_AUX_AT + 8, 1u << 20, 8);
    perf_case("aux-size", b, n, PERF_AUX_AT);
    printf("perf.data: 5 damaged files, dump and decode\n");
    free(b);
    free(g);
}

int main(void)
{
    bin = getenv("RVT_BIN");
    src = getenv("RVT_SRC");
    if (!bin || !src) {
        printf("SKIP: RVT_BIN/RVT_SRC not set (run through ctest)\n");
        return 0;
    }
    static char tdir[512];
    snprintf(tdir, sizeof tdir, "%s/tests/tmp-corrupt-%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid());
    tmp = tdir;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", tmp);
    sh(cmd);
    /* A small set of workloads: straight-line + branches, traps, RV32. */
    static const char *const progs[] = { "sort", "ecall", "crc_rv32" };
    unsigned found = 0;
    for (size_t p = 0; p < sizeof progs / sizeof *progs; p++) {
        char elf[512];
        snprintf(elf, sizeof elf, "%s/programs/%s.elf", src, progs[p]);
        if (access(elf, R_OK) != 0)
            continue;
        found++;
        for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
            one_format(&formats[i], elf, progs[p]);
    }
    if (!found)
        printf("SKIP: no workloads in %s/programs\n", src);
    else
        perf_cases();
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (th_failed == 0)
        sh(cmd);
    return TH_DONE();
}
