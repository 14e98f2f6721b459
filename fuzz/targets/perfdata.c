/* Fuzz target: the perf.data reader (rvtrace/perfdata.h).  Input: the file.
 * Every record lies inside the data section, after the one before; an
 * AUXTRACE record's data lies inside it too; names end inside their
 * record; an error stops the reader at an offset inside the file; and a
 * COMM/MMAP2 record written again by the writer reads back the same.
 * FUZZ_ARGS: -max_len=4096 */
#include "../fuzz.h"
#include "rvtrace/perfdata.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static void rewrite(const rvt_perf_record *r)
{
    rvt_perf_writer *w = rvt_perf_writer_new(NULL);
    if (!w)
        return;
    int st = r->type == RVT_PERF_RECORD_COMM
                 ? rvt_perf_write_comm(w, r->pid, r->tid, r->name)
                 : rvt_perf_write_mmap2(w, r->pid, r->tid, r->addr, r->len, r->pgoff, r->prot,
                                        r->flags, r->name);
    const uint8_t *b;
    size_t n;
    if (st == 0 && rvt_perf_writer_finish(w, &b, &n) == 0) {
        rvt_perf_file *f = rvt_perf_open(b, n, NULL, NULL);
        rvt_perf_record g;
        RVT_FUZZ_ASSERT(f && rvt_perf_next(f, &g) == 1);
        RVT_FUZZ_ASSERT(g.type == r->type && g.pid == r->pid && g.tid == r->tid);
        RVT_FUZZ_ASSERT(!strcmp(g.name, r->name) && g.addr == r->addr && g.len == r->len);
        rvt_perf_close(f);
    }
    rvt_perf_writer_free(w);
}

static void check_record(const rvt_perf_record *r, uint64_t lo, uint64_t hi)
{
    RVT_FUZZ_ASSERT(r->offset >= lo && r->offset + r->size + r->data_len <= hi);
    if (r->data)
        RVT_FUZZ_ASSERT(r->data_offset == r->offset + r->size);
    if (r->name) {
        size_t at = (size_t)((const uint8_t *)r->name - r->body);
        RVT_FUZZ_ASSERT(at < r->body_len && strlen(r->name) < r->body_len - at);
        if (r->type == RVT_PERF_RECORD_COMM || r->type == RVT_PERF_RECORD_MMAP2)
            rewrite(r);
    }
    /* a RISC-V AUXTRACE_INFO's encoder blocks: found, absent or a status */
    rvt_perf_riscv_te te;
    for (uint32_t cpu = 0; cpu < 4; cpu++) {
        int st = rvt_perf_riscv_te_info(r, cpu, &te);
        RVT_FUZZ_ASSERT(st == 0 || st == 1 || st == RVT_ERR_FORMAT);
        RVT_FUZZ_ASSERT(st != 1 || (te.cpu == cpu && te.src_bits < 16 && te.src_id < 4096));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int st;
    uint64_t bad;
    rvt_perf_file *f = rvt_perf_open(data, size, &st, &bad);
    if (!f) {
        rvt_fuzz_check_status(st);
        RVT_FUZZ_ASSERT(st < 0 && bad <= size);
        return 0;
    }
    uint64_t off, len, prev;
    rvt_perf_data_section(f, &off, &len);
    RVT_FUZZ_ASSERT(off <= size && len <= size - off);
    prev = off;
    rvt_perf_record r;
    for (int i = 0; i < 100000 && (st = rvt_perf_next(f, &r)) > 0; i++) {
        check_record(&r, prev, off + len);
        prev = r.offset + r.size + r.data_len;
    }
    if (st < 0) {
        rvt_fuzz_check_status(st);
        RVT_FUZZ_ASSERT(r.offset >= off && r.offset < off + len);
        RVT_FUZZ_ASSERT(rvt_perf_next(f, &r) == 0);
    }
    rvt_perf_close(f);
    return 0;
}
