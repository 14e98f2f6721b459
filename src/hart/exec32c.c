/* The RV32 execute loop with the commit hook (rvt_hart_cfg.on_commit). */
#include "hart_int.h"
#define HART_XLEN 32
#define HART_EXEC hart_exec32c
#define HART_COMMIT 1
#define HART_OBS 1   /* the commit loop also feeds CTR/PMU (obs.c) */
#include "exec_tmpl.h"
