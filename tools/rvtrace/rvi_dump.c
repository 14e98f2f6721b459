/* rvtrace dump F.rvi: placeholder until the ingress module lands. */
#include "cli.h"

int rvi_cmd_dump(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_err("this build cannot dump .rvi files yet");
    return CLI_FAIL;
}
