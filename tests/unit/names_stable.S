# A second file for test_image_names_stable.c, loaded into an image after
# code_change.elf while outputs are open: far, a loop of its own, then 300
# functions with 70-character names (21 KB of names) so that the names'
# storage must grow past what code_change.elf's few names took.  Built with
# LLVM 14:
#   llvm-mc -triple=riscv64 -mattr=+c,-relax -filetype=obj names_stable.S -o names_stable.o
#   ld.lld -m elf64lriscv -N -Ttext=0x20000 -e far --no-relax names_stable.o -o names_stable.elf
	.text
	.globl	far
	.type	far, @function
far:						# 0x20000
	c.nop					# 0x20000
	c.nop					# 0x20002
	c.nop					# 0x20004
	.option	norvc
	j	far				# 0x20006, a jump
	.option	rvc
	.size	far, .-far

	.altmacro
	.macro	named n
	.type	a_function_name_long_enough_that_300_of_them_take_twenty_kib_number_\n, @function
a_function_name_long_enough_that_300_of_them_take_twenty_kib_number_\n:
	c.nop
	.size	a_function_name_long_enough_that_300_of_them_take_twenty_kib_number_\n, 2
	.endm

	.p2align 8				# 0x20100: number_0, then one each 2 bytes
	.set	i, 0
	.rept	300
	named	%i
	.set	i, i+1
	.endr
