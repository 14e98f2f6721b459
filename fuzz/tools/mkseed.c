/* mkseed: turn a trace stream rvtrace (or a reference tool) wrote into seed
 * inputs of the packet- and flow-level fuzz targets, by prefixing the
 * setting bytes those targets read (fuzz_etrace.h, fuzz_ntrace.h) and, for
 * the flow targets, the index of the program image (fuzz_images.h).
 *
 *   mkseed te|nt PROG STREAM OUT_PKT OUT_FLOW ATTRS_FILE
 *   mkseed te|nt PROG STREAM OUT_PKT OUT_FLOW - name=value...
 *   mkseed ted - STREAM OUT - ATTRS_FILE   (etrace_data: data attributes)
 *
 * PROG is a program name of fuzz_images.h ("-" or an unknown name: no flow
 * seed).  Settings come from a sidecar file or from name=value pairs (pairs
 * the parser rejects are ignored: reference settings are best effort). */
#include "fuzz_etrace.h"
#include "fuzz_etrace_data.h"
#include "fuzz_images.h"
#include "fuzz_ntrace.h"

#define SEED_MAX 4096

static int write_seed(const char *path, int prog, const uint8_t *pre, size_t npre,
                      const uint8_t *s, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 1;
    if (prog >= 0)
        fputc(prog, f);
    fwrite(pre, 1, npre, f);
    size_t room = SEED_MAX - npre - 1;
    fwrite(s, 1, n < room ? n : room, f);
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: mkseed te|nt PROG STREAM OUT_PKT OUT_FLOW ATTRS|- [name=value...]\n");
        return 2;
    }
    bool te = strncmp(argv[1], "te", 2) == 0, ted = strcmp(argv[1], "ted") == 0;
    FILE *sf = fopen(argv[3], "rb");
    if (!sf) {
        perror(argv[3]);
        return 1;
    }
    static uint8_t buf[SEED_MAX];
    size_t n = fread(buf, 1, sizeof buf, sf);
    fclose(sf);

    uint8_t pre[8];
    size_t npre;
    FILE *af = strcmp(argv[6], "-") ? fopen(argv[6], "r") : NULL;
    if (te) {
        rvt_te_attrs a;
        rvt_te_attrs_default(&a);
        unsigned line = 0;
        if (af)
            rvt_te_attrs_read(&a, af, &line);
        for (int i = 7; i < argc; i++)
            rvt_te_attrs_set(&a, argv[i]);
        if (ted) {
            rvt_fuzz_te_data_attrs_bytes(&a, pre);
            npre = RVT_FUZZ_TED_ATTR_BYTES;
        } else {
            rvt_fuzz_te_attrs_bytes(&a, pre);
            npre = RVT_FUZZ_TE_ATTR_BYTES;
        }
    } else {
        rvt_nt_cfg c;
        rvt_nt_cfg_default(&c);
        if (af)
            rvt_nt_cfg_read(&c, af, NULL, NULL);
        for (int i = 7; i < argc; i++) {
            char name[128];
            const char *eq = strchr(argv[i], '=');
            if (!eq || (size_t)(eq - argv[i]) >= sizeof name)
                continue;
            memcpy(name, argv[i], (size_t)(eq - argv[i]));
            name[eq - argv[i]] = 0;
            rvt_nt_cfg_set(&c, name, eq + 1);
        }
        rvt_nt_cfg_check(&c);
        rvt_fuzz_nt_cfg_bytes(&c, pre);
        npre = RVT_FUZZ_NT_CFG_BYTES;
    }
    if (af)
        fclose(af);
    int rc = write_seed(argv[4], -1, pre, npre, buf, n);
    int prog = rvt_fuzz_image_index(argv[2]);
    if (prog >= 0)
        rc |= write_seed(argv[5], prog, pre, npre, buf, n);
    return rc;
}

/* The shared headers declare the fuzzer entry points; this tool has none. */
int LLVMFuzzerInitialize(int *argc, char ***argv) { (void)argc; (void)argv; return 0; }
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { (void)data; (void)size; return 0; }
