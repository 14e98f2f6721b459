/* rvtrace dump F.rvi: one record per line, every field named
 * (docs/format-rvi.md); --json gives one JSON object per line. */
#include <inttypes.h>
#include <string.h>
#include "cli.h"

static void print_blk(const rvt_irec *r, bool json)
{
    if (json)
        printf("{\"kind\":\"blk\",\"iaddr\":\"0x%" PRIx64 "\",\"iretire\":%" PRIu32
               ",\"ninstr\":%" PRIu32 ",\"ilastsize\":%u,\"itype\":%u,\"priv\":%u,\"cause\":%u,"
               "\"tval\":\"0x%" PRIx64 "\",\"context\":\"0x%" PRIx64 "\",\"time\":%" PRIu64
               ",\"ctype\":%u,\"sijump\":%u,\"flags\":%u}\n", r->iaddr, r->iretire, r->ninstr,
               r->ilastsize, r->itype, r->priv, r->cause, r->tval, r->context, r->time, r->ctype,
               r->sijump, r->flags);
    else
        printf("blk iaddr=0x%" PRIx64 " iretire=%" PRIu32 " ninstr=%" PRIu32 " ilastsize=%u"
               " itype=%u priv=%u cause=%u tval=0x%" PRIx64 " context=0x%" PRIx64 " time=%" PRIu64
               " ctype=%u sijump=%u flags=0x%x\n", r->iaddr, r->iretire, r->ninstr, r->ilastsize,
               r->itype, r->priv, r->cause, r->tval, r->context, r->time, r->ctype, r->sijump,
               r->flags);
}

static void print_data(const rvt_drec *d, bool json)
{
    /* a split phase (record 0x04) also shows its ID and response */
    bool split = (d->flags & (RVT_DREC_F_SPLIT_REQ | RVT_DREC_F_RESPONSE)) != 0;
    if (json)
        printf("{\"kind\":\"data\",\"iaddr\":\"0x%" PRIx64 "\",\"addr\":\"0x%" PRIx64 "\","
               "\"data\":\"0x%" PRIx64 "\",\"data2\":\"0x%" PRIx64 "\",\"dtype\":%u,\"dsize\":%u,"
               "\"dblock\":%u,\"flags\":%u", d->iaddr, d->addr, d->data, d->data2, d->dtype,
               d->dsize, d->dblock, d->flags);
    else
        printf("data iaddr=0x%" PRIx64 " addr=0x%" PRIx64 " data=0x%" PRIx64 " data2=0x%" PRIx64
               " dtype=%u dsize=%u dblock=%u flags=0x%x", d->iaddr, d->addr, d->data, d->data2,
               d->dtype, d->dsize, d->dblock, d->flags);
    if (split)
        printf(json ? ",\"lrid\":%u,\"lresp\":%u" : " lrid=%u lresp=%u", d->lrid, d->lresp);
    printf(json ? "}\n" : "\n");
}

int rvi_dump_file(const char *path, bool json)
{
    int st;
    rvt_rvi_reader *r = rvt_rvi_reader_open_diag(path, cli_diag, (void *)path, &st);
    if (!r)
        return CLI_FAIL;
    unsigned xl = rvt_rvi_reader_xlen(r), fl = rvt_rvi_reader_flags(r), v = rvt_rvi_reader_version(r);
    if (json)
        printf("{\"kind\":\"header\",\"version\":%u,\"xlen\":%u,\"flags\":%u}\n", v, xl, fl);
    else
        printf("rvi version=%u xlen=%u flags=0x%x%s\n", v, xl, fl,
               fl & RVT_RVI_F_ITYPE3 ? " (itype3)" : "");
    rvt_irec b;
    rvt_drec d;
    bool is_data;
    uint64_t n = 0;
    while ((st = rvt_rvi_reader_next(r, &b, &d, &is_data)) > 0) {
        if (is_data)
            print_data(&d, json);
        else
            print_blk(&b, json);
        n++;
    }
    if (st == 0)
        printf(json ? "{\"kind\":\"end\",\"records\":%" PRIu64 "}\n" : "end records=%" PRIu64 "\n", n);
    rvt_rvi_reader_close(r);
    return st < 0 ? CLI_FAIL : CLI_OK;
}
