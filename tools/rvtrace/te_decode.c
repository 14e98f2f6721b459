/* rvtrace decode --elf P.elf F.te: rebuild the retired instructions. */
#include "cli.h"
#include "te_opts.h"

int te_cmd_decode(int argc, char **argv)
{
    (void)argc; (void)argv;
    cli_err("decode: E-Trace decoding needs the program image module");
    return CLI_FAIL;
}
