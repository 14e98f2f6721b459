/* E-Trace te_inst packets derived by hand from the tables of chapter 6.
 * Unless a test says otherwise: v1.1 layout, iaddress_width_p 32,
 * iaddress_lsb_p 1 (address fields are 31 bits), privilege_width_p 2,
 * nocontext, ecause_width_p 5, no irdepth.  Bit n is bit n%8 of byte n/8
 * (fields LSB first from bit 0, ch. 6); "keep" is the length after
 * sign-based compression (repeated top bits cut to one, padded with it). */
#include "tharness.h"
#include "rvtrace/etrace.h"
#include "guard_page.h"

static rvt_te_attrs base(void)
{
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    a.iaddress_width = 32;
    a.iaddress_lsb = 1;
    a.privilege_width = 2;
    a.nocontext = 1;
    a.ecause_width = 5;
    return a;
}

/* Pack p, compare with the expected payload, unpack and compare again. */
static void expect(const rvt_te_attrs *a, const rvt_te_pkt *p, const uint8_t *want, size_t n)
{
    uint8_t buf[32];
    int len = rvt_te_pack(a, p, buf, sizeof buf);
    CHECK_EQ(len, n);
    if (len == (int)n)
        CHECK_MEM(buf, want, n);
    rvt_te_pkt q;
    CHECK_EQ(rvt_te_unpack(a, want, n, &q), 0);
    CHECK_EQ(q.format, p->format);
    CHECK_EQ(q.address, p->address);
    CHECK_EQ(q.branch_map, p->branch_map);
    CHECK_EQ(q.notify, p->notify);
    CHECK_EQ(q.updiscon, p->updiscon);
    CHECK_EQ(q.irreport, p->irreport);
    CHECK_EQ(q.irdepth, p->irdepth);
    CHECK_EQ(q.tval, p->tval);
    CHECK_EQ(q.ecause, p->ecause);
    CHECK_EQ(q.options, p->options);
    CHECK_EQ(q.branch_count, p->branch_count);
    CHECK_EQ(q.index, p->index);
}

static void f3_sync(void)
{
    /* Table 6.1: format 11 (b0-1), subformat 00 (b2-3), branch 1 (b4),
     * privilege 3 (b5-6), address 0x80000000>>1 = 0x40000000 (b7-37, its
     * bit 30 is b37).  b37 = 1, b36 = 0: keep 38 bits, 5 bytes, pad b38-39
     * with 1.  byte0 = b7..b0 = 0 1 1 1 0 0 1 1 = 0x73; bytes 1-3 = 0;
     * byte4 = pad pad b37 0 0 0 0 0 = 0xe0. */
    rvt_te_attrs a = base();
    rvt_te_pkt p = { .format = 3, .subformat = 0, .branch = 1, .privilege = 3,
                     .address = 0x40000000 };
    static const uint8_t want[] = { 0x73, 0x00, 0x00, 0x00, 0xe0 };
    expect(&a, &p, want, sizeof want);
    uint8_t fr[40];
    CHECK_EQ(rvt_te_frame(&a, &p, fr, sizeof fr), 6);
    CHECK_EQ(fr[0], 0x45);          /* msg_type 2 << 5 | 5 bytes */
}

static void f3_exception(void)
{
    /* Table 6.2 (v1.1): 11 01 (b0-3), branch 1 (b4), privilege 3 (b5-6),
     * ecause 2 (b7-11: b8), interrupt 0 (b12), address 0x40000080 (b13-43:
     * bit 7 -> b20, bit 30 -> b43), tvalepc 0x80000040 (b44-75: bit 6 -> b50,
     * bit 31 -> b75).  b75 = 1, b74 = 0: keep 76, 10 bytes, pad b76-79 = 1.
     * bytes: 0x77 (1,1,1,0,1,1,1,0 from b0), 0x01 (b8), 0x10 (b20), 0, 0,
     * 0x08 (b43), 0x04 (b50), 0, 0, 0xf8 (b75 + pad). */
    rvt_te_attrs a = base();
    rvt_te_pkt p = { .format = 3, .subformat = 1, .branch = 1, .privilege = 3,
                     .ecause = 2, .address = 0x40000080, .tval = 0x80000040 };
    static const uint8_t want[] = { 0x77, 0x01, 0x10, 0, 0, 0x08, 0x04, 0, 0, 0xf8 };
    expect(&a, &p, want, sizeof want);

    /* Ratified layout (v2.0), interrupt: ecause 7 (b7-11 -> b7,b8,b9),
     * interrupt 1 (b12), thaddr 1 (b13), address 0x40000080 (b14-44: bit 7
     * -> b21, bit 30 -> b44), no tval for interrupts.  keep 45 (b44 = 1,
     * b43 = 0), 6 bytes: 0xf7, 0x33 (b8,b9,b12,b13), 0x20 (b21), 0, 0,
     * 0xf0 (b44 + pad). */
    a.version = RVT_TE_V20;
    rvt_te_pkt q = { .format = 3, .subformat = 1, .branch = 1, .privilege = 3,
                     .ecause = 7, .interrupt = 1, .thaddr = 1, .address = 0x40000080 };
    static const uint8_t want2[] = { 0xf7, 0x33, 0x20, 0, 0, 0xf0 };
    expect(&a, &q, want2, sizeof want2);

    /* Implicit exception (3.2.3, 6.3): no address.  v1.1, ecause 2,
     * tvalepc 0 -> 11 01 1 11 00010 0 then zeros: keep 10 bits (b8 = 1),
     * 2 bytes 0x77 0x01. */
    a.version = RVT_TE_V11;
    a.options = RVT_TE_OPT_IMPLICIT_EXCEPT;
    rvt_te_pkt r = { .format = 3, .subformat = 1, .branch = 1, .privilege = 3, .ecause = 2 };
    static const uint8_t want3[] = { 0x77, 0x01 };
    expect(&a, &r, want3, sizeof want3);

    /* Ratified layout (v2.0, "Format 3 subformat 1 - Trap"): implicit
     * exception omits the handler address only when thaddr is 1.  ecause 2
     * (b7-11), interrupt 0 (b12), thaddr 1 (b13), tval 0xb (b14-45: b14,
     * b15, b17): keep 19 bits, 3 bytes 0x77, 0xe1 (b8, b13-15), 0x02 (b17). */
    a.version = RVT_TE_V20;
    rvt_te_pkt s = { .format = 3, .subformat = 1, .branch = 1, .privilege = 3, .ecause = 2,
                     .thaddr = 1, .tval = 0xb };
    static const uint8_t want4[] = { 0x77, 0xe1, 0x02 };
    expect(&a, &s, want4, sizeof want4);

    /* thaddr 0 ("Format 3 thaddr, address and privilege fields": an
     * exception at the target of an uninferable discontinuity) keeps the
     * address, which is then the EPC: 0x40000080 (b14-44: bit 7 -> b21,
     * bit 30 -> b44), tval 0xb (b45-76: b45, b46, b48).  b48 = 1, b49-76
     * = 0: keep 50 bits, 7 bytes 0x77, 0x01, 0x20 (b21), 0, 0,
     * 0x70 (b44-46), 0x01 (b48). */
    s.thaddr = 0;
    s.address = 0x40000080;
    static const uint8_t want5[] = { 0x77, 0x01, 0x20, 0, 0, 0x70, 0x01 };
    expect(&a, &s, want5, sizeof want5);
}

static void f3_context(void)
{
    /* Table 6.3 (v1.1): 11 10 (b0-3), privilege 1 (b4-5), context 8 bits
     * 0x81 (b6-13).  b13 = 1, b12 = 0: keep 14, 2 bytes, pad b14-15 = 1.
     * byte0 = b7..b0 = 0 1 0 1 1 0 1 1 = 0x5b; byte1 = 1 1 1 0 0 0 0 0 = 0xe0.
     * v2.0 adds branch (b4): 11 10 1 01 then context b7-14: byte0 =
     * 1 0 1 1 1 0 1 1 = 0xbb, byte1 = b15 pad, b14 = 1, b8..13 = 0 -> 0xc0. */
    rvt_te_attrs a = base();
    a.nocontext = 0;
    a.context_width = 8;
    rvt_te_pkt p = { .format = 3, .subformat = 2, .privilege = 1, .context = 0x81 };
    static const uint8_t want[] = { 0x5b, 0xe0 };
    expect(&a, &p, want, sizeof want);
    a.version = RVT_TE_V20;
    p.branch = 1;
    static const uint8_t want2[] = { 0xbb, 0xc0 };
    expect(&a, &p, want2, sizeof want2);
}

static void f3_support(void)
{
    /* Table 6.4: 11 11 (b0-3), enable 1 (b4), encoder_mode 0 (1 bit, b5),
     * qual_status 01 ended_rep (b6-7), options 0b000101 (implicit return,
     * full address; b8-13).  b13..b11 = 0, b10 = 1: keep 12, 2 bytes:
     * 0x5f, 0x05.  The ratified layout adds denable, dloss, doptions = 0
     * after a 5-bit ioptions: the same two bytes. */
    rvt_te_attrs a = base();
    rvt_te_pkt p = { .format = 3, .subformat = 3, .enable = 1, .qual_status = 1,
                     .options = RVT_TE_OPT_IMPLICIT_RETURN | RVT_TE_OPT_FULL_ADDRESS };
    static const uint8_t want[] = { 0x5f, 0x05 };
    expect(&a, &p, want, sizeof want);
    a.version = RVT_TE_V20;
    expect(&a, &p, want, sizeof want);
    /* The reference flow's first packet: ienable 1, all else 0: 0x1f. */
    rvt_te_pkt q = { .format = 3, .subformat = 3, .enable = 1 };
    static const uint8_t want2[] = { 0x1f };
    expect(&a, &q, want2, sizeof want2);
}

static void f2_plain(void)
{
    /* Table 6.5: 10 (b0 = 0, b1 = 1), address 4 (b2-32: b4), notify,
     * updiscon, irreport (b33-35) repeat the address MSB 0.  Top bit 0,
     * highest 1 is b4: keep 6 bits, 1 byte 0b00010010 = 0x12. */
    rvt_te_attrs a = base();
    rvt_te_pkt p = { .format = 2, .address = 4 };
    rvt_te_pkt_set_flags(&a, &p, false, false, false, 0);
    CHECK_EQ(p.notify, 0);
    static const uint8_t want[] = { 0x12 };
    expect(&a, &p, want, sizeof want);
    rvt_te_flags f = rvt_te_pkt_flags(&a, &p);
    CHECK(!f.notify && !f.updiscon && !f.irreport);
}

static void f2_negative(void)
{
    /* Address -2 = 0x7ffffffe in 31 bits: b2 = 0, b3..b32 = 1 and the three
     * flag bits repeat the MSB 1.  The run of ones from b35 down to b3 is
     * cut to one: keep 4 bits, pad with 1: 1111 1010 = 0xfa. */
    rvt_te_attrs a = base();
    rvt_te_pkt p = { .format = 2, .address = 0x7ffffffe };
    rvt_te_pkt_set_flags(&a, &p, false, false, false, 0);
    CHECK_EQ(p.notify, 1);
    CHECK_EQ(p.updiscon, 1);
    CHECK_EQ(p.irreport, 1);
    static const uint8_t want[] = { 0xfa };
    expect(&a, &p, want, sizeof want);
}

static void f2_updiscon(void)
{
    /* 6.6.2 case 2: updiscon == !notify.  notify = MSB = 0 (b33), updiscon
     * 1 (b34), irreport repeats updiscon: 1 (b35).  b35, b34 = 1, b33 = 0:
     * keep 35 bits, 5 bytes: 0x12 0 0 0 then b34 + pad b35-39 = 0xfc. */
    rvt_te_attrs a = base();
    rvt_te_pkt p = { .format = 2, .address = 4 };
    rvt_te_pkt_set_flags(&a, &p, false, true, false, 0);
    static const uint8_t want[] = { 0x12, 0, 0, 0, 0xfc };
    expect(&a, &p, want, sizeof want);
    rvt_te_flags f = rvt_te_pkt_flags(&a, &p);
    CHECK(!f.notify && f.updiscon && !f.irreport);
}

static void f2_notify(void)
{
    /* 6.6.2 case 4: notify = !address[MSB] = 1 (b33); updiscon and
     * irreport repeat it.  Keep 34 bits (b32 = 0): 0x12 0 0 0 0xfe. */
    rvt_te_attrs a = base();
    rvt_te_pkt p = { .format = 2, .address = 4 };
    rvt_te_pkt_set_flags(&a, &p, true, false, false, 0);
    static const uint8_t want[] = { 0x12, 0, 0, 0, 0xfe };
    expect(&a, &p, want, sizeof want);
    rvt_te_flags f = rvt_te_pkt_flags(&a, &p);
    CHECK(f.notify && !f.updiscon && !f.irreport);
    /* Corner case: notify and updiscon both: updiscon = !notify = MSB. */
    rvt_te_pkt_set_flags(&a, &p, true, true, false, 0);
    CHECK_EQ(p.notify, 1);
    CHECK_EQ(p.updiscon, 0);
    CHECK_EQ(p.irreport, 0);
    f = rvt_te_pkt_flags(&a, &p);
    CHECK(f.notify && f.updiscon && !f.irreport);
}

static void f2_irreport(void)
{
    /* 6.6.3 with call_counter_size_p 2: irdepth is 2 bits (b36-37).
     * irreport = !updiscon = 1 (b35), irdepth 2 (b37).  b37 = 1, b36 = 0:
     * keep 38, 5 bytes; byte4 = pad pad b37 b36 b35 b34 b33 b32 =
     * 1 1 1 0 1 0 0 0 = 0xe8. */
    rvt_te_attrs a = base();
    a.call_counter_size = 2;
    rvt_te_pkt p = { .format = 2, .address = 4 };
    rvt_te_pkt_set_flags(&a, &p, false, false, true, 2);
    static const uint8_t want[] = { 0x12, 0, 0, 0, 0xe8 };
    expect(&a, &p, want, sizeof want);
    rvt_te_flags f = rvt_te_pkt_flags(&a, &p);
    CHECK(f.irreport && !f.updiscon);

    /* Not reporting: the spec repeats updiscon (0) in irdepth, so the
     * whole packet compresses to 0x12; the reference flow's ones fill makes
     * b36-37 = 1: keep 38, byte4 = 1 1 1 1 0 0 0 0 = 0xf0. */
    rvt_te_pkt_set_flags(&a, &p, false, false, false, 0);
    static const uint8_t want2[] = { 0x12 };
    expect(&a, &p, want2, sizeof want2);
    a.irdepth_ones = 1;
    rvt_te_pkt_set_flags(&a, &p, false, false, false, 0);
    static const uint8_t want3[] = { 0x12, 0, 0, 0, 0xf0 };
    expect(&a, &p, want3, sizeof want3);

    /* With a return stack of 2^2 entries irdepth is 2 + 1 = 3 bits. */
    a.call_counter_size = 0;
    a.return_stack_size = 2;
    CHECK_EQ(rvt_te_irdepth_width(&a), 3);
}

static void f1_address(void)
{
    /* Table 6.6: 01 (b0 = 1), branches 3 (b2-6: b2, b3), branch_map 3 bits
     * 0b101 (b7-9: b7, b9), address 4 (b10-40: b12), flags 0.  Highest 1
     * is b12: keep 14, 2 bytes: 1 0 0 0 1 1 0 1 = 0x8d, 0 0 0 1 0 0 1 0 = 0x12. */
    rvt_te_attrs a = base();
    rvt_te_pkt p = { .format = 1, .branches = 3, .branch_map = 5, .address = 4 };
    rvt_te_pkt_set_flags(&a, &p, false, false, false, 0);
    static const uint8_t want[] = { 0x8d, 0x12 };
    expect(&a, &p, want, sizeof want);
    /* Map lengths of table 6.6. */
    CHECK_EQ(rvt_te_map_len(1), 1);
    CHECK_EQ(rvt_te_map_len(2), 3);
    CHECK_EQ(rvt_te_map_len(7), 7);
    CHECK_EQ(rvt_te_map_len(8), 15);
    CHECK_EQ(rvt_te_map_len(16), 31);
    CHECK_EQ(rvt_te_map_len(31), 31);
    CHECK_EQ(rvt_te_map_len(0), 31);
    /* One branch, taken (0), address 1:
     * 01, branches 1 (b2), map 0 (b7), address 1 (b8-38: b8): keep 10,
     * 2 bytes 0x05, 0x01. */
    rvt_te_pkt q = { .format = 1, .branches = 1, .branch_map = 0, .address = 1 };
    rvt_te_pkt_set_flags(&a, &q, false, false, false, 0);
    static const uint8_t want2[] = { 0x05, 0x01 };
    expect(&a, &q, want2, sizeof want2);
}

static void f1_full_map(void)
{
    /* Table 6.7: branches 0, 31-bit map, no address.  All not taken:
     * b7-37 = 1, b2-6 = 0: keep 8, 1 byte 1000 0001 = 0x81; all taken: 0x01. */
    rvt_te_attrs a = base();
    rvt_te_pkt p = { .format = 1, .branches = 0, .branch_map = 0x7fffffff };
    static const uint8_t want[] = { 0x81 };
    expect(&a, &p, want, sizeof want);
    rvt_te_pkt q = { .format = 1, .branches = 0, .branch_map = 0 };
    static const uint8_t want2[] = { 0x01 };
    expect(&a, &q, want2, sizeof want2);
}

static void f0_branch_count(void)
{
    /* Table 6.8 (branch prediction alone, f0s_width 0: no subformat field):
     * 00, branch_count 5 (b2-33: b2, b4), branch_fmt 00 (b34-35): keep 6,
     * 1 byte 0001 0100 = 0x14.  Table 6.9: branch_fmt 10 (b35), address 4
     * (b36-66: b38), flags 0: keep 40, 5 bytes 0x14 0 0 0 0100 1000 = 0x48. */
    rvt_te_attrs a = base();
    a.options = RVT_TE_OPT_BRANCH_PRED;
    a.bpred_size = 4;
    rvt_te_pkt p = { .format = 0, .subformat = 0, .branch_count = 5 };
    static const uint8_t want[] = { 0x14 };
    expect(&a, &p, want, sizeof want);
    rvt_te_pkt q = { .format = 0, .subformat = 0, .branch_count = 5, .branch_fmt = 2, .address = 4 };
    rvt_te_pkt_set_flags(&a, &q, false, false, false, 0);
    static const uint8_t want2[] = { 0x14, 0, 0, 0, 0x48 };
    expect(&a, &q, want2, sizeof want2);
    /* branch_fmt 01 cannot occur (table 6.8). */
    rvt_te_pkt r;
    static const uint8_t bad[] = { 0x00, 0x00, 0x00, 0x00, 0x04 };
    CHECK_EQ(rvt_te_unpack(&a, bad, sizeof bad, &r), RVT_ERR_FORMAT);
}

static void f0_jump_cache(void)
{
    /* Table 6.11 (jump target cache alone, cache_size_p 3): 00, index 5
     * (b2-4: b2, b4), branches 0 (b5-9), irreport = branches[MSB] = 0
     * (b10): keep 6, 0x14. */
    rvt_te_attrs a = base();
    a.options = RVT_TE_OPT_JTC;
    a.cache_size = 3;
    rvt_te_pkt p = { .format = 0, .subformat = 1, .index = 5 };
    rvt_te_pkt_set_flags(&a, &p, false, false, false, 0);
    static const uint8_t want[] = { 0x14 };
    expect(&a, &p, want, sizeof want);
    /* Table 6.10: branches 2 (b6), map 3 bits 0b010 (b10-12: b11),
     * irreport = map[MSB] = 0 (b13): keep 13, 0101 0100 = 0x54, 0x08.
     * With irreport (6.8.3) b13 = 1: keep 14, byte1 = 1 1 1 0 1 0 0 0 = 0xe8. */
    rvt_te_pkt q = { .format = 0, .subformat = 1, .index = 5, .branches = 2, .branch_map = 2 };
    rvt_te_pkt_set_flags(&a, &q, false, false, false, 0);
    static const uint8_t want2[] = { 0x54, 0x08 };
    expect(&a, &q, want2, sizeof want2);
    rvt_te_pkt_set_flags(&a, &q, false, false, true, 0);
    static const uint8_t want3[] = { 0x54, 0xe8 };
    expect(&a, &q, want3, sizeof want3);
    CHECK(rvt_te_pkt_flags(&a, &q).irreport);

    /* Both extensions: f0s_width 1 puts the subformat at b2: index 5 at
     * b3-5 (b3, b5), branches 0, irreport 0: keep 7, 0010 1100 = 0x2c. */
    a.options = RVT_TE_OPT_JTC | RVT_TE_OPT_BRANCH_PRED;
    a.bpred_size = 4;
    a.f0s_width = 1;
    rvt_te_pkt_set_flags(&a, &p, false, false, false, 0);
    static const uint8_t want4[] = { 0x2c };
    expect(&a, &p, want4, sizeof want4);
}

static void bad_input(void)
{
    rvt_te_attrs a = base();
    rvt_te_pkt p;
    uint8_t big[40] = { 0 };
    CHECK_EQ(rvt_te_unpack(&a, big, 0, &p), RVT_ERR_FORMAT);
    CHECK_EQ(rvt_te_unpack(&a, big, 32, &p), RVT_ERR_FORMAT);
    /* A format 2 payload padded with extra sign bytes is rejected. */
    static const uint8_t padded[] = { 0x12, 0, 0, 0, 0, 0, 0 };
    CHECK_EQ(rvt_te_unpack(&a, padded, sizeof padded, &p), RVT_ERR_FORMAT);
    /* Format 0 when neither extension is on. */
    static const uint8_t f0[] = { 0x14 };
    CHECK_EQ(rvt_te_unpack(&a, f0, 1, &p), RVT_ERR_FORMAT);
    /* Container: zero length, truncated payload, skipped te_data. */
    static const uint8_t stream[] = { 0x40, 0x61, 0x00, 0x41, 0x12, 0x45, 0x73 };
    rvt_te_reader r;
    uint64_t off;
    rvt_te_reader_init(&r, &a, stream, sizeof stream);
    CHECK_EQ(rvt_te_reader_next(&r, &p, &off), RVT_ERR_FORMAT);
    CHECK_EQ(off, 0);
    CHECK_EQ(rvt_te_reader_next(&r, &p, &off), 1);
    CHECK_EQ(off, 3);
    CHECK_EQ(p.format, 2);
    CHECK_EQ(rvt_te_reader_next(&r, &p, &off), RVT_ERR_TRUNC);
    CHECK_EQ(off, 5);
    CHECK_EQ(rvt_te_reader_next(&r, &p, &off), 0);
}

static void attrs_text(void)
{
    rvt_te_attrs a, b;
    rvt_te_attrs_default(&a);
    CHECK_EQ(rvt_te_attrs_set(&a, "version=2.0"), 0);
    CHECK_EQ(rvt_te_attrs_set(&a, "return_stack_size=7"), 0);
    CHECK_EQ(rvt_te_attrs_set(&a, "options=implicit-return,full-address"), 0);
    CHECK_EQ(rvt_te_attrs_set(&a, "resync_mode=packets"), 0);
    CHECK(rvt_te_attrs_set(&a, "bogus=1") < 0);
    CHECK(rvt_te_attrs_set(&a, "bpred_size=x") < 0);
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK_EQ(rvt_te_attrs_write(&a, f), 0);
    rewind(f);
    rvt_te_attrs_default(&b);
    unsigned line = 0;
    CHECK_EQ(rvt_te_attrs_read(&b, f, &line), 0);
    fclose(f);
    CHECK_MEM(&a, &b, sizeof a);
    unsigned o;
    /* "all": the modes that shrink the stream, not full-address (3.2.2). */
    CHECK_EQ(rvt_te_opts_parse("all", &o), 0);
    CHECK_EQ(o, RVT_TE_OPT_IMPLICIT_RETURN | RVT_TE_OPT_IMPLICIT_EXCEPT | RVT_TE_OPT_JTC |
                RVT_TE_OPT_BRANCH_PRED | RVT_TE_OPT_SIJUMP);
    CHECK_EQ(rvt_te_opts_parse("all,full-address", &o), 0);
    CHECK_EQ(o, RVT_TE_OPT_ALL);
}

/* rvtrace dump's text: the wire value, then (6.2: shifted left by
 * iaddress_lsb) the byte address of a full address or the signed byte
 * difference of a differential one.  A 31-bit field 0x7fffff4f is -0xb1
 * half-words, i.e. -0x162 bytes; 0x40000000 half-words is 0x80000000. */
static void dump_text(void)
{
    rvt_te_attrs a = base();
    char line[256];
    rvt_te_pkt p = { .format = 3, .subformat = 0, .branch = 1, .privilege = 3, .address = 0x40000000 };
    CHECK(rvt_te_pkt_format(&a, &p, false, line, sizeof line) > 0);
    CHECK(strstr(line, "address=0x40000000 (0x80000000)") != NULL);
    rvt_te_pkt q = { .format = 2, .address = 0x7fffff4f, .notify = 1, .updiscon = 1, .irreport = 1 };
    CHECK(rvt_te_pkt_format(&a, &q, false, line, sizeof line) > 0);
    CHECK(strstr(line, "address=0x7fffff4f (-0x162)") != NULL);
    q.address = 0x1d;
    CHECK(rvt_te_pkt_format(&a, &q, false, line, sizeof line) > 0);
    CHECK(strstr(line, "address=0x1d (+0x3a)") != NULL);
    a.options |= RVT_TE_OPT_FULL_ADDRESS;     /* format 2 then carries the address itself */
    q.address = 0x7fffff4f;
    CHECK(rvt_te_pkt_format(&a, &q, false, line, sizeof line) > 0);
    CHECK(strstr(line, "address=0x7fffff4f (0xfffffe9e)") != NULL);
    CHECK(rvt_te_pkt_format(&a, &q, true, line, sizeof line) > 0);   /* JSON: wire value only */
    CHECK(strstr(line, "\"address\":\"0x7fffff4f\",") != NULL);
}

/* A field across bit 64 of the payload, unpacked from the end of
 * readable memory (a read past the payload faults).  v1.1, 64-bit
 * addresses, lsb 1 (63-bit address field), no irdepth.  Table 6.5:
 * format 10 (b0 = 0, b1 = 1); address 0x2000000000000003 in b2-64 (its
 * bits 0, 1 are b2, b3; its bit 61 is b63, its bit 62 (0) is b64);
 * notify, updiscon, irreport 1 (b65-67).  Top bit 1, highest 0 is b64:
 * keep 66 bits, 9 bytes, b66-71 padded with 1.  byte0 = 0b00001110 =
 * 0x0e, bytes 1-6 = 0, byte7 = b63 = 0x80, byte8 = 1111111 b65, b64 0 =
 * 0xfe.  Meanings (6.6.2): notify 1 against the address MSB 0: set;
 * updiscon and irreport repeat the bit before them: clear. */
static void f2_address_across_64(guard_page *g)
{
    rvt_te_attrs a = base();
    a.iaddress_width = 64;
    rvt_te_pkt p = { .format = 2, .address = 0x2000000000000003ull, .notify = 1, .updiscon = 1,
                     .irreport = 1 };
    static const uint8_t want[] = { 0x0e, 0, 0, 0, 0, 0, 0, 0x80, 0xfe };
    expect(&a, &p, want, sizeof want);
    rvt_te_pkt q;
    CHECK_EQ(rvt_te_unpack(&a, guard_page_tail(g, want, sizeof want), sizeof want, &q), 0);
    CHECK_EQ(q.format, 2);
    CHECK_EQ(q.address, 0x2000000000000003ull);
    CHECK(q.notify && q.updiscon && q.irreport);
    rvt_te_flags f = rvt_te_pkt_flags(&a, &q);
    CHECK(f.notify && !f.updiscon && !f.irreport);
}

/* Every combination of the three meanings back from the wire bits
 * rvt_te_pkt_set_flags writes (format 2, address MSB 1 and 0). */
static void flags_every_combination(void)
{
    rvt_te_attrs a = base();
    for (unsigned m = 0; m < 16; m++) {
        rvt_te_pkt p = { .format = 2, .address = m & 8 ? 0x40000000 : 4 };
        rvt_te_pkt_set_flags(&a, &p, m & 1, m >> 1 & 1, m >> 2 & 1, 0);
        rvt_te_flags f = rvt_te_pkt_flags(&a, &p);
        CHECK_EQ(f.notify, m & 1);
        CHECK_EQ(f.updiscon, m >> 1 & 1);
        CHECK_EQ(f.irreport, m >> 2 & 1);
    }
}

static bool same_pkt(const rvt_te_pkt *x, const rvt_te_pkt *y)
{
    return x->format == y->format && x->subformat == y->subformat && x->branch == y->branch &&
           x->privilege == y->privilege && x->interrupt == y->interrupt && x->thaddr == y->thaddr &&
           x->notify == y->notify && x->updiscon == y->updiscon && x->irreport == y->irreport &&
           x->enable == y->enable && x->encoder_mode == y->encoder_mode &&
           x->qual_status == y->qual_status && x->denable == y->denable && x->dloss == y->dloss &&
           x->doptions == y->doptions && x->branch_fmt == y->branch_fmt && x->branches == y->branches &&
           x->has_address == y->has_address && x->options == y->options &&
           x->branch_map == y->branch_map && x->branch_count == y->branch_count &&
           x->index == y->index && x->address == y->address && x->irdepth == y->irdepth &&
           x->context == y->context && x->time == y->time && x->ecause == y->ecause && x->tval == y->tval;
}

/* Payloads of every length 1..31 unpacked twice: at the end of readable
 * memory, and followed by other bytes.  A reader that looked past the
 * payload would fault in the first case or see the bytes after it in
 * the second; the two must agree (status and every field), in the
 * 32-bit layout of these tests and in 64-bit all-modes v1.1 and v2.0
 * layouts (branch maps, branch counts, jump cache, 64-bit context). */
static void unpack_every_length_at_end(guard_page *g)
{
    rvt_te_attrs l[3];
    l[0] = base();
    for (int i = 1; i < 3; i++) {
        rvt_te_attrs_default(&l[i]);
        l[i].iaddress_width = 64;
        l[i].return_stack_size = 5;
        l[i].sijump = 1;
        l[i].nocontext = 0;
        l[i].context_width = 64;
        CHECK_EQ(rvt_te_opts_parse("all", &l[i].options), 0);
    }
    l[2].version = RVT_TE_V20;
    l[2].notime = 0;
    l[2].time_width = 40;
    for (int i = 1; i < 3; i++) {
        rvt_te_attrs_fill(&l[i]);
        CHECK_EQ(rvt_te_attrs_check(&l[i]), 0);
    }
    uint64_t seed = 0x2545f4914f6cdd1dull;
    for (int k = 0; k < 3; k++) {
        for (size_t len = 1; len <= 31; len++) {
            for (int run = 0; run < 200; run++) {
                uint8_t src[64];
                for (size_t i = 0; i < sizeof src; i++)
                    src[i] = (uint8_t)th_xorshift64(&seed);
                rvt_te_pkt x, y;
                int sx = rvt_te_unpack(&l[k], guard_page_tail(g, src, len), len, &x);
                int sy = rvt_te_unpack(&l[k], src, len, &y);
                CHECK_EQ(sx, sy);
                if (sx == 0 && sy == 0 && !same_pkt(&x, &y))
                    TH_FAIL("layout %d, %zu bytes: the packet depends on the bytes after it", k, len);
            }
        }
    }
}

int main(void)
{
    guard_page g;
    if (guard_page_open(&g) != 0) {
        TH_FAIL("no guard page");
        return TH_DONE();
    }
    f2_address_across_64(&g);
    flags_every_combination();
    unpack_every_length_at_end(&g);
    guard_page_close(&g);
    dump_text();
    f3_sync();
    f3_exception();
    f3_context();
    f3_support();
    f2_plain();
    f2_negative();
    f2_updiscon();
    f2_notify();
    f2_irreport();
    f1_address();
    f1_full_map();
    f0_branch_count();
    f0_jump_cache();
    bad_input();
    attrs_text();
    return TH_DONE();
}
