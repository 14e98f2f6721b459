/* rvtrace N-Trace: MSEO transport (N-Trace ch. 3), messages (ch. 6-7),
 * encoder driven by ingress records (ch. 8-10) and flow decoder (ch. 11). */
#ifndef RVTRACE_NTRACE_H
#define RVTRACE_NTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "rvtrace/mem.h"
#include "rvtrace/ingress.h"
#include "rvtrace/isa.h"
#include "rvtrace/out.h"
#include "rvtrace/flow.h"
#include "rvtrace/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Messages (N-Trace table 8) ---- */
enum rvt_nt_tcode {
    RVT_NT_OWNERSHIP = 2,
    RVT_NT_DIRECT_BRANCH = 3,
    RVT_NT_INDIRECT_BRANCH = 4,
    RVT_NT_ERROR = 8,
    RVT_NT_PROG_TRACE_SYNC = 9,
    RVT_NT_DIRECT_BRANCH_SYNC = 11,
    RVT_NT_INDIRECT_BRANCH_SYNC = 12,
    RVT_NT_RESOURCE_FULL = 27,
    RVT_NT_INDIRECT_BRANCH_HIST = 28,
    RVT_NT_INDIRECT_BRANCH_HIST_SYNC = 29,
    RVT_NT_REPEAT_BRANCH = 30,
    RVT_NT_PROG_TRACE_CORRELATION = 33,
    RVT_NT_VENDOR_FIRST = 56,
    RVT_NT_VENDOR_LAST = 62,
};

/* Every field of chapter 6/7, as an index into rvt_nt_msg.f. */
enum rvt_nt_field {
    RVT_NT_F_SRC = 0,
    RVT_NT_F_SYNC, RVT_NT_F_BTYPE, RVT_NT_F_ETYPE, RVT_NT_F_RCODE,
    RVT_NT_F_EVCODE, RVT_NT_F_CDF,                 /* fixed fields */
    RVT_NT_F_PROCESS, RVT_NT_F_ECODE, RVT_NT_F_ICNT, RVT_NT_F_FADDR,
    RVT_NT_F_UADDR, RVT_NT_F_HIST, RVT_NT_F_RDATA, RVT_NT_F_HREPEAT,
    RVT_NT_F_BCNT, RVT_NT_F_TSTAMP,                /* variable fields */
    RVT_NT_F_COUNT
};

/* SYNC codes (table 25), B-TYPE (table 9), RCODE (table 19), EVCODE (23). */
enum { RVT_NT_SYNC_TRIGGER = 0, RVT_NT_SYNC_RESET = 1, RVT_NT_SYNC_PERIODIC = 2,
       RVT_NT_SYNC_DEBUG_EXIT = 3, RVT_NT_SYNC_ICNT = 4, RVT_NT_SYNC_ENABLE = 5,
       RVT_NT_SYNC_EVENT = 6, RVT_NT_SYNC_OVERRUN = 7, RVT_NT_SYNC_POWERUP = 9 };
enum { RVT_NT_BTYPE_JUMP = 0, RVT_NT_BTYPE_TRAP = 1, RVT_NT_BTYPE_EXCEPTION = 2,
       RVT_NT_BTYPE_INTERRUPT = 3 };
enum { RVT_NT_RCODE_ICNT = 0, RVT_NT_RCODE_HIST = 1, RVT_NT_RCODE_HREPEAT = 2 };
enum { RVT_NT_EV_DEBUG = 0, RVT_NT_EV_LOWPOWER = 1, RVT_NT_EV_DISABLED = 4 };

/* One message.  f[] holds the value of each field present (bit i of
 * `present` set for field i); addresses are as transmitted (F-ADDR =
 * PC >> 1, U-ADDR = XOR >> 1). */
typedef struct rvt_nt_msg {
    uint8_t tcode;
    uint8_t nvar;          /* vendor/reserved messages: variable fields seen */
    uint32_t present;
    uint64_t f[RVT_NT_F_COUNT];
    uint64_t offset;       /* byte offset of the first byte in the stream */
    uint32_t len;          /* bytes, idle excluded */
} rvt_nt_msg;

static inline bool rvt_nt_has(const rvt_nt_msg *m, int field)
{ return (m->present >> field) & 1u; }
static inline void rvt_nt_set(rvt_nt_msg *m, int field, uint64_t v)
{ m->f[field] = v; m->present |= 1u << field; }

const char *rvt_nt_tcode_name(unsigned tcode);   /* NULL if reserved */
const char *rvt_nt_field_name(int field);
bool rvt_nt_is_sync(unsigned tcode);             /* carries SYNC + F-ADDR */

/* Largest message rvtrace writes or accepts (3.x: 38 bytes + a 12-bit SRC). */
#define RVT_NT_MAX_MSG 48


/* Message reader: the messages of a byte stream cut by the transport
 * stage's "mseo" framing (3.1, 3.4: idle 0xFF skipped, the reserved MSEO
 * 10 rejected, message length bounded, resynchronisation at the next
 * end-of-message byte after an error), called in place for a plain
 * buffer, or the frames of any rvt_transport (transport.h), then each
 * message's fields parsed (ch. 6-7). */
struct rvt_transport;
typedef struct rvt_nt_reader {
    const uint8_t *buf;
    size_t len;
    size_t pos;
    unsigned src_bits;      /* 0: no SRC field */
    unsigned addr_bits;     /* x-ADDR width after MSB extension (8.2); 0 = off */
    uint64_t base;          /* offset of buf[0] in the whole stream */
    const char *err;        /* last error text */
    uint64_t err_offset;
    struct rvt_transport *tp;   /* NULL: buf in the MSEO byte stream */
} rvt_nt_reader;

struct rvt_nt_cfg;
/* cfg (may be NULL) gives the SRC width and the address MSB extension. */
void rvt_nt_reader_init(rvt_nt_reader *r, const uint8_t *buf, size_t len,
                        const struct rvt_nt_cfg *cfg);
/* A reader that pulls its messages from tp (borrowed): "mseo", one frame
 * per message; a frame of another transport (an "encap" packet's payload,
 * though Encapsulation 1.0 ch. 1 does not mean N-Trace for it) must hold
 * exactly one whole message with its MSEO bits, else it is an error.
 * Offsets (m->offset, err_offset) are tp's stream's (a frame's first
 * byte); pos and len follow tp. */
void rvt_nt_reader_init_transport(rvt_nt_reader *r, struct rvt_transport *tp,
                                  const struct rvt_nt_cfg *cfg);
/* Returns 1 with *m filled, 0 at the end, or a negative status (corrupt:
 * RVT_ERR_FORMAT, truncated: RVT_ERR_TRUNC) with r->err/err_offset set; the
 * next call continues after the bad bytes.  RVT_ERR_INVAL: r or m NULL. */
int rvt_nt_reader_next(rvt_nt_reader *r, rvt_nt_msg *m);

/* One line "@OFF Name(TCODE) FIELD=0xV ..." (the corpus dump format) or a
 * JSON object.  Returns the length written (truncated to n-1). */
int rvt_nt_msg_format(const rvt_nt_msg *m, bool json, char *buf, size_t n);

/* ---- Settings (N-Trace ch. 4 controls; docs/format-nt.md) ---- */
enum { RVT_NT_MODE_BTM = 3, RVT_NT_MODE_HTM = 6 };

typedef struct rvt_nt_cfg {
    /* sizeof(rvt_nt_cfg) the caller was built with (libipt's
     * pt_config.size): set by rvt_nt_cfg_default; rvt_nt_cfg_check refuses
     * another non-zero size (RVT_ERR_VERSION). */
    size_t size;
    unsigned inst_mode;          /* trTeInstMode: 3 BTM, 6 HTM (0 = HTM) */
    bool context;                /* trTeContext: Ownership messages */
    bool inhibit_src;            /* trTeInhibitSrc */
    unsigned src_bits;           /* trTeSrcBits (0..12) */
    unsigned src_id;             /* trTeSrcID */
    unsigned sync_mode;          /* trTeInstSyncMode: 0 off, 1 messages, 2 cycles, 3 I-CNT */
    unsigned sync_max;           /* trTeInstSyncMax: period 2^(max+4) */
    bool no_addr_diff;           /* trTeInstNoAddrDiff: U-ADDR not XORed */
    bool no_trap_addr;           /* trTeInstNoTrapAddr: table 7 fixes it to 0; true is rejected */
    bool seq_jump;               /* trTeInstEnSequentialJump (9.1) */
    unsigned implicit_return;    /* trTeInstImplicitReturnMode 0..3 (9.2) */
    unsigned return_depth;       /* call-stack depth (0 = 32, the maximum) */
    unsigned return_bits;        /* mode 2: address bits kept (0 = 16) */
    bool repeat_history;         /* trTeInstEnRepeatedHistory (9.3) */
    unsigned repeat_kinds;       /* with it, bits: 1 RepeatBranch (7.11), 2 ResourceFull
                                    RCODE 2 over whole HIST windows, 4 RCODE 2 over
                                    the shortest repeating pattern (0 = 5) */
    bool all_jumps;              /* trTeInstEnAllJumps */
    bool extend_addr_msb;        /* trTeInstExtendAddrMSB (8.2) */
    bool timestamps;             /* trTsEnable (8.7) */
    unsigned icnt_bits;          /* NTRACE_MAX_ICNT (0 = 22) */
    unsigned hist_bits;          /* HIST register incl. stop bit (0 = 32) */
    unsigned itype_bits;         /* ingress itype width 3 or 4 (0 = 4) */
    unsigned xlen;               /* 32/64 (0 = 64) */
    unsigned port_bytes;         /* probe port width 1, 2, 4, 8 (0 = 1) */
    bool start_disabled;         /* trace starts disabled until a start trigger */
} rvt_nt_cfg;

void rvt_nt_cfg_default(rvt_nt_cfg *c);
/* Several harts share one stream (ch. 3: messages of different sources
 * interleave whole): hart k gets SRC id src_id + k; without src_bits, the
 * fewest bits that hold `harts` ids.  RVT_ERR_RANGE when they do not fit
 * (or SRC is inhibited); one hart needs nothing. */
int rvt_nt_cfg_assign_src(rvt_nt_cfg *c, unsigned harts);
/* SRC field width in effect (0 when inhibited). */
unsigned rvt_nt_cfg_src_bits(const rvt_nt_cfg *c);

/* Encode one message as MSEO bytes (3.1-3.3) with cfg's SRC width and
 * address MSB extension (cfg NULL: neither).  Returns the byte count or a
 * negative status (RVT_ERR_RANGE: longer than cap). */
int rvt_nt_msg_encode(const rvt_nt_msg *m, const rvt_nt_cfg *cfg, uint8_t *out, size_t cap);
/* Fill the zero defaults and check ranges (RVT_ERR_INVAL). */
int rvt_nt_cfg_check(rvt_nt_cfg *c);
/* "name=value" (a chapter 4 control name or an rvtrace extra); returns 0,
 * RVT_ERR_INVAL for an unknown name or bad value. */
int rvt_nt_cfg_set(rvt_nt_cfg *c, const char *name, const char *value);
/* A setting's value as the sidecar writes it (decimal); RVT_ERR_INVAL for
 * an unknown name.  The fixed controls (trTeFormat ...) read as the sidecar
 * states them. */
int rvt_nt_cfg_get(const rvt_nt_cfg *c, const char *name, char *buf, size_t n);
/* The i-th setting name in sidecar order, its one-line help in *help (may
 * be NULL); NULL past the end. */
const char *rvt_nt_cfg_name(size_t i, const char **help);
/* Write every setting as "name=value\n" lines. */
int rvt_nt_cfg_write(const rvt_nt_cfg *c, FILE *f);
/* Read a sidecar file of name=value lines (# comments). */
int rvt_nt_cfg_read(rvt_nt_cfg *c, FILE *f, rvt_diag_fn diag, void *diag_ctx);

/* ---- Encoder (ch. 8-10) ---- */
/* Receives whole messages (several encoders may share one sink: messages
 * are never split, so SRC-tagged streams interleave per message). */
typedef int (*rvt_nt_byte_sink)(void *ctx, const uint8_t *bytes, size_t n);

typedef struct rvt_nt_encoder rvt_nt_encoder;
typedef struct rvt_nt_enc_stats {
    uint64_t records, instructions, halfwords, messages, bytes;
    uint64_t by_tcode[64];
} rvt_nt_enc_stats;

rvt_nt_encoder *rvt_nt_encoder_new(const rvt_nt_cfg *cfg, rvt_nt_byte_sink sink,
                                   void *sink_ctx, int *status);
void rvt_nt_encoder_free(rvt_nt_encoder *e);
/* Feed blocks in retirement order (one hart). */
int rvt_nt_encoder_put(rvt_nt_encoder *e, const rvt_irec *recs, size_t n);
/* Messages were lost downstream: send Error (7.4) and restart with
 * ProgTraceSync SYNC=7 at the next record. */
int rvt_nt_encoder_lost(rvt_nt_encoder *e);
/* End of trace: ProgTraceCorrelation EVCODE 0 (7.12). */
int rvt_nt_encoder_end(rvt_nt_encoder *e);
void rvt_nt_encoder_stats(const rvt_nt_encoder *e, rvt_nt_enc_stats *out);
/* An rvt_irec_sink feeding this encoder (end() calls _end()). */
rvt_irec_sink rvt_nt_encoder_sink(rvt_nt_encoder *e);
/* Its runs of steps (rvt_rvi_replay_steps): the same bytes as their
 * records put one by one; a run of plain instructions costs only the
 * I-CNT arithmetic (8.4). */
rvt_irec_steps rvt_nt_encoder_steps(rvt_nt_encoder *e);

/* Probe port: packs bytes into words of cfg.port_bytes, pads the final
 * partial word with idle 0xFF (3.3), writes to a FILE. */
typedef struct rvt_nt_port rvt_nt_port;
rvt_nt_port *rvt_nt_port_new(FILE *f, unsigned port_bytes);
int rvt_nt_port_write(void *port, const uint8_t *bytes, size_t n);  /* an rvt_nt_byte_sink */
int rvt_nt_port_close(rvt_nt_port *p);   /* pads, flushes, frees (not the FILE) */

/* ---- Flow decoder (ch. 11) ---- */
/* Decoded instruction at pc (NULL = no code there).  rvt_image_insn fits. */
typedef const rvt_insn *(*rvt_nt_insn_fn)(void *ctx, uint64_t pc);

typedef struct rvt_nt_decoder rvt_nt_decoder;
typedef struct rvt_nt_dec_stats {
    uint64_t messages, insns, errors, lost, resyncs, vendor;
    /* I-CNTs (or history walks) beyond 2^rvtIcntBits, accepted (8.4.4: the
     * reference code never reports I-CNT overflow), and where the first was */
    uint64_t wide_icnt, wide_icnt_offset;
    /* B-TYPE 0 sync messages whose F-ADDR contradicted the decoded path
     * (an RVT_EV_ERROR each: the decoder had lost its way) */
    uint64_t lost_way;
    /* Whole cache flushes, as rvt_te_dec_stats.cache_flushes */
    uint64_t cache_flushes;
    /* Transport errors met while no source decoded was synchronised: the
     * one RVT_EV_ERROR each is then the decoder's own (src 0, or the
     * src_filter's; pc 0), not a source's loss.  A program that decodes
     * each source apart (decode --jobs) tells the two kinds by it. */
    uint64_t unsynced_errors;
    /* Stream offset where the last whole message ends (any source) */
    uint64_t msg_end;
} rvt_nt_dec_stats;

/* cfg supplies inst_mode, src_bits, seq_jump, implicit_return,
 * repeat_history, all_jumps, extend_addr_msb, no_addr_diff, xlen.
 * src_filter < 0: decode every SRC (separate state per source). */
/* Events go to fn(fn_ctx, ...), given here as for rvt_te_decoder_new; fn
 * may be NULL for a decoder used only through the pull API (set_input).
 * NULL with *status RVT_ERR_INVAL (cfg or insn NULL, cfg fails
 * rvt_nt_cfg_check) or RVT_ERR_NOMEM. */
rvt_nt_decoder *rvt_nt_decoder_new(const rvt_nt_cfg *cfg, rvt_nt_insn_fn insn,
                                   void *insn_ctx, int src_filter, rvt_flow_fn fn, void *fn_ctx,
                                   int *status);
/* Over an rvt_mem (mem.h): each source's code is looked up in the space
 * of its last Ownership message (7.1: context and PRV; 0 and 0 before
 * one) and its SRC.  mem must outlive the decoder; several decoders
 * (threads) may share it.  cfg NULL: RVT_ERR_INVAL. */
rvt_nt_decoder *rvt_nt_decoder_new_mem(const rvt_nt_cfg *cfg, const rvt_mem *mem, int src_filter,
                                       rvt_flow_fn fn, void *fn_ctx, int *status);
void rvt_nt_decoder_free(rvt_nt_decoder *d);
/* Decode a buffer, or the next chunk of a stream (called again for each
 * chunk in order, cut anywhere: a message a chunk leaves open is kept
 * until the next one completes it, and rvt_nt_decode_end reports it cut
 * short if none does; the events are those of the whole stream at once);
 * events go to the callback given at new.
 * Returns 0, the callback's nonzero return value, RVT_ERR_INVAL (d NULL,
 * no callback given at new, buf NULL with len > 0) or RVT_ERR_STATE (the
 * pull API's input given).  Errors are reported as RVT_EV_ERROR events,
 * never fatal. */
int rvt_nt_decode(rvt_nt_decoder *d, const uint8_t *buf, size_t len);
/* Emit RVT_EV_END (RVT_ERR_INVAL and RVT_ERR_STATE as rvt_nt_decode).
 * aux = RVT_END_INCOMPLETE when a source (src_filter's, else any seen)
 * does not end with a ProgTraceCorrelation (7.12), or no message was seen
 * at all; offset = where the last whole message ends. */
int rvt_nt_decode_end(rvt_nt_decoder *d);
/* The stream ends here, but without RVT_EV_END yet: a message the chunks
 * left open is decoded as it is (reported cut short).  rvt_nt_decode_end
 * does this first; a caller that must tell the events of the stream from
 * those of its end (decode --jobs) calls it before.  Returns as
 * rvt_nt_decode_end. */
int rvt_nt_decode_flush(rvt_nt_decoder *d);
/* Decode every frame of tp (borrowed; rvt_nt_reader_init_transport: the
 * "mseo" transport over a stream, a sink buffer put in order, or another
 * framing), then RVT_EV_END, as rvt_nt_decode over the whole stream and
 * rvt_nt_decode_end; offsets are tp's stream's.  Returns as those two;
 * RVT_ERR_INVAL also for tp NULL, RVT_ERR_STATE also after rvt_nt_decode. */
int rvt_nt_decoder_run_transport(rvt_nt_decoder *d, struct rvt_transport *tp);
/* Forget cached instructions (11.4: the image changed, e.g. from an event
 * callback after a fence.i).  Safe to call from inside the callback. */
void rvt_nt_decoder_flush_cache(rvt_nt_decoder *d);
/* The counters so far, copied to *out (as rvt_te_decoder_stats): 0, or
 * RVT_ERR_INVAL when d or out is NULL. */
int rvt_nt_decoder_stats(const rvt_nt_decoder *d, rvt_nt_dec_stats *out);
/* What RVT_EV_INSN events the decoder sends (other kinds are unchanged):
 * INSN one per instruction (default); BLOCK one per straight-line run with
 * aux = its instructions and aux2 = its half-words; COUNT none (the count
 * is in rvt_nt_dec_stats.insns).  For benchmarks and coverage tools. */
enum { RVT_NT_EVENTS_INSN = 0, RVT_NT_EVENTS_BLOCK = 1, RVT_NT_EVENTS_COUNT = 2 };
void rvt_nt_decoder_set_events(rvt_nt_decoder *d, unsigned mode);
/* Keep only source SRC (table 8: SRC at most 12 bits; src < 0: every
 * source), as src_filter at new.  0, RVT_ERR_INVAL (d NULL, src > 4095),
 * RVT_ERR_STATE (a message already decoded or the pull input given). */
int rvt_nt_decoder_set_src_filter(rvt_nt_decoder *d, int src);
/* Pull decoding (rvtrace/flow.h).  set_input gives a new decoder (nothing
 * decoded yet) the whole stream that next_block / next_insn / next_event
 * then decode message by message (RVT_EV_END comes at its end).  0,
 * RVT_ERR_INVAL (d NULL, or buf NULL with len > 0), RVT_ERR_STATE (input
 * given before or rvt_nt_decode used); from then on the callback given at
 * new is not called (the events come from next_event).  The next_* calls:
 * > 0 got one, 0 input used up (next_event: or an instruction comes
 * first), RVT_ERR_INVAL (NULL argument), RVT_ERR_STATE (no input),
 * RVT_ERR_NOMEM. */
int rvt_nt_decoder_set_input(rvt_nt_decoder *d, const uint8_t *buf, size_t len);
/* set_input for one piece of a stream cut at its sync messages (decode
 * --jobs, docs/parallel.md): the messages before byte `owned` of buf are
 * the piece's.  The rest of the stream is read on as set_input reads it
 * (the caller stops at the first block or event from byte owned on), but
 * the wide I-CNTs of later messages are not counted
 * (rvt_nt_dec_stats.wide_icnt, 8.4.4), and the block open when the first
 * of them is read (the piece's last: the sync message's walk ends in it)
 * is sealed: it ends as a decoder of the whole stream's block ends there
 * -- a control transfer, an event -- or with RVT_BLK_SEAM where that
 * block goes on with the next message's instructions (the next piece's
 * first block).  Statuses as set_input. */
int rvt_nt_decoder_set_input_piece(rvt_nt_decoder *d, const uint8_t *buf, size_t len,
                                   uint64_t owned);
/* Start with the Ownership message (7.1) that unit[0..len) starts with:
 * its source's privilege and context (and, pulled, its blocks' context)
 * as a decoder that had read it, without decoding it (no events, no
 * message counted): a piece of a stream that starts after it (decode
 * --jobs).  A message of a source the decoder does not keep
 * (set_src_filter) changes nothing.  Before decoding.  0, RVT_ERR_INVAL
 * (d or unit NULL, no Ownership message there), RVT_ERR_STATE (decoding
 * has begun), RVT_ERR_NOMEM. */
int rvt_nt_decoder_prime(rvt_nt_decoder *d, const uint8_t *unit, size_t len);
/* set_input with the frames of tp (borrowed) as the stream, as
 * rvt_nt_decoder_run_transport; RVT_ERR_INVAL for tp NULL. */
int rvt_nt_decoder_set_input_transport(rvt_nt_decoder *d, struct rvt_transport *tp);
int rvt_nt_decoder_next_block(rvt_nt_decoder *d, rvt_block *out);
/* next_block in a batch: as rvt_te_decoder_next_blocks (etrace.h). */
int rvt_nt_decoder_next_blocks(rvt_nt_decoder *d, rvt_block *out, size_t max);
/* next_blocks up to the next event: as rvt_te_decoder_next_run (etrace.h). */
int rvt_nt_decoder_next_run(rvt_nt_decoder *d, rvt_block *out, size_t max);
int rvt_nt_decoder_next_insn(rvt_nt_decoder *d, rvt_flow_insn *out);
int rvt_nt_decoder_next_event(rvt_nt_decoder *d, rvt_flow_event *out);

#ifdef __cplusplus
}
#endif
#endif
