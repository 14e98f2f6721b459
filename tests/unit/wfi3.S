.option norvc
  la x5, handler
  csrw mtvec, x5
  lui x6, 0x2004
  li x7, 5000
  sd x7, 0(x6)
  li x6, 0x80
  csrw mie, x6
  csrsi mstatus, 8
  wfi
  j .
handler:
  csrr x9, mcause
  csrr x10, mepc
  csrr x11, time
  lui x31, 0x100
  lui x30, 0x5
  addi x30, x30, 0x555
  sw x30, 0(x31)
