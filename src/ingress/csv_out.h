/* The output side of the CSV writers (refcsv_writer.c, spikecsv_writer.c,
 * spikedata_writer.c): a buffered file or stdout with its header line. */
#ifndef RVT_INGRESS_CSV_OUT_H
#define RVT_INGRESS_CSV_OUT_H

#include <stdbool.h>
#include <stdio.h>

/* Open path ("-" = stdout, *own = false) and write header; NULL if the
 * file cannot be created. */
FILE *csv_out_open(const char *path, const char *header, bool *own);
/* A sink's end(): flush; *err keeps the first failure (RVT_ERR_IO for a
 * write error) and is returned. */
int csv_out_flush(FILE *f, int *err);
/* Flush, and close when owned; err is the writer's status so far, the
 * result the first failure (RVT_ERR_IO for a write error). */
int csv_out_close(FILE *f, bool own, int err);

#endif
