/* Seed: an object without a __markers_strings section. */
int nomarkers_fn(int x)
{
	return x * 2;
}
