/* The program init fork/execs (programs/linux/init.c): a second user
 * process, with its own address space, that prints its argument and its
 * pid and exits with a status init checks. Static, nolibc, no libc. */
#include "nolibc.h"

int main(int argc, char **argv)
{
	(void)argc;
	printf("hello: pid %d, argv[1]=%s\n", getpid(), argv[1]);
	return 42;
}
