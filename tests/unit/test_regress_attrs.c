/* Replays tests/regress/attrs/ through the attrs fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "attrs"
#include "../../fuzz/targets/attrs.c"
#include "../../fuzz/replay_main.h"
