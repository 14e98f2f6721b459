/* Replays tests/regress/etrace_flow/ through the etrace_flow fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "etrace_flow"
#include "../../fuzz/targets/etrace_flow.c"
#include "../../fuzz/replay_main.h"
