/* The device tree the hart boots with (docs/hart.md "Device tree"): QEMU
 * 7.2 virt's layout (hw/riscv/virt.c create_fdt) restricted to what the
 * hart and board.h model, built with libfdt's sequential-write API.
 * Devicetree spec 0.4; bindings: riscv/cpus.yaml, sifive,plic-1.0.0,
 * sifive,clint0, ns16550a, syscon-poweroff/-reboot. */
#include <stdio.h>
#include <stdlib.h>
#include <libfdt.h>
#include "hart_int.h"
#include "rvtrace/tci.h"

#define DTB_CAP (64u << 10)
enum { PH_CPU = 1, PH_INTC = 2, PH_PLIC = 3, PH_TEST = 4 };

/* <hi lo hi lo>: #address-cells = #size-cells = 2 */
static int prop_reg(void *f, uint64_t base, uint64_t size)
{
    fdt64_t r[2] = { cpu_to_fdt64(base), cpu_to_fdt64(size) };
    return fdt_property(f, "reg", r, sizeof r);
}

static int prop_cells(void *f, const char *name, const uint32_t *v, unsigned n)
{
    /* the longest: interrupts-extended of RVT_SMP_MAX_HARTS harts (two
     * contexts of 2 cells each), the /pmu node's event triples (12) */
    fdt32_t c[4 * RVT_SMP_MAX_HARTS];
    if (n > sizeof c / sizeof c[0])
        return -FDT_ERR_NOSPACE;
    for (unsigned i = 0; i < n; i++)
        c[i] = cpu_to_fdt32(v[i]);
    return fdt_property(f, name, c, (int)(n * sizeof c[0]));
}

/* The ISA the hart executes: misa, Zicntr/Zihpm and Sscofpmf (pmu_csr.c);
 * multi-letter extensions in the order of unpriv 29.7. */
static void isa_string(const rvt_hart_cfg *cfg, unsigned xlen, char *buf, size_t n)
{
    snprintf(buf, n, "rv%uima%s%s_zicntr_zicsr_zifencei_zihpm_sscofpmf", xlen, cfg->no_fp ? "" : "fd",
             cfg->no_compressed ? "" : "c");
}

/* Harts the tree describes (cfg.nharts; 0 = 1). */
static unsigned nharts(const rvt_hart_cfg *cfg)
{
    return cfg->nharts ? cfg->nharts : 1;
}

/* Hart i's phandles: hart 0 keeps those of the one-hart tree. */
static uint32_t ph_cpu(unsigned i) { return i == 0 ? PH_CPU : PH_TEST + 1 + 2 * (i - 1); }
static uint32_t ph_intc(unsigned i) { return ph_cpu(i) + 1; }

static int cpu(void *f, const char *isa, unsigned xlen, unsigned i, uint64_t hartid)
{
    char name[32];
    snprintf(name, sizeof name, "cpu@%llx", (unsigned long long)hartid);
    int e = fdt_begin_node(f, name);
    e |= fdt_property_cell(f, "phandle", ph_cpu(i));
    e |= fdt_property_string(f, "device_type", "cpu");
    e |= fdt_property_cell(f, "reg", (uint32_t)hartid);
    e |= fdt_property_string(f, "status", "okay");
    e |= fdt_property_string(f, "compatible", "riscv");
    e |= fdt_property_string(f, "riscv,isa", isa);
    e |= fdt_property_string(f, "mmu-type", xlen == 64 ? "riscv,sv39" : "riscv,sv32");
    e |= fdt_begin_node(f, "interrupt-controller");
    e |= fdt_property_cell(f, "#address-cells", 0);   /* dtc's interrupt_provider check */
    e |= fdt_property_cell(f, "#interrupt-cells", 1);
    e |= fdt_property(f, "interrupt-controller", NULL, 0);
    e |= fdt_property_string(f, "compatible", "riscv,cpu-intc");
    e |= fdt_property_cell(f, "phandle", ph_intc(i));
    e |= fdt_end_node(f);   /* interrupt-controller */
    return e | fdt_end_node(f);
}

static int cpus(void *f, const rvt_hart_cfg *cfg, unsigned xlen)
{
    char isa[64];
    isa_string(cfg, xlen, isa, sizeof isa);
    int e = fdt_begin_node(f, "cpus");
    e |= fdt_property_cell(f, "#address-cells", 1);
    e |= fdt_property_cell(f, "#size-cells", 0);
    e |= fdt_property_cell(f, "timebase-frequency", VIRT_TIMEBASE_HZ);
    unsigned n = nharts(cfg);
    for (unsigned i = 0; i < n; i++)
        e |= cpu(f, isa, xlen, i, n > 1 ? i : cfg->hartid);
    return e | fdt_end_node(f);
}

/* interrupts-extended of a device with one line per hart for each of
 * irq_a and irq_b (PLIC contexts 2i, 2i+1; CLINT MSI, MTI) */
static int irqs_per_hart(void *f, const rvt_hart_cfg *cfg, uint32_t irq_a, uint32_t irq_b)
{
    uint32_t v[4 * RVT_SMP_MAX_HARTS];
    unsigned n = nharts(cfg);
    for (unsigned i = 0; i < n; i++) {
        v[4 * i] = v[4 * i + 2] = ph_intc(i);
        v[4 * i + 1] = irq_a;
        v[4 * i + 3] = irq_b;
    }
    return prop_cells(f, "interrupts-extended", v, 4 * n);
}

/* "a\0b" string lists */
static int prop_strs(void *f, const char *name, const char *list, size_t len)
{
    return fdt_property(f, name, list, (int)len);
}

/* The Trace Control Interface's components (docs/tci.md): one node per
 * 4 KiB register block; the encoders name the hart they trace. */
static int tci_node(void *f, const char *kind, uint64_t off, int cpu)
{
    char name[48], compat[40];
    snprintf(name, sizeof name, "%s@%llx", kind, (unsigned long long)(VIRT_TCI_BASE + off));
    snprintf(compat, sizeof compat, "riscv,%s", kind);
    int e = fdt_begin_node(f, name);
    e |= prop_reg(f, VIRT_TCI_BASE + off, RVT_TCI_COMP);
    e |= fdt_property_string(f, "compatible", compat);
    if (cpu >= 0)
        e |= fdt_property_cell(f, "cpus", (uint32_t)cpu);
    return e | fdt_end_node(f);
}

static int tci_nodes(void *f, const rvt_hart_cfg *cfg)
{
    if (!cfg->tci)
        return 0;
    int e = 0;
    for (unsigned h = 0; h < rvt_tci_nharts(cfg->tci); h++)
        e |= tci_node(f, "trace-encoder", RVT_TCI_TE(h), h < nharts(cfg) ? (int)ph_cpu(h) : -1);
    e |= tci_node(f, "trace-funnel", RVT_TCI_FUNNEL, -1);
    e |= tci_node(f, "trace-ram-sink", RVT_TCI_RAM, -1);
    return e | tci_node(f, "trace-pib-sink", RVT_TCI_PIB, -1);
}

static int soc(void *f, const rvt_hart_cfg *cfg)
{
    static const char test_compat[] = "sifive,test1\0sifive,test0\0syscon";
    static const char plic_compat[] = "sifive,plic-1.0.0\0riscv,plic0";
    static const char clint_compat[] = "sifive,clint0\0riscv,clint0";
    int e = fdt_begin_node(f, "soc");
    e |= fdt_property_cell(f, "#address-cells", 2);
    e |= fdt_property_cell(f, "#size-cells", 2);
    e |= fdt_property_string(f, "compatible", "simple-bus");
    e |= fdt_property(f, "ranges", NULL, 0);

    e |= fdt_begin_node(f, "serial@10000000");
    e |= fdt_property_cell(f, "interrupts", VIRT_UART_IRQ);
    e |= fdt_property_cell(f, "interrupt-parent", PH_PLIC);
    e |= fdt_property_cell(f, "clock-frequency", 3686400);
    e |= prop_reg(f, VIRT_UART_BASE, VIRT_UART_SIZE);
    e |= fdt_property_string(f, "compatible", "ns16550a");
    e |= fdt_end_node(f);

    e |= fdt_begin_node(f, "test@100000");
    e |= fdt_property_cell(f, "phandle", PH_TEST);
    e |= prop_reg(f, VIRT_TEST_BASE, VIRT_TEST_SIZE);
    e |= prop_strs(f, "compatible", test_compat, sizeof test_compat);
    e |= fdt_end_node(f);

    e |= fdt_begin_node(f, "plic@c000000");
    e |= fdt_property_cell(f, "phandle", PH_PLIC);
    e |= fdt_property_cell(f, "riscv,ndev", HART_PLIC_NSRC);
    e |= prop_reg(f, VIRT_PLIC_BASE, VIRT_PLIC_SIZE);
    e |= irqs_per_hart(f, cfg, IRQ_MEI, IRQ_SEI);   /* contexts 2i, 2i+1 */
    e |= fdt_property(f, "interrupt-controller", NULL, 0);
    e |= prop_strs(f, "compatible", plic_compat, sizeof plic_compat);
    e |= fdt_property_cell(f, "#address-cells", 0);
    e |= fdt_property_cell(f, "#interrupt-cells", 1);
    e |= fdt_end_node(f);

    e |= fdt_begin_node(f, "clint@2000000");
    e |= irqs_per_hart(f, cfg, IRQ_MSI, IRQ_MTI);
    e |= prop_reg(f, VIRT_CLINT_BASE, VIRT_CLINT_SIZE);
    e |= prop_strs(f, "compatible", clint_compat, sizeof clint_compat);
    e |= fdt_end_node(f);
    e |= tci_nodes(f, cfg);
    return e | fdt_end_node(f);
}

/* The counters SBI firmware may give each general hardware event (QEMU
 * 7.2 virt's /pmu, OpenSBI's docs/pmu_support.md binding: <first event,
 * last event, counter bitmap>): cycles (1) on mcycle or mhpmcounter3..31,
 * instructions (2) on minstret or 3..31, branches (5) on 3..31; the
 * selector is the event code (pmu_csr.c, docs/pmu.md "Events"). */
static int pmu_node(void *f)
{
    static const uint32_t map[] = { 1, 1, 0xFFFFFFF9u, 2, 2, 0xFFFFFFFCu, 5, 5, 0xFFFFFFF8u };
    int e = fdt_begin_node(f, "pmu");
    e |= prop_cells(f, "riscv,event-to-mhpmcounters", map, sizeof map / sizeof map[0]);
    e |= fdt_property_string(f, "compatible", "riscv,pmu");
    return e | fdt_end_node(f);
}

/* syscon-poweroff / syscon-reboot: the values dev_syscon.c acts on */
static int syscon_node(void *f, const char *name, const char *compat, uint32_t value)
{
    int e = fdt_begin_node(f, name);
    e |= fdt_property_cell(f, "value", value);
    e |= fdt_property_cell(f, "offset", 0);
    e |= fdt_property_cell(f, "regmap", PH_TEST);
    e |= fdt_property_string(f, "compatible", compat);
    return e | fdt_end_node(f);
}

static int chosen(void *f, const rvt_hart_dtb_opts *opt)
{
    int e = fdt_begin_node(f, "chosen");
    if (opt && opt->bootargs)
        e |= fdt_property_string(f, "bootargs", opt->bootargs);
    e |= fdt_property_string(f, "stdout-path", "/soc/serial@10000000");
    if (opt && opt->initrd_end > opt->initrd_start) {
        e |= fdt_property_u64(f, "linux,initrd-start", opt->initrd_start);
        e |= fdt_property_u64(f, "linux,initrd-end", opt->initrd_end);
    }
    return e | fdt_end_node(f);
}

static int build(void *f, const rvt_hart_cfg *cfg, unsigned xlen, const rvt_hart_dtb_opts *opt)
{
    static const char compat[] = "riscv-virtio";
    uint64_t base = cfg->ram_base ? cfg->ram_base : HART_DEFAULT_RAM_BASE;
    uint64_t size = cfg->ram_size ? cfg->ram_size : HART_DEFAULT_RAM_SIZE;
    char mem[32];
    snprintf(mem, sizeof mem, "memory@%llx", (unsigned long long)base);
    int e = fdt_create(f, DTB_CAP);
    e |= fdt_finish_reservemap(f);
    e |= fdt_begin_node(f, "");
    e |= fdt_property_cell(f, "#address-cells", 2);
    e |= fdt_property_cell(f, "#size-cells", 2);
    e |= fdt_property_string(f, "compatible", compat);
    e |= fdt_property_string(f, "model", "riscv-virtio,qemu");
    e |= chosen(f, opt);
    e |= syscon_node(f, "poweroff", "syscon-poweroff", 0x5555);
    e |= syscon_node(f, "reboot", "syscon-reboot", 0x7777);
    e |= fdt_begin_node(f, mem);
    e |= fdt_property_string(f, "device_type", "memory");
    e |= prop_reg(f, base, size);
    e |= fdt_end_node(f);
    e |= pmu_node(f);
    e |= cpus(f, cfg, xlen);
    e |= soc(f, cfg);
    e |= fdt_end_node(f);
    return e | fdt_finish(f);
}

int rvt_hart_dtb_build(const rvt_hart_cfg *cfg, unsigned xlen, const rvt_hart_dtb_opts *opt,
                       uint8_t **out, size_t *len)
{
    if (!cfg || !out || !len || (xlen != 32 && xlen != 64))
        return RVT_ERR_INVAL;
    uint8_t *f = calloc(1, DTB_CAP);
    if (!f)
        return RVT_ERR_NOMEM;
    if (build(f, cfg, xlen, opt) != 0) {   /* only a bootargs string near 64 KiB fails */
        free(f);
        return RVT_ERR_INVAL;
    }
    *out = f;
    *len = fdt_totalsize(f);
    return RVT_OK;
}
