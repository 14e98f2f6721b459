/* rvtrace bench: the benchmark harness of bench/bench.c (also built as
 * build/bench/rvtrace_bench, which `make bench` runs). */
#include "cli.h"

int bench_main(int argc, char **argv);

const char cmd_bench_help[] =
    "usage: rvtrace bench [--programs DIR] [--out FILE] [--long NAME.elf] [--quick]\n"
    "                     [--wrapped-mib N] [--wrapped-only] [--interop DIR]\n"
    "                     [--interop-only] [--decoders-only] [--encoders-only]\n"
    "                     [--passes-only] [--rvi-only]\n"
    "\n"
    "Measure every workload of DIR (default: programs) through every trace\n"
    "mode: bits per retired instruction for each E-Trace and N-Trace mode, and\n"
    "on the long workload (default long.elf) the hart, encoder and decoder\n"
    "throughput in millions of instructions per second of process CPU time.\n"
    "Prints the table and writes it to FILE (default: bench/RESULTS.md).\n"
    "It also compares stream sizes with the reference implementations on the\n"
    "interop corpus in DIR (default: ../shared/interop; skipped without it):\n"
    "rvtrace's smallest stream over its option sets, each decoded back to the\n"
    "same PCs, beside the reference's smallest decodable stream (exit 1 when\n"
    "a stream does not decode back).\n"
    "  --quick         bits per instruction only (no throughput runs, ~1 minute)\n"
    "  --interop-only  only the comparison with the references, on stdout;\n"
    "                  with --out, its section is also replaced in FILE\n"
    "  --decoders-only  the decoder rows alone (instruction-level and block\n"
    "                  decoders, best of 3 runs): printed, and replaced in FILE\n"
    "  --encoders-only  the encoder rows alone (the hart feeding each encoder\n"
    "                  less the hart alone, best of 3 interleaved runs):\n"
    "                  printed, and replaced in FILE\n"
    "  --rvi-only      the .rvi ingress table alone (best of 3 runs): printed,\n"
    "                  and replaced in FILE\n"
    "  --passes-only   the output-paths table alone (each writer fed by the\n"
    "                  decoders a block at a time over the long workload, beside\n"
    "                  the plain and the block decoder): printed, and replaced\n"
    "                  in FILE\n"
    "  --pass NAME     with --passes-only: that output path alone (e.g. report,\n"
    "                  pcs-bin, counter), printed only, FILE left alone\n"
    "  --wrapped-mib N  the wrapped sink buffer's size (default 1024 MiB)\n"
    "  --wrapped-only  only the wrapped sink buffer's decode, on stdout\n"
    "Run from the source tree, or give --programs and --out.\n";

int cmd_bench(int argc, char **argv)
{
    return bench_main(argc, argv);
}
