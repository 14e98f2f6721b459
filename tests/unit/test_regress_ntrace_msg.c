/* Replays tests/regress/ntrace_msg/ through the ntrace_msg fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "ntrace_msg"
#include "../../fuzz/targets/ntrace_msg.c"
#include "../../fuzz/replay_main.h"
