/* Replays tests/regress/encoders/ through the encoders fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "encoders"
#include "../../fuzz/targets/encoders.c"
#include "../../fuzz/replay_main.h"
