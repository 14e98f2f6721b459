/* Replays tests/regress/tv/ through the tv fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "tv"
#include "../../fuzz/targets/tv.c"
#include "../../fuzz/replay_main.h"
