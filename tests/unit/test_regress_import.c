/* Replays tests/regress/import/ through the import fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "import"
#include "../../fuzz/targets/import.c"
#include "../../fuzz/replay_main.h"
