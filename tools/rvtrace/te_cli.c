/* E-Trace CLI pieces: placeholder until the E-Trace module lands. */
#include "cli.h"

const char te_options_help[] = "";

static int absent(void)
{
    cli_err("this build has no E-Trace path yet");
    return CLI_FAIL;
}

int te_cmd_dump(int argc, char **argv) { (void)argc; (void)argv; return absent(); }
int te_cmd_decode(int argc, char **argv) { (void)argc; (void)argv; return absent(); }
int te_cmd_encode(int argc, char **argv) { (void)argc; (void)argv; return absent(); }

bool te_is_run_option(int argc, char **argv, int i, int *consumed)
{
    (void)argc; (void)argv; (void)i; (void)consumed;
    return false;
}

int te_sink_open(int argc, char **argv, unsigned xlen, rvt_irec_sink *out, void **handle)
{
    (void)argc; (void)argv; (void)xlen; (void)out; (void)handle;
    return absent();
}

int te_sink_close(void *handle) { (void)handle; return 0; }
