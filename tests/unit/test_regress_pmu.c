/* Replays tests/regress/pmu/ through the pmu fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "pmu"
#include "../../fuzz/targets/pmu.c"
#include "../../fuzz/replay_main.h"
