/* Hand-derived golden streams (tests/golden/ntrace/NAME.txt): tiny programs
 * assembled by hand into an image, the ingress records their run produces,
 * and the message list and bytes each file derives from the spec text.
 * Each case is encoded and compared message by message and byte by byte,
 * then decoded back to the retired PCs. */
#include <stdio.h>
#include <stdlib.h>
#include "test_ntrace_util.h"

typedef struct golden {
    char msg[16][160];
    size_t nmsg;
    uint8_t hex[256];
    size_t nhex;
} golden;

static bool golden_load(const char *name, golden *g)
{
    const char *src = getenv("RVT_SRC");
    char path[1024], line[512];
    snprintf(path, sizeof path, "%s/tests/golden/ntrace/%s.txt", src ? src : ".", name);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return false;
    memset(g, 0, sizeof *g);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!strncmp(line, "msg: ", 5) && g->nmsg < 16) {
            snprintf(g->msg[g->nmsg++], sizeof g->msg[0], "%.150s", line + 5);
        } else if (!strncmp(line, "hex: ", 5)) {
            char *p = line + 5, *end;
            for (unsigned long v; (v = strtoul(p, &end, 16)), end != p && g->nhex < 256; p = end)
                g->hex[g->nhex++] = (uint8_t)v;
        }
    }
    fclose(f);
    return true;
}

/* The dump line without its "@OFFSET " prefix. */
static const char *body(const rvt_nt_msg *m, char *buf, size_t n)
{
    rvt_nt_msg_format(m, false, buf, n);
    const char *sp = strchr(buf, ' ');
    return sp ? sp + 1 : buf;
}

static void run_case(const char *name, const rvt_nt_cfg *cfg, rvt_image *img,
                     const rvt_irec *recs, size_t nrec, const uint64_t *pcs, size_t npc)
{
    golden g;
    if (!golden_load(name, &g))
        return;
    cap c;
    rvt_nt_msg m[16];
    size_t k = encode(cfg, recs, nrec, &c, m, 16);
    CHECK_EQ(k, g.nmsg);
    char buf[256];
    for (size_t i = 0; i < k && i < g.nmsg; i++)
        CHECK_STR(body(&m[i], buf, sizeof buf), g.msg[i]);
    CHECK_EQ(c.n, g.nhex);
    if (c.n == g.nhex)
        CHECK_MEM(c.b, g.hex, c.n);
    decode_back(cfg, img, &c, pcs, npc);
}

static rvt_irec rec_priv(uint64_t addr, uint32_t hw, unsigned itype, unsigned lastsize, unsigned priv)
{
    rvt_irec r = rec(addr, hw, itype, lastsize);
    r.priv = (uint8_t)priv;
    return r;
}

/* callret: jal ra / c.add / ret (see callret_htm_ir3.txt). */
static void test_callret(void)
{
    rvt_image *img = rvt_image_new();
    put32(img, 0x1000, 0x010000EFu);    /* jal ra, +0x10 */
    put16(img, 0x1004, 0x952E);         /* c.add a0,a1 */
    put16(img, 0x1006, 0x9002);         /* c.ebreak (not reached) */
    put16(img, 0x1010, 0x952E);
    put16(img, 0x1012, 0x8082);         /* ret */
    const rvt_irec r[] = {
        rec(0x1000, 2, RVT_ITYPE_INF_CALL, 1), rec(0x1010, 1, RVT_ITYPE_NONE, 0),
        rec(0x1012, 1, RVT_ITYPE_RETURN, 0), rec(0x1004, 1, RVT_ITYPE_NONE, 0),
    };
    const uint64_t pcs[] = { 0x1000, 0x1010, 0x1012, 0x1004 };
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.implicit_return = 3;
    run_case("callret_htm_ir3", &cfg, img, r, 4, pcs, 4);
    cfg.implicit_return = 0;
    run_case("callret_htm", &cfg, img, r, 4, pcs, 4);
    cfg.inst_mode = RVT_NT_MODE_BTM;
    run_case("callret_btm", &cfg, img, r, 4, pcs, 4);
    rvt_image_free(img);
}

/* trap: U-mode ecall to an M-mode handler and mret back, with Ownership. */
static void test_trap_owner(void)
{
    rvt_image *img = rvt_image_new();
    put16(img, 0x2000, 0x952E);
    put32(img, 0x2002, 0x00000073u);    /* ecall */
    put16(img, 0x2006, 0x952E);
    put32(img, 0x2100, 0x30200073u);    /* mret */
    rvt_irec r[] = {
        rec_priv(0x2000, 1, RVT_ITYPE_NONE, 0, 0), rec_priv(0x2002, 2, RVT_ITYPE_EXCEPTION, 1, 0),
        rec_priv(0x2100, 2, RVT_ITYPE_XRET, 1, 3), rec_priv(0x2006, 1, RVT_ITYPE_NONE, 0, 0),
    };
    r[1].cause = 8;     /* environment call from U-mode */
    const uint64_t pcs[] = { 0x2000, 0x2002, 0x2100, 0x2006 };
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.context = true;
    run_case("trap_owner_htm", &cfg, img, r, 4, pcs, 4);
    rvt_image_free(img);
}

int main(void)
{
    test_callret();
    test_trap_owner();
    return TH_DONE();
}
