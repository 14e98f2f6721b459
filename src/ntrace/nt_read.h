/* Message splitter entry for the flow decoder.  Internal header. */
#ifndef RVT_NT_READ_H
#define RVT_NT_READ_H

#include "rvtrace/ntrace.h"

/* rvt_nt_reader_next without clearing m->f[]: only fields whose `present`
 * bit is set are valid (clearing the whole message per message was the
 * largest cost of BTM decoding). */
int nt_reader_next_present(rvt_nt_reader *r, rvt_nt_msg *m);

#endif
