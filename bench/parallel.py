#!/usr/bin/env python3
"""Parallel decoding bench (issue #18, docs/parallel.md).

Makes a stream of at least SIZE GiB (default 4) from the long workload with
periodic sync -- E-Trace: full addresses and a format 3 every 2^(1+4) packets
(resync_max=1), the whole long.elf run written once and repeated -- in a
temporary directory, indexes it, decodes it with --count alone, with
--jobs 1 and with --jobs 2, and reports wall time, CPU time and peak RSS
(getrusage of each child, ru_maxrss) into bench/RESULTS.md ("Parallel
decoding").  The temporary files are deleted at the end.

With --pc-lists it measures instead the PC lists that decode --jobs has
the pieces write themselves (docs/parallel.md "One writer, in order"):
long.elf's E-Trace (--te-opt all) and N-Trace streams, indexed, decoded
with --pcs-bin F and with --pcs F by one decoder, --jobs 1 and --jobs 2
(F a regular file in the temporary directory, or --lists-dir, deleted
after each run), each row the best of --repeat runs interleaved (CPU and
wall apart), with --before BUILD's rows beside (the build before a
change), into "PC lists in parallel".

usage: bench/parallel.py [BUILD] [--size GIB] [--out FILE] [--keep]
       bench/parallel.py [BUILD] --pc-lists [--before BUILD] [--repeat N]
                         [--lists-dir DIR] [--out FILE]
"""
import argparse
import datetime
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_md  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(argv):
    """(wall s, user+sys s, peak RSS KiB, stdout) of argv (results_md.run)."""
    return results_md.run(argv)[:4]


def make_stream(rvt, tmp, size):
    """long.elf's E-Trace stream with frequent sync, repeated to size bytes."""
    one = os.path.join(tmp, "one.te")
    elf = os.path.join(ROOT, "programs", "long.elf")
    run([rvt, "run", elf, "--quiet", "--etrace", one, "--te-opt", "full-address",
         "--te-attr", "resync_max=1"])
    big = os.path.join(tmp, "long.te")
    shutil.copy(one + ".attrs", big + ".attrs")
    n = os.path.getsize(one)
    copies = -(-size // n)
    with open(big, "wb") as out, open(one, "rb") as src:
        data = src.read()
        for _ in range(copies):
            out.write(data)
    os.unlink(one)
    return elf, big, copies


def section(r):
    gib = r["bytes"] / 2**30
    lines = [
        "## Parallel decoding (decode --jobs, docs/parallel.md)",
        "",
        "Measured %s on %d online CPUs shared with other jobs (wall times are noisy)."
        % (r["when"], os.cpu_count()),
        "Stream: long.elf's E-Trace run (%d instructions; full addresses, resync_max=1)"
        " written %d times: %.2f GiB, %d instructions; `rvtrace index --min-gap 32M`: %d points"
        " in %.1f s wall, %.1f s CPU, %d MiB peak RSS (one forward scan that gives back"
        " the pages it has read, docs/parallel.md \"Memory and pieces\")."
        % (r["insns"] // r["copies"], r["copies"], gib, r["insns"], r["points"],
           r["index"][0], r["index"][1], r["index"][2] // 1024),
        "`decode --elf long.elf --count`; peak RSS from getrusage (ru_maxrss) of each run.",
        "",
        "| run | wall s | CPU s | CPU s / wall s | load average (1 min) before | M instr/s (wall)"
        " | peak RSS MiB | speed-up (wall) vs --jobs 1 | CPU s vs --jobs 1 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    base, base_cpu = r["runs"]["--jobs 1"][0], r["runs"]["--jobs 1"][1]
    for name, (wall, cpu, rss, load) in r["runs"].items():
        lines.append("| %s | %.1f | %.1f | %.2f | %.1f | %.0f | %d | %.2fx | %.2fx |"
                     % (name, wall, cpu, cpu / wall, load, r["insns"] / wall / 1e6, rss // 1024, base / wall,
                        cpu / base_cpu))
    lines += [
        "",
        "One decoder maps the whole file: its resident set includes the file's pages"
        " (clean, reclaimable).  --jobs N gives each decoded piece's pages back, so its"
        " peak RSS stays near N x 32 MiB pieces whatever the stream's size.",
        "",
    ]
    busiest = max(load for _, _, _, load in r["runs"].values())
    if busiest > os.cpu_count():
        lines += [
            "The load average was above the %d CPUs during the runs (up to %.1f): each run got only"
            " the share of a CPU in its CPU s / wall s column, which varied from run to run, so the"
            " wall-time speed-ups measure the load as much as the threads; the CPU time says what"
            " splitting costs (the last column), and a clean wall-time speed-up needs idle cores."
            % (os.cpu_count(), busiest),
            "",
        ]
    return "\n".join(lines)


def write_results(path, text):
    results_md.write_section(path, "Parallel decoding", text)


LONG_TE = ["--te-opt", "all"]
LONG_NT = ["--nt-opt", "htm,seq-jump,implicit-return=3,repeat-history,sync=1:4"]
LIST_RUNS = (("one decoder", []), ("--jobs 1", ["--jobs", "1"]), ("--jobs 2", ["--jobs", "2"]))


def long_streams(rvt, tmp):
    """long.elf's E-Trace and N-Trace streams (the common long workload),
    indexed: {name: path}."""
    elf = os.path.join(ROOT, "programs", "long.elf")
    te, nt = os.path.join(tmp, "long.te"), os.path.join(tmp, "long.nt")
    run([rvt, "run", elf, "--quiet", "--etrace", te] + LONG_TE + ["--ntrace", nt] + LONG_NT)
    points = {}
    for tr in (te, nt):
        points[tr] = int(run([rvt, "index", tr])[3].split()[0])
    return elf, {"E-Trace": te, "N-Trace": nt}, points


def list_rows(builds, elf, streams, out_dir, repeat):
    """{(stream, option, build, run): [(wall, cpu, load)...]}, the runs
    interleaved: every row once per round.  The lists' bytes must agree."""
    rows = {}
    for _ in range(repeat):
        for sname, tr in streams.items():
            for opt in ("--pcs-bin", "--pcs"):
                sizes = set()
                for bname, rvt in builds:
                    for rname, extra in LIST_RUNS:
                        f = os.path.join(out_dir, "list.out")
                        load = os.getloadavg()[0]
                        wall, ru, _, _ = results_md.run_rusage([rvt, "decode", "--elf", elf, tr, opt, f]
                                                               + extra)
                        sizes.add(os.path.getsize(f))
                        os.unlink(f)
                        row = (wall, ru.ru_utime, ru.ru_stime, ru.ru_maxrss, load)
                        rows.setdefault((sname, opt, bname, rname), []).append(row)
                        print("%s %-9s %-7s %-12s %6.2f s wall %6.2f s user %6.2f s sys load %.1f"
                              % (sname, opt, bname, rname, wall, row[1], row[2], load), flush=True)
                if len(sizes) != 1:
                    sys.exit("%s %s: the runs' lists differ in size: %s" % (sname, opt, sizes))
    return rows


def list_section(r):
    lines = [
        "## PC lists in parallel (decode --jobs --pcs-bin/--pcs, docs/parallel.md)",
        "",
        "Measured %s (`bench/parallel.py --pc-lists`) on %d online CPUs shared with other jobs:"
        " load average (1 min) %.1f-%.1f during the runs.  long.elf (239.6 M instructions),"
        " E-Trace `%s` (%d index points), N-Trace `%s` (%d points); `decode --elf long.elf"
        " TRACE OPTION F`, F a regular file in %s, deleted after each run; best of %d"
        " interleaved runs, each column apart (user: the decoding and the writers; system:"
        " mostly the file's write(2), which one thread at a time does)."
        % (r["when"], os.cpu_count(), r["load"][0], r["load"][1], " ".join(LONG_TE),
           r["points"]["E-Trace"], " ".join(LONG_NT), r["points"]["N-Trace"], r["dir"], r["repeat"]),
        "",
        "| stream | output | build | run | user s | system s | CPU s | wall s | peak RSS MiB |",
        "|---|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for (sname, opt, bname, rname), runs in r["rows"].items():
        best = [min(run[k] for run in runs) for k in range(4)]
        cpu = min(run[1] + run[2] for run in runs)
        lines.append("| %s | `%s` | %s | %s | %.2f | %.2f | %.2f | %.2f | %d |"
                     % (sname, opt, bname, rname, best[1], best[2], cpu, best[0], best[3] // 1024))
    return "\n".join(lines) + "\n"


def pc_lists(a):
    builds = [("after" if a.before else "this", os.path.join(a.build, "rvtrace"))]
    if a.before:
        builds.insert(0, ("before", os.path.join(a.before, "rvtrace")))
    tmp = tempfile.mkdtemp(prefix="rvt-pclists-")
    try:
        elf, streams, points = long_streams(builds[-1][1], tmp)
        out_dir = a.lists_dir or tmp
        when = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")
        rows = list_rows(builds, elf, streams, out_dir, a.repeat)
        loads = [run[4] for runs in rows.values() for run in runs]
        r = {"when": when, "rows": rows, "repeat": a.repeat,
             "dir": a.lists_dir or "a temporary directory under " + tempfile.gettempdir(),
             "load": (min(loads), max(loads)),
             "points": {k: points[v] for k, v in streams.items()}}
        results_md.write_section(a.out, "PC lists in parallel", list_section(r))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"))
    ap.add_argument("--size", type=float, default=4.0, help="GiB, at least")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "RESULTS.md"))
    ap.add_argument("--keep", action="store_true", help="keep the temporary stream")
    ap.add_argument("--pc-lists", action="store_true", help="the PC-list rows on long.elf instead")
    ap.add_argument("--before", help="--pc-lists: a build to compare with")
    ap.add_argument("--repeat", type=int, default=3, help="--pc-lists: runs of each row")
    ap.add_argument("--lists-dir", help="--pc-lists: where the lists are written")
    a = ap.parse_args()
    if a.pc_lists:
        pc_lists(a)
        return
    rvt = os.path.join(a.build, "rvtrace")
    tmp = tempfile.mkdtemp(prefix="rvt-parallel-")
    try:
        elf, big, copies = make_stream(rvt, tmp, int(a.size * 2**30))
        r = {"when": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
             "bytes": os.path.getsize(big), "copies": copies, "runs": {}}
        r["index"] = run([rvt, "index", "--min-gap", "32M", big])
        r["points"] = int(r["index"][3].split()[0])
        counts = set()
        for name, extra in (("one decoder", []), ("--jobs 1", ["--jobs", "1"]),
                            ("--jobs 2", ["--jobs", "2"])):
            load = os.getloadavg()[0]
            wall, cpu, rss, out = run([rvt, "decode", "--elf", elf, "--count", big] + extra)
            counts.add(out.strip())
            r["runs"][name] = (wall, cpu, rss, load)
            print("%-12s %7.1f s wall %7.1f s CPU %6d MiB  %s" % (name, wall, cpu, rss // 1024,
                                                               out.strip()), flush=True)
        if len(counts) != 1:
            sys.exit("the runs disagree: %s" % counts)
        r["insns"] = int(counts.pop().split()[0])
        write_results(a.out, section(r))
    finally:
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
