// Thread-local slots for Swift, which has no thread-local storage of its own: a
// `pthread_getspecific` call costs some 17 instructions and a lazily made key a `swift_once`
// more, where a `_Thread_local` read is one load. The model reads its item table here on every
// view it makes and every view that goes.
#ifndef CTHREADLOCAL_H
#define CTHREADLOCAL_H

// Initial-exec: the slot is read relative to the thread pointer, with no call, as a module
// linked into the program (not loaded later with dlopen) may.
extern __attribute__((tls_model("initial-exec"))) _Thread_local void *layoutbench_item_table;

/// The calling thread's item table (an unretained `ItemTable`), or NULL before its first item.
static inline void *layoutbench_current_item_table(void) { return layoutbench_item_table; }

/// Sets the calling thread's item table.
static inline void layoutbench_set_current_item_table(void *table) {
  layoutbench_item_table = table;
}

#endif
