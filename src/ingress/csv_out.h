/* The output side of the CSV writers (refcsv_writer.c, spikecsv_writer.c,
 * spikedata_writer.c): a buffered file or stdout with its header line. */
#ifndef RVT_INGRESS_CSV_OUT_H
#define RVT_INGRESS_CSV_OUT_H

#include <stdbool.h>
#include <stdio.h>

#define CSV_OUT_BUF (64u << 10)     /* a file's buffer: write(2)s of 64 KiB */

typedef struct csv_out {
    FILE *f;
    bool own;           /* a file of the writer's (not stdout): closed at the end */
    char *buf;          /* f's buffer, CSV_OUT_BUF bytes, freed after fclose */
} csv_out;

/* Open path ("-" = stdout, not own) into o and write header; false if
 * the file cannot be created or its buffer had no memory. */
bool csv_out_open(csv_out *o, const char *path, const char *header);
/* A sink's end(): flush; *err keeps the first failure (RVT_ERR_IO for a
 * write error) and is returned. */
int csv_out_flush(csv_out *o, int *err);
/* Flush, and close when owned (its buffer freed); err is the writer's
 * status so far, the result the first failure (RVT_ERR_IO for a write
 * error). */
int csv_out_close(csv_out *o, int err);

#endif
