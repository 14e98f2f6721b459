/* rvtrace encode --etrace and the `run --etrace` sink. */
#include "cli.h"
#include "te_opts.h"

int te_cmd_encode(int argc, char **argv)
{
    (void)argc; (void)argv;
    cli_err("encode: E-Trace encoder not linked");
    return CLI_FAIL;
}

bool te_is_run_option(int argc, char **argv, int i, int *consumed)
{
    (void)argc; (void)argv; (void)i; (void)consumed;
    return false;
}

int te_sink_open(int argc, char **argv, unsigned xlen, rvt_irec_sink *out, void **handle)
{
    (void)argc; (void)argv; (void)xlen; (void)out; (void)handle;
    return CLI_FAIL;
}

int te_sink_close(void *handle) { (void)handle; return 0; }
