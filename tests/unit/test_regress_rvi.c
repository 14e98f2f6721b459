/* Replays tests/regress/rvi/ through the rvi fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "rvi"
#include "../../fuzz/targets/rvi.c"
#include "../../fuzz/replay_main.h"
