/* Seed: a linked executable (ET_EXEC with -no-pie, ET_DYN with -pie). */
#define MARKER_REC(var, str)						\
	static const char var[]						\
	__attribute__((used, section("__markers_strings"), aligned(1))) = str

MARKER_REC(mk1, "sched_switch\0prev %d next %d");
MARKER_REC(mk2, "kernel_idle\0");

int main(void)
{
	return 0;
}
