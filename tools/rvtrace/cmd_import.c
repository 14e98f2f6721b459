/* rvtrace import: placeholder until its module lands. */
#include "cli.h"

const char cmd_import_help[] = "usage: rvtrace import FORMAT IN -o OUT.rvi\n";

int cmd_import(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_err("this build has no 'import' yet");
    return CLI_FAIL;
}
