# The code test_out_code_change_writers.c patches, as first loaded (version 0),
# with symbols and a line table (one line per instruction) for the stack
# and coverage writers.  Built with LLVM 14:
#   llvm-mc -triple=riscv64 -mattr=+c,-relax -filetype=obj -g \
#       -fdebug-compilation-dir=. code_change.S -o code_change.o
#   ld.lld -m elf64lriscv -N -Ttext=0x10000 -e main --no-relax code_change.o -o code_change.elf
	.text
	.globl	main
	.type	main, @function
main:						# 0x10000
	.option	norvc
	addi	t0, t1, 1			# line 12: 4 bytes
	.option	rvc
	c.nop					# line 14: 0x10004
	c.nop					# line 15: 0x10006
	.option	norvc
	jal	ra, leaf			# line 17: 0x10008, a call
	j	main				# line 18: 0x1000c, a jump
	.size	main, .-main
	.type	leaf, @function
leaf:						# 0x10010
	ret					# line 22
	.size	leaf, .-leaf
