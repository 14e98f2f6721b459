/* The RV64 execute loop with the CTR/PMU retirement hooks (obs.c): used
 * only while CTR records or a counter counts, so the plain loop stays as
 * fast as before. */
#include "hart_int.h"
#define HART_XLEN 64
#define HART_EXEC hart_exec64_obs
#define HART_OBS 1
#include "exec_tmpl.h"
