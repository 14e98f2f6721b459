/* Replays tests/regress/pump_pcs/ through the pump_pcs fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "pump_pcs"
#include "../../fuzz/targets/pump_pcs.c"
#include "../../fuzz/replay_main.h"
