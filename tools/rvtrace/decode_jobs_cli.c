/* --jobs and --range for decode (decode_jobs.h). */
#include <string.h>
#include "cli.h"
#include "cli_index.h"
#include "decode_jobs.h"

#define JOBS_MAX 256

static bool parse_range(const char *v, jobs_opts *o)
{
    const char *colon = v ? strchr(v, ':') : NULL;
    char a[32];
    if (!colon || (size_t)(colon - v) >= sizeof a)
        return false;
    memcpy(a, v, (size_t)(colon - v));
    a[colon - v] = 0;
    return cli_parse_u64(a, &o->a) && cli_parse_u64(colon + 1, &o->b) && o->a <= o->b;
}

int jobs_opts_parse(const cli_args *a, jobs_opts *o)
{
    *o = (jobs_opts){ .jobs = 1 };
    const char *j = cli_args_value(a, O_JOBS), *r = cli_args_value(a, O_RANGE);
    uint64_t n;
    if (j && (!cli_parse_u64(j, &n) || n < 1 || n > JOBS_MAX)) {
        cli_err("decode: --jobs %s: want a number of threads 1..%d", j, JOBS_MAX);
        return CLI_USAGE;
    }
    if (r && !parse_range(r, o)) {
        cli_err("decode: --range %s: want A:B, index points A <= B (rvtrace index --list)", r);
        return CLI_USAGE;
    }
    if (j)
        o->jobs = (unsigned)n;
    o->range = r != NULL;
    /* --jobs 1: the pieces one after the other (the pages of each given
     * back); no --jobs: one decoder over the whole stream */
    o->active = o->range || j;
    if (o->active && cli_args_has(a, O_SMC)) {
        cli_err("decode: --smc follows fence.i through the whole trace: not with --jobs/--range");
        return CLI_USAGE;
    }
    return CLI_OK;
}

static bool is_etrace(const rvt_proto_cfg *cfg)
{
    return !strncmp(rvt_proto_name(rvt_proto_cfg_proto(cfg)), "etrace", 6);
}

bool jobs_runs(const jobs_opts *o, bool keep_insns)
{
    return keep_insns && !o->range;     /* both protocols' decoders have a run mode */
}

int jobs_decode_trace(const jobs_opts *o, const char *path, const rvt_proto_cfg *cfg,
                      const trace_in *in, const rvt_mem *mem, int src, bool keep_insns,
                      bool runs, rvt_flow_fn fn, rvt_blocks_fn fn_blocks,
                      const jobs_pcl *pcl, void *ctx, jobs_result *r)
{
    /* --range numbers every point (rvtrace index --list); pieces need
     * only the points a piece apart */
    uint64_t gap = o->range ? 0 : decode_jobs_piece_bytes(in->len, o->jobs, keep_insns,
                                                                  pcl && fn_blocks);
    rvt_index *x = cli_index_get(path, cfg, in, gap);
    if (!x)
        return CLI_FAIL;
    bool te = is_etrace(cfg);
    jobs_cfg c = { .kind = te ? KIND_TE : KIND_NT, .native = rvt_proto_cfg_native_const(cfg),
                   .mem = mem, .src = src, .buf = in->buf, .len = in->len, .idx = x,
                   .jobs = o->jobs, .range = o->range, .a = (size_t)o->a, .b = (size_t)o->b,
                   .keep_insns = keep_insns, .runs = runs, .cfg = cfg, .fn_blocks = fn_blocks,
                   .blocks = fn_blocks && keep_insns && !o->range,
                   .mapped = in->map != NULL, .fn = fn, .ctx = ctx };
    c.blocks = c.blocks && !decode_jobs_merges(&c);   /* the merge takes events */
    c.pcl = c.blocks ? pcl : NULL;
    int rc = CLI_OK;
    if (o->range && o->b >= rvt_index_count(x)) {
        cli_err("%s: --range %llu:%llu: the index has %zu points (0..%zu)", path,
                (unsigned long long)o->a, (unsigned long long)o->b, rvt_index_count(x),
                rvt_index_count(x) ? rvt_index_count(x) - 1 : 0);
        rc = CLI_FAIL;
    } else if (o->range && rvt_index_sources(x) > 1) {
        cli_err("%s: --range: the stream holds %u sources; a range needs one", path,
                rvt_index_sources(x));
        rc = CLI_FAIL;
    } else {
        int st = decode_jobs(&c, r);
        if (st < 0) {
            cli_err("%s: %s", path, rvt_status_str(st));
            rc = CLI_FAIL;
        }
    }
    rvt_index_free(x);
    return rc;
}
