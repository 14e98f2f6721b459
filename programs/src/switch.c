/* switch: a dense switch compiled to a jump table (-O2): a stack-machine
 * interpreter with 28 opcodes runs three bytecode programs (factorial,
 * Euclid's gcd, sum of primes below 200) and a generated arithmetic stream
 * that is replayed by an if-chain for reference. */
#include "rt.h"

enum {
    HALT, PUSH, POP, DUP, SWAP, OVER, ADD, SUB, MUL, DIVU, MODU, AND, OR,
    XOR, SHL, SHR, NEG, NOT, EQ, LT, JMP, JZ, JNZ, LOAD, STORE, INC, DEC, NOP
};
/* one instruction = opcode + argument, so a jump target is an index */
struct insn { uint8_t op; int32_t arg; };

static uint32_t vm_run(const struct insn *code, unsigned *steps)
{
    uint32_t st[32], slot[8] = { 0 };
    int sp = 0;
    unsigned pc = 0, n = 0;
    for (;;) {
        const struct insn *i = &code[pc++];
        uint32_t a = sp > 0 ? st[sp - 1] : 0, b = sp > 1 ? st[sp - 2] : 0;
        n++;
        switch (i->op) {
        case HALT: *steps = n; return a;
        case PUSH: st[sp++] = (uint32_t)i->arg; break;
        case POP: sp--; break;
        case DUP: st[sp++] = a; break;
        case SWAP: st[sp - 1] = b; st[sp - 2] = a; break;
        case OVER: st[sp++] = b; break;
        case ADD: st[--sp - 1] = b + a; break;
        case SUB: st[--sp - 1] = b - a; break;
        case MUL: st[--sp - 1] = b * a; break;
        case DIVU: st[--sp - 1] = a ? b / a : 0; break;
        case MODU: st[--sp - 1] = a ? b % a : b; break;
        case AND: st[--sp - 1] = b & a; break;
        case OR: st[--sp - 1] = b | a; break;
        case XOR: st[--sp - 1] = b ^ a; break;
        case SHL: st[--sp - 1] = b << (a & 31); break;
        case SHR: st[--sp - 1] = b >> (a & 31); break;
        case NEG: st[sp - 1] = -a; break;
        case NOT: st[sp - 1] = ~a; break;
        case EQ: st[--sp - 1] = b == a; break;
        case LT: st[--sp - 1] = b < a; break;
        case JMP: pc = (unsigned)i->arg; break;
        case JZ: sp--; if (!a) pc = (unsigned)i->arg; break;
        case JNZ: sp--; if (a) pc = (unsigned)i->arg; break;
        case LOAD: st[sp++] = slot[i->arg & 7]; break;
        case STORE: slot[i->arg & 7] = a; sp--; break;
        case INC: slot[i->arg & 7]++; break;
        case DEC: slot[i->arg & 7]--; break;
        case NOP: break;
        default: *steps = n; return 0xdeadu;
        }
    }
}

static const struct insn fact10[] = {           /* slot0 = acc, slot1 = n */
    {PUSH, 1}, {STORE, 0}, {PUSH, 10}, {STORE, 1},
    /* 4 */ {LOAD, 1}, {JZ, 12}, {LOAD, 0}, {LOAD, 1}, {MUL, 0}, {STORE, 0},
    /* 10 */ {DEC, 1}, {JMP, 4},
    /* 12 */ {LOAD, 0}, {HALT, 0} };

static const struct insn gcd[] = {              /* gcd(1071, 462) */
    {PUSH, 1071}, {STORE, 0}, {PUSH, 462}, {STORE, 1},
    /* 4 */ {LOAD, 1}, {JZ, 13}, {LOAD, 0}, {LOAD, 1}, {MODU, 0},
    /* 9 */ {LOAD, 1}, {STORE, 0}, {STORE, 1}, {JMP, 4},
    /* 13 */ {LOAD, 0}, {HALT, 0} };

static const struct insn primes[] = {   /* slot0 = n, slot1 = sum, slot2 = d */
    {PUSH, 2}, {STORE, 0}, {PUSH, 0}, {STORE, 1},
    /* 4 */ {LOAD, 0}, {PUSH, 200}, {LT, 0}, {JZ, 28},
    /* 8 */ {PUSH, 2}, {STORE, 2},
    /* 10: n < d*d -> prime */ {LOAD, 0}, {LOAD, 2}, {DUP, 0}, {MUL, 0},
    {LT, 0}, {JNZ, 22},
    /* 16: d divides n -> composite */ {LOAD, 0}, {LOAD, 2}, {MODU, 0},
    {JZ, 26}, {INC, 2}, {JMP, 10},
    /* 22 */ {LOAD, 1}, {LOAD, 0}, {ADD, 0}, {STORE, 1},
    /* 26 */ {INC, 0}, {JMP, 4},
    /* 28 */ {LOAD, 1}, {HALT, 0} };

/* the binary operators of the machine, as an if-chain */
static uint32_t ref_binop(int op, uint32_t b, uint32_t a)
{
    if (op == ADD) return b + a;
    if (op == SUB) return b - a;
    if (op == MUL) return b * a;
    if (op == DIVU) return a ? b / a : 0;
    if (op == MODU) return a ? b % a : b;
    if (op == AND) return b & a;
    if (op == OR) return b | a;
    if (op == XOR) return b ^ a;
    if (op == SHL) return b << (a & 31);
    if (op == SHR) return b >> (a & 31);
    if (op == EQ) return b == a;
    return b < a;
}

#define GEN 400
static struct insn gen[2 * GEN + 4];

/* acc = acc OP k, repeated, with NEG/NOT/NOP mixed in */
static uint32_t gen_stream(void)
{
    static const uint8_t binops[] = { ADD, SUB, MUL, DIVU, MODU, AND, OR,
                                      XOR, SHL, SHR, EQ, LT };
    uint32_t x = 12345, acc = 99;
    int n = 0;
    gen[n++] = (struct insn){ PUSH, 99 };
    for (int i = 0; i < GEN; i++) {
        x = x * 1103515245u + 12345u;
        unsigned r = (x >> 16) % 15;
        int32_t k = (int32_t)((x >> 8) & 0xffff) + 1;
        if (r < 12) {
            gen[n++] = (struct insn){ PUSH, k };
            gen[n++] = (struct insn){ binops[r], 0 };
            acc = ref_binop(binops[r], acc, (uint32_t)k);
        } else if (r == 12) {
            gen[n++] = (struct insn){ NEG, 0 }; acc = -acc;
        } else if (r == 13) {
            gen[n++] = (struct insn){ NOT, 0 }; acc = ~acc;
        } else {
            gen[n++] = (struct insn){ NOP, 0 };
        }
    }
    gen[n] = (struct insn){ HALT, 0 };
    return acc;
}

int main(void)
{
    unsigned steps, total = 0;
    int err = rt_expect(vm_run(fact10, &steps), 3628800, 1);
    total += steps;
    if (!err) err = rt_expect(vm_run(gcd, &steps), 21, 2);
    total += steps;
    if (!err) err = rt_expect(vm_run(primes, &steps), 4227, 3);
    total += steps;
    uint32_t want = gen_stream();
    if (!err) err = rt_expect(vm_run(gen, &steps), want, 4);
    total += steps;
    return rt_report("switch", total, err);
}
