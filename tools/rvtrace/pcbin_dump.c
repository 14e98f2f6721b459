/* rvtrace dump FILE of a binary PC list (rvtrace/pcbin.h, written by
 * decode --pcs-bin): the PCs as text, one per line, exactly as decode
 * --pcs writes them (the "pcs" writer does it): the converter back to a
 * text PC list.  Known by its magic, whatever the file's name. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "pcbin_dump.h"
#include "rvtrace/pcbin.h"

bool pcbin_is_file(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return false;       /* a FIFO or device is read once, by the trace's dump */
    char head[6] = { 0 };
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    bool is = fread(head, 1, sizeof head, f) == sizeof head && !memcmp(head, RVT_PCBIN_MAGIC, 6);
    fclose(f);
    return is;
}

/* Every PC of the list to the pcs writer on stdout, in batches. */
static int list_out(const rvt_pcbin *pl)
{
    rvt_out *o = rvt_out_open(rvt_out_find("pcs"), stdout, NULL);
    if (!o)
        return CLI_FAIL;
    uint64_t pcs[4096];
    size_t n;
    rvt_flow_event ev = { .kind = RVT_EV_INSN };
    for (uint64_t at = 0; (n = rvt_pcbin_read(pl, at, pcs, 4096)) > 0; at += n)
        for (size_t i = 0; i < n; i++) {
            ev.pc = pcs[i];
            rvt_out_event(o, &ev);
        }
    rvt_out_free(o);
    return ferror(stdout) ? CLI_FAIL : CLI_OK;
}

int pcbin_dump_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) < 0) {
        cli_err("%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return CLI_FAIL;
    }
    size_t len = (size_t)sb.st_size;
    /* mapped, not read: a list is 8 bytes an instruction */
    void *map = len ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
    close(fd);
    if (len && map == MAP_FAILED) {
        cli_err("%s: %s", path, strerror(errno));
        return CLI_FAIL;
    }
    rvt_pcbin pl;
    uint64_t bad = 0;
    int st = rvt_pcbin_open(&pl, map, len, &bad);
    int rc = CLI_FAIL;
    if (st < 0)
        cli_diag((void *)path, RVT_DIAG_ERROR, bad, rvt_status_str(st));
    else
        rc = list_out(&pl);
    if (len)
        munmap(map, len);
    return rc;
}
