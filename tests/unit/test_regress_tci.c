/* Replays tests/regress/tci/ through the tci fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "tci"
#include "../../fuzz/targets/tci.c"
#include "../../fuzz/replay_main.h"
