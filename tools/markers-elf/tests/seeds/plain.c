/* Seed: markers but no .modinfo (module name comes from the file name). */
#define MARKER_REC(var, str)						\
	static const char var[]						\
	__attribute__((used, section("__markers_strings"), aligned(1))) = str

MARKER_REC(mk1, "plain_start\0cpu %d");
MARKER_REC(mk2, "plain_stop\0");

int plain_fn(int x)
{
	return x + 1;
}
