/* te_data packets and data accesses as text: `rvtrace dump` lines (every
 * field named, in wire order, tables 7.1-7.13) and the one-line access
 * form the data round-trip tests compare. */
#include <inttypes.h>
#include <stdio.h>
#include "rvtrace/etrace.h"

typedef struct tout {
    char *buf;
    size_t n, len;
    bool json, first;
} tout;

static void emit(tout *o, const char *name, const char *sval, uint64_t v, bool hex)
{
    if (o->len >= o->n)
        return;
    const char *sep = o->first ? "" : (o->json ? "," : " ");
    char val[40];
    if (sval)
        snprintf(val, sizeof val, o->json ? "\"%s\"" : "%s", sval);
    else if (hex)
        snprintf(val, sizeof val, o->json ? "\"0x%" PRIx64 "\"" : "0x%" PRIx64, v);
    else
        snprintf(val, sizeof val, "%" PRIu64, v);
    int w = snprintf(o->buf + o->len, o->n - o->len, o->json ? "%s\"%s\":%s" : "%s%s=%s",
                     sep, name, val);
    if (w > 0)
        o->len += (size_t)w;
    o->first = false;
}

static const char *const fmt_names[8] = {
    "load_aligned", "load_unaligned", "store_aligned", "store_unaligned",
    "split_load_data", "csr", "atomic", "split_atomic_data",
};
const char *rvt_te_dpkt_name(const rvt_te_dpkt *p)
{
    return fmt_names[p->format & 7];
}

static const char *const amo_names[8] = { "swap", "add", "and", "or", "xor", "max", "min", "reserved" };
static const char *const csr_names[4] = { "rw", "rs", "rc", "reserved" };

static const char *const resp_names[4] = { "error", "xor", "full", "diff" };

static bool is_split(const rvt_te_attrs *a, const rvt_te_dpkt *p)
{
    return a->split_loads && p->format != RVT_TE_DF_CSR && (p->format & 6) != 2;
}

/* A split request shares its code with the unified form (7.1.1): the
 * attributes tell them apart. */
const char *rvt_te_dpkt_kind(const rvt_te_attrs *a, const rvt_te_dpkt *p)
{
    static const char *const req[] = { "split_load_aligned", "split_load_unaligned" };
    if (is_split(a, p) && p->format <= RVT_TE_DF_LOAD_UNALIGNED)
        return req[p->format];
    if (is_split(a, p) && p->format == RVT_TE_DF_ATOMIC)
        return "split_atomic";
    return fmt_names[p->format & 7];
}

/* Tables 7.4, 7.5, 7.9, 7.10 in wire order. */
static void split_fields(tout *o, const rvt_te_dpkt *p)
{
    bool resp = p->format == RVT_TE_DF_SPLIT_LOAD_DATA || p->format == RVT_TE_DF_SPLIT_ATOMIC_DATA;
    if (p->format == RVT_TE_DF_ATOMIC)
        emit(o, "subtype", amo_names[p->subtype & 7], 0, false);
    if (p->format != RVT_TE_DF_SPLIT_ATOMIC_DATA)
        emit(o, "size", NULL, p->size, false);
    emit(o, "index", NULL, p->index, false);
    if (resp) {
        emit(o, "resp", resp_names[p->resp & 3], 0, false);
        if (p->resp == RVT_TE_RESP_ERROR)
            return;
        if (p->format == RVT_TE_DF_SPLIT_ATOMIC_DATA)
            emit(o, "data_len", NULL, p->datalen, false);
        emit(o, "data", NULL, p->data, true);
        return;
    }
    emit(o, "diff", NULL, p->diff, false);
    if (p->format == RVT_TE_DF_ATOMIC) {
        emit(o, "op_len", NULL, p->oplen, false);
        emit(o, "operand", NULL, p->operand, true);
    }
    emit(o, "address", NULL, p->address, true);
}

static void unified_fields(tout *o, const rvt_te_attrs *a, const rvt_te_dpkt *p)
{
    bool atomic = p->format == RVT_TE_DF_ATOMIC, csr = p->format == RVT_TE_DF_CSR;
    if (atomic || csr)
        emit(o, "subtype", atomic ? amo_names[p->subtype & 7] : csr_names[p->subtype & 3], 0, false);
    if (!csr)
        emit(o, "size", NULL, p->size, false);
    emit(o, "diff", NULL, p->diff, false);
    bool ro = csr && !a->no_address && (p->address >> 10) == 3;
    if (!a->no_data) {
        if (atomic) {
            emit(o, "op_len", NULL, p->oplen, false);
            emit(o, "operand", NULL, p->operand, true);
        }
        if (csr || !a->no_address)
            emit(o, "data_len", NULL, p->datalen, false);
        emit(o, "data", NULL, p->data, true);
        if (csr && !ro) {
            emit(o, "op_len", NULL, p->oplen, false);
            emit(o, "operand", NULL, p->operand, true);
        }
    }
    if (csr && (a->no_data || !a->no_address)) {
        emit(o, "addr_msbs", NULL, (p->address >> 6) & 63, true);
        emit(o, "addr_lsbs", NULL, p->address & 63, true);
    } else if (!csr && !a->no_address) {
        emit(o, "address", NULL, p->address, true);
    }
}

int rvt_te_dpkt_format(const rvt_te_attrs *a, const rvt_te_dpkt *p, bool json, char *buf, size_t n)
{
    tout o = { buf, n, 0, json, true };
    if (n == 0)
        return RVT_ERR_LIMIT;
    buf[0] = 0;
    if (json && n > 1) {
        buf[0] = '{';
        buf[1] = 0;
        o.len = 1;
    }
    /* docs/formats.md: every JSON object names its record in "kind"; the
     * text dump keeps msg= */
    emit(&o, json ? "kind" : "msg", "te_data", 0, false);
    emit(&o, "format", rvt_te_dpkt_kind(a, p), 0, false);
    if (is_split(a, p))
        split_fields(&o, p);
    else
        unified_fields(&o, a, p);
    if (json && o.len + 1 < n) {
        buf[o.len++] = '}';
        buf[o.len] = 0;
    }
    return o.len < n ? (int)o.len : RVT_ERR_LIMIT;
}

static const char *dtype_name(unsigned t)
{
    static const char *const names[16] = {
        "load", "store", "dtype2", "dtype3", "csr_rw", "csr_rs", "csr_rc", "dtype7",
        "amo_swap", "amo_add", "amo_and", "amo_or", "amo_xor", "amo_max", "amo_min", "dtype15",
    };
    return names[t & 15];
}

int rvt_te_drec_format(const rvt_drec *d, unsigned omit, char *buf, size_t n)
{
    char addr[24] = "-", data[24] = "-", data2[26] = "";
    if (!(omit & RVT_TE_DREC_NO_ADDR))
        snprintf(addr, sizeof addr, "%" PRIx64, d->addr);
    if (!(omit & RVT_TE_DREC_NO_DATA))
        snprintf(data, sizeof data, "%" PRIx64, d->data);
    bool two = d->dtype >= RVT_DTYPE_CSR_RW;
    if (two)
        snprintf(data2, sizeof data2, (omit & RVT_TE_DREC_NO_DATA) ? " -" : " %" PRIx64, d->data2);
    /* A split load that failed (table 4.9 lresp 3) has no load data. */
    if (d->lresp == RVT_LRESP_ERROR && !(omit & RVT_TE_DREC_NO_DATA)) {
        if (two)
            snprintf(data2, sizeof data2, " error");
        else
            snprintf(data, sizeof data, "error");
    }
    int w = snprintf(buf, n, "%s %u %s %s%s", dtype_name(d->dtype), 1u << (d->dsize & 7), addr,
                     data, data2);
    return w >= 0 && (size_t)w < n ? w : RVT_ERR_LIMIT;
}
