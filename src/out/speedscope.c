/* The "speedscope" writer: the folded stacks as speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json), one "sampled"
 * profile whose samples are the distinct stacks (frame indices, outermost
 * first) weighted by the instructions retired with them; with timestamps
 * in the trace, a second profile weighted by cycles.  startValue 0,
 * endValue the total weight, unit "none" (counts). */
#include <inttypes.h>
#include <stdlib.h>
#include "out/event_text.h"
#include "out/folded.h"
#include "out/keymap.h"
#include "out/writers.h"

typedef struct ss_out {
    rvt_folded *fo;
    FILE *f;
    rvt_keymap frames;            /* name pointer -> frame index */
    uint64_t total, total_cycles;
    bool first, by_cycles;
} ss_out;

static void *ss_open(FILE *f, rvt_image *img)
{
    ss_out *o = calloc(1, sizeof *o);
    if (!o || !(o->fo = rvt_folded_new(img))) {
        free(o);
        return NULL;
    }
    o->f = f;
    return o;
}

static void ss_event(void *state, const rvt_flow_event *ev)
{
    rvt_folded_event(((ss_out *)state)->fo, ev);
}

static void ss_block(void *state, const struct rvt_block *b)
{
    rvt_folded_blocks(((ss_out *)state)->fo, b, 1);
}

static uint64_t ss_blocks(void *state, const struct rvt_block *b, size_t n)
{
    return rvt_folded_blocks(((ss_out *)state)->fo, b, n);
}

static void index_frames(void *ctx, const char *const *names, uint32_t n, uint64_t insns, uint64_t cycles)
{
    ss_out *o = ctx;
    int added;
    for (uint32_t i = 0; i < n; i++)
        rvt_keymap_get(&o->frames, (uint64_t)(uintptr_t)names[i], 0, &added);
    o->total += insns;
    o->total_cycles += cycles;
}

static uint64_t weight(const ss_out *o, uint64_t insns, uint64_t cycles)
{
    return o->by_cycles ? cycles : insns;
}

static void put_sample(void *ctx, const char *const *names, uint32_t n, uint64_t insns, uint64_t cycles)
{
    ss_out *o = ctx;
    if (!weight(o, insns, cycles))
        return;
    fputs(o->first ? "[" : ",[", o->f);
    for (uint32_t i = 0; i < n; i++)
        fprintf(o->f, "%s%zu", i ? "," : "", rvt_keymap_find(&o->frames, (uint64_t)(uintptr_t)names[i], 0));
    fputc(']', o->f);
    o->first = false;
}

static void put_weight(void *ctx, const char *const *names, uint32_t n, uint64_t insns, uint64_t cycles)
{
    ss_out *o = ctx;
    (void)names;
    (void)n;
    uint64_t w = weight(o, insns, cycles);
    if (!w)
        return;
    fprintf(o->f, "%s%" PRIu64, o->first ? "" : ",", w);
    o->first = false;
}

static void put_profile(ss_out *o, const char *name, bool by_cycles)
{
    o->by_cycles = by_cycles;
    fprintf(o->f, "{\"type\":\"sampled\",\"name\":\"%s\",\"unit\":\"none\",\"startValue\":0,\"endValue\":%" PRIu64
            ",\"samples\":[", name, by_cycles ? o->total_cycles : o->total);
    o->first = true;
    rvt_folded_each(o->fo, put_sample, o);
    fputs("],\"weights\":[", o->f);
    o->first = true;
    rvt_folded_each(o->fo, put_weight, o);
    fputs("]}", o->f);
}

static void ss_finish(void *state)
{
    ss_out *o = state;
    rvt_folded_each(o->fo, index_frames, o);
    fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"rvtrace\","
          "\"name\":\"rvtrace profile\",\"activeProfileIndex\":0,\"shared\":{\"frames\":[", o->f);
    for (size_t i = 0; i < o->frames.n; i++) {
        fputs(i ? ",{\"name\":" : "{\"name\":", o->f);
        rvt_out_json_string(o->f, (const char *)(uintptr_t)o->frames.keys[i].a);
        fputc('}', o->f);
    }
    fputs("]},\"profiles\":[", o->f);
    put_profile(o, "instructions retired", false);
    if (o->total_cycles) {
        fputc(',', o->f);
        put_profile(o, "cycles", true);
    }
    fputs("]}\n", o->f);
    rvt_keymap_free(&o->frames);
    rvt_folded_free(o->fo);
    free(o);
}

const rvt_out_writer rvt_out_speedscope_writer = {
    .name = "speedscope", .needs_image = true,
    .open = ss_open, .event = ss_event, .finish = ss_finish, .block = ss_block,
    .blocks = ss_blocks,
};
