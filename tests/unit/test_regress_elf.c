/* Replays tests/regress/elf/ through the elf fuzz target (no libFuzzer). */
#define RVT_FUZZ_NAME "elf"
#include "../../fuzz/targets/elf.c"
#include "../../fuzz/replay_main.h"
