/* Internal helpers shared by the files of src/tv/. */
#ifndef RVT_TV_INT_H
#define RVT_TV_INT_H

#include "rvtrace/tv.h"

const rvt_tv_cfg *tv_writer_cfg(const rvt_tv_writer *w);
const rvt_tv_writer_cfg *tv_writer_wcfg(const rvt_tv_writer *w);

/* ch. 2 memory sizes: 0..3 for 1, 2, 4, 8 bytes */
static inline unsigned tv_size_code(unsigned bytes)
{
    return bytes >= 8 ? 3 : bytes >= 4 ? 2 : bytes >= 2 ? 1 : 0;
}

#endif
