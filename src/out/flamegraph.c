/* Flame-graph SVG (flamegraph.h) and the "flamegraph" writer.  The folded
 * stacks are merged into a tree (a node per distinct call path), laid out
 * with siblings in name order as flamegraph.pl does, and written as one
 * <g class="f"> per node: a <title> (name, instructions, share), a <rect>
 * and a <text>.  Each box carries data-x / data-v / data-d (first
 * instruction, instructions, depth) so the embedded script can zoom and
 * tests can check the widths add up. */
#include <stdlib.h>
#include <string.h>
#include "util/grow.h"
#include "util/thousands.h"
#include "out/flamegraph.h"
#include "out/keymap.h"
#include "out/writers.h"

#define FG_WIDTH 1200.0
#define FG_PAD 10.0
#define FG_ROW 16
#define FG_TOP 40

typedef struct fg_node {
    const char *name;
    uint64_t value;               /* instructions in it and below */
    uint64_t x;                   /* instructions left of it */
    uint32_t depth;
    size_t first_child, next;     /* sibling lists, SIZE_MAX = none */
} fg_node;

typedef struct fg_tree {
    rvt_keymap ix;                /* (parent, name) -> nodes */
    fg_node *nodes;
    size_t cap;
    uint32_t max_depth;
    bool oom;
} fg_tree;

static const char fg_all[] = "all";

static size_t child(fg_tree *t, size_t parent, const char *name)
{
    int added;
    size_t i = rvt_keymap_get(&t->ix, parent, (uint64_t)(uintptr_t)name, &added);
    if (i == SIZE_MAX || !added)
        return i;
    fg_node *n = rvt_grow(t->nodes, &t->cap, i + 1, sizeof *n, 256);
    if (!n)
        return SIZE_MAX;
    t->nodes = n;
    uint32_t depth = parent == SIZE_MAX ? 0 : n[parent].depth + 1;
    n[i] = (fg_node){ name, 0, 0, depth, SIZE_MAX, SIZE_MAX };
    if (parent != SIZE_MAX) {
        n[i].next = n[parent].first_child;
        n[parent].first_child = i;
    }
    if (depth > t->max_depth)
        t->max_depth = depth;
    return i;
}

static void add_stack(void *ctx, const char *const *names, uint32_t n, uint64_t insns, uint64_t cycles)
{
    fg_tree *t = ctx;
    (void)cycles;
    if (!insns || t->oom)
        return;
    size_t at = child(t, SIZE_MAX, fg_all);
    for (uint32_t i = 0; at != SIZE_MAX; i++) {
        t->nodes[at].value += insns;
        if (i == n)
            return;
        at = child(t, at, names[i]);
    }
    t->oom = true;
}

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const fg_node *const *)a)->name, (*(const fg_node *const *)b)->name);
}

/* Children in name order, each starting where the previous ends; iterative
 * so a deep recursion cannot overflow the C stack. */
static bool layout(fg_tree *t)
{
    size_t n = t->ix.n, top = 0;
    size_t *todo = malloc((n ? n : 1) * sizeof *todo);
    fg_node **kids = malloc((n ? n : 1) * sizeof *kids);
    if (!todo || !kids) {
        free(todo);
        free(kids);
        return false;
    }
    if (n)
        todo[top++] = 0;
    while (top) {
        fg_node *p = &t->nodes[todo[--top]];
        size_t k = 0;
        for (size_t c = p->first_child; c != SIZE_MAX; c = t->nodes[c].next)
            kids[k++] = &t->nodes[c];
        qsort(kids, k, sizeof *kids, by_name);
        uint64_t x = p->x;
        for (size_t i = 0; i < k; i++) {
            kids[i]->x = x;
            x += kids[i]->value;
            todo[top++] = (size_t)(kids[i] - t->nodes);
        }
    }
    free(todo);
    free(kids);
    return true;
}

void rvt_out_xml_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\t')
                fputc(*s, f);
        }
    }
}

/* flamegraph.pl's "hot" palette, from the name so a function keeps its colour. */
static void colour(const char *name, unsigned rgb[3])
{
    uint32_t h = 2166136261u;
    for (const char *s = name; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    rgb[0] = 205 + (h & 0x1f) * 50 / 31;
    rgb[1] = ((h >> 5) & 0xff) * 230 / 255;
    rgb[2] = ((h >> 13) & 0x3f) * 55 / 63;
}

/* Zoom: a click makes a box the full width; its callers span the width
 * too (greyed), boxes beside it hide.  Text shows where it fits. */
static const char fg_script[] =
    "(function(){\n"
    "var W=1200,P=10,svg=document.currentScript?document.currentScript.parentNode:null;\n"
    "function root(e){return e.closest?e.closest('svg'):svg;}\n"
    "function fit(g,w){var t=g.querySelector('text'),n=g.getAttribute('data-n');\n"
    " var c=Math.floor(w/7);t.textContent=c<3?'':(n.length<=c?n:n.slice(0,c-2)+'..');}\n"
    "function place(g,x,w){var r=g.querySelector('rect'),t=g.querySelector('text');\n"
    " r.setAttribute('x',x.toFixed(2));r.setAttribute('width',Math.max(w,0).toFixed(2));\n"
    " t.setAttribute('x',(x+3).toFixed(2));fit(g,w);}\n"
    "function zoom(s,g){var x0=+g.getAttribute('data-x'),v=+g.getAttribute('data-v'),d=+g.getAttribute('data-d');\n"
    " s.querySelectorAll('g.f').forEach(function(e){var x=+e.getAttribute('data-x'),ev=+e.getAttribute('data-v'),\n"
    "  ed=+e.getAttribute('data-d');e.classList.remove('hide');e.classList.remove('up');\n"
    "  if(ed<d&&x<=x0&&x+ev>=x0+v){place(e,P,W-2*P);e.classList.add('up');}\n"
    "  else if(ed>=d&&x>=x0&&x+ev<=x0+v){place(e,P+(x-x0)/v*(W-2*P),ev/v*(W-2*P));}\n"
    "  else e.classList.add('hide');});\n"
    " s.querySelector('.unzoom').classList.remove('hide');}\n"
    "function unzoom(s){var t=+s.getAttribute('data-total');\n"
    " s.querySelectorAll('g.f').forEach(function(e){e.classList.remove('hide');e.classList.remove('up');\n"
    "  place(e,P+(+e.getAttribute('data-x'))/t*(W-2*P),(+e.getAttribute('data-v'))/t*(W-2*P));});\n"
    " s.querySelector('.unzoom').classList.add('hide');}\n"
    "document.addEventListener('click',function(ev){var t=ev.target;if(!t.closest)return;\n"
    " var s=t.closest('svg.flamegraph');if(!s)return;\n"
    " if(t.closest('.unzoom')){unzoom(s);return;}var g=t.closest('g.f');if(g)zoom(s,g);});\n"
    "document.addEventListener('mouseover',function(ev){var t=ev.target;if(!t.closest)return;\n"
    " var s=t.closest('svg.flamegraph'),g=t.closest('g.f');if(!s||!g)return;\n"
    " s.querySelector('.details').textContent=g.querySelector('title').textContent;});\n"
    "})();\n";

static void svg_head(FILE *f, const char *title, uint64_t total, unsigned height, bool standalone)
{
    if (standalone)
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", f);
    fprintf(f, "<svg class=\"flamegraph\" version=\"1.1\" width=\"%.0f\" height=\"%u\" viewBox=\"0 0 %.0f %u\" "
            "xmlns=\"http://www.w3.org/2000/svg\" data-total=\"%llu\">\n", FG_WIDTH, height, FG_WIDTH, height,
            (unsigned long long)total);
    fputs("<style>text{font-family:Verdana,sans-serif;font-size:12px;fill:#000}g.f{cursor:pointer}"
          "g.f:hover rect{stroke:#000;stroke-width:0.5}.hide{display:none}.up rect{opacity:0.5}"
          ".title{font-size:17px}</style>\n", f);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%u\" fill=\"#f8f8f8\"/>\n", FG_WIDTH, height);
    fprintf(f, "<text class=\"title\" x=\"%.0f\" y=\"24\" text-anchor=\"middle\">", FG_WIDTH / 2);
    rvt_out_xml_text(f, title);
    fputs("</text>\n<text class=\"unzoom hide\" x=\"10\" y=\"24\">Reset Zoom</text>\n", f);
    fprintf(f, "<text class=\"details\" x=\"10\" y=\"%u\"> </text>\n", height - 8);
    fputs("<script type=\"text/ecmascript\"><![CDATA[\n", f);
    fputs(fg_script, f);
    fputs("]]></script>\n", f);
}

static void svg_node(FILE *f, const fg_node *n, uint64_t total, unsigned height)
{
    char a[32];
    double w = (double)n->value / (double)total * (FG_WIDTH - 2 * FG_PAD);
    double x = FG_PAD + (double)n->x / (double)total * (FG_WIDTH - 2 * FG_PAD);
    unsigned y = height - 24 - (n->depth + 1) * FG_ROW;
    unsigned rgb[3];
    colour(n->name, rgb);
    fprintf(f, "<g class=\"f\" data-x=\"%llu\" data-v=\"%llu\" data-d=\"%u\" data-n=\"",
            (unsigned long long)n->x, (unsigned long long)n->value, n->depth);
    rvt_out_xml_text(f, n->name);
    fputs("\"><title>", f);
    rvt_out_xml_text(f, n->name);
    fprintf(f, " (%s instructions, %.2f%%)</title>", rvt_thousands(n->value, a, sizeof a),
            100.0 * (double)n->value / (double)total);
    fprintf(f, "<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" fill=\"rgb(%u,%u,%u)\" rx=\"2\"/>", x, y,
            w, FG_ROW - 1, rgb[0], rgb[1], rgb[2]);
    fprintf(f, "<text x=\"%.2f\" y=\"%u\">", x + 3, y + FG_ROW - 4);
    size_t fit = w < 21 ? 0 : (size_t)(w / 7);
    if (strlen(n->name) <= fit) {
        rvt_out_xml_text(f, n->name);
    } else if (fit >= 3) {
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s..", (int)(fit - 2 < 250 ? fit - 2 : 250), n->name);
        rvt_out_xml_text(f, buf);
    }
    fputs("</text></g>\n", f);
}

int rvt_flamegraph_svg(rvt_folded *fo, FILE *f, const char *title, bool standalone)
{
    fg_tree t = { 0 };
    rvt_folded_each(fo, add_stack, &t);
    int rc = -1;
    if (!t.oom && layout(&t)) {
        uint64_t total = t.ix.n ? t.nodes[0].value : 0;
        unsigned height = FG_TOP + 24 + (t.ix.n ? t.max_depth + 1 : 1) * FG_ROW;
        svg_head(f, title, total, height, standalone);
        for (size_t i = 0; i < t.ix.n; i++)
            svg_node(f, &t.nodes[i], total, height);
        fputs("</svg>\n", f);
        rc = 0;
    }
    rvt_keymap_free(&t.ix);
    free(t.nodes);
    return rc;
}

/* The "flamegraph" writer: the SVG when the output finishes. */
typedef struct fg_out {
    rvt_folded *fo;
    FILE *f;
} fg_out;

static void *fg_open(FILE *f, rvt_image *img)
{
    fg_out *o = calloc(1, sizeof *o);
    if (!o || !(o->fo = rvt_folded_new(img))) {
        free(o);
        return NULL;
    }
    o->f = f;
    return o;
}

static void fg_event(void *state, const rvt_flow_event *ev)
{
    rvt_folded_event(((fg_out *)state)->fo, ev);
}

static void fg_block(void *state, const struct rvt_block *b)
{
    rvt_folded_blocks(((fg_out *)state)->fo, b, 1);
}

static uint64_t fg_blocks(void *state, const struct rvt_block *b, size_t n)
{
    return rvt_folded_blocks(((fg_out *)state)->fo, b, n);
}

static void fg_finish(void *state)
{
    fg_out *o = state;
    rvt_flamegraph_svg(o->fo, o->f, "Flame graph (instructions retired)", true);
    rvt_folded_free(o->fo);
    free(o);
}

const rvt_out_writer rvt_out_flamegraph_writer = {
    .name = "flamegraph", .needs_image = true,
    .open = fg_open, .event = fg_event, .finish = fg_finish, .block = fg_block,
    .blocks = fg_blocks,
};
