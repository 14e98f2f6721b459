/* The RV64 execute loop with the commit hook (rvt_hart_cfg.on_commit). */
#include "hart_int.h"
#define HART_XLEN 64
#define HART_EXEC hart_exec64c
#define HART_COMMIT 1
#include "exec_tmpl.h"
