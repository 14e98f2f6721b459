/* Names of rvt_status codes. */
#include "rvtrace/status.h"

const char *rvt_status_str(int status)
{
    switch (status) {
    case RVT_OK: return "ok";
    case RVT_ERR_NOMEM: return "out of memory";
    case RVT_ERR_INVAL: return "invalid argument";
    case RVT_ERR_IO: return "input/output error";
    case RVT_ERR_FORMAT: return "corrupt or malformed data";
    case RVT_ERR_TRUNC: return "truncated data";
    case RVT_ERR_EOS: return "end of stream";
    case RVT_ERR_NOSYNC: return "no synchronisation point";
    case RVT_ERR_NOCODE: return "no program image at address";
    case RVT_ERR_MISMATCH: return "trace contradicts program image";
    case RVT_ERR_LIMIT: return "limit reached";
    case RVT_ERR_ELF: return "bad ELF file";
    case RVT_ERR_VERSION: return "unknown file version";
    case RVT_ERR_RANGE: return "value out of range";
    case RVT_ERR_STATE: return "invalid state";
    default: return status > 0 ? "ok" : "unknown error";
    }
}
