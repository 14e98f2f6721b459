#include "tharness.h"
#include "rvtrace/status.h"
#include "rvtrace/ingress.h"

static int count_put(void *ctx, const rvt_irec *r, size_t n) { (void)r; *(size_t *)ctx += n; return 0; }

int main(void)
{
    CHECK_STR(rvt_status_str(RVT_OK), "ok");
    CHECK_STR(rvt_status_str(RVT_ERR_TRUNC), "truncated data");
    CHECK_STR(rvt_status_str(-999), "unknown error");

    /* The tee forwards every block to every sink. */
    size_t a = 0, b = 0;
    rvt_irec_tee tee;
    rvt_irec_tee_init(&tee);
    rvt_irec_sink sa = { &a, count_put, NULL, NULL }, sb = { &b, count_put, NULL, NULL };
    CHECK_EQ(rvt_irec_tee_add(&tee, &sa), 0);
    CHECK_EQ(rvt_irec_tee_add(&tee, &sb), 0);
    rvt_irec_sink t = rvt_irec_tee_sink(&tee);
    rvt_irec recs[3] = { { .iaddr = 0x80000000 } };
    CHECK_EQ(t.put(t.ctx, recs, 3), 0);
    CHECK_EQ(a, 3);
    CHECK_EQ(b, 3);
    CHECK_EQ(t.end(t.ctx), 0);
    return TH_DONE();
}
