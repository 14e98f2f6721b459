/* Replays tests/regress/etrace_data/ through the etrace_data fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "etrace_data"
#include "../../fuzz/targets/etrace_data.c"
#include "../../fuzz/replay_main.h"
