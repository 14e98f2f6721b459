/* Branch-stack samples from a full trace (lbr.h).  Every retired
 * instruction that is not the fall-through of the previous one ends a
 * taken transfer (branch, jump, call, return, trap entry or return): it
 * goes into a ring of the last `depth`.  Every `period` instructions the
 * ring is written as one sample, newest first as perf prints an LBR, when
 * the next instruction arrives: a transfer made by the period's last
 * instruction is then in it, and the sample's ip is where execution went
 * on, as for perf's counter-overflow interrupt (and `run --ctr-sample`,
 * whose samples are the same, entry for entry).  A
 * loss, decode error or encoder stop empties the ring: the flow across it
 * is not known. */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>
#include "rvtrace/flow.h"
#include "out/lbr.h"
#include "out/image_files.h"
#include "out/writers.h"

struct rvt_lbr {
    FILE *f;
    rvt_image *img;
    rvt_lbr_cfg cfg;
    rvt_lbr_entry ring[RVT_LBR_MAX_DEPTH];
    unsigned head, n;           /* ring[head] is the newest of n */
    uint64_t prev_pc, next_pc;  /* the previous instruction and its fall-through */
    bool have_prev, due;        /* due: sample at the next instruction */
    bool prev_jump;             /* it was a jump: taken even to next_pc */
    bool prev_jal;              /* an inferable one (jal) to prev_target */
    uint64_t prev_target;
    bool prev_ecall;            /* it was ecall/ebreak: a trap's source */
    bool trap;                  /* a trap came between it and the next */
    bool epc_known;             /* and said where it struck: epc */
    uint64_t epc;
    uint64_t until, samples;    /* instructions until the next sample */
};

/* perf script --show-mmap-events for one executable segment (perf's
 * "PERF_RECORD_MMAP2 pid/tid: [addr(len) @ pgoff maj:min ino gen]: prot
 * file"), page-aligned as the loader maps it; pid 1 stands for the run. */
static void write_mmap(FILE *f, const GElf_Phdr *ph, const char *path)
{
    uint64_t align = ph->p_align > 1 ? ph->p_align : 1;
    uint64_t addr = ph->p_vaddr & ~(align - 1), off = ph->p_offset & ~(align - 1);
    fprintf(f, "PERF_RECORD_MMAP2 1/1: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 " 00:00 0 0]: r-xp %s\n",
            addr, ph->p_vaddr + ph->p_memsz - addr, off, path);
}

static void write_file_mmaps(FILE *f, const char *file)
{
    char real[PATH_MAX];
    const char *path = realpath(file, real) ? real : file;
    int fd = open(file, O_RDONLY);
    if (fd < 0)
        return;
    Elf *e = elf_version(EV_CURRENT) != EV_NONE ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
    size_t n = 0;
    if (e && elf_kind(e) == ELF_K_ELF && elf_getphdrnum(e, &n) == 0) {
        for (size_t i = 0; i < n; i++) {
            GElf_Phdr ph;
            if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
                write_mmap(f, &ph, path);
        }
    }
    if (e)
        elf_end(e);
    close(fd);
}

void rvt_lbr_write_header(FILE *f, rvt_image *img)
{
    size_t n = rvt_image_segment_count(img);
    for (size_t i = 0; i < n; i++) {
        const char *file = rvt_out_image_file(img, i);
        if (file)
            write_file_mmaps(f, file);
    }
}

void rvt_lbr_write_sample(FILE *f, uint64_t ip, const rvt_lbr_entry *e, unsigned n)
{
    fprintf(f, "%16" PRIx64, ip);
    for (unsigned i = 0; i < n; i++)       /* predicted, no TSX, no cycles */
        fprintf(f, " 0x%" PRIx64 "/0x%" PRIx64 "/P/-/-/0", e[i].from, e[i].to);
    fputc('\n', f);
}

rvt_lbr *rvt_lbr_new(FILE *f, rvt_image *img, const rvt_lbr_cfg *cfg)
{
    if (!cfg->period || !cfg->depth || cfg->depth > RVT_LBR_MAX_DEPTH)
        return NULL;
    rvt_lbr *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    *l = (rvt_lbr){ .f = f, .img = img, .cfg = *cfg, .until = cfg->period };
    rvt_lbr_write_header(f, img);
    return l;
}

static void push(rvt_lbr *l, uint64_t from, uint64_t to)
{
    l->head = (l->head + 1) % l->cfg.depth;
    l->ring[l->head] = (rvt_lbr_entry){ from, to };
    if (l->n < l->cfg.depth)
        l->n++;
}

static void sample(rvt_lbr *l, uint64_t ip)
{
    rvt_lbr_entry e[RVT_LBR_MAX_DEPTH];
    for (unsigned i = 0; i < l->n; i++)
        e[i] = l->ring[(l->head + l->cfg.depth - i) % l->cfg.depth];
    rvt_lbr_write_sample(l->f, ip, e, l->n);
    l->samples++;
}

/* The transfer(s) a trap made, as CTR records them (Smctr 4: from the
 * trapping or interrupted instruction).  ecall and ebreak retire in the
 * flow (E-Trace 4.1.1): they are the previous instruction.  Any other
 * exception and every interrupt strike the next one: the fall-through, or
 * the target of a jal (recorded first, as CTR does).  The flow does not
 * say where an uninferable jump or xret went before a trap struck there:
 * the transfer is then recorded from the jump itself, one entry for CTR's
 * two; after a conditional branch, from its fall-through -- unless the
 * trap event carries the address (RVT_EVF_TVAL_EPC). */
static void trap_transfer(rvt_lbr *l, uint64_t handler)
{
    uint64_t from = l->next_pc;
    if (l->epc_known) {             /* RVT_EVF_TVAL_EPC: the flow says */
        from = l->epc;
        if (from != l->next_pc || l->prev_jump)
            push(l, l->prev_pc, from);
    } else if (l->prev_ecall || (l->prev_jump && !l->prev_jal)) {
        from = l->prev_pc;
    } else if (l->prev_jal) {
        from = l->prev_target;
        push(l, l->prev_pc, from);
    }
    push(l, from, handler);
}

static void insn(rvt_lbr *l, uint64_t pc)
{
    if (l->have_prev && l->trap)
        trap_transfer(l, pc);
    else if (l->have_prev && (pc != l->next_pc || l->prev_jump))
        push(l, l->prev_pc, pc);
    l->trap = l->epc_known = false;
    if (l->due && l->n)
        sample(l, pc);
    l->due = false;
    const rvt_insn *i = rvt_image_insn(l->img, pc);
    l->prev_pc = pc;
    l->next_pc = pc + (i && i->len ? i->len : 2);
    l->prev_jump = i && i->jclass != RVT_JC_NONE && i->jclass != RVT_JC_BRANCH;
    l->prev_ecall = i && (i->op == RVT_OP_ECALL || i->op == RVT_OP_EBREAK);
    l->prev_jal = i && i->op == RVT_OP_JAL;
    l->prev_target = pc + (uint64_t)(i ? i->imm : 0);
    l->have_prev = true;
    if (--l->until == 0) {
        l->until = l->cfg.period;
        l->due = true;
    }
}

/* A block (out.h rvt_out_writer.block): its first and last instruction
 * as insn() takes them; those in between go on one after the other and
 * transfer nothing, so unless a sample falls among them they only count
 * down to the next sample. */
void rvt_lbr_block(rvt_lbr *l, const rvt_block *b)
{
    uint64_t pc = b->start_pc;
    insn(l, pc);
    if (b->ninsn < 2)
        return;
    uint64_t between = b->ninsn - 2;
    if (!l->due && l->until > between) {
        l->until -= between;
        l->next_pc = b->end_pc;
        l->prev_jump = l->prev_ecall = l->prev_jal = false;
    } else {
        for (uint64_t k = 0; k < between; k++) {
            pc = l->next_pc;
            insn(l, pc);
        }
    }
    insn(l, b->end_pc);
}

void rvt_lbr_event(rvt_lbr *l, const rvt_flow_event *ev)
{
    switch (ev->kind) {
    case RVT_EV_INSN:
        insn(l, ev->pc);
        break;
    case RVT_EV_TRAP:
    case RVT_EV_INTERRUPT:
        l->trap = true;
        l->epc_known = (ev->flags & RVT_EVF_TVAL_EPC) != 0;
        l->epc = ev->aux2;
        break;
    case RVT_EV_LOST:
    case RVT_EV_ERROR:
    case RVT_EV_STOP:
        l->n = 0;
        l->have_prev = l->due = l->trap = false;
        break;
    default:
        break;
    }
}

uint64_t rvt_lbr_samples(const rvt_lbr *l)
{
    return l->samples;
}

void rvt_lbr_free(rvt_lbr *l)
{
    free(l);
}

/* The "lbr" writer: the defaults (RVT_LBR_DEFAULT_*); `rvtrace script
 * --lbr` chooses the period and depth. */
static void *lbr_open(FILE *f, rvt_image *img)
{
    return rvt_lbr_new(f, img, &(rvt_lbr_cfg){ RVT_LBR_DEFAULT_PERIOD, RVT_LBR_DEFAULT_DEPTH });
}

static void lbr_event(void *state, const rvt_flow_event *ev)
{
    rvt_lbr_event(state, ev);
}

static void lbr_block(void *state, const rvt_block *b)
{
    rvt_lbr_block(state, b);
}

static void lbr_finish(void *state)
{
    rvt_lbr_free(state);
}

const rvt_out_writer rvt_out_lbr_writer = {
    .name = "lbr", .needs_image = true, .file_option = true,
    .open = lbr_open, .event = lbr_event, .finish = lbr_finish, .block = lbr_block,
};
