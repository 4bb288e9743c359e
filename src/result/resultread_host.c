/*
 * resultread_host: the host's view of a run in a QEMU guest
 * (iotrial.host, docs/vm.md), read into struct resultread_host.
 */
#include "result/resultread.h"
#include "result/resultread_int.h"
#include <math.h>
#include "lib/hostrole.h"

const char *const resultread_host_bd_key[RESULTREAD_HOST_NBD] = {
	"guest_tool_ns", "guest_io_path_ns", "virt_path_ns", "host_backend_ns",
};

const char *const resultread_host_bd_label[RESULTREAD_HOST_NBD] = {
	"guest tool", "guest I/O path", "virtual device path", "host backend",
};

/* A figure of the host's view: a number, else NAN (a wrong type is not read as 0). */
static double host_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) && isfinite(json_number_value(v)) ? json_number_value(v) : NAN;
}

void resultread_host_read(struct resultread *r, const json_t *h)
{
	const json_t *by = json_object_get(h, "cpu_per_io_ns_by_role"), *pit = json_object_get(h, "pitfalls");
	const char *d = json_string_value(json_object_get(h, "drive"));

	r->host.cpu_per_io_ns = r->host.backend_lat_ns = r->host.virt_path_ns = NAN;
	r->host.ops = r->host.guest_ios = NAN;
	for (int k = 0; k < HOST_ROLE_NR; k++)
		r->host.role_cpu_per_io_ns[k] = NAN;
	for (int k = 0; k < RESULTREAD_HOST_NBD; k++)
		r->host.bd[k] = NAN;
	if (!json_is_object(h))
		return;
	r->host.has = 1;
	copy_str(r->host.drive, sizeof(r->host.drive), d);
	r->host.ops = host_num(h, "ops");
	r->host.guest_ios = host_num(h, "guest_ios");
	r->host.cpu_per_io_ns = host_num(h, "cpu_per_io_ns");
	r->host.backend_lat_ns = host_num(h, "backend_lat_ns");
	r->host.virt_path_ns = host_num(h, "virt_path_ns");
	for (int k = 0; k < HOST_ROLE_NR; k++)
		r->host.role_cpu_per_io_ns[k] = host_num(by, host_role_name((enum host_role)k));
	for (int k = 0; k < RESULTREAD_HOST_NBD; k++)
		r->host.bd[k] = host_num(json_object_get(h, "breakdown"), resultread_host_bd_key[k]);
	for (size_t i = 0; json_is_array(pit) && i < json_array_size(pit) && r->host.npitfalls < 4; i++) {
		const char *id = json_string_value(json_object_get(json_array_get(pit, i), "id"));
		const char *tx = json_string_value(json_object_get(json_array_get(pit, i), "text"));

		if (!id || !tx)
			continue;
		copy_str(r->host.pitfalls[r->host.npitfalls].id, sizeof(r->host.pitfalls[0].id), id);
		copy_str(r->host.pitfalls[r->host.npitfalls++].text, sizeof(r->host.pitfalls[0].text), tx);
	}
}
