/* Flame graphs from folded stacks (folded.h): a self-contained, zoomable
 * SVG (its script embedded, nothing fetched), as flamegraph.pl draws
 * them: one box per function on a stack, as wide as the instructions
 * retired in it and its callees, callers below callees. */
#ifndef RVT_OUT_FLAMEGRAPH_H
#define RVT_OUT_FLAMEGRAPH_H

#include <stdio.h>
#include "out/folded.h"

/* The SVG of fo's stacks; standalone: with the XML declaration (false:
 * an <svg> element to put inside an HTML page).  0, or -1 when out of
 * memory (nothing useful written). */
int rvt_flamegraph_svg(rvt_folded *fo, FILE *f, const char *title, bool standalone);

/* s with &, <, >, " and ' escaped for XML text and attributes. */
void rvt_out_xml_text(FILE *f, const char *s);

#endif
