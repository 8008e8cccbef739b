/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Readers for the two plain-text shapes the module uses in sysfs and debugfs
 * (docs/driver-interface.md): "key value" lines, and a table whose first line
 * names the columns.  Columns are found by name, so new columns added by a
 * later module version do not break the tools.
 */
#ifndef NPU_SIM_TOOLS_TEXT_RECORDS_H
#define NPU_SIM_TOOLS_TEXT_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whole file as a NUL-terminated string (malloc'd), or NULL with errno set. */
char *read_text_file(const char *path);

/* Single unsigned decimal number making up a file (sysfs attributes). */
bool read_u64_file(const char *path, uint64_t *value);

/* Value of "key value" line @key in @text; false if absent or not a number. */
bool kv_get_u64(const char *text, const char *key, uint64_t *value);

/* Copy of the value of line @key (rest of the line) into @buf. */
bool kv_get_str(const char *text, const char *key, char *buf, size_t len);

/*
 * A table file: header line of column names, then rows.  Fields are split on
 * blanks; a row keeps pointers into its own copy of the text.
 */
#define TABLE_MAX_COLUMNS 32

struct text_table {
	char *text;		/* owned copy, split in place */
	char *header[TABLE_MAX_COLUMNS];
	size_t columns;
	char ***rows;		/* rows[i][c]; NULL when a row is short */
	size_t nrows;
};

/* Parse @text (not kept); false on allocation failure or empty text. */
bool table_parse(struct text_table *table, const char *text);
void table_free(struct text_table *table);

/* Index of column @name, or -1. */
int table_column(const struct text_table *table, const char *name);

/* Field of row @row in column @col as a number (decimal or 0x hex). */
bool table_u64(const struct text_table *table, size_t row, int col,
	       uint64_t *value);

#endif
