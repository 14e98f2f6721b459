/* Replays tests/regress/ctr/ through the ctr fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "ctr"
#include "../../fuzz/targets/ctr.c"
#include "../../fuzz/replay_main.h"
