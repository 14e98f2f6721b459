#!/bin/bash
# report --html (issue #17 "One HTML report"): one self-contained page
# (nothing fetched: no http(s) URL but the SVG namespace, no external
# script, style or image) opened in headless Chromium, which saves a
# screenshot and dumps the DOM it built: the page has the summary with the
# instructions the hart retired, the top functions (fib first for
# recurse.elf), the flame graph, coverage per function and the traps.
# No Chromium: skipped (scripts/setup.sh installs it).
set -eu
B=""
for c in chromium chromium-browser google-chrome; do
    command -v "$c" >/dev/null 2>&1 && { B=$c; break; }
done
[ -n "$B" ] || { echo "SKIP: no chromium"; exit 77; }
P="$RVT_SRC/programs/recurse.elf"
T="$RVT_TMP/report_html"; rm -rf "$T"; mkdir -p "$T"
"$RVT_BIN" run "$P" --quiet --etrace "$T/r.te" --pcs-retired "$T/r.pcs" > /dev/null
retired=$(wc -l < "$T/r.pcs" | awk '{ s = sprintf("%d", $1); o = ""
    while (length(s) > 3) { o = "," substr(s, length(s) - 2) o; s = substr(s, 1, length(s) - 3) } print s o }')
"$RVT_BIN" report --elf "$P" "$T/r.te" --no-report --html "$T/r.html"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
if grep -o 'https\?://[^"]*' "$T/r.html" | grep -v '^http://www.w3.org/2000/svg$' | grep -q .; then
    bad "the page refers to the network: $(grep -o 'https\?://[^"]*' "$T/r.html" | sort -u | head -3)"
fi
grep -Eqi '<(script|link|img)[^>]* (src|href)=' "$T/r.html" && bad "the page loads an external file"
run_browser() {
    timeout 120 "$B" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$T/profile" \
        --window-size=1280,2400 "$@" "file://$T/r.html" 2> "$T/browser.err"
}
run_browser --screenshot="$T/r.png" > /dev/null || { bad "chromium failed: $(tail -3 "$T/browser.err")"; }
[ -s "$T/r.png" ] && [ "$(head -c 8 "$T/r.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
    bad "no PNG screenshot"
run_browser --dump-dom > "$T/dom.html" || bad "chromium --dump-dom failed: $(tail -3 "$T/browser.err")"
python3 - "$T/dom.html" "$retired" <<'PY' || fail=1
import html.parser, sys
class Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts, self.skip, self.rows, self.row, self.cell, self.in_cell = [], 0, [], None, "", False
    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"): self.skip += 1
        if tag == "tr": self.row = []
        if tag in ("td", "th"): self.in_cell, self.cell = True, ""
    def handle_endtag(self, tag):
        if tag in ("script", "style"): self.skip -= 1
        if tag in ("td", "th") and self.row is not None: self.row.append(self.cell.strip()); self.in_cell = False
        if tag == "tr" and self.row is not None: self.rows.append(self.row); self.row = None
    def handle_data(self, d):
        if not self.skip: self.parts.append(d)
        if self.in_cell: self.cell += d
t = Text()
t.feed(open(sys.argv[1]).read())
text = " ".join(" ".join(t.parts).split())
for want in ("rvtrace report", "Summary", "Top functions", "Flame graph", "Coverage per function", "Traps",
             "No traps or interrupts.", "Instructions retired " + sys.argv[2]):
    assert want in text, "page text lacks %r" % want
top = t.rows[t.rows.index(["Function", "Children", "Self", "Instructions", "Self instructions", "Calls"]) + 1:]
assert top[0][:2] == ["_start", "100.00%"], top[0]     # _start holds all but rt_exit's 5
fib = [r for r in top if r[0] == "fib"][0]
assert fib[5] == "57,313", fib
print("html: page text ok (%d table rows)" % len(t.rows))
PY
# The flame graph zooms: a copy of the page with a script that clicks fib's
# box: fib then spans the width (1180 px from x = 10), its three callers
# (all, _start, main) grey above the rest, everything else hidden; Reset
# Zoom shows every box again.
sed 's#</body></html>#<pre id="result"></pre><script>\
var g = document.querySelector("g.f[data-n=fib]"), r = g.querySelector("rect");\
r.dispatchEvent(new MouseEvent("click", {bubbles: true}));\
var res = "zoomed " + r.getAttribute("width") + " at " + r.getAttribute("x") + " up " +\
  document.querySelectorAll("g.f.up").length + " shown " + document.querySelectorAll("g.f:not(.hide)").length;\
document.querySelector(".unzoom").dispatchEvent(new MouseEvent("click", {bubbles: true}));\
res += " reset hidden " + document.querySelectorAll("g.f.hide").length;\
document.getElementById("result").textContent = res;</script></body></html>#' "$T/r.html" > "$T/zoom.html"
timeout 120 "$B" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$T/profile" \
    --dump-dom "file://$T/zoom.html" 2>/dev/null > "$T/zoom.dom" || bad "chromium failed on the zoom page"
# fib(22) nests 22 deep: the 22 fib boxes, its 3 callers = 25 shown.
grep -q '<pre id="result">zoomed 1180.00 at 10.00 up 3 shown 25 reset hidden 0</pre>' "$T/zoom.dom" ||
    bad "zoom: $(grep -o '<pre id="result">[^<]*' "$T/zoom.dom")"
[ $fail = 0 ] && echo "report --html: ok in $B (screenshot $(wc -c < "$T/r.png") bytes)"
exit $fail
