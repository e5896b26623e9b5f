#ifndef LAYOUTBENCH_CJEMALLOC_SHIM_H
#define LAYOUTBENCH_CJEMALLOC_SHIM_H

// Debian's libjemalloc-dev builds jemalloc without a symbol prefix, so linking it replaces the
// process's malloc, and `mallctl` reads the statistics of the allocator Swift really uses.
#include <jemalloc/jemalloc.h>

#endif
