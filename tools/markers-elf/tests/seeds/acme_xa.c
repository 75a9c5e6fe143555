/* Seed: a vendor module object with markers and .modinfo name=acme_xa. */
#define MARKER_REC(var, str)						\
	static const char var[]						\
	__attribute__((used, section("__markers_strings"), aligned(1))) = str
#define MODINFO(var, str)						\
	static const char var[]						\
	__attribute__((used, section(".modinfo"), aligned(1))) = str

MARKER_REC(mk1, "acme_cmd_submit\0id %u len %u");
MARKER_REC(mk2, "acme_irq\0");				/* MARK_NOARGS */
MARKER_REC(mk3, "acme_cmd_submit\0id %u len %u");	/* second call site */
MARKER_REC(mk4, "acme_cmd_done\0id %u status %d");
MODINFO(mi1, "license=Proprietary");
MODINFO(mi2, "name=acme_xa");
MODINFO(mi3, "vermagic=6.1.0 SMP mod_unload");

extern int acme_hw_kick(int id);

int acme_submit(int id, int len)
{
	return acme_hw_kick(id) * 3 + len;
}
