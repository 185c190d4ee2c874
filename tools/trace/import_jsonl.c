// SPDX-License-Identifier: MIT
/*
 * import_jsonl.c - `uvm-trace import jsonl`: a trace's own JSON Lines
 * export (uvm-trace export --jsonl) back into a trace, record for record:
 * every line one record, its type by name and every field by the names
 * docs/trace-format.md gives. So a trace can be exported, edited with any
 * tool (jq, a script) and replayed, and a synthetic trace written as
 * text. The header's device table holds the devices the records name;
 * the rest of the original header (policies, host) is not in an export.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"

#define MAX_MEMBERS	48

struct member {
	char *key;
	char *val;	/* a number's text, or a string's contents */
	int is_str;
};

/* The escape after a backslash at @s (\", \\, \/, \u00XX of ASCII): its byte, or 0. */
static char json_escape(char **s)
{
	unsigned int c;

	if (**s == '"' || **s == '\\' || **s == '/')
		return *(*s)++;
	if (**s != 'u' || strspn(*s + 1, "0123456789abcdefABCDEF") < 4 ||
	    sscanf(*s + 1, "%4x", &c) != 1 || !c || c >= 0x80)
		return 0;
	*s += 5;
	return (char)c;
}

/*
 * A string at *@p (after its opening quote): unescaped and NUL-terminated
 * in place (export escapes only a kernel's name, and only as above).
 */
static char *json_string(char **p)
{
	char *s = *p, *start = s, *o = s;

	while (*s && *s != '"') {
		if ((unsigned char)*s < 0x20)
			return NULL;
		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		s++;
		*o = json_escape(&s);
		if (!*o++)
			return NULL;
	}
	if (*s != '"')
		return NULL;
	*o = 0;
	*p = s + 1;
	return start;
}

static void skip_ws(char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

/* One flat object {"k":v,...} of numbers and strings into @m; count or -1. */
static int parse_object(char *s, struct member *m)
{
	int n = 0;

	skip_ws(&s);
	if (*s++ != '{')
		return -1;
	skip_ws(&s);
	if (*s == '}')
		return 0;
	for (;;) {
		if (n == MAX_MEMBERS || *s++ != '"')
			return -1;
		m[n].key = json_string(&s);
		skip_ws(&s);
		if (!m[n].key || *s++ != ':')
			return -1;
		skip_ws(&s);
		m[n].is_str = *s == '"';
		if (m[n].is_str) {
			s++;
			m[n].val = json_string(&s);
			if (!m[n].val)
				return -1;
		} else {
			m[n].val = s;
			s += strspn(s, "-0123456789");
			if (s == m[n].val)
				return -1;
		}
		n++;
		skip_ws(&s);
		if (*s == '}') {
			*s++ = 0;
			skip_ws(&s);
			return *s ? -1 : n;
		}
		if (*s != ',')
			return -1;
		*s++ = 0;
		skip_ws(&s);
	}
}

static int type_of(const char *name)
{
	unsigned int t;

	for (t = 0; t < TR_TYPES; t++)
		if (!strcmp(tr_types[t].name, name))
			return (int)t;
	return -1;
}

static const struct tr_field *field_of(int type, const char *key)
{
	unsigned int i;

	for (i = 0; i < tr_hdr_nfields; i++)
		if (!strcmp(tr_hdr_fields[i].name, key))
			return &tr_hdr_fields[i];
	for (i = 0; i < tr_types[type].nfields; i++)
		if (!strcmp(tr_types[type].fields[i].name, key))
			return &tr_types[type].fields[i];
	return NULL;
}

/* Store the number @text into @f of @ev: fits its width and sign, or -1. */
static int set_field(struct uvm_event *ev, const struct tr_field *f, const char *text)
{
	unsigned char *p = (unsigned char *)ev + f->off;
	uint64_t v, lim = f->size == 8 ? UINT64_MAX : (1ULL << (8 * f->size)) - 1;
	int neg = text[0] == '-';
	unsigned int i;

	if (imp_u64(text + neg, 10, &v) || (neg && !f->is_signed))
		return -1;
	if (f->is_signed && v > (lim >> 1) + neg)
		return -1;
	if (!f->is_signed && v > lim)
		return -1;
	if (neg)
		v = -v;
	for (i = 0; i < f->size; i++)
		p[i] = (unsigned char)(v >> (8 * i));
	return 0;
}

/* Store the string @text into string field @f: fits, or -1. */
static int set_str(struct uvm_event *ev, const struct tr_field *f, const char *text)
{
	size_t n = strlen(text);

	if (n > f->size)
		return -1;
	memcpy((char *)ev + f->off, text, n);
	return 0;
}

/*
 * A kernel record's fields that follow from a whole name: name_len when
 * not given, name_hash always (a JSON tool that reads numbers as doubles,
 * jq among them, rounds a 64-bit hash). A cut name keeps the hash given.
 */
static void kernel_fill(struct uvm_event *ev)
{
	struct uvm_event_kernel *k = &ev->u.kernel;
	size_t n = strnlen(k->name, UVM_EVENT_KERNEL_NAME);

	if (!k->name_len)
		k->name_len = (uint32_t)n;
	if (k->name_len == n)
		k->name_hash = tr_kernel_hash(k->name, n);
}

/* One line into @ev: 0, or an error naming the line. */
static int jsonl_parse(struct imp *im, char *line, struct uvm_event *ev)
{
	struct member m[MAX_MEMBERS];
	const struct tr_field *f;
	int n, i, type = -1;
	char why[128];

	n = parse_object(line, m);
	if (n < 0)
		return imp_error(im, "not a flat JSON object of numbers and strings");
	for (i = 0; i < n; i++)
		if (!strcmp(m[i].key, "type") && m[i].is_str)
			type = type_of(m[i].val);
	if (type < 0)
		return imp_error(im, "no \"type\", or an unknown one");
	memset(ev, 0, sizeof(*ev));
	ev->hdr.type = (uint16_t)type;
	ev->hdr.size = sizeof(*ev);
	ev->hdr.version = UVM_EVENTS_VERSION;
	for (i = 0; i < n; i++) {
		if (!strcmp(m[i].key, "type") || !strcmp(m[i].key, "index"))
			continue;
		f = field_of(type, m[i].key);
		if (!f)
			return imp_error(im, "%s records have no field \"%s\"",
					 tr_types[type].name, m[i].key);
		if (f->is_string ? !m[i].is_str || set_str(ev, f, m[i].val) : 0)
			return imp_error(im, "\"%s\": not a string of at most %u bytes",
					 m[i].key, f->size);
		if (!f->is_string && (m[i].is_str || set_field(ev, f, m[i].val)))
			return imp_error(im, "\"%s\": not a %s%u-bit number", m[i].key,
					 f->is_signed ? "signed " : "", 8 * f->size);
	}
	if (ev->hdr.size != sizeof(*ev) || ev->hdr.version != UVM_EVENTS_VERSION)
		return imp_error(im, "a record of size %u, version %u: this uvm-trace "
				 "writes %zu, %u", ev->hdr.size, ev->hdr.version,
				 sizeof(*ev), UVM_EVENTS_VERSION);
	if (type == UVM_EVENT_KERNEL)
		kernel_fill(ev);
	if (type == UVM_EVENT_KERNEL && tr_kernel_check(ev, why, sizeof(why)))
		return imp_error(im, "a bad kernel record: %s", why);
	return 0;
}

/* The device a record names, for the header's table; -1 if none. */
static int64_t device_of(const struct uvm_event *ev)
{
	switch (ev->hdr.type) {
	case UVM_EVENT_FAULT_BATCH:
		return ev->u.batch.device;
	case UVM_EVENT_DEVICE_FAULT:
		return ev->u.device_fault.device;
	case UVM_EVENT_EVICT:
		return ev->u.evict.device;
	case UVM_EVENT_KERNEL:
		return ev->u.kernel.device;
	}
	return -1;
}

static int jsonl_pass(struct imp *im, FILE *f, char **buf, size_t *cap, int write)
{
	struct uvm_event ev;
	char name[32];
	int ret;

	while ((ret = imp_line(im, f, buf, cap)) > 0) {
		ret = jsonl_parse(im, *buf, &ev);
		if (!ret && !write && device_of(&ev) >= 0) {
			snprintf(name, sizeof(name), "device %lld", (long long)device_of(&ev));
			ret = imp_device(im, (uint64_t)device_of(&ev), name) < 0;
		}
		if (!ret && !write)
			imp_pid(im, (uint32_t)ev.hdr.va_space);
		if (!ret && write)
			ret = imp_record(im, &ev);
		if (ret)
			return -EINVAL;
	}
	return ret;
}

/* The scan: a file without one record is an error. */
static int jsonl_pass_checked(struct imp *im, FILE *f, char **buf, size_t *cap,
			      int emit)
{
	int ret = jsonl_pass(im, f, buf, cap, emit);

	if (!ret && !emit && !im->pos)
		ret = imp_error(im, "no records");
	return ret;
}

int imp_jsonl(struct imp *im)
{
	im->unit = "line";
	return imp_text(im, jsonl_pass_checked);
}
