/* rvtrace run: placeholder until its module lands. */
#include "cli.h"

const char cmd_run_help[] = "usage: rvtrace run PROG.elf [OPTIONS]\n";

int cmd_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_err("this build has no 'run' yet");
    return CLI_FAIL;
}
