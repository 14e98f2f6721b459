/* rvtrace disasm: placeholder until its module lands. */
#include "cli.h"

const char cmd_disasm_help[] = "usage: rvtrace disasm PROG.elf\n";

int cmd_disasm(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_err("this build has no 'disasm' yet");
    return CLI_FAIL;
}
