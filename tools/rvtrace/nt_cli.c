/* N-Trace CLI pieces not yet split into nt_*.c. */
#include "cli.h"

static int absent(void)
{
    cli_err("this build has no N-Trace encoder/decoder yet");
    return CLI_FAIL;
}

int nt_cmd_decode(int argc, char **argv) { (void)argc; (void)argv; return absent(); }
int nt_cmd_encode(int argc, char **argv) { (void)argc; (void)argv; return absent(); }

bool nt_is_run_option(int argc, char **argv, int i, int *consumed)
{
    (void)argc; (void)argv; (void)i; (void)consumed;
    return false;
}

int nt_sink_open(int argc, char **argv, unsigned xlen, rvt_irec_sink *out, void **handle)
{
    (void)argc; (void)argv; (void)xlen; (void)out; (void)handle;
    return absent();
}

int nt_sink_close(void *handle) { (void)handle; return 0; }
