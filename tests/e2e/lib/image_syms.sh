# Shared by image_map.sh and linux_trace.sh (sourced): decode's listing
# over several images (docs/formats.md "Image map") checked against nm.

# nm_table OUT NM FILE...: "IMAGE ADDR SYMBOL" lines of each FILE, IMAGE
# its last path component, from NM's listing, or NM -D's for a file
# stripped to its dynamic symbols (rvtrace falls back to .dynsym as nm -D
# does).  False when nothing was listed.
nm_table() {
    local out=$1 nm=$2 f; shift 2
    : >"$out"
    for f in "$@"; do
        { "$nm" "$f" 2>/dev/null | grep -q . && "$nm" "$f" || "$nm" -D "$f"; } 2>/dev/null |
            awk -v img="${f##*/}" 'NF == 3 {print img, $1, $3}' >>"$out"
    done
    [ -s "$out" ]
}

# listing_heads LISTING OUT: its "ADDR <symbol> [IMAGE]:" headers as
# "IMAGE ADDR SYMBOL" lines, each once.
listing_heads() {
    grep -E '^[0-9a-f]{16} <.*> \[.*\]:$' "$1" | sort -u |
        sed -E 's/^([0-9a-f]+) <(.*)> \[(.*)\]:$/\3 \1 \2/' >"$2"
}

# heads_not_in_nm HEADS NMTABLE: the headers nm does not list (empty: all
# are IMAGE's symbols at ADDR).
heads_not_in_nm() {
    awk 'NR == FNR { have[$0] = 1; next } !have[$0]' "$2" "$1"
}

# listing_pieces TRACE OUT PATTERN...: the listings of the index piece
# starting at the first point whose line matches each PATTERN (rvtrace
# index --list: "N @OFFSET pc=0x..."), appended to OUT.  Decode options
# may follow "--" after the patterns.
listing_pieces() {
    local trace=$1 out=$2 p re opts=(); shift 2
    local pats=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pats+=("$1"); shift; done
    [ $# -gt 0 ] && { shift; opts=("$@"); }
    "$RVT_BIN" index "$trace" --list >"$out.points" 2>/dev/null || return 1
    for re in "${pats[@]}"; do
        p=$(grep -m1 -E "$re" "$out.points" | cut -d' ' -f1)
        [ -n "$p" ] || { echo "no index point matching $re" >&2; return 1; }
        "$RVT_BIN" decode "${opts[@]}" "$trace" --range "$p:$((p + 1))" --listing >>"$out" 2>/dev/null ||
            return 1
    done
}
