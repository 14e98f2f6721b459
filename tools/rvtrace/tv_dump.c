/* `rvtrace dump F.tvt`: one item per line, every field named (text or
 * JSON lines).  Corrupt input is reported with its byte offset and the
 * dump goes on from the next begin-group byte. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "tv_cli.h"

/* The named fields of one item, "k=v" pairs (text) or "k":v (JSON). */
static void fields(const rvt_tv_item *it, bool json, char *b, size_t n)
{
    char reg[20];
    const char *q = json ? "\"" : "", *eq = json ? "\":" : "=", *sep = json ? ",\"" : " ";
#define KV(k, fmt, ...) do { size_t l_ = strlen(b); \
        snprintf(b + l_, n - l_, "%s%s%s" fmt, sep, k, eq, __VA_ARGS__); } while (0)
    b[0] = 0;
    switch (it->op) {
    case RVT_TV_FULL_REG: case RVT_TV_INCR_REG: case RVT_TV_OR_REG:
        KV("reg", "%s%s%s", q, rvt_tv_reg_name(it->reg, reg, sizeof reg), q);
        KV("addr", "%s0x%04x%s", q, it->reg, q);
        if (it->op == RVT_TV_INCR_REG)
            KV("offset", "%" PRId64, (int64_t)it->value);
        else
            KV(it->op == RVT_TV_OR_REG ? "mask" : "value", "%s0x%" PRIx64 "%s", q, it->value, q);
        break;
    case RVT_TV_STATE:
        KV("id", "%s%s%s", q, rvt_tv_state_name(it->id), q);
        KV("value", "%s0x%" PRIx64 "%s", q, it->value, q);
        break;
    case RVT_TV_MEM_REQ:
        KV("addr", "%s0x%" PRIx64 "%s", q, it->addr, q);
        KV("mem_op", "%s%s%s", q, rvt_tv_mem_op_name(it->mem_op), q);
        KV("size", "%u", 8u << it->mem_size);
        if (it->has_data)
            KV("data", "%s0x%" PRIx64 "%s", q, it->data, q);
        break;
    case RVT_TV_MEM_RSP:
        KV("size", "%u", 8u << it->mem_size);
        KV("result", "%s%s%s", q, it->result ? "failure" : "success", q);
        if (it->has_data)
            KV("data", "%s0x%" PRIx64 "%s", q, it->data, q);
        break;
    case RVT_TV_INSN16: case RVT_TV_INSN32:
        KV("insn", "%s0x%0*" PRIx64 "%s", q, it->op == RVT_TV_INSN16 ? 4 : 8, it->value, q);
        break;
    default:
        break;
    }
#undef KV
}

static void print_item(const rvt_tv_item *it, bool json)
{
    char f[256];
    fields(it, json, f, sizeof f);
    if (json)
        printf("{\"offset\":%" PRIu64 ",\"kind\":\"%s\",\"index\":%" PRIu64 "%s}\n",
               it->offset, rvt_tv_op_name(it->op), it->index, f);
    else
        printf("%08" PRIx64 " #%-6" PRIu64 " %s%s\n", it->offset, it->index,
               rvt_tv_op_name(it->op), f);
}

int tv_dump_file(const char *path, bool json, const rvt_tv_cfg *cfg)
{
    int fd;
    rvt_tv_reader *r = tv_reader_open(path, cfg, &fd);
    if (!r)
        return CLI_FAIL;
    rvt_tv_item it;
    uint64_t off, bad = 0;
    int st;
    while ((st = rvt_tv_reader_next(r, &it, &off)) != RVT_ERR_EOS) {
        if (st == RVT_OK) {
            print_item(&it, json);
            continue;
        }
        bad++;
        cli_diag((void *)path, RVT_DIAG_ERROR, off, rvt_status_str(st));
        if (st != RVT_ERR_FORMAT && st != RVT_ERR_TRUNC)
            break;
    }
    if (bad)
        cli_err("%s: %" PRIu64 " error(s), %" PRIu64 " byte(s) skipped", path, bad,
                rvt_tv_reader_skipped(r));
    tv_reader_close(r, fd);
    return bad ? CLI_FAIL : CLI_OK;
}
