#!/usr/bin/env bash
# Totals of build-fuzz/campaign.tsv (written by fuzz/run.sh): per target the
# runs, seconds, executions, the best coverage (cov/ft) and failed runs.
f=${1:-build-fuzz/campaign.tsv}
[ -f "$f" ] || { echo "no $f"; exit 1; }
awk -F'\t' '{ r[$2]++; s[$2]+=$3; e[$2]+=$4; if ($5>c[$2]) c[$2]=$5; if ($6>ft[$2]) ft[$2]=$6;
              if ($8!="ok") bad[$2]++ }
  END { printf "%-16s %5s %8s %14s %6s %6s %5s\n", "target", "runs", "seconds", "executions", "cov", "ft", "fail";
        for (t in r) printf "%-16s %5d %8d %14d %6d %6d %5d\n", t, r[t], s[t], e[t], c[t], ft[t], bad[t] }' "$f" | sort
