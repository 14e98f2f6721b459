/* Replays tests/regress/ntrace_flow/ through the ntrace_flow fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "ntrace_flow"
#include "../../fuzz/targets/ntrace_flow.c"
#include "../../fuzz/replay_main.h"
