/* Hostile ELF files given to `rvtrace run` and `rvtrace decode --elf`
 * ($RVT_BIN, a black box): overlapping segments, segments outside memory,
 * huge p_memsz, p_filesz > p_memsz, entry outside every segment, program
 * headers past the end / overlapping the ELF header / 65535 of them,
 * truncation at every byte of the header area, a wrong class or machine.
 * Each must end (timeout) with exit 1 and a message, never a crash, a
 * sanitizer report or memory proportional to a length field (the child's
 * peak RSS is checked).  The well-formed base file must run.  Skipped with
 * a note while the build's `run` is a placeholder. */
#include <elf.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tharness.h"

#define RAM 0x80000000ull
#define MAX_RSS_KB (512 * 1024)   /* ASan's own overhead included */

static const char *bin, *tmp;

/* A minimal RV64 executable: ELF header, NPH program headers, code.  The
 * code writes the QEMU virt test finisher (0x100000 <- 0x5555, pass) the
 * way programs/ do, so the base file runs to a clean exit. */
typedef struct elf_img {
    Elf64_Ehdr eh;
    Elf64_Phdr ph[2];
    uint32_t code[8];
} elf_img;

static void base_elf(elf_img *e)
{
    memset(e, 0, sizeof *e);
    memcpy(e->eh.e_ident, ELFMAG, SELFMAG);
    e->eh.e_ident[EI_CLASS] = ELFCLASS64;
    e->eh.e_ident[EI_DATA] = ELFDATA2LSB;
    e->eh.e_ident[EI_VERSION] = EV_CURRENT;
    e->eh.e_type = ET_EXEC;
    e->eh.e_machine = EM_RISCV;
    e->eh.e_version = EV_CURRENT;
    e->eh.e_entry = RAM;
    e->eh.e_phoff = offsetof(elf_img, ph);
    e->eh.e_ehsize = sizeof(Elf64_Ehdr);
    e->eh.e_phentsize = sizeof(Elf64_Phdr);
    e->eh.e_phnum = 1;
    Elf64_Phdr *p = &e->ph[0];
    p->p_type = PT_LOAD;
    p->p_flags = PF_R | PF_X;
    p->p_offset = offsetof(elf_img, code);
    p->p_vaddr = p->p_paddr = RAM;
    p->p_filesz = p->p_memsz = sizeof e->code;
    p->p_align = 4;
    /* lui t0,0x100; lui t1,0x5; addi t1,t1,0x555; sw t1,0(t0); j . */
    static const uint32_t code[8] = { 0x001002b7, 0x00005337, 0x55530313, 0x0062a023,
                                      0x0000006f, 0, 0, 0 };
    memcpy(e->code, code, sizeof code);
}

static bool write_file(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(b, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* Run argv with a 20 s timeout; *rss_kb gets the child's peak RSS. */
static int run(char *const argv[], const char *errpath, long *rss_kb)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int nul = open("/dev/null", O_RDWR);
        dup2(nul, 0);
        dup2(nul, 1);
        dup2(fd, 2);
        alarm(20);
        execv(argv[0], argv);
        _exit(127);
    }
    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    wait4(pid, &st, 0, &ru);
    *rss_kb = ru.ru_maxrss;
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return WEXITSTATUS(st);
}

static char *slurp_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    char *b = calloc(1, 65536);
    size_t n = fread(b, 1, 65535, f);
    b[n] = 0;
    fclose(f);
    return b;
}

static bool placeholder;

/* What a hostile file must do.  A file whose structure is sound but whose
 * contents cannot run (entry or segments outside RAM, overlaps) is only an
 * error for `run`: `decode` may accept it.  TOLERATED: either may accept.
 * Never a crash, hang, sanitizer report or runaway memory. */
typedef enum verdict { BOTH_FAIL, RUN_FAILS, TOLERATED } verdict;

/* One hostile file through `run` and `decode --elf`. */
static void check_file(const char *label, const void *b, size_t n, verdict v)
{
    char path[512], err[600], te[600];
    snprintf(path, sizeof path, "%s/%s.elf", tmp, label);
    snprintf(err, sizeof err, "%s.err", path);
    snprintf(te, sizeof te, "%s/empty.te", tmp);
    if (!write_file(path, b, n)) {
        TH_FAIL("%s: cannot write %s", label, path);
        return;
    }
    /* --max-instr: a file that loads but loops must still end. */
    char *runv[] = { (char *)bin, "run", "--max-instr", "1000000", path, NULL };
    char *decv[] = { (char *)bin, "decode", "--elf", path, te, NULL };
    char *const *cmds[2] = { runv, decv };
    for (int c = 0; c < 2; c++) {
        long rss = 0;
        int rc = run(cmds[c], err, &rss);
        char *text = slurp_text(err);
        if (strstr(text, "this build has no") || strstr(text, "this build cannot")) {
            placeholder = true;
            free(text);
            continue;
        }
        const char *what = c ? "decode --elf" : "run";
        if (rc == 128 + SIGALRM)
            TH_FAIL("%s: %s hangs", label, what);
        else if (rc > 2)
            TH_FAIL("%s: %s exit %d (crash?)\n%s", label, what, rc, text);
        else if (rc == 0 && (v == BOTH_FAIL || (v == RUN_FAILS && c == 0)))
            TH_FAIL("%s: %s accepted the file", label, what);
        else if (rc != 0 && !*text)
            TH_FAIL("%s: %s failed without a message", label, what);
        else
            th_passed++;
        if (strstr(text, "Sanitizer") || strstr(text, "runtime error"))
            TH_FAIL("%s: %s: sanitizer report\n%s", label, what, text);
        if (rss > MAX_RSS_KB)
            TH_FAIL("%s: %s peak RSS %ld KiB", label, what, rss);
        free(text);
    }
}

int main(void)
{
    bin = getenv("RVT_BIN");
    if (!bin) {
        printf("SKIP: RVT_BIN not set (run through ctest)\n");
        return 0;
    }
    static char dir[256];
    snprintf(dir, sizeof dir, "/tmp/rvt-hostile-elf-%d", (int)getpid());
    tmp = dir;
    mkdir(tmp, 0755);
    char te[300];
    snprintf(te, sizeof te, "%s/empty.te", tmp);
    write_file(te, "", 0);

    elf_img e;
    /* The base file is well formed: `run` must exit 0 (the finisher). */
    base_elf(&e);
    {
        char path[300], err[320];
        snprintf(path, sizeof path, "%s/base.elf", tmp);
        snprintf(err, sizeof err, "%s.err", path);
        write_file(path, &e, sizeof e);
        char *argv[] = { (char *)bin, "run", path, NULL };
        long rss;
        int rc = run(argv, err, &rss);
        char *text = slurp_text(err);
        if (strstr(text, "this build has no") || strstr(text, "this build cannot"))
            placeholder = true;
        else if (rc != 0)
            TH_FAIL("base ELF does not run (exit %d): %s", rc, text);
        free(text);
    }

#define hostile(label, b, n) check_file(label, b, n, BOTH_FAIL)
#define unrunnable(label, b, n) check_file(label, b, n, RUN_FAILS)
#define tolerated(label, b, n) check_file(label, b, n, TOLERATED)
    hostile("empty", &e, 0);
    for (size_t cut = 1; cut < offsetof(elf_img, code) + 4; cut += (cut < 64 ? 1 : 7)) {
        char label[64];
        snprintf(label, sizeof label, "truncated-%zu", cut);
        hostile(label, &e, cut);
    }
    base_elf(&e); e.eh.e_phoff = 1u << 20;                       hostile("phoff-past-end", &e, sizeof e);
    base_elf(&e); e.eh.e_phoff = 8;                              hostile("phdr-over-ehdr", &e, sizeof e);
    base_elf(&e); e.eh.e_phnum = 0xffff;                         hostile("phnum-65535", &e, sizeof e);
    /* libelf reads program headers at their real size whatever e_phentsize
     * says, and symbols are optional: these two may load, must not crash. */
    base_elf(&e); e.eh.e_phentsize = 3;                          tolerated("phentsize-3", &e, sizeof e);
    base_elf(&e); e.eh.e_phnum = 0;                              unrunnable("no-segments", &e, sizeof e);
    base_elf(&e); e.ph[0].p_offset = 1ull << 40;                 hostile("segment-past-end", &e, sizeof e);
    base_elf(&e); e.ph[0].p_offset = UINT64_MAX - 4;             hostile("offset-wraps", &e, sizeof e);
    base_elf(&e); e.ph[0].p_filesz = 1ull << 32;                 hostile("filesz-huge", &e, sizeof e);
    base_elf(&e); e.ph[0].p_filesz = 64; e.ph[0].p_memsz = 8;    hostile("filesz-over-memsz", &e, sizeof e);
    base_elf(&e); e.ph[0].p_memsz = 1ull << 62;                  unrunnable("memsz-huge", &e, sizeof e);
    base_elf(&e); e.ph[0].p_vaddr = UINT64_MAX - 7;              hostile("vaddr-wraps", &e, sizeof e);
    base_elf(&e); e.ph[0].p_vaddr = 0x1000;                      unrunnable("outside-ram", &e, sizeof e);
    base_elf(&e); e.eh.e_entry = 0x1000;                         unrunnable("entry-outside", &e, sizeof e);
    base_elf(&e); e.eh.e_entry = RAM + 2 * sizeof e.code;        unrunnable("entry-past-segment", &e, sizeof e);
    base_elf(&e); e.eh.e_machine = EM_X86_64;                    hostile("machine-x86", &e, sizeof e);
    base_elf(&e); e.eh.e_ident[EI_CLASS] = 7;                    hostile("class-7", &e, sizeof e);
    base_elf(&e); e.eh.e_ident[EI_DATA] = ELFDATA2MSB;           hostile("big-endian", &e, sizeof e);
    base_elf(&e); e.eh.e_shoff = sizeof e - 8; e.eh.e_shnum = 0xffff;
    e.eh.e_shentsize = sizeof(Elf64_Shdr);                       tolerated("shnum-past-end", &e, sizeof e);
    /* Two PT_LOADs over the same addresses (the same bytes: the program
     * would run if the loader let the overlap through). */
    base_elf(&e);
    e.eh.e_phnum = 2;
    e.ph[1] = e.ph[0];
    unrunnable("overlapping-segments", &e, sizeof e);

    if (placeholder)
        printf("SKIP (partly): this build's run/decode is a placeholder\n");
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (th_failed == 0 && system(cmd) != 0)
        return 1;
    return TH_DONE();
}
