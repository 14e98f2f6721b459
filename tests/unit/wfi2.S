.option norvc
  wfi
