/* rvtrace's Linux init (PID 1 in the built-in initramfs; programs/linux/README.md).
 * Static, nolibc from the kernel tree, so user space needs no C library.
 * Each step prints one line that tests/e2e/boot_linux.sh checks; the values
 * are known in advance (derivations beside each step). Then powers off:
 * reboot(POWER_OFF) -> kernel -> SBI SRST -> OpenSBI -> the board's syscon. */
#include "nolibc.h"

#define PAGE 4096UL
#define FAULT_PAGES 2048UL /* 8 MiB of fresh anonymous memory */

/* fork + execve("/hello", "world") + waitpid: a second process, a second
 * address space (ASID), an exit status back to the parent (hello returns 42). */
static void run_hello(void)
{
	char *argv[] = { "/hello", "world", 0 };
	char *envp[] = { 0 };
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		execve("/hello", argv, envp);
		printf("init: execve failed\n");
		exit(1);
	}
	waitpid(pid, &status, 0);
	printf("init: child %d exited with %d\n", pid, WEXITSTATUS(status));
}

/* One write fault per page of an untouched mapping, then a read back:
 * sum of 0..2047 = 2047 * 2048 / 2 = 2096128. */
static void touch_pages(void)
{
	unsigned long i, sum = 0;
	unsigned long *mem = mmap(0, FAULT_PAGES * PAGE, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED) {
		printf("init: mmap failed\n");
		return;
	}
	for (i = 0; i < FAULT_PAGES; i++)
		mem[i * (PAGE / sizeof(*mem))] = i;
	for (i = 0; i < FAULT_PAGES; i++)
		sum += mem[i * (PAGE / sizeof(*mem))];
	printf("pagefault: %lu pages, sum %lu\n", FAULT_PAGES, sum);
	munmap(mem, FAULT_PAGES * PAGE);
}

/* x as "I.FFFFFFFFF": nolibc's printf has no %f and no widths. Truncates. */
static void print_fixed9(const char *name, double x)
{
	long ip = (long)x;
	long frac = (long)((x - (double)ip) * 1e9);
	char digits[10];
	int i;

	for (i = 8; i >= 0; i--, frac /= 10)
		digits[i] = '0' + frac % 10;
	digits[9] = 0;
	printf(" %s=%ld.%s", name, ip, digits);
}

/* Double precision through the kernel's FPU context switch (mstatus.FS):
 * sqrt(2) = 1.414213562..., sum_{k=1}^{1000} 1/k^2 = pi^2/6 - 0.000999500...
 * = 1.643934566..., and a float product 1.5f * 3.25f = 4.875 exactly. */
static void fp_work(void)
{
	volatile double two = 2.0;
	volatile float a = 1.5f, b = 3.25f;
	double zeta = 0.0;
	int k;

	for (k = 1000; k >= 1; k--)
		zeta += 1.0 / ((double)k * (double)k);
	printf("fp:");
	print_fixed9("sqrt2", __builtin_sqrt(two));
	print_fixed9("zeta2_1000", zeta);
	print_fixed9("prod", (double)(a * b));
	printf("\n");
}

int main(void)
{
	printf("rvtrace init: hello from user space\n");
	run_hello();
	touch_pages();
	fp_work();
	printf("init: powering off\n");
	reboot(LINUX_REBOOT_CMD_POWER_OFF);
	printf("init: reboot failed\n");
	return 1;
}
