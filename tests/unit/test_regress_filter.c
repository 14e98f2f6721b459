/* Replays tests/regress/filter/ through the filter fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "filter"
#include "../../fuzz/targets/filter.c"
#include "../../fuzz/replay_main.h"
