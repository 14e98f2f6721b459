/* The RV64 execute loop. */
#include "hart_int.h"
#define HART_XLEN 64
#define HART_EXEC hart_exec64
#include "exec_tmpl.h"
