#ifndef LAYOUTBENCH_CCALLGRIND_SHIM_H
#define LAYOUTBENCH_CCALLGRIND_SHIM_H

// Callgrind's client requests as functions Swift can call: valgrind's header implements them as
// macros of inline assembly, which Swift does not import. Header-only (static inline), so no C
// object is compiled: valgrind 3.19 cannot read the DWARF 5 debug information clang would give
// it. Without valgrind's headers at build time every function is a no-op and
// `lb_callgrind_is_supported` returns 0, so the package still builds.

#if defined(__linux__)
#include <sys/personality.h>
#endif

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define LB_CALLGRIND_SUPPORTED 1
#else
#define LB_CALLGRIND_SUPPORTED 0
#endif

/// 1 when this build has valgrind's client requests (its headers were installed), else 0.
static inline int lb_callgrind_is_supported(void) { return LB_CALLGRIND_SUPPORTED; }

/// The number of valgrind layers the process runs under: 0 natively.
static inline unsigned lb_running_on_valgrind(void) {
#if LB_CALLGRIND_SUPPORTED
  return RUNNING_ON_VALGRIND;
#else
  return 0;
#endif
}

/// Sets the event counters of every cost centre to zero.
static inline void lb_callgrind_zero_stats(void) {
#if LB_CALLGRIND_SUPPORTED
  CALLGRIND_ZERO_STATS;
#endif
}

/// Switches instrumentation on (it starts off with valgrind's `--instr-atstart=no`).
static inline void lb_callgrind_start_instrumentation(void) {
#if LB_CALLGRIND_SUPPORTED
  CALLGRIND_START_INSTRUMENTATION;
#endif
}

/// Switches instrumentation off.
static inline void lb_callgrind_stop_instrumentation(void) {
#if LB_CALLGRIND_SUPPORTED
  CALLGRIND_STOP_INSTRUMENTATION;
#endif
}

/// Writes the counters to a new dump file whose `desc: Trigger:` line names `label`, then zeroes
/// them.
static inline void lb_callgrind_dump_stats(const char *label) {
#if LB_CALLGRIND_SUPPORTED
  CALLGRIND_DUMP_STATS_AT(label);
#else
  (void)label;
#endif
}

/// Runs a valgrind monitor command from inside the program, as `vgdb` would from outside (for
/// massif, `detailed_snapshot FILE`). Returns 0 when the tool ran it, 1 when it does not know it;
/// 0 natively and in a build without valgrind's headers, where it does nothing.
static inline unsigned lb_valgrind_monitor_command(const char *command) {
#if LB_CALLGRIND_SUPPORTED
  return VALGRIND_MONITOR_COMMAND(command);
#else
  (void)command;
  return 0;
#endif
}

/// Turns address-space randomization off for the programs this process starts (as `setarch
/// -R`), so a run under callgrind lays memory out the same way every time. Returns 0, or -1 when
/// the kernel refuses.
static inline int lb_disable_address_randomization(void) {
#if defined(__linux__)
  int current = personality(0xffffffff);
  if (current == -1) return -1;
  return personality((unsigned long)current | ADDR_NO_RANDOMIZE) == -1 ? -1 : 0;
#else
  return -1;
#endif
}

#endif
