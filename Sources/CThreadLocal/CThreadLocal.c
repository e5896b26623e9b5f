#include "CThreadLocal.h"

__attribute__((tls_model("initial-exec"))) _Thread_local void *layoutbench_item_table = 0;
