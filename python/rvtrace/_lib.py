"""librvtrace.so through cffi in ABI mode (no compiler needed).

The declarations below mirror include/rvtrace/*.h: only what the package
calls, with every struct it reads or fills declared field by field in the
headers' order (cffi computes the layout as the C compiler does).  The
library is found by ``RVTRACE_LIB`` (a path), else the build tree beside
python/ (build/librvtrace.so), else the installed one (the linker's search,
librvtrace.so.0).
"""
import ctypes.util
import os

from cffi import FFI

CDEF = r"""
typedef void (*rvt_diag_fn)(void *ctx, int level, uint64_t offset, const char *msg);
const char *rvt_status_str(int status);
const char *rvt_version(void);

/* image.h, mem.h */
typedef struct rvt_image rvt_image;
rvt_image *rvt_image_new(void);
void rvt_image_free(rvt_image *img);
int rvt_image_load_elf(rvt_image *img, const char *path);
const char *rvt_image_error(const rvt_image *img, uint64_t *offset);
unsigned rvt_image_xlen(const rvt_image *img);
uint64_t rvt_image_entry(const rvt_image *img);
const char *rvt_image_symbol(void *img, uint64_t addr, uint64_t *off);
typedef struct rvt_mem rvt_mem;
typedef struct rvt_space {
    uint64_t context;
    uint32_t priv;
    uint32_t source;
} rvt_space;
rvt_mem *rvt_mem_new(void);
void rvt_mem_free(rvt_mem *m);
int rvt_mem_add_image(rvt_mem *m, const rvt_space *key, const rvt_image *img);

/* flow.h, out.h */
typedef struct rvt_insn rvt_insn;
typedef struct rvt_flow_event {
    uint8_t kind, priv, flags;
    uint16_t src;
    uint64_t pc, aux, aux2, offset;
    const char *msg;
} rvt_flow_event;
typedef int (*rvt_flow_fn)(void *ctx, const rvt_flow_event *ev);
typedef struct rvt_block {
    uint64_t start_pc, end_pc, ninsn, next_pc, context, offset;
    uint8_t end, priv;
    uint16_t src;
} rvt_block;
typedef struct rvt_flow_insn {
    uint64_t pc;
    const rvt_insn *insn;
    uint64_t context, offset;
    uint8_t priv;
    uint16_t src;
} rvt_flow_insn;

/* proto.h */
typedef struct rvt_proto rvt_proto;
typedef struct rvt_proto_cfg rvt_proto_cfg;
const rvt_proto *rvt_proto_find(const char *name);
const char *rvt_proto_name(const rvt_proto *p);
const char *rvt_proto_title(const rvt_proto *p);
int rvt_proto_cfg_set(rvt_proto_cfg *c, const char *name, const char *value);
int rvt_proto_cfg_get(const rvt_proto_cfg *c, const char *name, char *buf, size_t n);
int rvt_proto_cfg_fill(rvt_proto_cfg *c);
int rvt_proto_cfg_input_xlen(rvt_proto_cfg *c, unsigned xlen);
int rvt_proto_cfg_check(const rvt_proto_cfg *c, const char **why);
const char *rvt_proto_setting(const rvt_proto *p, size_t i, const char **help);
typedef struct rvt_proto_item {
    uint64_t offset, size;
    const char *name, *text;
    int status;
    const char *msg;
    bool has_pc;
    uint64_t pc;
} rvt_proto_item;
typedef int (*rvt_proto_item_fn)(void *ctx, const rvt_proto_item *it);
typedef struct rvt_proto_dump_end {
    uint64_t items, errors;
    bool ended, knows_end;
    uint64_t complete;
} rvt_proto_dump_end;
int rvt_proto_dump(const rvt_proto_cfg *c, const uint8_t *buf, size_t len, unsigned flags,
                   rvt_proto_item_fn fn, void *ctx, rvt_proto_dump_end *end);
typedef struct rvt_proto_decoder rvt_proto_decoder;
rvt_proto_decoder *rvt_proto_decoder_new(const rvt_proto_cfg *c, const rvt_mem *mem,
                                         rvt_flow_fn fn, void *ctx, int *status);
void rvt_proto_decoder_free(rvt_proto_decoder *d);
int rvt_proto_decoder_run(rvt_proto_decoder *d, const uint8_t *buf, size_t len);
int rvt_proto_decoder_finish(rvt_proto_decoder *d);
int rvt_proto_decoder_set_source(rvt_proto_decoder *d, int src);
typedef struct rvt_proto_dec_stats {
    uint64_t units, instructions, errors, resyncs, skipped, wide_icnt, wide_icnt_offset,
             cache_flushes, unsynced_errors;
} rvt_proto_dec_stats;
int rvt_proto_decoder_stats(const rvt_proto_decoder *d, rvt_proto_dec_stats *out);
int rvt_proto_decoder_set_input(rvt_proto_decoder *d, const uint8_t *buf, size_t len);
int rvt_proto_decoder_next_blocks(rvt_proto_decoder *d, rvt_block *out, size_t max);
int rvt_proto_decoder_next_insns(rvt_proto_decoder *d, rvt_flow_insn *out, size_t max);

/* trace.h */
typedef struct rvt_trace rvt_trace;
typedef struct rvt_trace_opts {
    const char *protocol, *container;
    bool encap_source_given;
    unsigned encap_source;
    bool encap_resync;
    rvt_diag_fn diag;
    void *diag_ctx;
    bool encap_all_sources;
} rvt_trace_opts;
int rvt_trace_open(const char *path, const rvt_trace_opts *opts, rvt_trace **out);
void rvt_trace_free(rvt_trace *t);
const char *rvt_trace_error(const rvt_trace *t);
const rvt_proto *rvt_trace_proto(const rvt_trace *t);
rvt_proto_cfg *rvt_trace_cfg(rvt_trace *t);
const char *rvt_trace_found_by(const rvt_trace *t);
const char *rvt_trace_container(const rvt_trace *t);
const uint8_t *rvt_trace_bytes(const rvt_trace *t, size_t *len);
uint64_t rvt_trace_file_offset(const rvt_trace *t, uint64_t off);

/* hart.h */
typedef struct rvt_hart rvt_hart;
typedef struct rvt_irec_sink rvt_irec_sink;
typedef struct rvt_hart_commit rvt_hart_commit;
typedef struct rvt_hart_cfg {
    unsigned xlen;
    bool no_compressed, no_fp, misaligned_emulate;
    uint64_t ram_base, ram_size, max_instr;
    unsigned retire_width;
    uint64_t hartid;
    unsigned nharts;    /* harts on the board (smp.h sets it); 0 = 1 */
    const rvt_irec_sink *sink;
    bool data_records;
    void (*console)(void *ctx, const char *buf, size_t n);
    void *console_ctx;
    void (*on_pc)(void *ctx, uint64_t pc, bool retired);
    void *pc_ctx;
    rvt_diag_fn diag;
    void *diag_ctx;
    int (*on_commit)(void *ctx, const rvt_hart_commit *c);
    void *commit_ctx;
    bool sbi_pmu, pmu_tally;
    uint64_t ctr_control;
    unsigned split_loads;
    uint64_t reset_pc;
    const void *dtb;
    size_t dtb_len;
    const uint8_t *uart_in;
    size_t uart_in_len;
    bool spike_machine;
    unsigned nmem;
    struct { uint64_t base, size; } mem[8];
    void *tci;          /* struct rvt_tci * (tci.h), not used from Python */
} rvt_hart_cfg;
typedef struct rvt_hart_stats {
    uint64_t instret, executed, cycles, exceptions, interrupts, records, data_records;
} rvt_hart_stats;
rvt_hart *rvt_hart_new(const rvt_hart_cfg *cfg, rvt_image *img, int *status);
bool rvt_hart_wants_sbi(const rvt_image *img);
void rvt_hart_free(rvt_hart *h);
int rvt_hart_run(rvt_hart *h, uint64_t steps);
int rvt_hart_finish(rvt_hart *h);
int rvt_hart_exit_code(const rvt_hart *h);
bool rvt_hart_exited(const rvt_hart *h);
const char *rvt_hart_fatal_msg(const rvt_hart *h);
void rvt_hart_get_stats(const rvt_hart *h, rvt_hart_stats *out);

/* profile.h */
typedef enum rvt_prof_sort {
    RVT_PROF_SORT_CHILDREN = 0, RVT_PROF_SORT_SELF, RVT_PROF_SORT_CALLS,
    RVT_PROF_SORT_CYCLES, RVT_PROF_SORT_NAME,
} rvt_prof_sort;
typedef struct rvt_profile_opts {
    rvt_prof_sort sort;
    double percent_limit;
    bool json;
    const char *callers, *callees, *title;
} rvt_profile_opts;
typedef struct rvt_profile rvt_profile;
rvt_profile *rvt_profile_new(rvt_image *img);
int rvt_profile_event(void *profile, const rvt_flow_event *ev);
int rvt_profile_write(rvt_profile *p, FILE *f, const rvt_profile_opts *o);
uint64_t rvt_profile_insns(const rvt_profile *p);
void rvt_profile_free(rvt_profile *p);
/* profile_piece.h */
rvt_profile *rvt_profile_piece_new(rvt_image *img);
int rvt_profile_piece_write(rvt_profile *p, FILE *f);
int rvt_profile_compose(rvt_profile *into, const char *piece, size_t len);

/* index.h */
typedef struct rvt_index_point {
    uint64_t offset, pc, insns, context, state;
    uint32_t size;
    uint16_t src;
    uint8_t priv, kind;
} rvt_index_point;
typedef struct rvt_index rvt_index;
int rvt_index_build(const rvt_proto_cfg *c, const uint8_t *buf, size_t len, uint64_t from,
                    uint64_t min_gap, rvt_index **out);
void rvt_index_free(rvt_index *x);
size_t rvt_index_count(const rvt_index *x);
const rvt_index_point *rvt_index_at(const rvt_index *x, size_t i);
unsigned rvt_index_sources(const rvt_index *x);
int rvt_index_source(const rvt_index *x, size_t i, uint16_t *src, uint64_t *first);

/* the C library's, for rvt_profile_write and rvt_profile_piece_write */
FILE *fopen(const char *path, const char *mode);
int fclose(FILE *f);
"""

ffi = FFI()
ffi.cdef(CDEF)


def _candidates():
    env = os.environ.get("RVTRACE_LIB")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "..", "..", "build", "librvtrace.so")
    found = ctypes.util.find_library("rvtrace")
    if found:
        yield found
    yield "librvtrace.so.0"


def _load():
    errors = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            errors.append(f"{path}: not there")
            continue
        try:
            return ffi.dlopen(path)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("rvtrace: cannot load librvtrace.so (set RVTRACE_LIB): " + "; ".join(errors))


lib = _load()
libc = ffi.dlopen(None)


def text(p):
    """A C string as str ('' for NULL)."""
    return ffi.string(p).decode("utf-8", "replace") if p != ffi.NULL else ""
