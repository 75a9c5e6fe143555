/* Seed: two __markers_strings sections (one in a COMDAT group). */
	.section __markers_strings,"a",@progbits
	.ascii "multi_a\0fmt %d\0"
	.section __markers_strings,"aG",@progbits,multi_grp,comdat
	.ascii "multi_b\0\0multi_a\0fmt %d\0"
