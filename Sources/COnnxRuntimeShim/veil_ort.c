/* Compiles the table's layout checks (include/veil_ort.h); nothing else. */
#include "veil_ort.h"
