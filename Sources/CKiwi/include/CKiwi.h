#ifndef LAYOUTBENCH_CKIWI_H
#define LAYOUTBENCH_CKIWI_H

// A C interface to kiwi, the C++ Cassowary solver that kiwisolver (matplotlib, enaml) ships, so
// that the harness can run it in process as one more solver strategy without C++ interop in the
// Swift modules. kiwi is not vendored: `scripts/peers/kiwi-peer install` places its headers under
// .build-peers/kiwi/include, and this target compiles with or without them (without them,
// ckiwi_is_available() is false and ckiwi_make() returns NULL).
//
// Variables and constraints are named by the caller's small non-negative integer ids. No
// function lets a C++ exception escape: failures are returned as a CKiwiStatus.

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One kiwi solver with its variables and constraints by id.
typedef struct CKiwiSolver CKiwiSolver;

/// What an operation did.
typedef enum CKiwiStatus {
  CKIWI_OK = 0,
  /// A required constraint cannot hold with the others (kiwi's UnsatisfiableConstraint).
  CKIWI_UNSATISFIABLE = 1,
  /// The constraint id or edit variable is already in the solver.
  CKIWI_DUPLICATE = 2,
  /// The constraint id or edit variable is not in the solver.
  CKIWI_UNKNOWN = 3,
  /// An edit variable's strength was kiwi's required.
  CKIWI_REQUIRED_EDIT = 4,
  /// kiwi failed in another way (an internal error or memory); the message says what.
  CKIWI_INTERNAL_ERROR = 5,
} CKiwiStatus;

/// How a constraint's expression compares with zero.
typedef enum CKiwiRelation {
  CKIWI_LESS_THAN_OR_EQUAL = -1,
  CKIWI_EQUAL = 0,
  CKIWI_GREATER_THAN_OR_EQUAL = 1,
} CKiwiRelation;

/// Whether kiwi's headers were found when this target was compiled.
bool ckiwi_is_available(void);
/// kiwi's version ("1.5.1"), or "" when unavailable.
const char *ckiwi_version(void);
/// kiwi's strength of a required constraint.
double ckiwi_required_strength(void);

/// A new, empty solver; NULL when kiwi is unavailable.
CKiwiSolver *ckiwi_make(void);
/// Frees `solver` (NULL is allowed).
void ckiwi_free(CKiwiSolver *solver);

/// Adds constraint `id`: sum(coefficients[i] * variables[i]) + constant, compared with 0 by
/// `relation`, held at `strength` (kiwi's required or less). On failure the solver holds what
/// it held before, apart from kiwi's internal bookkeeping.
CKiwiStatus ckiwi_add_constraint(
    CKiwiSolver *solver, int32_t id, const int32_t *variables, const double *coefficients,
    int32_t count, double constant, CKiwiRelation relation, double strength);
/// Removes constraint `id`.
CKiwiStatus ckiwi_remove_constraint(CKiwiSolver *solver, int32_t id);
/// Makes `variable` an edit variable at `strength` (less than required).
CKiwiStatus ckiwi_add_edit_variable(CKiwiSolver *solver, int32_t variable, double strength);
/// Stops editing `variable`.
CKiwiStatus ckiwi_remove_edit_variable(CKiwiSolver *solver, int32_t variable);
/// Suggests `value` for the edit variable `variable`.
CKiwiStatus ckiwi_suggest_value(CKiwiSolver *solver, int32_t variable, double value);
/// Copies the solution into the variables (kiwi's updateVariables): what ckiwi_value reads.
void ckiwi_update_variables(CKiwiSolver *solver);
/// The value of `variable` as of the last ckiwi_update_variables (0 for one never mentioned).
double ckiwi_value(const CKiwiSolver *solver, int32_t variable);
/// Removes every constraint and edit variable.
void ckiwi_reset(CKiwiSolver *solver);
/// The message of the last CKIWI_INTERNAL_ERROR ("" if none).
const char *ckiwi_last_error(const CKiwiSolver *solver);

#ifdef __cplusplus
}
#endif

#endif
