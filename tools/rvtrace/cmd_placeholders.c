/* Placeholders for subcommands whose modules have not landed yet. */
#include "cli.h"

const char cmd_run_help[] = "usage: rvtrace run PROG.elf [OPTIONS]\n";
const char cmd_import_help[] = "usage: rvtrace import FORMAT IN -o OUT.rvi\n";
const char cmd_disasm_help[] = "usage: rvtrace disasm PROG.elf\n";

static int absent(const char *what)
{
    cli_err("this build has no '%s' yet", what);
    return CLI_FAIL;
}

int cmd_run(int argc, char **argv) { (void)argc; (void)argv; return absent("run"); }
int cmd_import(int argc, char **argv) { (void)argc; (void)argv; return absent("import"); }
int cmd_disasm(int argc, char **argv) { (void)argc; (void)argv; return absent("disasm"); }
int rvi_cmd_dump(int argc, char **argv) { (void)argc; (void)argv; return absent("dump of .rvi"); }
