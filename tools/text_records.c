// SPDX-License-Identifier: GPL-2.0
/* Parsing of the module's sysfs/debugfs text files (see text_records.h). */
#include "text_records.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *read_text_file(const char *path)
{
	FILE *f = fopen(path, "re");
	size_t cap = 4096, len = 0;
	char *buf;

	if (!f)
		return NULL;
	buf = malloc(cap);
	while (buf) {
		size_t n = fread(buf + len, 1, cap - len - 1, f);

		len += n;
		if (len < cap - 1) {
			if (ferror(f)) {
				free(buf);
				buf = NULL;
				errno = EIO;
			}
			break;
		}
		/* debugfs files have no size: grow until EOF */
		char *bigger = realloc(buf, cap * 2);

		if (!bigger) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

static bool parse_u64(const char *s, uint64_t *value)
{
	char *end;
	unsigned long long v;

	if (!s || *s == '-' || *s == '\0')
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || (*end && *end != '\n' && *end != ' '))
		return false;
	*value = v;
	return true;
}

bool read_u64_file(const char *path, uint64_t *value)
{
	char *text = read_text_file(path);
	bool ok = text && parse_u64(text, value);

	free(text);
	return ok;
}

/* Start of the value on the line whose first word is @key, or NULL. */
static const char *kv_find(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		if (!strncmp(line, key, klen) &&
		    (line[klen] == ' ' || line[klen] == '\t')) {
			const char *v = line + klen;

			while (*v == ' ' || *v == '\t')
				v++;
			return v;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return NULL;
}

bool kv_get_u64(const char *text, const char *key, uint64_t *value)
{
	const char *v = text ? kv_find(text, key) : NULL;

	return v && parse_u64(v, value);
}

bool kv_get_str(const char *text, const char *key, char *buf, size_t len)
{
	const char *v = text ? kv_find(text, key) : NULL;
	size_t n;

	if (!v || len == 0)
		return false;
	n = strcspn(v, "\n");
	if (n >= len)
		n = len - 1;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return true;
}

/* Split @line in place on blanks into at most @max fields. */
static size_t split_fields(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *save = NULL;

	for (char *tok = strtok_r(line, " \t", &save); tok && n < max;
	     tok = strtok_r(NULL, " \t", &save))
		fields[n++] = tok;
	return n;
}

bool table_parse(struct text_table *table, const char *text)
{
	char *save = NULL, *line;
	size_t cap = 0;

	memset(table, 0, sizeof(*table));
	table->text = strdup(text);
	if (!table->text)
		return false;
	line = strtok_r(table->text, "\n", &save);
	if (!line)
		return false;
	table->columns = split_fields(line, table->header, TABLE_MAX_COLUMNS);
	while ((line = strtok_r(NULL, "\n", &save))) {
		char **row = calloc(table->columns ? table->columns : 1,
				    sizeof(char *));

		if (!row)
			return false;
		split_fields(line, row, table->columns);
		if (table->nrows == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			char ***bigger = realloc(table->rows,
						 ncap * sizeof(*bigger));

			if (!bigger) {
				free(row);
				return false;
			}
			table->rows = bigger;
			cap = ncap;
		}
		table->rows[table->nrows++] = row;
	}
	return true;
}

void table_free(struct text_table *table)
{
	for (size_t i = 0; i < table->nrows; i++)
		free(table->rows[i]);
	free(table->rows);
	free(table->text);
	memset(table, 0, sizeof(*table));
}

int table_column(const struct text_table *table, const char *name)
{
	for (size_t c = 0; c < table->columns; c++)
		if (!strcmp(table->header[c], name))
			return (int)c;
	return -1;
}

bool table_u64(const struct text_table *table, size_t row, int col,
	       uint64_t *value)
{
	if (col < 0 || row >= table->nrows)
		return false;
	return parse_u64(table->rows[row][col], value);
}
