/* Which file an address or a symbol comes from (issue 15, decoding across
 * images): crc.elf and fptr.elf both load at 0x80000000 and both define
 * main (nm: crc's at 0x800000e4, fptr's at 0x8000012c).  Where they
 * overlap the one loaded last answers (rvt_image_read's rule); each
 * name returned by rvt_image_symbol tells its own file even when the
 * other file has the same spelling; a raw binary counts as a file, bytes
 * added by rvt_image_add_bytes (a boot ROM) do not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tharness.h"
#include "rvtrace/image.h"

static char path[4096];

static const char *prog(const char *name)
{
    const char *src = getenv("RVT_SRC");
    snprintf(path, sizeof path, "%s/programs/%s.elf", src ? src : ".", name);
    return path;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = s ? strlen(s) : 0, m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

int main(void)
{
    rvt_image *img = rvt_image_new();
    CHECK_EQ(rvt_image_file_count(img), 0);
    CHECK(rvt_image_file_at(img, 0x80000000) == NULL);
    CHECK(rvt_image_load_elf(img, prog("crc")) == 0);
    CHECK_EQ(rvt_image_file_count(img), 1);
    uint64_t off = 1;
    const char *crc_main = rvt_image_symbol(img, 0x800000e4, &off);
    CHECK_STR(crc_main, "main");
    CHECK_EQ(off, 0);
    CHECK(ends_with(rvt_image_symbol_file(img, crc_main), "/crc.elf"));
    CHECK(ends_with(rvt_image_file_at(img, 0x800000e4), "/crc.elf"));

    CHECK(rvt_image_load_elf(img, prog("fptr")) == 0);
    CHECK_EQ(rvt_image_file_count(img), 2);
    /* overlapping: the file loaded last */
    CHECK(ends_with(rvt_image_file_at(img, 0x800000e4), "/fptr.elf"));
    const char *fptr_main = rvt_image_symbol(img, 0x8000012c, &off);
    CHECK_STR(fptr_main, "main");
    CHECK(ends_with(rvt_image_symbol_file(img, fptr_main), "/fptr.elf"));
    /* the earlier pointer still names crc's main */
    CHECK(ends_with(rvt_image_symbol_file(img, crc_main), "/crc.elf"));
    /* a string that is not one of the image's names */
    CHECK(rvt_image_symbol_file(img, "main") == NULL);
    CHECK(rvt_image_symbol_file(img, NULL) == NULL);

    /* a boot ROM's bytes are no file; a raw binary is */
    CHECK(rvt_image_add_spike_reset_vector(img, 64) == 0);
    CHECK_EQ(rvt_image_file_count(img), 2);
    CHECK(rvt_image_load_raw(img, prog("crc"), 0x90000000) == 0);
    CHECK_EQ(rvt_image_file_count(img), 3);
    CHECK(ends_with(rvt_image_file_at(img, 0x90000000), "/crc.elf"));
    CHECK(rvt_image_file_at(img, 0x1000) != NULL);   /* the ROM's name */
    CHECK(rvt_image_file_at(img, 0x70000000) == NULL);
    rvt_image_free(img);
    return TH_DONE();
}
