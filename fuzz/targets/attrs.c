/* Fuzz target: the trace-settings sidecars -- .te.attrs (rvt_te_attrs_read)
 * and .nt.attrs (rvt_nt_cfg_read).  Input: byte 0 selects the parser (bit
 * 0), the rest is the file text.  A file that parses and passes the check
 * must survive write -> read unchanged (the sidecar is complete).
 * FUZZ_ARGS: -max_len=2048 */
#include "../fuzz.h"
#include "rvtrace/etrace.h"
#include "rvtrace/ntrace.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static FILE *text_file(const uint8_t *data, size_t size)
{
    FILE *f = fopen(rvt_fuzz_file(data, size), "r");
    RVT_FUZZ_ASSERT(f != NULL);
    return f;
}

static void te_attrs(const uint8_t *data, size_t size)
{
    rvt_te_attrs a, b;
    rvt_te_attrs_default(&a);
    FILE *f = text_file(data, size);
    unsigned line = 0;
    int st = rvt_te_attrs_read(&a, f, &line);
    fclose(f);
    rvt_fuzz_check_status(st);
    RVT_FUZZ_ASSERT(line <= size + 1);
    if (st < 0 || rvt_te_attrs_check(&a) < 0)
        return;
    char *buf = NULL;
    size_t len = 0;
    FILE *w = open_memstream(&buf, &len);
    RVT_FUZZ_ASSERT(rvt_te_attrs_write(&a, w) >= 0);
    fclose(w);
    rvt_te_attrs_default(&b);
    FILE *r = text_file((const uint8_t *)buf, len);
    RVT_FUZZ_ASSERT(rvt_te_attrs_read(&b, r, &line) >= 0);
    fclose(r);
    free(buf);
    RVT_FUZZ_ASSERT(memcmp(&a, &b, sizeof a) == 0);
}

/* Field by field: the struct has padding between its bools. */
static bool nt_cfg_equal(const rvt_nt_cfg *a, const rvt_nt_cfg *b)
{
#define RVT_FUZZ_SAME(f) (a->f == b->f)
    return RVT_FUZZ_SAME(inst_mode) && RVT_FUZZ_SAME(context) && RVT_FUZZ_SAME(inhibit_src) &&
           RVT_FUZZ_SAME(src_bits) && RVT_FUZZ_SAME(src_id) && RVT_FUZZ_SAME(sync_mode) &&
           RVT_FUZZ_SAME(sync_max) && RVT_FUZZ_SAME(no_addr_diff) && RVT_FUZZ_SAME(no_trap_addr) &&
           RVT_FUZZ_SAME(seq_jump) && RVT_FUZZ_SAME(implicit_return) &&
           RVT_FUZZ_SAME(return_depth) && RVT_FUZZ_SAME(return_bits) &&
           RVT_FUZZ_SAME(repeat_history) && RVT_FUZZ_SAME(all_jumps) &&
           RVT_FUZZ_SAME(extend_addr_msb) && RVT_FUZZ_SAME(timestamps) &&
           RVT_FUZZ_SAME(icnt_bits) && RVT_FUZZ_SAME(hist_bits) && RVT_FUZZ_SAME(itype_bits) &&
           RVT_FUZZ_SAME(xlen) && RVT_FUZZ_SAME(port_bytes) && RVT_FUZZ_SAME(start_disabled);
#undef RVT_FUZZ_SAME
}

static void nt_cfg(const uint8_t *data, size_t size)
{
    rvt_nt_cfg c, d;
    rvt_nt_cfg_default(&c);
    rvt_fuzz_diag_ctx dc = { 0 };
    FILE *f = text_file(data, size);
    int st = rvt_nt_cfg_read(&c, f, rvt_fuzz_diag, &dc);
    fclose(f);
    rvt_fuzz_check_status(st);
    if (st < 0 || rvt_nt_cfg_check(&c) < 0)
        return;
    char *buf = NULL;
    size_t len = 0;
    FILE *w = open_memstream(&buf, &len);
    RVT_FUZZ_ASSERT(rvt_nt_cfg_write(&c, w) >= 0);
    fclose(w);
    rvt_nt_cfg_default(&d);
    FILE *r = text_file((const uint8_t *)buf, len);
    RVT_FUZZ_ASSERT(rvt_nt_cfg_read(&d, r, rvt_fuzz_diag, &dc) >= 0);
    fclose(r);
    free(buf);
    rvt_nt_cfg_check(&d);
    RVT_FUZZ_ASSERT(nt_cfg_equal(&c, &d));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (data[0] & 1u)
        nt_cfg(data + 1, size - 1);
    else
        te_attrs(data + 1, size - 1);
    return 0;
}
