// The C interface of CKiwi.h over kiwi's C++ solver. Every entry point catches kiwi's
// exceptions: C++ exceptions must not unwind through Swift frames.

#include "CKiwi.h"

#if __has_include(<kiwi/kiwi.h>)
#define CKIWI_HAS_KIWI 1
#include <exception>
#include <kiwi/kiwi.h>
#include <string>
#include <vector>
#endif

#ifdef CKIWI_HAS_KIWI

struct CKiwiSolver {
  kiwi::Solver solver;
  /// kiwi variables by our variable id (a default kiwi::Variable is a new variable).
  std::vector<kiwi::Variable> variables;
  /// kiwi constraints by our constraint id; an empty handle is no constraint.
  std::vector<kiwi::Constraint> constraints;
  std::string lastError;

  kiwi::Variable &variable(int32_t id) {
    size_t index = static_cast<size_t>(id);
    if (index >= variables.size()) variables.resize(index + 1);
    return variables[index];
  }

  CKiwiStatus internal(const std::exception &error) {
    lastError = error.what();
    return CKIWI_INTERNAL_ERROR;
  }
};

extern "C" {

bool ckiwi_is_available(void) { return true; }

const char *ckiwi_version(void) { return KIWI_VERSION; }

double ckiwi_required_strength(void) { return kiwi::strength::required; }

CKiwiSolver *ckiwi_make(void) {
  try {
    return new CKiwiSolver();
  } catch (...) {
    return nullptr;
  }
}

void ckiwi_free(CKiwiSolver *solver) { delete solver; }

CKiwiStatus ckiwi_add_constraint(
    CKiwiSolver *solver, int32_t id, const int32_t *variables, const double *coefficients,
    int32_t count, double constant, CKiwiRelation relation, double strength) {
  try {
    size_t index = static_cast<size_t>(id);
    if (index < solver->constraints.size() && !!solver->constraints[index]) {
      return CKIWI_DUPLICATE;
    }
    std::vector<kiwi::Term> terms;
    terms.reserve(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; i++) {
      terms.emplace_back(solver->variable(variables[i]), coefficients[i]);
    }
    kiwi::RelationalOperator op =
        relation == CKIWI_EQUAL ? kiwi::OP_EQ
        : relation == CKIWI_LESS_THAN_OR_EQUAL ? kiwi::OP_LE
                                               : kiwi::OP_GE;
    kiwi::Constraint constraint(kiwi::Expression(std::move(terms), constant), op, strength);
    solver->solver.addConstraint(constraint);
    if (index >= solver->constraints.size()) solver->constraints.resize(index + 1);
    solver->constraints[index] = constraint;
    return CKIWI_OK;
  } catch (const kiwi::UnsatisfiableConstraint &) {
    return CKIWI_UNSATISFIABLE;
  } catch (const kiwi::DuplicateConstraint &) {
    return CKIWI_DUPLICATE;
  } catch (const std::exception &error) {
    return solver->internal(error);
  }
}

CKiwiStatus ckiwi_remove_constraint(CKiwiSolver *solver, int32_t id) {
  try {
    size_t index = static_cast<size_t>(id);
    if (index >= solver->constraints.size() || !solver->constraints[index]) {
      return CKIWI_UNKNOWN;
    }
    solver->solver.removeConstraint(solver->constraints[index]);
    solver->constraints[index] = kiwi::Constraint();
    return CKIWI_OK;
  } catch (const kiwi::UnknownConstraint &) {
    return CKIWI_UNKNOWN;
  } catch (const std::exception &error) {
    return solver->internal(error);
  }
}

CKiwiStatus ckiwi_add_edit_variable(CKiwiSolver *solver, int32_t variable, double strength) {
  try {
    solver->solver.addEditVariable(solver->variable(variable), strength);
    return CKIWI_OK;
  } catch (const kiwi::DuplicateEditVariable &) {
    return CKIWI_DUPLICATE;
  } catch (const kiwi::BadRequiredStrength &) {
    return CKIWI_REQUIRED_EDIT;
  } catch (const std::exception &error) {
    return solver->internal(error);
  }
}

CKiwiStatus ckiwi_remove_edit_variable(CKiwiSolver *solver, int32_t variable) {
  try {
    solver->solver.removeEditVariable(solver->variable(variable));
    return CKIWI_OK;
  } catch (const kiwi::UnknownEditVariable &) {
    return CKIWI_UNKNOWN;
  } catch (const std::exception &error) {
    return solver->internal(error);
  }
}

CKiwiStatus ckiwi_suggest_value(CKiwiSolver *solver, int32_t variable, double value) {
  try {
    solver->solver.suggestValue(solver->variable(variable), value);
    return CKIWI_OK;
  } catch (const kiwi::UnknownEditVariable &) {
    return CKIWI_UNKNOWN;
  } catch (const std::exception &error) {
    return solver->internal(error);
  }
}

void ckiwi_update_variables(CKiwiSolver *solver) { solver->solver.updateVariables(); }

double ckiwi_value(const CKiwiSolver *solver, int32_t variable) {
  size_t index = static_cast<size_t>(variable);
  if (index >= solver->variables.size()) return 0;
  return solver->variables[index].value();
}

void ckiwi_reset(CKiwiSolver *solver) {
  solver->solver.reset();
  solver->constraints.clear();
}

const char *ckiwi_last_error(const CKiwiSolver *solver) { return solver->lastError.c_str(); }

}  // extern "C"

#else  // kiwi's headers are not installed: every entry point says so.

extern "C" {

bool ckiwi_is_available(void) { return false; }
const char *ckiwi_version(void) { return ""; }
double ckiwi_required_strength(void) { return 1001001000.0; }
CKiwiSolver *ckiwi_make(void) { return nullptr; }
void ckiwi_free(CKiwiSolver *) {}
CKiwiStatus ckiwi_add_constraint(
    CKiwiSolver *, int32_t, const int32_t *, const double *, int32_t, double, CKiwiRelation,
    double) {
  return CKIWI_INTERNAL_ERROR;
}
CKiwiStatus ckiwi_remove_constraint(CKiwiSolver *, int32_t) { return CKIWI_INTERNAL_ERROR; }
CKiwiStatus ckiwi_add_edit_variable(CKiwiSolver *, int32_t, double) {
  return CKIWI_INTERNAL_ERROR;
}
CKiwiStatus ckiwi_remove_edit_variable(CKiwiSolver *, int32_t) { return CKIWI_INTERNAL_ERROR; }
CKiwiStatus ckiwi_suggest_value(CKiwiSolver *, int32_t, double) { return CKIWI_INTERNAL_ERROR; }
void ckiwi_update_variables(CKiwiSolver *) {}
double ckiwi_value(const CKiwiSolver *, int32_t) { return 0; }
void ckiwi_reset(CKiwiSolver *) {}
const char *ckiwi_last_error(const CKiwiSolver *) { return "kiwi is not installed"; }

}  // extern "C"

#endif
