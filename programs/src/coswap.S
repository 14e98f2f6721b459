/* coswap: co-routine swaps through link registers (E-Trace 4.1.1: a jalr
 * whose rd and rs1 are x1 and x5 in either order is a co-routine swap,
 * neither call nor return).
 *
 * uint64_t coswap_run(uint64_t rounds)   (rv64imac)
 *   The consumer (this function) and a Fibonacci producer hand control to
 *   each other `rounds` times.  Consumer -> producer alternates between
 *   `jalr x1, 0(x5)` (32-bit) and `c.jalr x5` (16-bit, rd = x1 implied);
 *   producer -> consumer is always `jalr x5, 0(x1)`.  x5 thus holds the
 *   producer's resume point and x1 the consumer's.  Each round the consumer
 *   also calls `tally` with x5 as the link register (`jal x5`), which
 *   returns by `jr x5` / `c.jr x5` on alternate rounds.
 *   Returns sum(F(0..rounds-1)) + 2 * rounds (tally adds 2 per round).
 * Registers: consumer s0 (rounds left), s1 (sum), s2 (saved resume point);
 * producer s6, s7 (F(n), F(n+1)); callers' ra on the stack.
 */
    .file "coswap.S"
    .text
    .globl coswap_run
coswap_run:
    addi    sp, sp, -48
    sd      ra, 0(sp)
    sd      s0, 8(sp)
    sd      s1, 16(sp)
    sd      s2, 24(sp)
    sd      s6, 32(sp)
    sd      s7, 40(sp)
    mv      s0, a0
    li      s1, 0
    la      x5, producer
    beqz    s0, done
round:
    andi    t1, s0, 1
    bnez    t1, odd
    .option push
    .option norvc
    jalr    x1, 0(x5)           /* swap: consumer -> producer, 32-bit */
    .option pop
    j       back
odd:
    .option push
    .option rvc
    c.jalr  x5                  /* swap: consumer -> producer, 16-bit */
    .option pop
back:
    add     s1, s1, a0          /* the producer's value */
    mv      s2, x5              /* keep the resume point across tally */
    .option push
    .option norvc
    jal     x5, tally           /* call with the alternate link register */
    .option pop
    mv      x5, s2
    addi    s0, s0, -1
    bnez    s0, round
done:
    mv      a0, s1
    ld      ra, 0(sp)
    ld      s0, 8(sp)
    ld      s1, 16(sp)
    ld      s2, 24(sp)
    ld      s6, 32(sp)
    ld      s7, 40(sp)
    addi    sp, sp, 48
    ret

producer:
    li      s6, 0
    li      s7, 1
1:  mv      a0, s6
    .option push
    .option norvc
    jalr    x5, 0(x1)           /* swap: producer -> consumer */
    .option pop
    add     t2, s6, s7
    mv      s6, s7
    mv      s7, t2
    j       1b

/* tally: s1 += 2; returns through x5, 32-bit or 16-bit by round parity */
tally:
    addi    s1, s1, 2
    andi    t1, s0, 1
    bnez    t1, 1f
    .option push
    .option norvc
    jalr    x0, 0(x5)           /* return via x5, 32-bit */
    .option pop
1:  .option push
    .option rvc
    c.jr    x5                  /* return via x5, 16-bit */
    .option pop
