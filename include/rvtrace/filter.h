/* rvtrace trace filtering: the comparators and filters that E-Trace
 * chapter 5 suggests and tables 2.3-2.6 configure, and the debug-module
 * triggers of 4.2.4 (table 4.7), as a stage between the hart (or any other
 * source of ingress records) and the encoders.
 *
 * The stage marks each instruction block it forwards: RVT_IREC_F_UNQUAL
 * when the block is not to be traced, RVT_IREC_F_TRIG_START/_STOP/_NOTIFY
 * when a trigger fires in it (and RVT_IREC_F_TRIG_NOTIFY for a comparator's
 * pNotify/sNotify watchpoint).  Data accesses that are not to be traced are
 * dropped.  The E-Trace and N-Trace encoders both read these flags, so one
 * filter configuration qualifies every trace of a run.  docs/filter.md has
 * the semantics in full, including what the spec leaves to the
 * implementation. */
#ifndef RVTRACE_FILTER_H
#define RVTRACE_FILTER_H

#include <stdbool.h>
#include <stdint.h>
#include "rvtrace/ingress.h"
#include "rvtrace/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RVT_FILTER_COMPARATORS 8   /* table 2.4: comp1..comp3 are 3 bits */
#define RVT_FILTER_FILTERS 16      /* table 2.3: iFilters/dFilters are 16 bits */
#define RVT_FILTER_TRIGGERS 16     /* debug-module triggers (any number) */

/* Table 2.6 pInput/sInput. */
enum rvt_filter_input {
    RVT_FILTER_IN_IADDR = 0, RVT_FILTER_IN_CONTEXT = 1,
    RVT_FILTER_IN_TVAL = 2, RVT_FILTER_IN_DADDR = 3,
};
/* Table 2.6 pFunction/sFunction. */
enum rvt_filter_func {
    RVT_FILTER_EQ = 0, RVT_FILTER_NE = 1, RVT_FILTER_LT = 2, RVT_FILTER_LE = 3,
    RVT_FILTER_GT = 4, RVT_FILTER_GE = 5,
    RVT_FILTER_MASK = 6,       /* sFunction: sMatch masks pMatch; pFunction: reserved (always) */
    RVT_FILTER_ALWAYS = 7,
};
/* Table 2.6 matchMode. */
enum rvt_filter_mode {
    RVT_FILTER_MODE_P = 0,      /* primary matches */
    RVT_FILTER_MODE_AND = 1,    /* P && S */
    RVT_FILTER_MODE_NAND = 2,   /* !(P && S) */
    RVT_FILTER_MODE_LATCH = 3,  /* set when P matches, until after S matches */
};

/* One comparator unit (table 2.6). */
typedef struct rvt_filter_cmp {
    uint8_t p_input, s_input;       /* rvt_filter_input */
    uint8_t p_function, s_function; /* rvt_filter_func */
    uint8_t match_mode;             /* rvt_filter_mode */
    bool p_notify, s_notify;        /* watchpoints (iaddr inputs only) */
    uint64_t p_match, s_match;
} rvt_filter_cmp;

/* One filter (tables 2.4 and 2.5). */
typedef struct rvt_filter_ctl {
    bool enable;
    bool match_comp[3];
    uint8_t comp[3];                /* comparator index, < RVT_FILTER_COMPARATORS */
    bool match_privilege, match_ecause, match_interrupt, match_impdef;
    bool match_dtype, match_dsize;
    uint8_t choice_privilege;       /* bit N: privilege N */
    bool value_interrupt;           /* 1: traps with itype 2, 0: itype 1 */
    uint32_t choice_ecause;         /* bit N: cause N */
    uint64_t mask_impdef, value_impdef;
    uint16_t choice_dtype;          /* bit N: dtype N (table 4.9) */
    uint8_t choice_dsize;           /* bit N: 2^N bytes */
} rvt_filter_ctl;

/* Debug-module trigger actions (table 4.7). */
enum rvt_filter_action {
    RVT_FILTER_TRACE_ON = 2, RVT_FILTER_TRACE_OFF = 3, RVT_FILTER_TRACE_NOTIFY = 4,
};

/* A trigger that fires when the instruction at addr retires (4.2.4). */
typedef struct rvt_filter_trigger {
    uint8_t action;                 /* rvt_filter_action */
    uint64_t addr;
} rvt_filter_trigger;

typedef struct rvt_filter_cfg {
    uint16_t ifilters, dfilters;    /* table 2.3: 0 = trace everything */
    rvt_filter_cmp cmp[RVT_FILTER_COMPARATORS];
    rvt_filter_ctl filt[RVT_FILTER_FILTERS];
    rvt_filter_trigger trig[RVT_FILTER_TRIGGERS];
    unsigned ntrig;
    uint64_t impdef;                /* the hart's impdef inputs (table 4.5) */
} rvt_filter_cfg;

/* A configuration that traces everything (all fields 0). */
void rvt_filter_cfg_init(rvt_filter_cfg *cfg);
/* RVT_ERR_INVAL with a message in err for an impossible configuration
 * (comparator index out of range, a watchpoint on a non-iaddr input, a
 * reserved encoding). */
int rvt_filter_cfg_check(const rvt_filter_cfg *cfg, char *err, size_t errlen);

/* ---- text form (docs/filter.md): the CLI's --comparator, --filter and
 * --trace-on/--trace-off/--trace-notify arguments.  Values may be symbols
 * ("main", "main+0x10") when lookup is given. ---- */
typedef bool (*rvt_filter_sym_fn)(void *ctx, const char *name, uint64_t *addr);
/* "N:FIELD=VALUE,..." into cfg->cmp[N]. */
int rvt_filter_parse_cmp(rvt_filter_cfg *cfg, const char *text, rvt_filter_sym_fn lookup,
                         void *lookup_ctx, char *err, size_t errlen);
/* "N:FIELD[=VALUE],..." into cfg->filt[N] (enables it, and sets its bit in
 * iFilters and/or dFilters). */
int rvt_filter_parse_filter(rvt_filter_cfg *cfg, const char *text, char *err, size_t errlen);
/* An address or symbol for a trigger of the given action. */
int rvt_filter_add_trigger(rvt_filter_cfg *cfg, unsigned action, const char *text,
                           rvt_filter_sym_fn lookup, void *lookup_ctx, char *err, size_t errlen);

/* ---- the stage ---- */
typedef struct rvt_filter rvt_filter;
typedef struct rvt_filter_stats {
    uint64_t blocks, unqualified;   /* instruction blocks seen / marked UNQUAL */
    uint64_t data, data_dropped;
    uint64_t trace_on, trace_off, notify;   /* triggers and watchpoints fired */
} rvt_filter_stats;

/* The stage forwards to down (copied); it starts with trace off when a
 * trace-on trigger is configured, on otherwise. */
rvt_filter *rvt_filter_new(const rvt_filter_cfg *cfg, const rvt_irec_sink *down, int *status);
rvt_irec_sink rvt_filter_sink(rvt_filter *f);
const rvt_filter_stats *rvt_filter_get_stats(const rvt_filter *f);
void rvt_filter_free(rvt_filter *f);

/* The decision for one block, for callers that do not need the stage:
 * updates the filter state (latches, trap regions, trigger state) as the
 * stage would and returns the RVT_IREC_F_* flags it would add. */
unsigned rvt_filter_block(rvt_filter *f, const rvt_irec *r);
/* The decision for one data access made in the block last passed to
 * rvt_filter_block: true if it is traced.  A split-load response
 * (RVT_DREC_F_RESPONSE) is traced iff its request was. */
bool rvt_filter_data(rvt_filter *f, const rvt_drec *d);

#ifdef __cplusplus
}
#endif
#endif
