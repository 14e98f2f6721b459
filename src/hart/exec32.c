/* The RV32 execute loop. */
#include "hart_int.h"
#define HART_XLEN 32
#define HART_EXEC hart_exec32
#include "exec_tmpl.h"
