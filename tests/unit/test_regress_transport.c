/* Replays tests/regress/transport/ through the transport fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "transport"
#include "../../fuzz/targets/transport.c"
#include "../../fuzz/replay_main.h"
