.option norvc
  lui x31, 0x100
  lui x30, 0x7
  addi x30, x30, 0x777
  sw x30, 0(x31)
