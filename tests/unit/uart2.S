.option norvc
  lui x5, 0x10000
  addi x6, x0, 0x48
  sb x6, 0(x5)
  lbu x7, 5(x5)
  addi x6, x0, 0x80
  sb x6, 3(x5)
  sb x6, 0(x5)
  sb x0, 3(x5)
  addi x6, x0, 0x69
  sb x6, 0(x5)
