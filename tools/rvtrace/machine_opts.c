/* run's machine options (docs/hart.md "Spike's machine"): --machine
 * virt|spike and --mem BASE:SIZE, parsed into the hart configuration. */
#include <string.h>
#include "cli.h"
#include "machine_opts.h"

/* BASE:SIZE, both numbers (SIZE may use the k/M/G size suffixes), both
 * multiples of 4 KiB (the hart's page, as --ram-size). */
static bool parse_mem(const char *v, rvt_hart_cfg *cfg)
{
    const char *colon = strchr(v, ':');
    char base_text[40];
    uint64_t base, size;
    if (!colon || (size_t)(colon - v) >= sizeof base_text) {
        cli_err("--mem: expected BASE:SIZE (e.g. 0x20010000:64k), got '%s'", v);
        return false;
    }
    memcpy(base_text, v, (size_t)(colon - v));
    base_text[colon - v] = 0;
    if (!cli_parse_range("--mem base", base_text, CLI_NUM_PLAIN, 0, UINT64_MAX, &base) ||
        !cli_parse_ram_size("--mem size", colon + 1, &size))
        return false;
    if (base % 4096) {
        cli_err("--mem: base %s is not a multiple of the 4 KiB page", base_text);
        return false;
    }
    if (cfg->nmem == RVT_HART_MEM_MAX) {
        cli_err("--mem: at most %d regions", RVT_HART_MEM_MAX);
        return false;
    }
    cfg->mem[cfg->nmem].base = base;
    cfg->mem[cfg->nmem].size = size;
    cfg->nmem++;
    return true;
}

bool machine_opt(int argc, char **argv, int *i, rvt_hart_cfg *cfg, bool *err)
{
    const char *v;
    if ((v = cli_opt(argc, argv, i, "--mem"))) {
        *err = !parse_mem(v, cfg);
        return true;
    }
    if ((v = cli_opt(argc, argv, i, "--machine"))) {
        if (!strcmp(v, "spike") || !strcmp(v, "virt")) {
            cfg->spike_machine = !strcmp(v, "spike");
        } else {
            cli_err("--machine must be virt or spike, not '%s'", v);
            *err = true;
        }
        return true;
    }
    return false;
}
