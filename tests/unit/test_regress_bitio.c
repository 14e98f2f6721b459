/* Replays tests/regress/bitio/ through the bitio fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "bitio"
#include "../../fuzz/targets/bitio.c"
#include "../../fuzz/replay_main.h"
