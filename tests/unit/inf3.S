.option norvc
loop:
  addi x5, x5, 1
  j loop
