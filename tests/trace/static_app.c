// A statically linked program for the trace tests: the dynamic linker never
// runs, so nothing of Strata's can reach it, and `strata trace` must say so.
int main(void) { return 0; }
