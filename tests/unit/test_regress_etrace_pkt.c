/* Replays tests/regress/etrace_pkt/ through the etrace_pkt fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "etrace_pkt"
#include "../../fuzz/targets/etrace_pkt.c"
#include "../../fuzz/replay_main.h"
