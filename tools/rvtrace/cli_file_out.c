/* The file writers' options (cli_file_out.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_file_out.h"
#include "rvtrace/flow.h"

static const rvt_out_writer *override;

void cli_file_out_override(const rvt_out_writer *w)
{
    override = w;
}

bool cli_file_out_valued(const char *arg)
{
    const rvt_out_writer *w = strncmp(arg, "--", 2) ? NULL : rvt_out_find(arg + 2);
    return w && w->file_option;
}

int cli_file_outs_add(cli_file_outs *fo, const rvt_out_writer *w, const char *path, const char *opt)
{
    if (fo->n == CLI_FILE_OUTS_MAX) {
        cli_err("%s: more than %d file outputs", opt, CLI_FILE_OUTS_MAX);
        return CLI_USAGE;
    }
    fo->w[fo->n] = w;
    fo->path[fo->n++] = path;
    return CLI_OK;
}

bool cli_file_out_opt(cli_file_outs *fo, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (strncmp(a, "--", 2))
        return false;
    size_t n = strcspn(a + 2, "=");
    const rvt_out_writer *w;
    for (size_t k = 0; (w = rvt_out_writer_at(k)) != NULL; k++) {
        if (!w->file_option || strlen(w->name) != n || strncmp(a + 2, w->name, n))
            continue;
        char opt[64];
        snprintf(opt, sizeof opt, "--%s", w->name);
        const char *v = cli_opt(argc, argv, i, opt);
        if (!v)
            return false;
        if (cli_file_outs_add(fo, override && !strcmp(override->name, w->name) ? override : w, v,
                              opt) != CLI_OK)
            exit(CLI_USAGE);    /* as cli_opt does: nothing is written yet */
        return true;
    }
    return false;
}

int cli_file_outs_open(cli_file_outs *fo, rvt_image *img)
{
    for (size_t k = 0; k < fo->n; k++) {
        if (!(fo->f[k] = cli_out_fopen(fo->path[k], "w")))
            return CLI_FAIL;
        if (!(fo->out[k] = rvt_out_open(fo->w[k], fo->f[k], img))) {
            cli_err("%s: cannot start the %s output (out of memory, or no image)", fo->path[k],
                    fo->w[k]->name);
            return CLI_FAIL;
        }
    }
    return CLI_OK;
}

void cli_file_outs_event(cli_file_outs *fo, const rvt_flow_event *ev)
{
    for (size_t k = 0; k < fo->n; k++)
        if (fo->out[k])
            rvt_out_event(fo->out[k], ev);
}

int cli_file_outs_run(cli_file_outs *fo, const rvt_flow_event *ev)
{
    for (size_t k = 0; k < fo->n; k++)
        if (fo->out[k] && rvt_out_run(fo->out[k], ev) < 0)
            return CLI_FAIL;
    return CLI_OK;
}

int cli_file_outs_block(cli_file_outs *fo, const struct rvt_block *b)
{
    for (size_t k = 0; k < fo->n; k++)
        if (fo->out[k] && rvt_out_block(fo->out[k], b) < 0)
            return CLI_FAIL;
    return CLI_OK;
}

bool cli_file_outs_take_blocks(const cli_file_outs *fo)
{
    for (size_t k = 0; k < fo->n; k++)
        if (!fo->w[k]->block)
            return false;
    return true;
}

void cli_file_outs_blocks(cli_file_outs *fo, const struct rvt_block *b, size_t n)
{
    for (size_t k = 0; k < fo->n; k++) {
        /* a block an output refuses is passed over, as cli_file_outs_block's
         * caller in report does; the rest still go to it */
        for (size_t at = 0, done; fo->out[k] && at < n; at += done + 1)
            if (rvt_out_blocks(fo->out[k], b + at, n - at, &done) == 0)
                break;
    }
}

uint64_t cli_file_outs_insns(const cli_file_outs *fo)
{
    return fo->n && fo->out[0] ? rvt_out_insns(fo->out[0]) : 0;
}

int cli_file_outs_close(cli_file_outs *fo)
{
    int rc = CLI_OK;
    for (size_t k = 0; k < fo->n; k++) {
        if (fo->out[k])
            rvt_out_free(fo->out[k]);
        FILE *f = fo->f[k];
        if (f && (ferror(f) | (f == stdout ? fflush(f) : fclose(f)))) {
            cli_err("%s: cannot write: %s", fo->path[k], strerror(errno));
            rc = CLI_FAIL;
        }
        fo->out[k] = NULL;
        fo->f[k] = NULL;
    }
    return rc;
}
