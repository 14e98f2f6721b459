.option norvc
  lui x31, 0x100
  lui x30, 0x2a3
  addi x30, x30, 0x333
  sw x30, 0(x31)
